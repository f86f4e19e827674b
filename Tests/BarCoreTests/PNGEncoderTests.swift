import BarCore
import Foundation
import XCTest

/// The deflate encoder on pictures chosen for its paths: noise (literals, stored
/// fallback), one colour and repeated rows (run and row-above matches), tiny and
/// the largest size (block boundaries), each decoded by our reader and by Python's zlib.
final class PNGEncoderTests: XCTestCase {
    /// A reproducible xorshift: the same "random" pictures on every run.
    struct Noise {
        var state: UInt64
        mutating func next() -> UInt32 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt32(truncatingIfNeeded: state >> 8) & 0xFF_FFFF
        }
    }

    static func noise(_ w: Int, _ h: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> PanelImage {
        var image = PanelImage(width: w, height: h)
        var n = Noise(state: seed)
        for y in 0..<h { for x in 0..<w { image.set(x: x, y: y, n.next()) } }
        return image
    }

    /// Every row the same sequence of short coloured stripes (and a noisy first row): rows repeat.
    static func repeatedRows(_ w: Int, _ h: Int) -> PanelImage {
        var image = PanelImage(width: w, height: h)
        var n = Noise(state: 42)
        var row: [UInt32] = []
        for x in 0..<w {
            let stripe = UInt32(truncatingIfNeeded: x / 5) &* 0x03_0507
            row.append(x % 7 == 0 ? n.next() : stripe & 0xFF_FFFF)
        }
        for y in 0..<h { for x in 0..<w { image.set(x: x, y: y, y == 0 ? n.next() : row[x]) } }
        return image
    }

    /// Encodes, checks the file fits the buffer and decodes (ours and Python's) to the pixels.
    @discardableResult
    func encodeAndCheck(_ image: PanelImage, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> StoredPNG {
        var encoder = PNGEncoder(width: image.width, height: image.height)
        encoder.encode(image)
        XCTAssertLessThanOrEqual(encoder.count, PNGEncoder.capacity(width: image.width, height: image.height), name,
                                 file: file, line: line)
        let bytes = encoder.bytes
        XCTAssertEqual(encoder.withBytes { Array($0) }, bytes, name, file: file, line: line)
        let ours = try StoredPNG(bytes)
        XCTAssertEqual([ours.width, ours.height], [image.width, image.height], name, file: file, line: line)
        XCTAssertTrue(ours.pixels == image.pixels, "\(name): our reader decodes the pixels", file: file, line: line)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("png-\(getpid())-\(name).png")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let python = try decodePNGWithPython(url.path)
        XCTAssertEqual([python.width, python.height], [image.width, image.height], name, file: file, line: line)
        XCTAssertTrue(python.pixels == image.pixels, "\(name): Python's zlib decodes the pixels", file: file, line: line)
        // Encoding again into the same buffer gives the same file (nothing left over from before).
        encoder.encode(image)
        XCTAssertEqual(encoder.bytes, bytes, name, file: file, line: line)
        return ours
    }

    func testNoiseFallsBackToStoredBlocksAndStaysNearTheStoredSize() throws {
        for (w, h) in [(180, 56), (1024, 256), (64, 24)] {
            let png = try encodeAndCheck(Self.noise(w, h), "noise-\(w)x\(h)")
            XCTAssertTrue(png.blockTypes.contains(0), "noise \(w)x\(h) is stored: \(png.blockTypes)")
        }
        var encoder = PNGEncoder(width: 1024, height: 256)
        encoder.encode(Self.noise(1024, 256))
        let raw = 256 * (1 + 3 * 1024)
        XCTAssertLessThan(encoder.count, raw + raw / 100, "noise costs at most 1 % over the raw rows")
    }

    func testOneColourIsRunsAndRowMatchesAndTiny() throws {
        for colour: UInt32 in [0, 0xFF_FFFF, 0x12_3456] {
            let image = PanelImage(width: 1024, height: 256, color: colour)
            let png = try encodeAndCheck(image, "flat-\(colour)")
            XCTAssertEqual(Set(png.blockTypes), [1], "fixed Huffman throughout")
            var encoder = PNGEncoder(width: 1024, height: 256)
            encoder.encode(image)
            XCTAssertLessThan(encoder.count, 6_000, "786 KB of one colour: 258-byte runs")
        }
    }

    func testOnePixelAndOneRowAndOneColumn() throws {
        try encodeAndCheck(PanelImage(width: 1, height: 1, color: 0xAB_CDEF), "1x1")
        try encodeAndCheck(Self.noise(1, 1), "1x1-noise")
        try encodeAndCheck(Self.noise(7, 3), "7x3-noise")
        try encodeAndCheck(Self.noise(1, 300), "1x300-noise")
        try encodeAndCheck(Self.repeatedRows(1, 300), "1x300-rows")
        try encodeAndCheck(Self.noise(1024, 1), "1024x1-noise")
        try encodeAndCheck(PanelImage(width: 2, height: 2, color: 0x80_8080), "2x2")
    }

    func testRepeatedRowsMatchTheRowAboveAcrossBlockBoundaries() throws {
        // 1024x256 is 786,688 raw bytes: 5 rows per 16 KB block, 52 blocks.
        for (w, h) in [(1024, 256), (180, 56), (320, 100), (5_461, 7)] {
            let image = Self.repeatedRows(w, h)
            let png = try encodeAndCheck(image, "rows-\(w)x\(h)")
            XCTAssertEqual(png.blockTypes.last, 1, "the repeated rows compress")
            var encoder = PNGEncoder(width: w, height: h)
            encoder.encode(image)
            XCTAssertLessThan(encoder.count, h * (1 + 3 * w) / 4, "rows-\(w)x\(h)")
        }
    }

    func testHalfNoiseHalfFlatMixesStoredAndCompressedBlocks() throws {
        var image = Self.noise(1024, 256)
        for y in 128..<256 { for x in 0..<1024 { image.set(x: x, y: y, 0x33_6699) } }
        let png = try encodeAndCheck(image, "half")
        XCTAssertEqual(png.blockTypes.first, 0)
        XCTAssertEqual(png.blockTypes.last, 1)
    }

    func testRowsLongerThanTheWindowAndAStoredBlock() throws {
        // 1 + 3 × 22,000 bytes a row: no row-above distance (beyond 32 KiB), stored rows split at 65,535.
        try encodeAndCheck(Self.noise(22_000, 2), "wide-noise")
        try encodeAndCheck(PanelImage(width: 22_000, height: 2, color: 0x010203), "wide-flat")
    }

    func testImageOfAnotherSizeIsCroppedOrPaddedWithBlack() throws {
        let image = Self.noise(10, 10)
        var encoder = PNGEncoder(width: 12, height: 8)
        encoder.encode(image)
        let png = try StoredPNG(encoder.bytes)
        XCTAssertEqual([png.width, png.height], [12, 8])
        for y in 0..<8 {
            for x in 0..<12 { XCTAssertEqual(png.pixels[y * 12 + x], x < 10 ? image[x, y] : 0, "\(x),\(y)") }
        }
    }

    func testFileCallsItAPNG() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/file") else { throw XCTSkip("no file(1)") }
        var encoder = PNGEncoder(width: 180, height: 56)
        encoder.encode(Self.repeatedRows(180, 56))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("png-\(getpid())-file.png")
        try Data(encoder.bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/file")
        process.arguments = ["-b", url.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertTrue(out.hasPrefix("PNG image data, 180 x 56, 8-bit/color RGB, non-interlaced"), out)
    }
}
