import Foundation
import SnapshotCodec
import TestSupport
import XCTest

/// The release sampler, started from a copy of itself and its history writer in a folder of
/// the test's, follows that copy (issue 58): renamed over as dpkg upgrades, it starts again
/// from the new file with the same pid; removed with its writer as a purge does, it says so
/// once and stops trying the writer. The look comes each 500 ms here
/// (SYSSTATS_PROGRAM_CHECK_MS, for tests only), at each minute's turn otherwise.
final class SamplerFollowsItsProgramTests: XCTestCase {
    var directory: TemporaryDirectory!
    override func setUpWithError() throws { directory = try TemporaryDirectory("follow") }
    override func tearDownWithError() throws { directory = nil }

    var bin: URL { directory.url.appendingPathComponent("bin") }
    var program: String { bin.appendingPathComponent("sysstatsd").path }
    var writer: String { bin.appendingPathComponent("sysstatsd-history").path }
    var runtime: URL { directory.url.appendingPathComponent("run") }
    var log: URL { directory.url.appendingPathComponent("stderr") }

    func startCopy() throws -> Process {
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try Programs.path("sysstatsd"), toPath: program)
        try FileManager.default.copyItem(atPath: try Programs.path("sysstatsd-history"), toPath: writer)
        let config = directory.url.appendingPathComponent("config.toml")
        try Data().write(to: config)
        let tree = Fixtures.root.appendingPathComponent("sampler-desktop/2")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = ["--interval", "0.2", "--config", config.path, "--runtime-dir", runtime.path,
                             "--data-dir", directory.url.appendingPathComponent("data").path,
                             "--proc-root", tree.appendingPathComponent("proc").path,
                             "--sys-root", tree.appendingPathComponent("sys").path]
        process.environment = ProcessInfo.processInfo.environment.merging(["SYSSTATS_PROGRAM_CHECK_MS": "500"]) { $1 }
        FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        addTeardownBlock { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        XCTAssertTrue(waitUntil(10) { self.snapshot() != nil }, "no snapshot: \(self.text())")
        return process
    }

    func snapshot() -> Snapshot? {
        guard let data = try? Data(contentsOf: runtime.appendingPathComponent("snapshot")) else { return nil }
        return try? [UInt8](data).withUnsafeBytes { try Snapshot.decode($0) }
    }

    func text() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    func count(_ phrase: String) -> Int { text().components(separatedBy: phrase).count - 1 }

    func exe(_ pid: Int32) -> String { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) ?? "" }

    func waitUntil(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }

    /// Under valgrind (bench/order-functions.py's callgrind runs, a user's debugging) the link
    /// /proc/self/exe names the program but a stat of it finds valgrind's tool: the sampler
    /// took that for a replaced program and started again at its first look, under no valgrind.
    func testUnderValgrindTheProgramIsNotTakenForAReplacedOne() throws {
        let valgrind = "/usr/bin/valgrind"
        guard FileManager.default.isExecutableFile(atPath: valgrind) else { throw XCTSkip("valgrind is not installed (install/deps.sh installs it)") }
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        // Valgrind cannot read this toolchain's release debug information: a copy without it.
        let strip = try Programs.capture("/usr/bin/objcopy", ["--strip-debug", try Programs.path("sysstatsd"), program])
        XCTAssertEqual(strip.status, 0, strip.stderr)
        let copied = Date()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: valgrind)
        process.arguments = ["--tool=none", "--log-file=/dev/null", program, "--interval", "0.2", "--no-history", "--config", "/dev/null",
                             "--runtime-dir", runtime.path, "--proc-root", Fixtures.root.appendingPathComponent("sampler-desktop/2/proc").path]
        process.environment = ProcessInfo.processInfo.environment.merging(["SYSSTATS_PROGRAM_CHECK_MS": "200"]) { $1 }
        FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        XCTAssertTrue(waitUntil(20) { self.snapshot() != nil }, "no snapshot: \(self.text())")
        // Looks every 200 ms, past the 5 s a new file at the path must have stood to be taken.
        while Date().timeIntervalSince(copied) < 7 && process.isRunning { usleep(100_000) }
        XCTAssertTrue(process.isRunning, text())
        XCTAssertEqual(count("was replaced"), 0, text())
    }

    func testAnUpgradedProgramIsStartedAgainFromTheNewFileWithTheSamePidAndItsMinute() throws {
        let sampler = try startCopy()
        let pid = sampler.processIdentifier
        // As dpkg does: the new file written beside, then renamed over the old (a new inode).
        try FileManager.default.copyItem(atPath: try Programs.path("sysstatsd"), toPath: program + ".new")
        XCTAssertEqual(rename(program + ".new", program), 0)
        XCTAssertTrue(exe(pid).hasSuffix("(deleted)"), "a fresh file settles for 5 s first: \(exe(pid))")
        XCTAssertTrue(waitUntil(20) { self.exe(pid) == self.program }, "still \(exe(pid)): \(text())")
        XCTAssertTrue(sampler.isRunning, "the same process: \(text())")
        XCTAssertEqual(count("was replaced"), 1, text())
        let restarted = UInt64(Date().timeIntervalSince1970 * 1000)
        XCTAssertTrue(waitUntil(5) { (self.snapshot()?.timestampMs ?? 0) > restarted }, "the new image publishes")
        XCTAssertFalse(text().contains("could not be taken up"), "the new image took up the minute: \(text())")
        XCTAssertFalse(text().contains("cannot start"), text())
    }

    func testAPurgedProgramAndWriterAreSaidOnceAndTheWriterIsNotTriedAgain() throws {
        let sampler = try startCopy()
        let pid = sampler.processIdentifier
        XCTAssertEqual(unlink(program), 0)
        XCTAssertEqual(unlink(writer), 0)
        XCTAssertTrue(waitUntil(20) { self.text().contains("was removed") }, text())
        // Looks go on every 500 ms: none says it again.
        usleep(3_000_000)
        XCTAssertEqual(count("was removed"), 1, text())
        XCTAssertTrue(text().contains("history ends here"), text())
        XCTAssertTrue(text().contains("stops a minute after its last renderer ends"), text())
        XCTAssertTrue(sampler.isRunning, text())
        XCTAssertTrue(exe(pid).hasSuffix("(deleted)"), "nothing to start again from: \(exe(pid))")
        XCTAssertNotNil(snapshot(), "it still publishes")
        kill(pid, SIGTERM)
        sampler.waitUntilExit()
        XCTAssertEqual(sampler.terminationStatus, 0, text())
        // A minute's turn in the moment before the first look may still try the writer: once.
        XCTAssertLessThanOrEqual(count("cannot start the history writer"), 1, text())
        XCTAssertFalse(text().contains("history not written"), "history ended once, not at the stop: \(text())")
    }
}
