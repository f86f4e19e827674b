import BarCore
import Foundation
import SnapshotCodec
import XCTest

/// One golden panel picture: a snapshot, a size and a graph form.
struct PanelCase {
    var name: String
    var snapshot: Snapshot?
    var width = PanelImage.defaultWidth, height = PanelImage.defaultHeight
    var form = GraphForm.bars
    var message = staleMessage

    /// Nil snapshot: the stale/missing message.
    static let all: [PanelCase] = [
        PanelCase(name: "desktop-bars", snapshot: Fixture.desktop.snapshot),
        PanelCase(name: "desktop-area", snapshot: Fixture.desktop.snapshot, form: .area),
        PanelCase(name: "desktop-numbers", snapshot: Fixture.desktop.snapshot, form: .numbers),
        PanelCase(name: "laptop-bars", snapshot: Fixture.laptop.snapshot),
        PanelCase(name: "low-bars", snapshot: panelLow),
        PanelCase(name: "high-area", snapshot: panelHigh, form: .area),
        PanelCase(name: "stale", snapshot: nil),
        PanelCase(name: "not-running", snapshot: nil, message: notRunningPanelMessage),
        PanelCase(name: "desktop-320x100-bars", snapshot: Fixture.desktop.snapshot, width: 320, height: 100),
        PanelCase(name: "high-64x24-bars", snapshot: panelHigh, width: 64, height: 24),
        PanelCase(name: "high-1024x256-numbers", snapshot: panelHigh, width: 1024, height: 256, form: .numbers),
        PanelCase(name: "station-network", snapshot: SystemBlocksTests.station(), form: .network),
        PanelCase(name: "station-320x100-network", snapshot: SystemBlocksTests.station(), width: 320, height: 100, form: .network),
        PanelCase(name: "desktop-network", snapshot: Fixture.desktop.snapshot, form: .network),
    ]

    /// The picture as the renderer draws it.
    func render() -> PanelImage {
        var r = PanelRenderer(width: width, height: height)
        r.graphForm = form
        if let s = snapshot { r.render(s, nowMs: s.timestampMs + 500) } else { r.renderMessage(message) }
        return r.image
    }

    var url: URL { goldenDirectory.appendingPathComponent("panel-\(name).png") }
}

/// An idle machine: almost everything free, a flat low history of a full 60 points,
/// without an iowait history (as decoded from a v1 snapshot).
let panelLow: Snapshot = {
    var s = Fixture.desktop.snapshot
    s.cpuBusy = 10
    s.cpuIOWait = 0
    s.load1 = 0
    s.memory.free = 15_500_000; s.memory.active = 200_000; s.memory.inactive = 150_000
    s.memory.wired = 100_000; s.memory.other = 50_000
    s.memory.available = 15_700_000; s.memory.used = 300_000
    s.cpuHistory = Array(repeating: 10, count: 60)
    s.iowaitHistory = []
    return s
}()

/// A machine at its limits: memory nearly all used, CPU pegged, 60 points rising to 100 %,
/// 15 % iowait under them until busy leaves no room for it.
let panelHigh: Snapshot = {
    var s = Fixture.laptop.snapshot
    s.cpuBusy = 10_000
    s.cpuIOWait = 1500
    s.load1 = 1234
    s.memory.free = 100_000; s.memory.active = 9_000_000; s.memory.inactive = 1_000_000
    s.memory.wired = 5_000_000; s.memory.other = 900_000
    s.memory.available = 200_000; s.memory.used = 15_800_000
    s.cpuHistory = (0..<60).map { Permyriad(min(10_000, $0 * 200)) }
    s.iowaitHistory = s.cpuHistory.map { min(1500, 10_000 - $0) }
    return s
}()

