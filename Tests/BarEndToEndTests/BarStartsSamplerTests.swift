import Foundation
import XCTest

/// One line to start everything: with no sampler for its runtime directory, sysstats-bar
/// starts one, detached, on the fixture tree its `--sampler-option`s name.
final class BarStartsSamplerTests: XCTestCase {
    var base: URL!
    var runtime: String { base.appendingPathComponent("run").path }

    override func setUpWithError() throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("sysstats-start-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        for pid in samplers() { kill(pid, SIGTERM) }
        let deadline = Date().addingTimeInterval(5)
        while !samplers().isEmpty && Date() < deadline { usleep(20_000) }
        try? FileManager.default.removeItem(at: base)
    }

    /// The sysstatsd processes writing to this test's runtime directory.
    func samplers() -> [Int32] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { Int32($0) }.filter { pid in
            guard let cmdline = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")) else { return false }
            let args = cmdline.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return args.first?.hasSuffix("sysstatsd") == true && args.contains(runtime)
        }
    }

    /// The bar's arguments: a runtime directory that does not exist yet, and the sampler
    /// it starts on the desktop fixture, without history, sampling every 0.2 s.
    func arguments(_ extra: [String] = []) -> [String] {
        let tree = BarProcess.packageRoot.appendingPathComponent("Tests/Fixtures/sampler-desktop/1")
        return ["--output", "text", "--runtime-dir", runtime, "--blocks", "procs",
                "--sampler-option=--proc-root=\(tree.appendingPathComponent("proc").path)",
                "--sampler-option=--sys-root=\(tree.appendingPathComponent("sys").path)",
                "--sampler-option=--no-history", "--sampler-option=--interval=0.2"] + extra
    }

    /// A bar as a user starts it: SYSSTATS_NO_START_SAMPLER (which keeps the other tests'
    /// bars on their fixture snapshots) removed from its environment.
    func userBar(_ extra: [String] = []) throws -> BarProcess {
        try BarProcess(arguments(extra), wrapper: ["/usr/bin/env", "-u", "SYSSTATS_NO_START_SAMPLER"])
    }

    func testTheBarStartsOneDetachedSamplerThatOutlivesIt() throws {
        _ = try BarProcess.binary()
        let bar = try userBar()
        XCTAssertTrue(bar.waitFor(timeout: 10) { $0.last?.hasPrefix("procs ") == true }, "the started sampler's figures: \(bar.lines)")
        let started = samplers()
        XCTAssertEqual(started.count, 1, "one sampler")
        let sampler = try XCTUnwrap(started.first)
        XCTAssertEqual(getsid(sampler), sampler, "its own session: i3bar's signals to the bar's group never reach it")
        XCTAssertNotEqual(getpgid(sampler), getpgid(bar.pid))
        let fd = { (n: Int) in try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(sampler)/fd/\(n)") }
        XCTAssertEqual(fd(0), "/dev/null")
        XCTAssertEqual(fd(1), "/dev/null")
        XCTAssertEqual(fd(2), runtime + "/sysstatsd.log", "its messages go to a log in the runtime directory")
        var info = stat()
        XCTAssertEqual(stat(runtime, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700, "the runtime directory is private")

        // A second bar finds it running and starts none.
        let second = try userBar()
        XCTAssertTrue(second.waitFor(timeout: 10) { $0.last?.hasPrefix("procs ") == true }, "\(second.lines)")
        usleep(300_000)
        XCTAssertEqual(samplers(), [sampler])
        XCTAssertEqual(second.stop(), 0)
        XCTAssertEqual(bar.stop(), 0)
        usleep(200_000)
        XCTAssertEqual(samplers(), [sampler], "the sampler outlives the bars (the next bar finds it)")
    }

    /// `--once` naming a path the running sampler was not asked about (`disk:/home` on the
    /// root file system) read `n/a`, while the stream showed it a few seconds later: it asks
    /// the sampler and waits for the snapshot that has it (at most two intervals), and a path
    /// that does not exist says so.
    func testOnceAsksTheRunningSamplerForANewMountAndWaitsForIt() throws {
        let bar = try userBar()
        XCTAssertTrue(bar.waitFor(timeout: 10) { $0.last?.hasPrefix("procs ") == true }, "\(bar.lines)")
        let folder = base.appendingPathComponent("m").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let once = try BarProcess.run(["--once", "--runtime-dir", runtime, "--blocks", "disk:\(folder),disk:/nonexistent-sysstats"])
        XCTAssertEqual(once.status, 0, once.stderr)
        XCTAssertTrue(once.stdout.hasPrefix("disk "), once.stdout)
        XCTAssertFalse(once.stdout.contains("n/a"), "the new mount measured, not n/a: \(once.stdout)")
        XCTAssertTrue(once.stdout.contains("/nonexistent-sysstats: no such mount"), once.stdout)
        let wants = try FileManager.default.contentsOfDirectory(atPath: runtime + "/wants")
        XCTAssertEqual(wants, ["\(bar.pid)"], "the one-shot bar's wants file is gone, the stream's stays")

        // A streaming bar's first update waits for it as well: no n/a first, figures after.
        let other = base.appendingPathComponent("o").path
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: false)
        let stream = try BarProcess(["--runtime-dir", runtime, "--blocks", "disk:\(other)"])
        XCTAssertTrue(stream.waitFor(timeout: 5) { !$0.isEmpty }, "\(stream.lines)")
        XCTAssertTrue(stream.lines.first?.hasPrefix("disk \(other) ") == true, "\(stream.lines)")
        XCTAssertFalse(stream.lines.first?.contains("n/a") ?? true, "the first update: \(stream.lines)")
        XCTAssertEqual(stream.stop(), 0)
        XCTAssertEqual(bar.stop(), 0)
    }

    func testNoStartSamplerAndTheEnvironmentKeepTheBarFromStartingOne() throws {
        let bar = try userBar(["--no-start-sampler"])
        XCTAssertTrue(bar.waitFor(timeout: 5) { $0.last == "sysstatsd not running (start it: sysstatsd &)" }, "\(bar.lines)")
        usleep(500_000)
        XCTAssertEqual(samplers(), [])
        XCTAssertEqual(bar.stop(), 0)
        let quiet = try BarProcess(arguments())   // SYSSTATS_NO_START_SAMPLER=1 from the tests' environment
        XCTAssertTrue(quiet.waitFor(timeout: 5) { $0.last == "sysstatsd not running (start it: sysstatsd &)" }, "\(quiet.lines)")
        XCTAssertEqual(samplers(), [])
        XCTAssertEqual(quiet.stop(), 0)
    }
}

