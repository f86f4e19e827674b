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
    /// processes used by their own count (the shell's `times`: itself and its children).
    func measure(_ workload: String) throws -> (row: TopUnits.Row, burnedUsec: UInt64, elapsedNs: UInt64) {
        let root = try XCTUnwrap(CgroupUnits.root(sysRoot: sysRoot))
        let before = CgroupUnits.read(root: root)
        let start = monotonicNs()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "echo $$ > '\(unit!)/cgroup.procs' && { \(workload); } && times"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        let elapsed = monotonicNs() &- start
        let rows = TopUnits.rows(before: before, after: CgroupUnits.read(root: root), elapsedNs: elapsed)
        let row = try XCTUnwrap(rows.first { $0.path.hasPrefix("sysstats-test-") })
        // `times`: "0m0.01s 0m0.00s" (the shell), then its children's.
        var usec: UInt64 = 0
        for field in printed.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let parts = field.dropLast().split(separator: "m")
            guard parts.count == 2, let minutes = Double(parts[0]), let seconds = Double(parts[1]) else { continue }
            usec += UInt64((minutes * 60 + seconds) * 1_000_000)
        }
        return (row, usec, elapsed)
    }

    func testABusyUnitsShareIsWhatItBurned() throws {
        let (row, burned, elapsed) = try measure("timeout 1 sh -c 'while :; do :; done' || true")
        let expected = Double(burned) * 1e7 / Double(elapsed)   // permyriad of one core
        let shown = Double(try XCTUnwrap(row.cpuPermyriad))
        print("top --units, a busy loop: the unit \(shown) permyriad of a core, its own count \(expected)")
        XCTAssertGreaterThan(expected, 2_000, "the loop ran")
        XCTAssertEqual(shown, expected, accuracy: expected * 0.10, "the unit's share against what its processes burned")
    }

    /// A build's way: hundreds of processes that each live a few milliseconds. The process
    /// list never sees them; the unit's counter has all of them.
    func testHundredsOfShortProcessesCountInTheirUnit() throws {
        let (row, burned, elapsed) = try measure("for i in $(seq 300); do /bin/true; done")
        let expected = Double(burned) * 1e7 / Double(elapsed)
        let shown = Double(try XCTUnwrap(row.cpuPermyriad))
        print("top --units, 300 short processes: the unit \(shown) permyriad of a core, their own count \(expected)")
        XCTAssertGreaterThan(burned, 0)
        // `times` adds each child's CPU in clock ticks as the kernel sampled it, which
        // undercounts a process of a few milliseconds; the cgroup's counter is exact, so it
        // reads somewhat more (10-15 % here), never less.
        XCTAssertGreaterThanOrEqual(shown, expected * 0.95, "the unit's share against what its 300 processes burned")
        XCTAssertLessThanOrEqual(shown, expected * 1.25, "the unit's share against what its 300 processes burned")
        XCTAssertEqual(row.tasks ?? 0, 0, "all of them gone when it is read")
    }
}
