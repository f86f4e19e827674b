import Foundation
import SnapshotCodec
import TestSupport
import XCTest

/// The units part from the sampler to the bar (issue 63): not read while no bar shows it, and
/// `top:units` and `unit:NAME` in a running bar once one does (its wants file asks for it).
final class UnitsPartEndToEndTests: XCTestCase {
    var directory: TemporaryDirectory!
    override func setUpWithError() throws { directory = try TemporaryDirectory("units-e2e") }
    override func tearDownWithError() throws { directory = nil }

    /// A desktop's tree: the browser and a terminal in a user's app slice, a container, a service.
    func makeTree() throws -> URL {
        let tree = directory.url.appendingPathComponent("tree")
        try FileManager.default.copyItem(at: Fixtures.root.appendingPathComponent("sampler-desktop/2"), to: tree)
        let cgroup = "sys/fs/cgroup"
        let apps = cgroup + "/user.slice/user-1000.slice/user@1000.service/app.slice"
        func unit(_ path: String, memoryMiB: UInt64?) throws {
            let dir = tree.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try "usage_usec 1000\n".write(to: dir.appendingPathComponent("cpu.stat"), atomically: false, encoding: .utf8)
            if let memoryMiB {
                try "\(memoryMiB << 20)\n".write(to: dir.appendingPathComponent("memory.current"), atomically: false, encoding: .utf8)
            }
        }
        try FileManager.default.createDirectory(at: tree.appendingPathComponent(cgroup), withIntermediateDirectories: true)
        try "cpu memory io pids\n".write(to: tree.appendingPathComponent(cgroup + "/cgroup.controllers"), atomically: false, encoding: .utf8)
        try "nr_descendants 8\nnr_dying_descendants 0\n".write(to: tree.appendingPathComponent(cgroup + "/cgroup.stat"), atomically: false, encoding: .utf8)
        try unit(apps + "/app-firefox-1234.scope", memoryMiB: 2100)
        try unit(apps + "/app-gnome-org.gnome.Terminal-4242.scope", memoryMiB: 700)
        try unit(apps + "/pipewire.service", memoryMiB: 40)
        try unit(cgroup + "/system.slice/docker-3f2a1b9c8d7e6f5a4b3c2d1e.scope", memoryMiB: 300)
        return tree
    }

    func testTheUnitsAreReadOnlyWhileABarShowsThemAndTheBarShowsTheLargest() throws {
        let tree = try makeTree()
        let runtimeDir = directory.url.appendingPathComponent("run")
        let sampler = Process()
        sampler.executableURL = URL(fileURLWithPath: try Programs.path("sysstatsd"))
        sampler.arguments = ["--interval", "0.1", "--runtime-dir", runtimeDir.path, "--no-history",
                             "--proc-root", tree.appendingPathComponent("proc").path,
                             "--sys-root", tree.appendingPathComponent("sys").path]
        sampler.standardError = FileHandle.nullDevice
        // Its names: the built-in rules and a desktop file of this tree's, none of the machine's.
        let data = directory.url.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data.appendingPathComponent("applications"), withIntermediateDirectories: true)
        try "[Desktop Entry]\nName=Console\n".write(to: data.appendingPathComponent("applications/org.gnome.Terminal.desktop"),
                                                     atomically: false, encoding: .utf8)
        sampler.environment = ["HOME": directory.url.path, "XDG_DATA_HOME": data.path, "XDG_DATA_DIRS": data.path]
        try sampler.run()
        defer { if sampler.isRunning { sampler.terminate(); sampler.waitUntilExit() } }
        let units = SnapshotSections(tag: .units)!
        func snapshot() -> Snapshot? {
            guard let bytes = try? [UInt8](Data(contentsOf: runtimeDir.appendingPathComponent("snapshot"))) else { return nil }
            return try? bytes.withUnsafeBytes { try Snapshot.decode($0) }
        }
        var deadline = Date().addingTimeInterval(10)
        while snapshot() == nil && Date() < deadline { usleep(20_000) }
        let cpuOnly = Process()
        cpuOnly.executableURL = URL(fileURLWithPath: try Programs.path("sysstats-bar"))
        cpuOnly.arguments = ["--output", "text", "--runtime-dir", runtimeDir.path, "--blocks", "cpu", "--no-start-sampler"]
        cpuOnly.standardOutput = FileHandle.nullDevice
        try cpuOnly.run()
        defer { if cpuOnly.isRunning { cpuOnly.terminate(); cpuOnly.waitUntilExit() } }
        usleep(1_500_000)
        XCTAssertEqual(snapshot().map { $0.available.contains(units) }, false, "no bar shows the units: not read")

