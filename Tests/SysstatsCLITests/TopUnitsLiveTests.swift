import Foundation
import ProcFS
import TestSupport
import XCTest
@testable import SysstatsCLI

/// `top --units` on a real cgroup v2 hierarchy, mounted by the test (`mount -t cgroup2`: the
/// one unified tree, where cpu.stat and the pressure files are even with the memory
/// controller on a v1 hierarchy). Root only; skipped where the mount is refused.
final class TopUnitsLiveTests: XCTestCase {
    var sysRoot: String!
    var unit: String!

    override func setUpWithError() throws {
        guard getuid() == 0 else { throw XCTSkip("mounting cgroup2 needs root") }
        sysRoot = NSTemporaryDirectory() + "sysstats-cgroup2-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: sysRoot + "/fs/cgroup", withIntermediateDirectories: true)
        guard quietShell("mount -t cgroup2 none '\(sysRoot!)/fs/cgroup'") == 0 else { throw XCTSkip("this machine refuses a cgroup2 mount") }
        unit = sysRoot + "/fs/cgroup/sysstats-test-\(UUID().uuidString.prefix(8)).scope"
        try FileManager.default.createDirectory(atPath: unit, withIntermediateDirectories: false)
    }

    override func tearDownWithError() throws {
        guard let sysRoot else { return }
        if let unit { rmdir(unit) }
        _ = quietShell("umount '\(sysRoot)/fs/cgroup'")
        try? FileManager.default.removeItem(atPath: sysRoot)
    }

    /// The unit's row over the run of `workload`, started inside the unit, and the CPU its
    /// processes used by the kernel's own count: this process's reaped children's usage
    /// (getrusage RUSAGE_CHILDREN, microseconds, the shell and every descendant it waited
    /// for) before and after. The shell's `times` would print hundredths, too coarse for
    /// 300 processes of a millisecond or two.
    func measure(_ workload: String) throws -> (row: TopUnits.Row, burnedUsec: UInt64, elapsedNs: UInt64) {
        let root = try XCTUnwrap(CgroupUnits.root(sysRoot: sysRoot))
        let before = CgroupUnits.read(root: root)
        let usageBefore = childrenCPUUsec()
        let start = monotonicNs()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "echo $$ > '\(unit!)/cgroup.procs' && { \(workload); }"]
        try p.run()
        p.waitUntilExit()
        let elapsed = monotonicNs() &- start
        let burned = childrenCPUUsec() &- usageBefore
        let rows = TopUnits.rows(before: before, after: CgroupUnits.read(root: root), elapsedNs: elapsed)
        let row = try XCTUnwrap(rows.first { $0.path.hasPrefix("sysstats-test-") })
        return (row, burned, elapsed)
    }

    private func childrenCPUUsec() -> UInt64 {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        func usec(_ t: timeval) -> UInt64 { UInt64(t.tv_sec) * 1_000_000 + UInt64(t.tv_usec) }
        return usec(usage.ru_utime) + usec(usage.ru_stime)
    }

    func testABusyUnitsShareIsWhatItBurned() throws {
        let (row, burned, elapsed) = try measure("timeout 1 sh -c 'while :; do :; done' || true")
        let expected = Double(burned) * 1e7 / Double(elapsed)   // permyriad of one core
        let shown = Double(try XCTUnwrap(row.cpuPermyriad))
        print("top --units, a busy loop: the unit \(shown) permyriad of a core, its own count \(expected)")
        XCTAssertGreaterThan(expected, 2_000, "the loop ran")
        XCTAssertEqual(shown, expected, accuracy: expected * 0.05, "the unit's share against what its processes burned")
    }

    /// A build's way: hundreds of processes that each live a few milliseconds. The process
    /// list never sees them; the unit's counter has all of them.
    func testHundredsOfShortProcessesCountInTheirUnit() throws {
        let (row, burned, elapsed) = try measure("for i in $(seq 300); do /bin/true; done")
        let expected = Double(burned) * 1e7 / Double(elapsed)
        let shown = Double(try XCTUnwrap(row.cpuPermyriad))
        print("top --units, 300 short processes: the unit \(shown) permyriad of a core, their own count \(expected)")
        XCTAssertGreaterThan(burned, 0)
        // Both counts are the kernel's, to the microsecond; the shell's start before it
        // joins the unit is in the usage and not in the unit, a fraction of a per cent.
        XCTAssertEqual(shown, expected, accuracy: expected * 0.05, "the unit's share against what its 300 processes burned")
        XCTAssertEqual(row.tasks ?? 0, 0, "all of them gone when it is read")
    }
}
