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

    func startSampler(stderr: URL, program: String? = nil, history: Bool = false) throws -> Process {
        let tree = Fixtures.root.appendingPathComponent("sampler-desktop/2")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try program ?? Programs.path("sysstatsd"))
        let historyArguments = history ? ["--data-dir", directory.url.appendingPathComponent("data").path] : ["--no-history"]
        process.arguments = ["--config", configFile.path, "--runtime-dir", runtime.path] + historyArguments + [
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

    func descriptors(_ pid: Int32) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
    }

    /// A SIGHUP 4 ms after a re-execution killed the sampler (the new image had SIGHUP's
    /// default action), and with history on SIGIO did (the old image's inotify descriptor
    /// signalled across the exec). Re-executions under a SIGHUP storm, history on: alive,
    /// publishing, and no descriptor left over from an earlier image.
    func testReExecutionsUnderASIGHUPStormWithHistoryLeaveTheSamplerAliveWithNoDescriptorGrowth() throws {
        try writeConfig("[sampler]\ninterval = 0.2\n")
        let log = directory.url.appendingPathComponent("stderr")
        let sampler = try startSampler(stderr: log, history: true)
        let pid = sampler.processIdentifier
        XCTAssertNotNil(waitForInterval(200, seconds: 5), text(log))
        let storm = Storm()
        let thread = Thread { while !storm.stopped { kill(pid, SIGHUP); usleep(2_000) }; storm.done.signal() }
        thread.start()
        defer { storm.stopped = true; storm.done.wait() }
        var first = -1
        let rounds = Int(ProcessInfo.processInfo.environment["SYSSTATS_REEXEC_ROUNDS"] ?? "") ?? 12
        for round in 0..<rounds {
            let ms: UInt32 = round % 2 == 0 ? 100 : 200
            try writeConfig("[sampler]\ninterval = \(Double(ms) / 1000)\n")
            XCTAssertNotNil(waitForInterval(ms, seconds: 10), "round \(round): \(text(log).suffix(600))")
            XCTAssertTrue(sampler.isRunning, "round \(round): status \(sampler.isRunning ? 0 : sampler.terminationStatus)")
            if !sampler.isRunning { return }
            if round == 1 { first = descriptors(pid) }
        }
        usleep(300_000)
        XCTAssertTrue(sampler.isRunning)
        XCTAssertLessThanOrEqual(descriptors(pid), first + 1, "no descriptor survives an exec (a history writer's pipe may be open)")
        XCTAssertFalse(text(log).contains("could not be taken up"), "each image took up the minute the one before carried: \(text(log).suffix(600))")
    }

    /// After a package upgrade replaced the program, a re-execution ran the deleted old image
    /// again (/proc/self/exe): it runs the new file at the same path.
    func testAReExecutionAfterTheProgramWasReplacedRunsTheNewFile() throws {
        let copy = directory.url.appendingPathComponent("bin/sysstatsd").path
        try FileManager.default.createDirectory(atPath: directory.url.appendingPathComponent("bin").path, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try Programs.path("sysstatsd"), toPath: copy)
        try writeConfig("[sampler]\ninterval = 0.2\n")
        let log = directory.url.appendingPathComponent("stderr")
        let sampler = try startSampler(stderr: log, program: copy)
        XCTAssertNotNil(waitForInterval(200, seconds: 5), text(log))
        // As dpkg does: the new file written beside, then renamed over the old.
        try FileManager.default.copyItem(atPath: try Programs.path("sysstatsd"), toPath: copy + ".new")
        XCTAssertEqual(rename(copy + ".new", copy), 0)
        let exe = "/proc/\(sampler.processIdentifier)/exe"
        XCTAssertTrue((try? FileManager.default.destinationOfSymbolicLink(atPath: exe))?.hasSuffix("(deleted)") ?? false)
        try writeConfig("[sampler]\ninterval = 0.1\n")
        XCTAssertNotNil(waitForInterval(100, seconds: 5), text(log))
        XCTAssertTrue(sampler.isRunning)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: exe), copy, "the new file runs")
    }
}

/// The SIGHUP storm's thread and its stop.
private final class Storm: @unchecked Sendable {
    var stopped = false
    let done = DispatchSemaphore(value: 0)
}
