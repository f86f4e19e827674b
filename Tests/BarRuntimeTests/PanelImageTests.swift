import BarCore
@testable import BarRuntime
import Foundation
import SnapshotCodec
import XCTest

/// `--output png:FILE` in-process: the panel drawn once (`--once`) into the file, against the
/// golden pictures of Tests/BarCoreTests/Golden, byte for byte. (Python's decoding of them,
/// every update replacing the file atomically under a reader, and genmon: BarPanelTests, the
/// program.)
final class PanelImageTests: RuntimeDirectoryHarness {
    /// `--once` into `png:FILE` with `arguments`: the status, stderr and the file's bytes.
    func pngOnce(_ file: String, _ arguments: [String] = []) throws -> (status: Int32, stderr: String, png: Data?) {
        let options = try runOptions(["--once", "--output", "png:" + file] + arguments).options
        var b = Bar(options: options, runtimeDir: Array(directory.path.utf8),
                    sink: PNGFileSink(path: Array(file.utf8), width: options.width, height: options.height))
        let (status, stderr) = capturingStderr { b.runOnce() }
        return (status, stderr, FileManager.default.contents(atPath: file))
    }

    func testOnceWritesTheGoldenPictureAndNothingElse() throws {
        try publishFixture("desktop")
        let out = directory.appendingPathComponent("panel.png").path
        let result = try pngOnce(out)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.png, try golden("desktop-bars"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted(), ["panel.png", "snapshot"],
                       "no temporary file left")
    }

    func testTheSizeOptionSizesThePicture() throws {
        try publishFixture("desktop")
        let out = directory.appendingPathComponent("big.png").path
        let result = try pngOnce(out, ["--size", "320x100"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.png, try golden("desktop-320x100-bars"))
    }

    func testAMissingSnapshotDrawsTheNotRunningPictureAndReturnsOne() throws {
        let out = directory.appendingPathComponent("panel.png").path
        let result = try pngOnce(out)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.png, try golden("not-running"))
    }

    func testAPictureInAMissingDirectoryFailsWithOneLineNamingItAndWhy() throws {
        try publishFixture("desktop")
        let out = directory.path + "/no/such/dir/panel.png"
        let result = try pngOnce(out)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "sysstats-bar: cannot write the panel image \(out): No such file or directory\n")
    }
}

extension RuntimeDirectoryHarness {
    /// Tests/BarCoreTests/Golden: the fixture snapshots and the pictures drawn of them.
    static var goldenFolder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("BarCoreTests/Golden")
    }

    /// The golden fixture snapshot `name`, taken now so that it is current.
    func publishFixture(_ name: String) throws {
        let data = try Data(contentsOf: Self.goldenFolder.appendingPathComponent("\(name).snapshot"))
        var s = try data.withUnsafeBytes { raw in try Result { () throws(SnapshotDecodeError) in try Snapshot.decode(raw) }.get() }
        s.timestampMs = nowMs()
        var bytes: [UInt8] = []
        s.encode(into: &bytes)
        try Data(bytes).write(to: directory.appendingPathComponent("snapshot"), options: .atomic)
    }

    /// The golden picture `panel-NAME.png`.
    func golden(_ name: String) throws -> Data { try Data(contentsOf: Self.goldenFolder.appendingPathComponent("panel-\(name).png")) }
}
