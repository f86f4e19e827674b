#if canImport(Glibc)
import Glibc
#endif
import Foundation
import ProcFS
import SnapshotCodec
import TestSupport
import XCTest

/// The units part's reader on a real cgroup v2 hierarchy, mounted by the test (as
/// TopUnitsLiveTests): a busy loop's unit, among 200 idle ones, leads the readings with the
/// share of a core its process burned by its own count (/proc/PID/stat), within 10 %.
/// Root only; skipped where the mount is refused.
final class CgroupUnitsReaderLiveTests: XCTestCase {
    var sysRoot: String!
    var slice: String!
    var made: [String] = []

    override func setUpWithError() throws {
        guard getuid() == 0 else { throw XCTSkip("mounting cgroup2 needs root") }
        sysRoot = NSTemporaryDirectory() + "sysstats-units-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: sysRoot + "/fs/cgroup", withIntermediateDirectories: true)
        guard quietShell("mount -t cgroup2 none '\(sysRoot!)/fs/cgroup'") == 0 else { throw XCTSkip("this machine refuses a cgroup2 mount") }
        slice = sysRoot + "/fs/cgroup/sysstats-test-\(UUID().uuidString.prefix(8)).slice"
        try make(slice)
    }

    override func tearDownWithError() throws {
        guard let sysRoot else { return }
        for path in made.reversed() { rmdir(path) }
        _ = quietShell("umount '\(sysRoot)/fs/cgroup'")
        try? FileManager.default.removeItem(atPath: sysRoot)
    }

    func make(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        made.append(path)
    }

    /// utime + stime of `pid`, clock ticks.
    func ticks(_ pid: Int32) throws -> UInt64 {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        let fields = stat[stat.index(after: try XCTUnwrap(stat.lastIndex(of: ")")))...].split(separator: " ")
        return try XCTUnwrap(UInt64(fields[11])) + XCTUnwrap(UInt64(fields[12]))
    }

    func monotonicNs() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }

    /// The share of a core `ticks` over `ns` is, permyriad.
    func share(_ ticks: UInt64, over ns: UInt64, hz: Double) -> Double {
        Double(ticks) / hz / (Double(ns) / 1e9) * 10_000
    }

    func testABusyUnitAmongTwoHundredIdleOnesLeadsWithTheShareItBurned() throws {
        for i in 0..<200 { try make(slice + "/idle-\(i).scope") }
        let busy = slice + "/busy-build.scope"
        try make(busy)
        let loop = Process()
        loop.executableURL = URL(fileURLWithPath: "/bin/sh")
        loop.arguments = ["-c", "echo $$ > '\(busy)/cgroup.procs' && while :; do :; done"]
        try loop.run()
        defer { loop.terminate(); loop.waitUntilExit() }
        usleep(100_000)

        let reader = CgroupUnitsReader(sysRoot: sysRoot)
        let buffer = ReadBuffer(capacity: 4096)
        var s = Snapshot()
        let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
        var lastTicks = try ticks(loop.processIdentifier), lastNs = monotonicNs()
        var share = 0.0
        for _ in 0..<3 {
            XCTAssertTrue(reader.read(into: &s, buffer: buffer, monotonicNs: monotonicNs()))
            let (nowTicks, nowNs) = (try ticks(loop.processIdentifier), monotonicNs())
            share = self.share(nowTicks - lastTicks, over: nowNs - lastNs, hz: hz)
            (lastTicks, lastNs) = (nowTicks, nowNs)
            usleep(1_000_000)
        }
        XCTAssertTrue(reader.read(into: &s, buffer: buffer, monotonicNs: monotonicNs()))
        let (nowTicks, nowNs) = (try ticks(loop.processIdentifier), monotonicNs())
        share = self.share(nowTicks - lastTicks, over: nowNs - lastNs, hz: hz)
        let first = try XCTUnwrap(s.listed[.units].first)
        XCTAssertEqual(String(decoding: first.label, as: UTF8.self), "busy-build")
        let shown = Double(try XCTUnwrap(first[UnitsPart.cpu]))
        print("units part, a busy loop among 200 idle units: \(shown) permyriad of a core, its process's own count \(share)")
        XCTAssertGreaterThan(share, 2_000, "the loop ran")
        XCTAssertEqual(shown, share, accuracy: share * 0.10, "the unit's share against what its process burned")
    }
}
