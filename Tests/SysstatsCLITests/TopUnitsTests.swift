import Bookmarks
import Foundation
import ProcFS
import XCTest
@testable import SysstatsCLI

/// `sysstats top --units` on fixture trees built here: a systemd user slice with app scopes
/// and services, docker and podman scopes, a hybrid host (cgroup v2 under `unified`) and a
/// cgroup v1 host.
final class TopUnitsTests: XCTestCase {
    var root: String!

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "sysstats-units-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: root) }

    /// A unit's folder with its files.
    func unit(_ path: String, cpu: UInt64, memory: UInt64 = 0, io: String = "", tasks: UInt64 = 1, pressure: String = "0.00",
              under tree: String = "fs/cgroup") throws {
        let dir = root + "/" + tree + "/" + path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        func write(_ name: String, _ text: String) throws { try text.write(toFile: dir + "/" + name, atomically: false, encoding: .utf8) }
        try write("cpu.stat", "usage_usec \(cpu)\nuser_usec \(cpu / 2)\nsystem_usec \(cpu / 2)\n")
        try write("memory.current", "\(memory)\n")
        try write("memory.stat", "anon \(memory / 2)\nfile \(memory / 4)\nkernel 0\n")
        try write("io.stat", io)
        try write("pids.current", "\(tasks)\n")
        for kind in ["cpu", "memory", "io"] {
            try write("\(kind).pressure", "some avg10=\(pressure) avg60=0.00 avg300=0.00 total=0\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n")
        }
    }

    func desktopTree() throws {
        try "cpu memory io pids\n".write(toFile: root + "/fs/cgroup/cgroup.controllers".replacingOccurrences(of: "//", with: "/"),
                                         atomically: false, encoding: .utf8)
    }

    func makeDesktop() throws {
        try FileManager.default.createDirectory(atPath: root + "/fs/cgroup", withIntermediateDirectories: true)
        try desktopTree()
        let user = "user.slice/user-1000.slice/user@1000.service"
        try unit("\(user)/app.slice/app-gnome-org.gnome.Terminal-4242.scope", cpu: 1_000_000, memory: 64 << 20)
        try unit("\(user)/app.slice/app-firefox-1234.scope", cpu: 5_000_000, memory: 900 << 20, io: "8:0 rbytes=4096 wbytes=8192 rios=1 wios=2\n",
                 tasks: 40, pressure: "2.50")
        try unit("\(user)/app.slice/app-flatpak-org.mozilla.Thunderbird-99.scope", cpu: 0, memory: 300 << 20)
        try unit("\(user)/app.slice/pipewire.service", cpu: 200_000, memory: 20 << 20)
        try unit("\(user)/init.scope", cpu: 100, memory: 4 << 20)
        try unit("user.slice/user-1000.slice/session-2.scope", cpu: 300_000, memory: 30 << 20)
        try unit("system.slice/docker-3f2a1b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a.scope", cpu: 2_000_000, memory: 200 << 20)
        try unit("machine.slice/libpod-0123456789abcdef0123.scope", cpu: 0, memory: 10 << 20)
        try unit("system.slice/getty@tty1.service", cpu: 0, memory: 1 << 20)
        try unit("system.slice/systemd-journald.service", cpu: 50_000, memory: 16 << 20)
    }

    func testTheTreesUnitsAreListedWithTheirCountersAndAServiceOfUnitsIsLeftOut() throws {
        try makeDesktop()
        let units = CgroupUnits.read(root: try XCTUnwrap(CgroupUnits.root(sysRoot: root)))
        let names = units.map { String(decoding: $0.unitName, as: UTF8.self) }
        XCTAssertEqual(names.count, 10, "\(names)")
        XCTAssertFalse(names.contains("user@1000.service"), "the user's manager holds units: they are listed instead")
        let firefox = try XCTUnwrap(units.first { String(decoding: $0.unitName, as: UTF8.self) == "app-firefox-1234.scope" })
        XCTAssertEqual(firefox.cpuUsec, 5_000_000)
        XCTAssertEqual(firefox.memoryBytes, 900 << 20)
        XCTAssertEqual(firefox.anonBytes, 450 << 20)
        XCTAssertEqual(firefox.fileBytes, 225 << 20)
        XCTAssertEqual(firefox.readBytes, 4096)
        XCTAssertEqual(firefox.writtenBytes, 8192)
        XCTAssertEqual(firefox.tasks, 40)
        XCTAssertEqual(firefox.cpuPressure, 250)
    }

