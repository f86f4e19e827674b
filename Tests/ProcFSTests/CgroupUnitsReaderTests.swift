import AllocationCounter
import Foundation
import ProcFS
import SnapshotCodec
import TestSupport
import XCTest

/// The units part's reader (issue 63): names people know, the busiest by CPU then the largest
/// by memory, a newly busy unit found through its container's counter, nothing allocated
/// while nothing changes, nothing on a host without cgroup v2. On a fixture tree; the real
/// one in CgroupUnitsReaderLiveTests.
final class CgroupUnitsReaderTests: XCTestCase {
    var root: TemporaryDirectory!
    let buffer = ReadBuffer(capacity: 4096)
    static let manager = "fs/cgroup/user.slice/user-1000.slice/user@1000.service"

    override func setUpWithError() throws {
        root = try TemporaryDirectory("units-reader")
        try put("cpu memory io pids\n", "fs/cgroup/cgroup.controllers")
        try counts(descendants: 9)
        try cgroup("fs/cgroup", usec: 0)
        try cgroup("fs/cgroup/init.scope", usec: 0, memory: 20 << 20)
        try cgroup("fs/cgroup/system.slice", usec: 0, memory: 400 << 20)
        try cgroup("fs/cgroup/system.slice/docker-3f2a1b9c8d7e6f5a4b3c2d1e.scope", usec: 0, memory: 300 << 20)
        try cgroup("fs/cgroup/system.slice/cron.service", usec: 0, memory: 2 << 20)
        try cgroup("fs/cgroup/user.slice", usec: 0, memory: 3_000 << 20)
        try cgroup("fs/cgroup/user.slice/user-1000.slice", usec: 0, memory: 3_000 << 20)
        try cgroup(Self.manager, usec: 0, memory: 3_000 << 20)
        try cgroup(Self.manager + "/app.slice", usec: 0, memory: 3_000 << 20)
        try cgroup(Self.manager + "/app.slice/app-gnome-org.gnome.Terminal-4242.scope", usec: 0, memory: 700 << 20)
        try cgroup(Self.manager + "/app.slice/app-firefox-1234.scope", usec: 0, memory: 2_100 << 20)
        try cgroup(Self.manager + "/app.slice/pipewire.service", usec: 0, memory: 40 << 20)
        // Not a unit, and holding none: not listed.
        try FileManager.default.createDirectory(atPath: root.path + "/fs/cgroup/empty.slice", withIntermediateDirectories: true)
    }

    func put(_ text: String, _ name: String) throws { try root.rewrite(text, name) }

    func counts(descendants: Int) throws { try put("nr_descendants \(descendants)\nnr_dying_descendants 0\n", "fs/cgroup/cgroup.stat") }

    func cgroup(_ path: String, usec: UInt64, memory: UInt64? = nil) throws {
        try put("usage_usec \(usec)\nuser_usec \(usec)\nsystem_usec 0\n", path + "/cpu.stat")
        guard let memory else { return }
        try put("\(memory)\n", path + "/memory.current")
        try put("anon \(memory / 4 * 3)\nfile \(memory / 4)\nkernel 0\n", path + "/memory.stat")
        try put("8:0 rbytes=\(memory) wbytes=4096 rios=1 wios=1\n", path + "/io.stat")
        try put("3\n", path + "/pids.current")
        try put("some avg10=1.50 avg60=0.00 avg300=0.00 total=1\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", path + "/cpu.pressure")
    }

    /// One read at `seconds`; the readings as (kind, label, CPU, memory).
    func read(_ reader: CgroupUnitsReader, _ snapshot: inout Snapshot, at seconds: UInt64) -> [(String, String, Int64?, Int64?)] {
        XCTAssertTrue(reader.read(into: &snapshot, buffer: buffer, monotonicNs: seconds * 1_000_000_000))
        return snapshot.listed[.units].map {
            (String(decoding: $0.source, as: UTF8.self), String(decoding: $0.label, as: UTF8.self), $0[UnitsPart.cpu], $0[UnitsPart.memory])
        }
    }