        let bar = Process()
        bar.executableURL = URL(fileURLWithPath: try Programs.path("sysstats-bar"))
        bar.arguments = ["--output", "text", "--runtime-dir", runtimeDir.path, "--blocks", "top:units,unit:PipeWire,top:units-mem",
                         "--no-start-sampler"]
        let out = Pipe()
        bar.standardOutput = out
        try bar.run()
        defer { if bar.isRunning { bar.terminate(); bar.waitUntilExit() } }
        var lines = ""
        deadline = Date().addingTimeInterval(10)
        while !lines.contains("top Firefox 0% 2.1G | unit PipeWire 0% | top Firefox") && Date() < deadline {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            lines += String(decoding: chunk, as: UTF8.self)
        }
        XCTAssertTrue(lines.contains("top Firefox 0% 2.1G | unit PipeWire 0% | top Firefox 0% 2.1G\n"), lines)
        XCTAssertEqual(snapshot()?.listed[.units].map { String(decoding: $0.label, as: UTF8.self) },
                       ["Firefox", "Console", "docker 3f2a1b9c8d7e", "PipeWire"], "the built-in rules and the desktop file name them")
    }

    /// `[sampler] unit_history = true`: the units measured without a bar and kept in history,
    /// where `sysstats history --units` finds them (the partial minute, at a clean stop);
    /// without the key and without a bar, history keeps none.
    func testWithUnitHistoryTheSamplerKeepsTheUnitsWithoutABarAndHistoryListsThem() throws {
        let tree = try makeTree()
        func run(unitHistory: Bool, _ name: String) throws -> (table: String, json: String) {
            let data = directory.url.appendingPathComponent("data-" + name)
            let config = directory.url.appendingPathComponent(name + ".toml")
            try "[sampler]\nunit_history = \(unitHistory)\n".write(to: config, atomically: false, encoding: .utf8)
            let sampler = Process()
            sampler.executableURL = URL(fileURLWithPath: try Programs.path("sysstatsd"))
            sampler.arguments = ["--interval", "0.1", "--runtime-dir", directory.url.appendingPathComponent("run-" + name).path,
                                 "--config", config.path, "--data-dir", data.path,
                                 "--proc-root", tree.appendingPathComponent("proc").path,
                                 "--sys-root", tree.appendingPathComponent("sys").path]
            sampler.standardError = FileHandle.nullDevice
            sampler.environment = ["HOME": directory.url.path, "XDG_DATA_HOME": data.path, "XDG_DATA_DIRS": data.path]
            try sampler.run()
            usleep(1_500_000)
            sampler.terminate()   // a clean stop writes the partial minute, its units with it
            sampler.waitUntilExit()
            func cli(_ extra: [String]) throws -> String {
                let out = try Programs.capture(try Programs.path("sysstats"), ["history", "--units", "--since", "1h", "--data-dir", data.path] + extra)
                return out.stdout + out.stderr
            }
            return (try cli([]), try cli(["--json"]))
        }
        let kept = try run(unitHistory: true, "kept")
        XCTAssertTrue(kept.table.contains("minute"), kept.table)
        let names = ["Firefox", "docker 3f2a1b9c8d7e", "PipeWire"]
        for name in names { XCTAssertTrue(kept.json.contains("\"name\":\"\(name)\""), "\(name) in \(kept.json)") }
        XCTAssertTrue(kept.json.contains("\"kind\":\"container\""), kept.json)
        let none = try run(unitHistory: false, "none")
        XCTAssertTrue(none.table.contains("no units kept since"), none.table)
        XCTAssertFalse(none.json.contains("Firefox"), none.json)
    }
}