    /// A unit with units of its own inside (a container running its own systemd) is one unit,
    /// as the sampler's units part lists it: the same listing (`CgroupUnits.list`) for both.
    func testAUnitHoldingUnitsIsOneUnitAsTheSamplerListsIt() throws {
        try makeDesktop()
        try unit("machine.slice/systemd-nspawn@web.service", cpu: 7_000, memory: 50 << 20)
        try unit("machine.slice/systemd-nspawn@web.service/payload/system.slice/nginx.service", cpu: 6_000, memory: 40 << 20)
        let root = try XCTUnwrap(CgroupUnits.root(sysRoot: root))
        let names = CgroupUnits.read(root: root).map { String(decoding: $0.unitName, as: UTF8.self) }
        XCTAssertTrue(names.contains("systemd-nspawn@web.service"), "\(names)")
        XCTAssertFalse(names.contains("nginx.service"), "\(names)")
        XCTAssertEqual(CgroupUnits.list(root: root).filter(\.isUnit).map(\.path), CgroupUnits.read(root: root).map(\.path))
    }

    func testNamesAreTheOnesPeopleKnow() {
        XCTAssertEqual(UnitNames.name(of: "app-firefox-1234.scope").name, "firefox")
        XCTAssertEqual(UnitNames.name(of: "app-gnome-org.gnome.Terminal-4242.scope").name, "Terminal")
        XCTAssertEqual(UnitNames.name(of: "app-flatpak-org.mozilla.Thunderbird-99.scope") { $0 == "org.mozilla.Thunderbird" ? "Thunderbird Mail" : nil }.name,
                       "Thunderbird Mail")
        XCTAssertEqual(UnitNames.name(of: "app-gnome-org.gnome.Nautilus@1a2b3c.service").name, "Nautilus")
        XCTAssertEqual(UnitNames.name(of: "app-org.kde.konsole\\x2dwrapper-77.scope").name, "konsole-wrapper")
        XCTAssertEqual(UnitNames.name(of: "pipewire.service").kind, .service)
        XCTAssertEqual(UnitNames.name(of: "pipewire.service").name, "pipewire")
        XCTAssertEqual(UnitNames.name(of: "getty@tty1.service").name, "getty@tty1")
        XCTAssertEqual(UnitNames.name(of: "docker-3f2a1b9c8d7e6f5a4b3c.scope").name, "docker 3f2a1b9c8d7e")
        XCTAssertEqual(UnitNames.name(of: "libpod-0123456789abcdef0123.scope").name, "podman 0123456789ab")
        XCTAssertEqual(UnitNames.name(of: "session-2.scope").name, "session")
        XCTAssertEqual(UnitNames.name(of: "init.scope").name, "systemd")
    }

    /// Bookmark rules name units as they name processes: the user's own rule first, then
    /// the app's desktop file, then an imported or built-in rule, then the unit's own name;
    /// a container or a session is not a program a rule can name.
    func testBookmarkRulesNameUnitsTheUsersFirstThenTheDesktopFile() throws {
        try makeDesktop()
        let rootPath = try XCTUnwrap(CgroupUnits.root(sysRoot: root))
        let counters = CgroupUnits.read(root: rootPath)
        func names(_ rules: [BookmarkRule], desktop: [String: String] = [:]) -> [String: (String, Bool)] {
            var out: [String: (String, Bool)] = [:]
            for r in TopUnits.rows(before: counters, after: counters, elapsedNs: 1, desktopName: { desktop[$0] },
                                   resolver: NameResolver(rules: rules)) {
                out[String(r.path.split(separator: "/").last!)] = (r.name, r.bookmarked)
            }
            return out
        }
        let builtin = names(BuiltinBookmarks.rules)
        XCTAssertEqual(builtin["app-firefox-1234.scope"]?.0, "Firefox")
        XCTAssertEqual(builtin["pipewire.service"]?.0, "PipeWire")
        XCTAssertEqual(builtin["pipewire.service"]?.1, true)
        XCTAssertEqual(builtin["systemd-journald.service"]?.0, "journal")
        let desktop = names(BuiltinBookmarks.rules, desktop: ["firefox": "Firefox Web Browser"])
        XCTAssertEqual(desktop["app-firefox-1234.scope"]?.0, "Firefox Web Browser", "the desktop file over a built-in rule")
        XCTAssertEqual(desktop["app-firefox-1234.scope"]?.1, false)
        let user = BookmarkRule(kind: .comm, pattern: Array("firefox".utf8), friendlyName: Array("Browser".utf8), source: .user)
        let glob = BookmarkRule(kind: .glob, pattern: Array("*".utf8), friendlyName: Array("anything".utf8), source: .user)
        let mine = names([user] + BuiltinBookmarks.rules, desktop: ["firefox": "Firefox Web Browser"])
        XCTAssertEqual(mine["app-firefox-1234.scope"]?.0, "Browser", "the user's rule over the desktop file")
        let everything = names([glob])
        XCTAssertEqual(everything["pipewire.service"]?.0, "anything")
        XCTAssertEqual(everything["session-2.scope"]?.0, "session")
        XCTAssertEqual(everything["docker-3f2a1b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a.scope"]?.0, "docker 3f2a1b9c8d7e")
        XCTAssertEqual(everything["init.scope"]?.0, "systemd")
    }

