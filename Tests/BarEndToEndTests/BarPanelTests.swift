import Foundation
import SnapshotCodec
import XCTest

/// The release sysstats-bar's image outputs: png:FILE and genmon, against the
/// golden pictures of Tests/BarCoreTests/Golden, decoded by scripts/decode-png.py
/// (Python's zlib and struct: an independent decoder). (`--size`, the stale picture, a
/// missing directory: PanelImageTests; genmon's clicks, refusals and stale run: GenmonTests,
/// in-process.)
final class BarPanelTests: XCTestCase {
    static let golden = BarProcess.packageRoot.appendingPathComponent("Tests/BarCoreTests/Golden")

    /// A golden fixture snapshot (`desktop`, `laptop`), taken now so that it is current.
    func currentFixture(_ name: String) throws -> Snapshot {
        let data = try Data(contentsOf: Self.golden.appendingPathComponent("\(name).snapshot"))
        var s = try data.withUnsafeBytes { raw in try Result { () throws(SnapshotDecodeError) in try Snapshot.decode(raw) }.get() }
        s.timestampMs = realtimeMs()
        return s
    }

    /// Runs sysstats-bar to completion; its exit status and stdout.
    func run(_ arguments: [String]) throws -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try BarProcess.binary())
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// scripts/decode-png.py's output for `path`: "W H", then one hex RGB line per row.
    func decoded(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", BarProcess.packageRoot.appendingPathComponent("scripts/decode-png.py").path, path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "python could not decode \(path)", file: file, line: line)
        return String(decoding: data, as: UTF8.self)
    }

    func goldenPicture(_ name: String) -> String { Self.golden.appendingPathComponent("panel-\(name).png").path }

    func testPNGOnceWritesTheGoldenPictureThatPythonDecodesToTheSamePixels() throws {
        let dir = try RuntimeDir()
        try dir.publish(currentFixture("desktop"))
        let out = dir.url.appendingPathComponent("panel.png").path
        let result = try run(["--output", "png:\(out)", "--runtime-dir", dir.path, "--once"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdout, "", "the picture goes to the file only")
        let pixels = try decoded(out)
        XCTAssertTrue(pixels.hasPrefix("180 56\n"))
        XCTAssertEqual(pixels, try decoded(goldenPicture("desktop-bars")), "same pixels as the golden picture")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out)), try Data(contentsOf: URL(fileURLWithPath: goldenPicture("desktop-bars"))))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["panel.png", "snapshot"],
                       "no temporary file left")
    }

    func testEveryUpdateReplacesThePNGAtomicallyAndReadersNeverSeeHalfAFile() throws {
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot(sequence: 0))
        let out = dir.url.appendingPathComponent("panel.png").path
        let bar = try BarProcess(["--output", "png:\(out)", "--runtime-dir", dir.path])
        var last: [Int]? = nil
        for sequence in 1...40 {
            try dir.publish(sampleSnapshot(sequence: UInt64(sequence)))
            let deadline = Date().addingTimeInterval(5)
            while fileStamp(out) == last || fileStamp(out) == nil {
                guard Date() < deadline else { XCTFail("no new picture for update \(sequence)"); return }
                // Meanwhile every read sees a whole file: the signature, the size its one IDAT
                // chunk's length says (signature, IHDR, IDAT, IEND), IEND at the end.
                if let data = FileManager.default.contents(atPath: out) {
                    let bytes = [UInt8](data)
                    XCTAssertEqual(Array(bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
                    XCTAssertGreaterThan(bytes.count, 45)
                    if bytes.count > 45 {
                        let idat = bytes[33..<37].reduce(0) { $0 << 8 | Int($1) }
                        XCTAssertEqual(bytes.count, 8 + 25 + 12 + idat + 12)
                    }
                    XCTAssertEqual(Array(bytes.suffix(8)), [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
                }
                usleep(200)
            }
            last = fileStamp(out)
        }
        XCTAssertEqual(bar.stop(), 0)
        XCTAssertTrue(try decoded(out).hasPrefix("180 56\n"))
        // No temporary file left; the folder of the renderers' wants, emptied at exit.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["panel.png", "snapshot", "wants"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path + "/wants"), [])
    }

    func testGenmonPrintsItsTagsWritesThePictureAndExitsZero() throws {
        let dir = try RuntimeDir()
        try dir.publish(currentFixture("desktop"))
        let result = try run(["--output", "genmon", "--runtime-dir", dir.path])
        XCTAssertEqual(result.status, 0)
        let image = dir.url.appendingPathComponent("panel.png").path
        XCTAssertTrue(result.stdout.hasPrefix("<img>\(image)</img><txt></txt><tool>CPU 12% (iowait 1%), load 0.52 0.48 0.40\n"),
                      result.stdout)
        XCTAssertTrue(result.stdout.contains("<b>Top CPU</b>\n  firefox 9.5%</tool>"), result.stdout)
        XCTAssertTrue(result.stdout.hasSuffix(" --output genmon --runtime-dir \(dir.path) --click 1</click>\n"), result.stdout)
        XCTAssertEqual(try decoded(image), try decoded(goldenPicture("desktop-bars")))
        // With --blocks, the text line too, Pango-escaped.
        let withText = try run(["--output", "genmon", "--runtime-dir", dir.path, "--blocks", "cpu,load"])
        XCTAssertTrue(withText.stdout.contains("<txt>cpu 12% ▂▃▄▅▆▇██ | load 0.52 0.48 0.40</txt>"), withText.stdout)
    }
}
