@testable import BarRuntime
import CBarSys
import Foundation
import XCTest

/// Stopped command groups: SIGTERM at once, SIGKILL when the grace ends, forgotten when empty.
final class StoppingGroupsTests: XCTestCase {
    /// A shell command in a process group of its own (as a command block's), its output discarded.
    func spawn(_ command: String) -> Int32 {
        var fd: Int32 = -1
        let pid = command.withCString { cbarsys_spawn_shell($0, nil, &fd, nil) }
        if fd >= 0 { close(fd) }
        return pid
    }

    /// The processes of group `pgid` that are not zombies, from /proc.
    func liveMembers(of pgid: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 3 && fields[0] != "Z" && Int32(fields[3]) == pgid
        }
    }

    /// Reaps `pid` within a second; true when it ended.
    func reap(_ pid: Int32) -> Bool {
        for _ in 0..<100 {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { return true }
            usleep(10_000)
        }
        return false
    }

    func testAGroupThatIgnoresSIGTERMIsKilledWhenItsGraceEnds() {
        let pid = spawn("trap '' TERM; exec sleep 60")
        XCTAssertGreaterThan(pid, 0)
        usleep(100_000)   // the trap is set
        var groups = StoppingGroups()
        groups.terminate(pid, nowMs: 1_000)
        XCTAssertEqual(groups.nextDeadline, 1_000 + StoppingGroups.graceMs)
        groups.sweep(nowMs: 1_000 + StoppingGroups.graceMs - 1)
        XCTAssertFalse(groups.isEmpty, "within its grace")
        XCTAssertFalse(reap(pid), "it ignored SIGTERM")
        groups.sweep(nowMs: 1_000 + StoppingGroups.graceMs)
        XCTAssertTrue(groups.isEmpty)
        XCTAssertTrue(reap(pid), "SIGKILL when the grace ended")
        XCTAssertEqual(cbarsys_group_alive(pid), 0)
    }

    func testAGroupThatEndsOnSIGTERMIsForgottenAtTheNextSweep() {
        let pid = spawn("exec sleep 60")
        var groups = StoppingGroups()
        groups.terminate(pid, nowMs: 1_000)
        XCTAssertTrue(reap(pid))
        groups.sweep(nowMs: 1_001)
        XCTAssertTrue(groups.isEmpty, "an empty group is not waited for")
        XCTAssertNil(groups.nextDeadline)
    }

    func testFinishWaitsForEveryGroupAndKillsWhatOutlivesItsGrace() {
        let polite = spawn("exec sleep 60"), stubborn = spawn("trap '' TERM; sleep 60 & wait; sleep 60")
        usleep(100_000)
        var groups = StoppingGroups()
        let now = UInt64(cbarsys_realtime_ms())
        groups.terminate(polite, nowMs: now)
        groups.terminate(stubborn, nowMs: now)
        let started = Date()
        groups.finish(nowMs: { UInt64(cbarsys_realtime_ms()) })
        XCTAssertTrue(groups.isEmpty)
        XCTAssertEqual(liveMembers(of: polite), [])
        XCTAssertEqual(liveMembers(of: stubborn), [], "the stubborn group and its child are gone (at most zombies init has not reaped yet)")
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), Double(StoppingGroups.graceMs) / 1000 - 0.1)
    }
}