    func testRatesComeFromTwoReadsAndTheListIsSortedByCPUOrMemory() throws {
        try makeDesktop()
        let rootPath = try XCTUnwrap(CgroupUnits.root(sysRoot: root))
        let before = CgroupUnits.read(root: rootPath)
        // Half a second later: firefox used 0.25 s of CPU (50 % of a core), read 1 MiB.
        try unit("user.slice/user-1000.slice/user@1000.service/app.slice/app-firefox-1234.scope", cpu: 5_250_000, memory: 900 << 20,
                 io: "8:0 rbytes=\(4096 + (1 << 20)) wbytes=8192\n", tasks: 40)
        let after = CgroupUnits.read(root: rootPath)
        let rows = TopUnits.rows(before: before, after: after, elapsedNs: 500_000_000)
        let firefox = try XCTUnwrap(rows.first { $0.name == "firefox" })
        XCTAssertEqual(firefox.cpuPermyriad, 5_000)
        XCTAssertEqual(firefox.readPerSecond, 2 << 20)
        XCTAssertEqual(firefox.writtenPerSecond, 0)
        XCTAssertEqual(TopUnits.sorted(rows, by: .cpu).first?.name, "firefox")
        XCTAssertEqual(TopUnits.sorted(rows, by: .memory).map(\.name).prefix(3), ["firefox", "Thunderbird", "docker 3f2a1b9c8d7e"])
    }

    func testTheCommandPrintsATableOrJSONAndACgroupV1HostGetsOneLine() throws {
        try makeDesktop()
        let table = TopUnits.run(sysRoot: root, count: 3, sort: .memory, intervalMs: 0, json: false, environment: ["HOME": root])
        XCTAssertEqual(table.status, 0)
        XCTAssertEqual(table.stdout.first, TopUnits.header)
        XCTAssertEqual(table.stdout.count, 4)
        XCTAssertTrue(table.stdout[1].hasPrefix("Firefox"), "a built-in bookmark names it: \(table.stdout[1])")
        let json = TopUnits.run(sysRoot: root, count: 1, sort: .memory, intervalMs: 0, json: true, environment: ["HOME": root])
        let parsed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.joined().utf8)) as? [[String: Any]])
        XCTAssertEqual(parsed.first?["unit"] as? String, "Firefox")
        XCTAssertEqual(parsed.first?["bookmarked"] as? Bool, true)
        XCTAssertEqual(parsed.first?["kind"] as? String, "app")
        XCTAssertEqual(parsed.first?["memory_mib"] as? Double, 900)
        XCTAssertEqual(parsed.first?["tasks"] as? Int, 40)

        let v1 = root + "/v1"
        try FileManager.default.createDirectory(atPath: v1 + "/fs/cgroup/memory", withIntermediateDirectories: true)
        let refused = TopUnits.run(sysRoot: v1, count: 3, sort: .cpu, intervalMs: 0, json: false)
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stderr, ["sysstats top: no cgroup v2 tree at \(v1)/fs/cgroup: --units needs the unified hierarchy (cgroup v2), which this host does not mount"])
    }

    func testNoTimeBetweenTheReadsGivesNoShare() {
        XCTAssertNil(TopUnits.rows(before: [UnitCounters(path: Array("a.scope".utf8))], after: [UnitCounters(path: Array("a.scope".utf8))],
                                   elapsedNs: 0).first?.cpuPermyriad)
    }

    func testAHybridHostsUnifiedTreeIsRead() throws {
        let tree = "fs/cgroup/unified"
        try FileManager.default.createDirectory(atPath: root + "/" + tree, withIntermediateDirectories: true)
        try "\n".write(toFile: root + "/" + tree + "/cgroup.controllers", atomically: false, encoding: .utf8)
        try unit("system.slice/cron.service", cpu: 10, under: tree)
        XCTAssertEqual(CgroupUnits.root(sysRoot: root), root + "/" + tree)
        XCTAssertEqual(CgroupUnits.read(root: root + "/" + tree).count, 1)
    }
}