    func testUnitsAreNamedAsPeopleKnowThemLargestFirstUntilOneUsesTheCPU() throws {
        let reader = CgroupUnitsReader(sysRoot: root.path)
        var s = Snapshot()
        let first = read(reader, &s, at: 1)
        XCTAssertEqual(first.map(\.1), ["firefox", "Terminal", "docker 3f2a1b9c8d7e", "pipewire", "systemd", "cron"])
        XCTAssertEqual(first.map(\.0), ["app", "app", "container", "service", "system", "service"])
        XCTAssertEqual(first.first?.3, 2_100 << 20)
        XCTAssertTrue(first.allSatisfy { $0.2 == nil }, "no CPU share before a second reading")
        let firefox = try XCTUnwrap(s.listed[.units].first)
        XCTAssertEqual(firefox[UnitsPart.anon], (2_100 << 20) / 4 * 3)
        XCTAssertEqual(firefox[UnitsPart.tasks], 3)
        XCTAssertEqual(firefox[UnitsPart.pressure], 150)
        XCTAssertEqual(String(decoding: firefox.text(UnitsPart.unitName), as: UTF8.self), "app-firefox-1234.scope", "for a click's command")
        XCTAssertNil(reader.takeNotice())
    }

    /// The terminal's build burns 1.5 cores: its container's counter says so, its units are
    /// read, and it leads the list the sample after (the share between its own two readings).
    func testANewlyBusyUnitIsFoundThroughItsContainerAndLeadsTheList() throws {
        let reader = CgroupUnitsReader(sysRoot: root.path)
        var s = Snapshot()
        _ = read(reader, &s, at: 1)
        let terminal = Self.manager + "/app.slice/app-gnome-org.gnome.Terminal-4242.scope"
        for (second, usec) in [(2, 1_500_000), (3, 3_000_000)] as [(UInt64, UInt64)] {
            for path in ["fs/cgroup", "fs/cgroup/user.slice", "fs/cgroup/user.slice/user-1000.slice", Self.manager,
                         Self.manager + "/app.slice", terminal] {
                try put("usage_usec \(usec)\n", path + "/cpu.stat")
            }
            let readings = read(reader, &s, at: second)
            if second == 3 {
                XCTAssertEqual(readings.first?.1, "Terminal")
                XCTAssertEqual(readings.first?.2, 15_000, "1.5 cores: 150.00 % of one")
                XCTAssertEqual(readings.dropFirst().first?.1, "firefox", "then the largest")
            }
        }
    }

    /// While nothing changes a read allocates nothing, and a tree that gains a unit is
    /// listed again (the root's `cgroup.stat` counts it).
    func testASteadyReadAllocatesNothingAndANewUnitIsListed() throws {
        let reader = CgroupUnitsReader(sysRoot: root.path)
        var s = Snapshot()
        s.listed.reserveCapacity()
        for second in 1...3 { _ = read(reader, &s, at: UInt64(second)) }
        var second: UInt64 = 3
        allocation_counter_start()
        for _ in 0..<50 {
            second += 1
            _ = reader.read(into: &s, buffer: buffer, monotonicNs: second * 1_000_000_000)
        }
        XCTAssertEqual(allocation_counter_stop(), 0)
        try cgroup("fs/cgroup/system.slice/libpod-0123456789abcdef0123.scope", usec: 0, memory: 5_000 << 20)
        try counts(descendants: 10)
        XCTAssertEqual(read(reader, &s, at: second + 1).first?.1, "podman 0123456789ab")
    }

    /// A namer (the sampler's: the rules, the desktop files) names the units when listed, and
    /// all of them again when its generation moves (the rules were loaded again).
    func testANamerNamesTheUnitsAndNamesThemAgainWhenItsRulesChange() throws {
        final class Upper: UnitNamer {
            var generation: UInt32 = 1
            func name(kind: UnitKind, bare: [UInt8], appID: Range<Int>?, name: inout [UInt8]) {
                guard kind == .app, generation > 1 else { return }
                name = name.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
            }
        }
        let namer = Upper()
        let reader = CgroupUnitsReader(sysRoot: root.path, namer: namer)
        var s = Snapshot()
        XCTAssertEqual(read(reader, &s, at: 1).first?.1, "firefox")
        namer.generation = 2
        XCTAssertEqual(read(reader, &s, at: 2).prefix(3).map(\.1), ["FIREFOX", "TERMINAL", "docker 3f2a1b9c8d7e"])
    }

