import Foundation
import ProcFS
import TestSupport
import XCTest
@testable import Sampler

/// The NVIDIA helper's life, with stand-in helpers (scripts) that misbehave as a hung driver
/// makes the real one: every wait on it is bounded, a silent helper's figures go stale, and a
/// helper that ends is said once.
final class NVIDIAHelperTests: XCTestCase {
    var directory: TemporaryDirectory!
    override func setUpWithError() throws { directory = try TemporaryDirectory("nvidia-helper") }
    override func tearDownWithError() throws { directory = nil }

    static let frame = "gpu 0 37 12 6442450944 25769803776 61 215400 2520 45 450000 NVIDIA GeForce RTX 4090\nend\n"

    /// An executable Python script at `name` whose body follows the SIGTERM-ignoring preamble.
    func helper(_ name: String, ignoringTERM: Bool = true, _ body: String) throws -> String {
        let path = directory.file(name)
        let preamble = "#!/usr/bin/env python3\nimport os, signal, sys, time\n"
            + (ignoringTERM ? "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n" : "")
        try (preamble + body).write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(path, 0o755), 0)
        return path
    }

    func alive(_ pid: pid_t) -> Bool { kill(pid, 0) == 0 }

    func testStoppingAHelperThatIgnoresSIGTERMIsBoundedAndKillsIt() throws {
        let path = try helper("deaf", "sys.stdout.write(\"\(Self.frame.replacingOccurrences(of: "\n", with: "\\n"))\")\nsys.stdout.flush()\ntime.sleep(60)\n")
        let h = NVIDIAHelper(path: path, intervalMs: 1000)
        h.reportLine = { _ in }
        h.poll(nowNs: 1_000_000_000, waitMs: 3000)
        XCTAssertEqual(h.readings.count, 1)
        let pid = h.runningPid
        XCTAssertGreaterThan(pid, 0)
        let started = DispatchTime.now().uptimeNanoseconds
        h.stop()
        let tookMs = (DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
        XCTAssertLessThan(tookMs, 2_000, "bounded: SIGTERM ignored, then SIGKILL")
        XCTAssertFalse(h.isRunning)
        XCTAssertFalse(alive(pid), "killed and reaped")
        XCTAssertEqual(h.lingeringCount, 0)
    }

    func testAHelperThatGoesSilentIsStaleAfterTwoIntervalsAndStartedAgainWithBackOff() throws {
        let body = "sys.stdout.write(\"\(Self.frame.replacingOccurrences(of: "\n", with: "\\n"))\")\nsys.stdout.flush()\ntime.sleep(60)\n"
        let h = NVIDIAHelper(path: try helper("hangs", body), intervalMs: 1000)
        var lines: [String] = []
        h.reportLine = { lines.append($0) }
        let second: UInt64 = 1_000_000_000
        h.poll(nowNs: 10 * second, waitMs: 3000)
        XCTAssertEqual(h.readings.count, 1, "a frame, then the driver call hangs")
        h.poll(nowNs: 11 * second)
        XCTAssertEqual(h.readings.count, 1, "one interval without a frame: still current")
        h.poll(nowNs: 13 * second)
        XCTAssertEqual(h.readings, [], "two intervals without a frame: stale, n/a")
        XCTAssertFalse(h.isRunning, "stopped")
        XCTAssertEqual(lines.count, 1)
        XCTAssertTrue(lines.first?.hasPrefix("sysstatsd: the NVIDIA helper sent nothing for 3 s") ?? false, "\(lines)")
        h.poll(nowNs: 60 * second)
        XCTAssertEqual(h.starts, 1, "not started again within a minute of its start")
        h.poll(nowNs: 71 * second, waitMs: 3000)
        XCTAssertEqual(h.starts, 2, "started again after a minute")
        XCTAssertEqual(h.readings.count, 1)
        h.poll(nowNs: 74 * second)
        XCTAssertFalse(h.isRunning, "silent again")
        h.poll(nowNs: 135 * second)
        XCTAssertEqual(h.starts, 2, "the second silence doubles the wait: two minutes")
        h.poll(nowNs: 192 * second, waitMs: 3000)
        XCTAssertEqual(h.starts, 3)
        XCTAssertEqual(lines.count, 1, "said once")
        h.stop()
    }

    func testAHelperThatClosesItsOutputButRunsOnIsStoppedWithoutWaitingForIt() throws {
        let h = NVIDIAHelper(path: try helper("closes", "os.close(1)\ntime.sleep(60)\n"), intervalMs: 1000)
        h.reportLine = { _ in }
        let started = DispatchTime.now().uptimeNanoseconds
        h.poll(nowNs: 1_000_000_000, waitMs: 2000)
        XCTAssertLessThan((DispatchTime.now().uptimeNanoseconds - started) / 1_000_000, 3_000)
        XCTAssertFalse(h.isRunning)
        XCTAssertEqual(h.readings, [])
        XCTAssertEqual(h.lingeringCount, 0)
    }

    func testAHelperEndedByASignalIsSaidOnce() throws {
        let h = NVIDIAHelper(path: try helper("crashes", ignoringTERM: false, "os.kill(os.getpid(), signal.SIGSEGV)\n"), intervalMs: 1000)
        var lines: [String] = []
        h.reportLine = { lines.append($0) }
        h.poll(nowNs: 1_000_000_000, waitMs: 2000)
        XCTAssertFalse(h.isRunning)
        XCTAssertEqual(lines, ["sysstatsd: no NVIDIA figures: \(directory.file("crashes")) ended on signal 11"])
    }

    func testChildStopReturnsForAChildThatIsGoneOrNotOurs() {
        XCTAssertTrue(ChildStop.reap(getpid()), "not a child of ours: nothing to wait for")
        XCTAssertTrue(ChildStop.stop(-1))
    }
}