/// Fixed snapshots → committed panel pictures, compared pixel-exact.
/// `SYSSTATS_UPDATE_GOLDEN=1 swift test --filter PanelGoldenTests` rewrites them from the current code.
final class PanelGoldenTests: XCTestCase {
    func testEachCaseDrawsItsCommittedPicturePixelForPixel() throws {
        for c in PanelCase.all {
            let image = c.render()
            if updatingGolden {
                var encoder = PNGEncoder(width: image.width, height: image.height)
                encoder.encode(image)
                try Data(encoder.bytes).write(to: c.url)
            }
            let golden = try StoredPNG(Array(Data(contentsOf: c.url)))
            XCTAssertEqual([golden.width, golden.height], [c.width, c.height], c.name)
            let mismatch = (0..<image.pixels.count).first { image.pixels[$0] != golden.pixels[$0] }
            XCTAssertNil(mismatch.map { "first differing pixel at x \($0 % c.width), y \($0 / c.width)" }, c.name)
        }
    }

    func testCommittedPicturesDecodeWithPythonToTheRenderedPixels() throws {
        // An independent decoder (zlib + struct): the PNG bytes mean what our encoder meant.
        for c in PanelCase.all where ["desktop-bars", "stale", "high-64x24-bars"].contains(c.name) {
            let decoded = try decodePNGWithPython(c.url.path)
            let image = c.render()
            XCTAssertEqual(decoded.width, image.width, c.name)
            XCTAssertEqual(decoded.height, image.height, c.name)
            XCTAssertEqual(decoded.pixels.count, image.pixels.count, c.name)
            let mismatch = (0..<min(decoded.pixels.count, image.pixels.count)).first { decoded.pixels[$0] != image.pixels[$0] }
            XCTAssertNil(mismatch.map { "first differing pixel at x \($0 % image.width), y \($0 / image.width)" }, c.name)
        }
    }

    func testGoldenPicturesDifferWhereTheyShould() {
        let images = PanelCase.all.map { $0.render().pixels }
        XCTAssertEqual(Set(images).count, images.count, "every case draws a different picture")
    }
}

/// A PNG as our encoder writes it (8-bit RGB, filter 0, stored or fixed-Huffman deflate
/// blocks), read back for the golden comparison; anything else (a dynamic-Huffman block,
/// another filter) is an error, not a guess.
struct StoredPNG {
    struct Unsupported: Error { var what: String }
    var width = 0, height = 0
    var pixels: [UInt32] = []
    /// The deflate block types in stream order (0 stored, 1 fixed Huffman).
    var blockTypes: [Int] = []