    /// The configuration's units (`[sampler] units`, by name or their own) lead the readings
    /// whatever their figures; the busiest and the largest fill the rest.
    func testTheKeptUnitsLeadTheReadingsByNameOrTheirOwn() throws {
        let reader = CgroupUnitsReader(sysRoot: root.path, kept: ["cron", "docker-3f2a1b9c8d7e6f5a4b3c2d1e.scope", "nothing"])
        var s = Snapshot()
        XCTAssertEqual(read(reader, &s, at: 1).map(\.1), ["cron", "docker 3f2a1b9c8d7e", "firefox", "Terminal", "pipewire", "systemd"])
    }

    func testAHostWithoutCgroupV2HasNoReadingsAndNoLineInTheLog() throws {
        try FileManager.default.removeItem(atPath: root.path + "/fs/cgroup/cgroup.controllers")
        let reader = CgroupUnitsReader(sysRoot: root.path)
        var s = Snapshot()
        XCTAssertFalse(reader.read(into: &s, buffer: buffer, monotonicNs: 1))
        XCTAssertNil(reader.takeNotice(), "said by the blocks (n/a) and by top --units, not in every such host's log")
        XCTAssertTrue(s.listed[.units].isEmpty)
    }

    /// Docker's cgroupfs driver (no systemd): `docker/<64 hex digits>` is a container's unit,
    /// named as its scope would be; a folder of that name elsewhere, or a shorter id, is not.
    func testADockerContainerWithoutASystemdScopeIsAUnitNamedByItsShortID() throws {
        let id = "9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d"
        try cgroup("fs/cgroup/docker", usec: 0, memory: 900 << 20)
        try cgroup("fs/cgroup/docker/" + id, usec: 0, memory: 900 << 20)
        try cgroup("fs/cgroup/docker/not-a-container", usec: 0, memory: 5_000 << 20)
        try cgroup("fs/cgroup/elsewhere.slice/" + id, usec: 0, memory: 5_000 << 20)
        try counts(descendants: 13)
        let reader = CgroupUnitsReader(sysRoot: root.path)
        var s = Snapshot()
        let units = read(reader, &s, at: 1)
        XCTAssertEqual(units.first { $0.1 == "docker 9c8d7e6f5a4b" }.map { [$0.0] + [String($0.3 ?? 0)] }, ["container", String(900 << 20)])
        XCTAssertFalse(units.contains { ($0.3 ?? 0) == 5_000 << 20 }, "only a container id under docker/ is a unit: \(units)")
        XCTAssertTrue(CgroupUnits.read(root: root.path + "/fs/cgroup").contains { String(decoding: $0.path, as: UTF8.self) == "docker/" + id },
                      "top --units lists it too")
    }

    func testUnitNamesOverBytesAreTheOnesTopUnitsShows() {
        func named(_ unit: String) -> (UnitKind, String) {
            var name: [UInt8] = [], bare: [UInt8] = []
            let kind = Array(unit.utf8).withUnsafeBytes { UnitNaming.describe($0, name: &name, bare: &bare).kind }
            return (kind, String(decoding: name, as: UTF8.self))
        }
        XCTAssertTrue(named("app-flatpak-org.mozilla.Thunderbird-99.scope") == (.app, "Thunderbird"))
        XCTAssertTrue(named("app-org.kde.konsole\\x2dwrapper-77.scope") == (.app, "konsole-wrapper"))
        XCTAssertTrue(named("app-gnome-org.gnome.Nautilus@1a2b3c.service") == (.app, "Nautilus"))
        XCTAssertTrue(named("getty@tty1.service") == (.service, "getty@tty1"))
        XCTAssertTrue(named("getty@.service") == (.service, "getty"))
        XCTAssertTrue(named("libpod-conmon-0123456789abcdef.scope") == (.container, "podman conmon 0123456789ab"))
        XCTAssertTrue(named("session-2.scope") == (.session, "session"))
        XCTAssertTrue(named("app-org.example.-1.scope") == (.app, "example"), "a trailing dot: the last part that is not empty")
        XCTAssertTrue(named("app-.scope") == (.system, "app-"), "no id")
        XCTAssertTrue(named(String(repeating: "0123456789abcdef", count: 4)) == (.container, "docker 0123456789ab"), "Docker's cgroupfs driver")
    }
}
