import Foundation
import SnapshotCodec
import XCTest
import TestSupport

/// A running sampler takes `[sampler]` changes without being restarted by hand: an edit of
/// the config file (seen by inotify) or SIGHUP starts it again in place with the new
/// settings; a mistake in the file keeps the running settings and says why.
final class SamplerReloadTests: XCTestCase {
    var directory: TemporaryDirectory!
    override func setUpWithError() throws { directory = try TemporaryDirectory("reload") }
    override func tearDownWithError() throws { directory = nil }

    var runtime: URL { directory.url.appendingPathComponent("run") }
    var configFile: URL { directory.url.appendingPathComponent("config/sysstats.toml") }

    /// Writes the config file as an editor does: a new file renamed over the old.
    func writeConfig(_ text: String) throws {
        try FileManager.default.createDirectory(at: configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temporary = configFile.deletingLastPathComponent().appendingPathComponent(".edit")
        try Data(text.utf8).write(to: temporary)
        XCTAssertEqual(rename(temporary.path, configFile.path), 0)
    }

    func startSampler(stderr: URL) throws -> Process {
        let tree = Fixtures.root.appendingPathComponent("sampler-desktop/2")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Programs.path("sysstatsd"))
        process.arguments = ["--config", configFile.path, "--runtime-dir", runtime.path, "--no-history",
                             "--proc-root", tree.appendingPathComponent("proc").path,
                             "--sys-root", tree.appendingPathComponent("sys").path]
        FileManager.default.createFile(atPath: stderr.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: stderr)
        try process.run()
        addTeardownBlock { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        return process
    }

    /// The snapshot's interval once it is `ms`, waiting up to `seconds`; nil if it never is.
    func waitForInterval(_ ms: UInt32, seconds: Double) -> Snapshot? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let data = try? Data(contentsOf: runtime.appendingPathComponent("snapshot")),
               let s = try? [UInt8](data).withUnsafeBytes({ try Snapshot.decode($0) }), s.intervalMs == ms { return s }
            usleep(20_000)
        }
        return nil
    }

    func text(_ url: URL) -> String { (try? String(contentsOf: url, encoding: .utf8)) ?? "" }

    func testAnEditedSamplerTableStartsTheSamplerAgainInPlaceWithTheNewSettings() throws {
        try writeConfig("[sampler]\ninterval = 0.2\n")
        let log = directory.url.appendingPathComponent("stderr")
        let sampler = try startSampler(stderr: log)
        XCTAssertNotNil(waitForInterval(200, seconds: 5), "the file's interval at start: \(text(log))")
        try writeConfig("[sampler]\ninterval = 0.1\n")
        XCTAssertNotNil(waitForInterval(100, seconds: 5), "the edited interval, without a restart by hand: \(text(log))")
        XCTAssertTrue(sampler.isRunning, "the same process (pid \(sampler.processIdentifier)) runs on")
        XCTAssertTrue(text(log).contains("sysstatsd: the [sampler] settings changed"), text(log))
        // A table of the bar's only: the sampler's settings are the same, nothing happens.
        try writeConfig("[sampler]\ninterval = 0.1\n\n[theme]\nseparator = \" · \"\n")
        usleep(500_000)
        XCTAssertEqual(text(log).components(separatedBy: "settings changed").count - 1, 1, text(log))
    }

    func testSIGHUPWithAMistakeInTheFileKeepsTheRunningSettingsAndSaysWhere() throws {
        try writeConfig("[sampler]\ninterval = 0.2\n")
        let log = directory.url.appendingPathComponent("stderr")
        let sampler = try startSampler(stderr: log)
        XCTAssertNotNil(waitForInterval(200, seconds: 5), text(log))
        // Written in place (no rename) and then SIGHUP, as a user who edits and signals.
        try Data("[sampler]\ninterval = \"fast\"\n".utf8).write(to: configFile)
        kill(sampler.processIdentifier, SIGHUP)
        let deadline = Date().addingTimeInterval(5)
        while !text(log).contains("keeping the running settings") && Date() < deadline { usleep(20_000) }
        XCTAssertTrue(sampler.isRunning, "SIGHUP does not stop it")
        let line = try XCTUnwrap(text(log).split(separator: "\n").first { $0.contains("keeping the running settings") }, text(log))
        XCTAssertTrue(line.contains("sysstats.toml:2:"), "the file and line: \(line)")
        XCTAssertNotNil(waitForInterval(200, seconds: 2), "still sampling with the running settings")
        try writeConfig("[sampler]\ninterval = 0.1\n")
        XCTAssertNotNil(waitForInterval(100, seconds: 5), "fixed: taken")
    }
}