    init(_ bytes: [UInt8]) throws {
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { throw Unsupported(what: "signature") }
        func u32(_ i: Int) -> Int { Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]) }
        var pos = 8
        var idat: [UInt8] = []
        while pos + 12 <= bytes.count {
            let n = u32(pos)
            guard pos + 12 + n <= bytes.count else { throw Unsupported(what: "chunk length") }
            let type = String(decoding: bytes[(pos + 4)..<(pos + 8)], as: UTF8.self)
            let body = Array(bytes[(pos + 8)..<(pos + 8 + n)])
            if type == "IHDR" {
                width = u32(pos + 8); height = u32(pos + 12)
                guard body[8...] == [8, 2, 0, 0, 0] else { throw Unsupported(what: "IHDR \(body)") }
            }
            if type == "IDAT" { idat += body }
            pos += 12 + n
        }
        guard pos == bytes.count else { throw Unsupported(what: "trailing bytes") }
        // zlib header, then deflate blocks (RFC 1951), bits least significant first.
        var bit = 16
        func take(_ n: Int) throws -> Int {
            var v = 0
            for i in 0..<n {
                guard bit / 8 < idat.count else { throw Unsupported(what: "truncated deflate") }
                v |= Int(idat[bit / 8] >> (bit % 8) & 1) << i
                bit += 1
            }
            return v
        }
        func huffman(_ n: Int, after code: Int = 0) throws -> Int {
            var c = code
            for _ in 0..<n { c = c << 1 | (try take(1)) }
            return c
        }
        let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
                          131, 163, 195, 227, 258]
        let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
        var raw: [UInt8] = []
        while true {
            let final = try take(1) == 1
            let type = try take(2)
            blockTypes.append(type)
            if type == 0 {
                bit = (bit + 7) / 8 * 8
                let len = try take(16), nlen = try take(16)
                guard len == ~nlen & 0xFFFF, bit / 8 + len <= idat.count else { throw Unsupported(what: "stored length") }
                raw += idat[(bit / 8)..<(bit / 8 + len)]
                bit += 8 * len
            } else if type == 1 {
                while true {
                    // Fixed codes: 7 bits 256-279, 8 bits 0-143 and 280-287, 9 bits 144-255.
                    var symbol: Int
                    let c7 = try huffman(7)
                    if c7 <= 23 {
                        symbol = 256 + c7
                    } else {
                        let c8 = try huffman(1, after: c7)
                        if c8 >= 0x30 && c8 <= 0xBF { symbol = c8 - 0x30 }
                        else if c8 >= 0xC0 && c8 <= 0xC7 { symbol = 280 + c8 - 0xC0 }
                        else { symbol = 144 + (try huffman(1, after: c8)) - 0x190 }
                    }
                    if symbol < 256 { raw.append(UInt8(symbol)); continue }
                    if symbol == 256 { break }
                    guard symbol <= 285 else { throw Unsupported(what: "length symbol \(symbol)") }
                    let length = lengthBase[symbol - 257] + (try take(lengthExtra[symbol - 257]))
                    let d = try huffman(5)
                    guard d < 30 else { throw Unsupported(what: "distance symbol \(d)") }
                    let extra = max(0, d / 2 - 1)
                    var base = 1
                    for k in 0..<d { base += 1 << max(0, k / 2 - 1) }
                    let distance = base + (try take(extra))
                    guard distance <= raw.count, distance <= 32_768 else { throw Unsupported(what: "distance \(distance)") }
                    for _ in 0..<length { raw.append(raw[raw.count - distance]) }
                }
            } else {
                throw Unsupported(what: "deflate block type \(type)")
            }
            if final { break }
        }
        bit = (bit + 7) / 8 * 8
        guard bit / 8 + 4 == idat.count else { throw Unsupported(what: "zlib trailer") }
        var a = 1, b = 0
        for byte in raw { a = (a + Int(byte)) % 65_521; b = (b + a) % 65_521 }
        guard UInt(try take(32)).byteSwapped >> 32 == UInt(b << 16 | a) else { throw Unsupported(what: "Adler-32") }
        let stride = 1 + 3 * width
        guard raw.count == stride * height else { throw Unsupported(what: "length") }
        pixels.reserveCapacity(width * height)
        for y in 0..<height {
            guard raw[y * stride] == 0 else { throw Unsupported(what: "filter") }
            for x in 0..<width {
                let i = y * stride + 1 + 3 * x
                pixels.append(UInt32(raw[i]) << 16 | UInt32(raw[i + 1]) << 8 | UInt32(raw[i + 2]))
            }
        }
    }
}

/// Decodes an 8-bit RGB PNG with scripts/decode-png.py (Python's zlib and struct only:
/// every chunk's CRC and the Adler-32 checked, any of the five row filters undone).
func decodePNGWithPython(_ path: String) throws -> (width: Int, height: Int, pixels: [UInt32]) {
    let script = goldenDirectory.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/decode-png.py")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path, path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, "python3 could not decode \(path)")
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
    guard let first = lines.first else { return (0, 0, []) }
    let size = first.split(separator: " ").compactMap { Int($0) }
    var pixels: [UInt32] = []
    for line in lines.dropFirst() {
        let bytes = Array(line.utf8)
        var i = 0
        while i + 6 <= bytes.count {
            pixels.append(UInt32(String(decoding: bytes[i..<(i + 6)], as: UTF8.self), radix: 16) ?? 0xFFFF_FFFF)
            i += 6
        }
    }
    return (size.first ?? 0, size.count > 1 ? size[1] : 0, pixels)
}