extension BarStartsSamplerTests {
    /// The sampler a bar started ends once no renderer has run for its limit (issue 29: after
    /// `i3-msg exit` it went on under pid 1): the bar asks for 60 s, the test for 1.
    func testTheSamplerABarStartedEndsWhenNoRendererIsLeft() throws {
        let bar = try userBar(["--sampler-option=--exit-when-unwatched=1"])
        XCTAssertTrue(bar.waitFor(timeout: 10) { $0.last?.hasPrefix("procs ") == true }, "\(bar.lines)")
        let sampler = try XCTUnwrap(samplers().first)
        let cmdline = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(sampler)/cmdline"))
        let args = cmdline.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        let limit = try XCTUnwrap(args.firstIndex(of: "--exit-when-unwatched"))
        XCTAssertEqual(args[limit + 1], "60", "the bar's own limit: a minute")
        usleep(2_500_000)
        XCTAssertEqual(samplers(), [sampler], "it runs while the bar does")
        XCTAssertEqual(bar.stop(), 0)
        let deadline = Date().addingTimeInterval(8)
        while !samplers().isEmpty && Date() < deadline { usleep(50_000) }
        XCTAssertEqual(samplers(), [], "gone once the bar was")
        let log = try String(contentsOfFile: runtime + "/sysstatsd.log", encoding: .utf8)
        let line = try XCTUnwrap(log.split(separator: "\n").first { $0.contains("no renderer has been running for 1 s") }, log)
        // Each line carries the local time (issue 58), so that a restart in the log can be placed.
        XCTAssertNotNil(String(line).range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2} sysstatsd: "#,
                                           options: .regularExpression), "the line starts with the local time: \(line)")
    }
}

extension BarStartsSamplerTests {
    /// Sampler failures are not hidden (issue 29): while the sampler the bar started has
    /// written nothing the bar says `starting…`, not `stopped`; when it fails, the bar shows the
    /// sampler's own reason and where its log is.
    func testTheBarSaysStartingThenShowsWhyTheSamplerItStartedFailed() throws {
        let starting = try userBar()
        XCTAssertEqual(starting.waitFor(timeout: 10) { !$0.isEmpty } ? starting.lines.first : nil, "sysstatsd starting…")
        XCTAssertTrue(starting.waitFor(timeout: 10) { $0.last?.hasPrefix("procs ") == true }, "\(starting.lines)")
        XCTAssertFalse(starting.lines.contains("sysstatsd stopped"), "\(starting.lines)")
        XCTAssertEqual(starting.stop(), 0)
        for pid in samplers() { kill(pid, SIGTERM) }
        let deadline = Date().addingTimeInterval(5)
        while !samplers().isEmpty && Date() < deadline { usleep(20_000) }

        let failing = try userBar(["--sampler-option=--interval=0"])
        let reason = "sysstatsd: --interval takes seconds between 0.05 and 3600 (e.g. 1 or 0.25), not '0' (log: \(runtime)/sysstatsd.log) | sysstatsd stopped"
        XCTAssertTrue(failing.waitFor(timeout: 10) { $0.last == reason }, "\(failing.lines)")
        XCTAssertEqual(failing.stop(), 0)
    }
}
