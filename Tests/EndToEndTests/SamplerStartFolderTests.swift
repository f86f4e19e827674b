import Foundation
import SnapshotCodec
import XCTest
import TestSupport

/// sysstatsd does not stay in the folder it was started in (issue 59): its children started
/// there, and a library another user put in `/tmp` was loaded through an empty
/// LD_LIBRARY_PATH entry. Relative paths on its command line still mean that folder, across
/// the re-execution a config change makes too.
final class SamplerStartFolderTests: XCTestCase {
    var directory: TemporaryDirectory!
    override func setUpWithError() throws { directory = try TemporaryDirectory("start-folder") }
    override func tearDownWithError() throws { directory = nil }

    var runtime: URL { directory.url.appendingPathComponent("run") }

    func writeConfig(_ text: String) throws {
        let folder = directory.url.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: folder.appendingPathComponent(".edit"))
        XCTAssertEqual(rename(folder.appendingPathComponent(".edit").path, folder.appendingPathComponent("sysstats.toml").path), 0)
    }

    /// The snapshot in `run` once its interval is `ms`, waiting up to 5 s.
    func waitForInterval(_ ms: UInt32) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if let data = try? Data(contentsOf: runtime.appendingPathComponent("snapshot")),
               let s = try? [UInt8](data).withUnsafeBytes({ try Snapshot.decode($0) }), s.intervalMs == ms { return true }
            usleep(20_000)
        }
        return false
    }

    func testTheSamplerWorksFromTheRootAndItsRelativePathsStillMeanTheStartFolderAfterAReload() throws {
        try writeConfig("[sampler]\ninterval = 0.2\n")
        let tree = Fixtures.root.appendingPathComponent("sampler-desktop/2")
        let log = directory.url.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Programs.path("sysstatsd"))
        process.currentDirectoryURL = directory.url
        process.arguments = ["--config", "config/sysstats.toml", "--runtime-dir=run", "--no-history",
                             "--proc-root", tree.appendingPathComponent("proc").path,
                             "--sys-root", tree.appendingPathComponent("sys").path]
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        addTeardownBlock { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        let stderr = { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

        XCTAssertTrue(waitForInterval(200), "the relative runtime directory and config file, from the start folder: \(stderr())")
        let cwd = "/proc/\(process.processIdentifier)/cwd"
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: cwd), "/", "the start folder is left")
        try writeConfig("[sampler]\ninterval = 0.1\n")
        XCTAssertTrue(waitForInterval(100), "the re-executed sampler found both paths again: \(stderr())")
        XCTAssertTrue(process.isRunning, stderr())
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: cwd), "/")
    }
}
