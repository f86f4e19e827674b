import Foundation
import HistoryRecords
import ProcFS
import SnapshotCodec
import XCTest
import TestSupport
@testable import Sampler

/// The network, disk I/O, temperature and frequency probes on fixture trees: two samples,
/// known rates; what a missing file leaves out. (Disk space is statvfs of this machine:
/// FileSystemSpaceTests pins its arithmetic against df.)
final class SystemProbesTests: XCTestCase {
    static let t0: UInt64 = 1_763_712_345_000

    var root = ""
    var procRoot: String { root + "/proc" }
    var sysRoot: String { root + "/sys" }

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "sysstats-probes-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: procRoot + "/net", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: sysRoot, withIntermediateDirectories: true)
        addTeardownBlock { [root] in try? FileManager.default.removeItem(atPath: root) }
    }

    func write(_ relative: String, _ text: String) throws {
        let path = root + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        // Truncate in place: the probes keep their files open.
        guard let f = fopen(path, "w") else { throw POSIXError(.EIO) }
        fputs(text, f)
        fclose(f)
    }

    func netDev(_ rows: [(String, UInt64, UInt64)]) -> String {
        var text = "Inter-|   Receive                                                |  Transmit\n"
        text += " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
        for (name, rx, tx) in rows { text += "\(name): \(rx) 10 0 0 0 0 0 0 \(tx) 20 0 0 0 0 0 0\n" }
        return text
    }

    func sampler(interfaces: [String] = [], sensors: [String] = [], units: [String] = []) -> Sampler {
        var config = SamplerConfiguration()
        config.procRoot = procRoot
        config.sysRoot = sysRoot
        config.measureSelf = false
        config.builtinBookmarks = false
        config.interfaces = interfaces
        config.sensors = sensors
        config.units = units
        return Sampler(configuration: config)
    }

    func feedNetlinkDumps(_ s: Sampler) throws {
        for name in ["link-dump.bin", "addr-route-dump.bin"] {
            let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("netlink/" + name)))
            data.withUnsafeBytes { s.applyNetlinkMessages($0) }
        }
    }

    func testNetworkRatesAddressesAndTheDefaultRouteFromNetlinkAndNetDev() throws {
        let names = ["lo", "eth0", "wlan0", "docker0", "wg0", "veth3f2a1b9"]
        try write("proc/net/dev", netDev(names.map { ($0, 1000, 1000) }))
        try write("proc/net/wireless", """
            Inter-| sta-|   Quality        |   Discarded packets               | Missed | WE
             face | tus | link level noise |  nwid  crypt   frag  retry   misc | beacon | 22
             wlan0: 0000   49.  -61.  -256        0      0      0      0      0        0

            """)
        let s = sampler()
        try feedNetlinkDumps(s)
        s.sample(realtimeMs: Self.t0, monotonicNs: 1_000_000_000)
        XCTAssertTrue(s.snapshot.available.contains(.network))
        XCTAssertFalse(s.snapshot.interfaces[0].flags.contains(.rates), "no rates from one reading")
        try write("proc/net/dev", netDev([("lo", 5000, 5000), ("eth0", 2_001_000, 251_000), ("wlan0", 1000, 1500),
                                          ("docker0", 1000, 1000), ("wg0", 1000, 1000), ("veth3f2a1b9", 1000, 1000)]))
        s.sample(realtimeMs: Self.t0 + 500, monotonicNs: 1_500_000_000)
        let n = s.snapshot.interfaces
        XCTAssertEqual(n.map { String(decoding: $0.name, as: UTF8.self) }, ["eth0", "wlan0"],
                       "the default route's first; loopback, the bridge, the VPN and the veth left out")
        XCTAssertEqual(n[0].flags, [.up, .carrier, .defaultRoute, .rates])
        XCTAssertEqual(n[0].rxBytesPerSecond, 4_000_000, "2 MB in half a second")
        XCTAssertEqual(n[0].txBytesPerSecond, 500_000)
        XCTAssertEqual(n[0].rxBytes, 2_001_000)
        XCTAssertEqual(String(decoding: n[0].ipv4, as: UTF8.self), "192.168.1.20")
        XCTAssertEqual(String(decoding: n[0].ipv6, as: UTF8.self), "2001:db8::20", "the global address, not fe80::")
        XCTAssertEqual(String(decoding: n[1].ipv4, as: UTF8.self), "10.0.0.5")
        XCTAssertEqual(n[1].txBytesPerSecond, 1000)
        // No nl80211 here (a fixture machine): /proc/net/wireless gives the quality.
        XCTAssertTrue(n[1].flags.isSuperset(of: [.wireless, .wifiLink]))
        XCTAssertEqual(n[1].wifi.qualityPercent, 70, "49 of 70")
        XCTAssertEqual(n[1].wifi.signalDBm, -61)
        XCTAssertFalse(n[0].flags.contains(.wireless))
    }

    /// A part no renderer shows is measured every 10 s (ten samples at 1 s), its last values
    /// carried in between; a shown one every sample; with nothing known, everything.
    func testAPartNoRendererShowsIsMeasuredEveryTenSamplesAndCarriedInBetween() throws {
        try write("proc/net/dev", netDev([("eth0", 1000, 1000)]))
        let s = sampler(interfaces: ["eth0"])
        XCTAssertEqual(s.unshownEverySamples, 10)
        s.shownParts = [.cpu, .memory]
        var ms: UInt64 = 0
        func sample(rx: UInt64) throws {
            try write("proc/net/dev", netDev([("eth0", rx, 1000)]))
            ms += 1000
            s.sample(realtimeMs: Self.t0 + ms, monotonicNs: ms * 1_000_000)
        }
        try sample(rx: 1000)
        XCTAssertTrue(s.snapshot.available.contains(.network), "measured at once")
        XCTAssertEqual(s.snapshot.interfaces.first?.rxBytes, 1000)
        for i in 2...10 {
            try sample(rx: 1000 + UInt64(i))
            XCTAssertTrue(s.snapshot.available.contains(.network), "carried, still available (sample \(i))")
            XCTAssertEqual(s.snapshot.interfaces.first?.rxBytes, 1000, "not read (sample \(i))")
        }
        try sample(rx: 11_000)
        XCTAssertEqual(s.snapshot.interfaces.first?.rxBytes, 11_000, "the tenth sample since reads it")
        XCTAssertEqual(s.snapshot.interfaces.first?.rxBytesPerSecond, 1000, "10,000 bytes over 10 s")
        // Shown: every sample.
        s.shownParts = [.network]
        try sample(rx: 12_000)
        XCTAssertEqual(s.snapshot.interfaces.first?.rxBytes, 12_000)
        try sample(rx: 13_000)
        XCTAssertEqual(s.snapshot.interfaces.first?.rxBytes, 13_000)
        // Nothing known: every sample too.
        s.shownParts = nil
        try sample(rx: 14_000)
        XCTAssertEqual(s.snapshot.interfaces.first?.rxBytes, 14_000)
    }

    /// The units part is read only while a bar is known to show it: not on the 10 s round,
    /// not before the bars' wants are known (nil), and its readings go when no bar shows it.
    func testTheUnitsAreReadOnlyWhileABarIsKnownToShowThem() throws {
        try write("sys/fs/cgroup/cgroup.controllers", "cpu memory\n")
        try write("sys/fs/cgroup/app.slice/app-firefox-1234.scope/cpu.stat", "usage_usec 5\n")
        try write("sys/fs/cgroup/app.slice/app-firefox-1234.scope/memory.current", "1048576\n")
        let s = sampler()
        let units = SnapshotSections(tag: .units)!
        var ms: UInt64 = 0
        func sample() { ms += 1000; s.sample(realtimeMs: Self.t0 + ms, monotonicNs: ms * 1_000_000) }
        s.shownParts = nil
        sample()
        XCTAssertFalse(s.snapshot.available.contains(units), "nothing known: not read")
        s.shownParts = [.cpu]
        for _ in 0..<12 { sample() }
        XCTAssertFalse(s.snapshot.available.contains(units), "not on the 10 s round")
        s.shownParts = [.cpu, units]
        sample()
        XCTAssertTrue(s.snapshot.available.contains(units))
        XCTAssertEqual(s.snapshot.listed[.units].map { String(decoding: $0.label, as: UTF8.self) }, ["firefox"])
        s.shownParts = [.cpu]
        sample()
        XCTAssertFalse(s.snapshot.available.contains(units))
        XCTAssertTrue(s.snapshot.listed[.units].isEmpty, "its readings go with the bar")

        // `[sampler] units` names one: read every sample, bar or no bar.
        let kept = sampler(units: ["firefox"])
        kept.shownParts = [.cpu]
        kept.sample(realtimeMs: Self.t0 + 1000, monotonicNs: 1_000_000_000)
        XCTAssertTrue(kept.snapshot.available.contains(units))
        XCTAssertEqual(kept.snapshot.listed[.units].first.map { String(decoding: $0.label, as: UTF8.self) }, "firefox")
    }

    /// The writer copies a carried part's section from its last encoding: the file it
    /// publishes is, every sample, byte for byte the snapshot encoded whole.
    func testACarriedPartsSectionIsCopiedAndThePublishedFileIsTheWholeEncoding() throws {
        try write("proc/net/dev", netDev([("eth0", 1000, 1000)]))
        let s = sampler(interfaces: ["eth0"])
        s.shownParts = [.cpu, .memory]
        let runtime = root + "/run"
        let writer = SnapshotWriter(directory: try RuntimeDirectory.openForSampler(runtime).get())
        var ms: UInt64 = 0
        var whole: [UInt8] = []
        for i in 1...25 {
            try write("proc/net/dev", netDev([("eth0", 1000 + UInt64(i) * 500, 1000)]))
            if i == 15 { s.shownParts = [.network] }   // shown from now: measured every sample
            ms += 1000
            s.sample(realtimeMs: Self.t0 + ms, monotonicNs: ms * 1_000_000)
            guard case .success = s.write(to: writer) else { return XCTFail("write \(i)") }
            s.snapshot.encode(into: &whole)
            let published = try XCTUnwrap(FileManager.default.contents(atPath: runtime + "/snapshot"))
            XCTAssertEqual([UInt8](published), whole, "sample \(i)")
        }
        XCTAssertGreaterThanOrEqual(writer.copiedSections, 9, "the carried samples' network sections were copied")
        // One rate point per measurement with a rate: sample 11 (the first, sample 1, has no
        // rate yet; 2 to 10 are carried), then 15 to 25.
        XCTAssertEqual(s.snapshot.rxHistory.count, 12)
    }

    func testANamedVirtualInterfaceIsShown() throws {
        try write("proc/net/dev", netDev([("eth0", 1, 1), ("wg0", 1, 1), ("docker0", 1, 1)]))
        let s = sampler(interfaces: ["wg0"])
        try feedNetlinkDumps(s)
        s.sample(realtimeMs: Self.t0, monotonicNs: 1_000_000_000)
        XCTAssertEqual(s.snapshot.interfaces.map { String(decoding: $0.name, as: UTF8.self) }, ["eth0", "wg0"])
    }

    func testWithoutNetlinkInterfacesComeFromNetDevAndOperstate() throws {
        try write("proc/net/dev", netDev([("lo", 1, 1), ("enp3s0", 1, 1), ("wlp2s0", 1, 1), ("docker0", 1, 1), ("vethab12", 1, 1)]))
        try write("sys/class/net/enp3s0/operstate", "down\n")
        try write("sys/class/net/wlp2s0/operstate", "up\n")
        let s = sampler()
        s.sample(realtimeMs: Self.t0, monotonicNs: 1_000_000_000)
        let n = s.snapshot.interfaces
        XCTAssertEqual(n.map { String(decoding: $0.name, as: UTF8.self) }, ["enp3s0", "wlp2s0"])
        XCTAssertEqual(n.map { $0.flags.contains(.carrier) }, [false, true])
        try write("sys/class/net/enp3s0/operstate", "up\n")
        s.sample(realtimeMs: Self.t0 + 1000, monotonicNs: 2_000_000_000)
        XCTAssertTrue(s.snapshot.interfaces[0].flags.contains(.carrier), "the kept-open operstate is read again")
    }

    /// i3status's ethernet `%speed`: `class/net/NAME/speed` of a wired link with a carrier;
    /// -1 (the driver does not know) is 0; a link that is down or wireless has none (`?`).
    func testAWiredLinksSpeedIsReadWhileItHasACarrier() throws {
        try write("proc/net/dev", netDev([("enp3s0", 1, 1), ("enp4s0", 1, 1), ("enp5s0", 1, 1)]))
        for (name, state, speed) in [("enp3s0", "up", "2500"), ("enp4s0", "up", "-1"), ("enp5s0", "down", "1000")] {
            try write("sys/class/net/\(name)/operstate", state + "\n")
            try write("sys/class/net/\(name)/speed", speed + "\n")
        }
        let s = sampler()
        s.sample(realtimeMs: Self.t0, monotonicNs: 1_000_000_000)
        XCTAssertEqual(s.snapshot.interfaces.map(\.linkSpeedMbps), [2500, 0, Snapshot.unreadableLinkSpeed])
        try write("sys/class/net/enp3s0/speed", "1000\n")
        s.sample(realtimeMs: Self.t0 + 1000, monotonicNs: 2_000_000_000)
        XCTAssertEqual(s.snapshot.interfaces.first?.linkSpeedMbps, 1000, "the kept-open file is read again")
    }

    func testMissingNetDevLeavesTheNetworkOut() throws {
        let s = sampler()
        s.sample(realtimeMs: Self.t0, monotonicNs: 1_000_000_000)
        XCTAssertFalse(s.snapshot.available.contains(.network))
        XCTAssertEqual(s.snapshot.interfaces, [])
        XCTAssertFalse(s.snapshot.available.contains(.diskIO))
        XCTAssertFalse(s.snapshot.available.contains(.temperature))
    }

    /// A root whose `uptime` links to this machine's /proc/uptime reads the clock (which is
    /// what that file prints) instead of the file; a fixture's own file is read each sample.
    func testUptimeComesFromTheClockWhenTheRootsFileIsThisMachinesAndFromTheFileOtherwise() throws {
        XCTAssertEqual(symlink("/proc/uptime", procRoot + "/uptime"), 0)
        let linked = UptimeProbe(procRoot: procRoot, readsThisMachine: false)
        XCTAssertEqual(unlink(procRoot + "/uptime"), 0)   // never opened: the clock is read
        var s = Snapshot()
        linked.sample(into: &s, buffer: ReadBuffer())
        XCTAssertTrue(s.available.contains(.uptime))
        var boot = timespec()
        clock_gettime(CLOCK_BOOTTIME, &boot)
        XCTAssertLessThanOrEqual(abs(Int64(s.uptimeCentiseconds) - Int64(boot.tv_sec) * 100), 200)

        try write("proc/uptime", "123.45 200.00\n")
        let fixture = UptimeProbe(procRoot: procRoot, readsThisMachine: false)
        s = Snapshot()
        fixture.sample(into: &s, buffer: ReadBuffer())
        XCTAssertEqual(s.uptimeCentiseconds, 12345)
        try write("proc/uptime", "124.45 201.00\n")
        fixture.sample(into: &s, buffer: ReadBuffer())
        XCTAssertEqual(s.uptimeCentiseconds, 12445, "read again each sample")
    }

    /// Batteries are read again every 5 s; a machine without one lists the folder again only
    /// every 30 s, and a battery plugged in shows at that listing.
    func testWithoutABatteryThePowerSupplyFolderIsListedEveryThirtySeconds() throws {
        try FileManager.default.createDirectory(atPath: sysRoot + "/class/power_supply", withIntermediateDirectories: true)
        var probe = BatteryProbe(sysRoot: sysRoot)
        var s = Snapshot()
        let t0 = Self.t0
        probe.sample(into: &s, buffer: ReadBuffer(), realtimeMs: t0)
        XCTAssertEqual(s.battery.count, 0)
        try write("sys/class/power_supply/BAT0/type", "Battery\n")
        try write("sys/class/power_supply/BAT0/status", "Discharging\n")
        try write("sys/class/power_supply/BAT0/capacity", "80\n")
        for seconds in [5, 10, 29] as [UInt64] {
            probe.sample(into: &s, buffer: ReadBuffer(), realtimeMs: t0 + seconds * 1000)
            XCTAssertEqual(s.battery.count, 0, "not listed again at \(seconds) s")
        }
        probe.sample(into: &s, buffer: ReadBuffer(), realtimeMs: t0 + 30_000)
        XCTAssertEqual(s.battery.count, 1, "listed again at 30 s")
        XCTAssertEqual(s.battery.state, .discharging)
        // With a battery, its changes show within 5 s.
        try write("sys/class/power_supply/BAT0/status", "Charging\n")
        probe.sample(into: &s, buffer: ReadBuffer(), realtimeMs: t0 + 34_000)
        XCTAssertEqual(s.battery.state, .discharging)
        probe.sample(into: &s, buffer: ReadBuffer(), realtimeMs: t0 + 35_000)
        XCTAssertEqual(s.battery.state, .charging)
    }

    func testDiskIORatesOfWholeDisks() throws {
        func stats(_ sdaRead: UInt64, _ sdaWrite: UInt64) -> String {
            "   8       0 sda 100 5 \(sdaRead) 40 200 7 \(sdaWrite) 90 0 120 130 1 0 8 0 3 4\n"
            + "   8       1 sda1 100 5 \(sdaRead) 40 200 7 \(sdaWrite) 90 0 120 130 1 0 8 0 3 4\n"
            + "   7       0 loop0 100 5 999999 40 200 7 0 90 0 120 130 1 0 8 0 3 4\n"
        }
        try write("proc/diskstats", stats(1000, 2000))
        try FileManager.default.createDirectory(atPath: sysRoot + "/block/sda", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: sysRoot + "/block/loop0", withIntermediateDirectories: true)
        let s = sampler()
        s.sample(realtimeMs: Self.t0, monotonicNs: 1_000_000_000)
        XCTAssertEqual(s.snapshot.diskIO.map(\.readBytesPerSecond), [0], "no rate from one reading")
        try write("proc/diskstats", stats(1000 + 4096, 2000 + 2048))
        s.sample(realtimeMs: Self.t0 + 2000, monotonicNs: 3_000_000_000)
        let d = try XCTUnwrap(s.snapshot.diskIO.first)
        XCTAssertEqual(s.snapshot.diskIO.count, 1, "partitions and loop devices are not whole disks")
        XCTAssertEqual(String(decoding: d.device, as: UTF8.self), "sda")
        XCTAssertEqual(d.readBytesPerSecond, 4096 * 512 / 2, "sectors of 512 bytes over 2 s")
        XCTAssertEqual(d.writeBytesPerSecond, 2048 * 512 / 2)
        XCTAssertEqual(d.readBytes, 5096 * 512)
    }

    func copyFixture(_ name: String) throws {
        let fm = FileManager.default
        try? fm.removeItem(atPath: sysRoot)
        try fm.copyItem(atPath: Fixtures.path(name + "/sys"), toPath: sysRoot)
        if fm.fileExists(atPath: Fixtures.path(name + "/proc")) {
            try? fm.removeItem(atPath: procRoot)
            try fm.copyItem(atPath: Fixtures.path(name + "/proc"), toPath: procRoot)
        }
    }

    func testTheCPUPackageTemperatureByDefaultAndNamedSensors() throws {
        try copyFixture("hwmon-intel")
        let s = sampler()
        s.sample(realtimeMs: Self.t0, monotonicNs: 1_000_000_000)
        let t = try XCTUnwrap(s.snapshot.temperatures.first)
        XCTAssertEqual(s.snapshot.temperatures.count, 1)
        XCTAssertEqual(String(decoding: t.chip, as: UTF8.self), "coretemp")
        XCTAssertEqual(String(decoding: t.label, as: UTF8.self), "Package id 0")
        XCTAssertEqual(t.milliCelsius, 52_000)
        XCTAssertEqual(t.criticalMilliCelsius, 100_000)
        XCTAssertEqual(t.highMilliCelsius, 80_000)
        XCTAssertTrue(t.isCPUPackage)
        let named = sampler(sensors: ["nvme/Composite", "Core 1", "nothing-like-it"])
        named.sample(realtimeMs: Self.t0, monotonicNs: 1_000_000_000)
        XCTAssertEqual(named.snapshot.temperatures.map(\.milliCelsius), [38_850, 51_000])
        XCTAssertEqual(named.unresolvedSensorNames, ["nothing-like-it"])
    }

    /// What the renderers' blocks name is measured besides what the sampler was told: a
    /// named sensor beside the CPU package's, a virtual interface, a mount (its path
    /// measured even on a fixture tree, where no mount is by default), and a path where
    /// nothing is, marked missing.
    func testWhatTheRenderersNameIsMeasuredBesidesWhatWasConfigured() throws {
        try copyFixture("hwmon-intel")
        try write("proc/net/dev", netDev([("eth0", 1, 1), ("wg0", 1, 1)]))
        let s = sampler()
        try feedNetlinkDumps(s)
        s.sample(realtimeMs: Self.t0, monotonicNs: 1_000_000_000)
        XCTAssertEqual(s.snapshot.temperatures.count, 1)
        XCTAssertEqual(s.snapshot.interfaces.map { String(decoding: $0.name, as: UTF8.self) }, ["eth0"])
        XCTAssertTrue(s.snapshot.disks.isEmpty, "a fixture tree measures no mount by default")

        var asked = RendererRequest(parts: [.disks, .temperature, .network])
        asked.ask(.sensor, Array("nvme/Composite".utf8))
        asked.ask(.interface, Array("wg0".utf8))
        asked.ask(.disk, Array(root.utf8))
        let nowhere = "/nonexistent-sysstats-\(getpid())"
        asked.ask(.disk, Array(nowhere.utf8))
        s.measureAlso(asked)
        s.sample(realtimeMs: Self.t0 + 1000, monotonicNs: 2_000_000_000)
        let t = s.snapshot.temperatures
        XCTAssertEqual(t.map(\.milliCelsius), [52_000, 38_850], "the CPU package's first, then the one named")
        XCTAssertEqual(t.map(\.isCPUPackage), [true, false])
        XCTAssertEqual(s.snapshot.interfaces.map { String(decoding: $0.name, as: UTF8.self) }, ["eth0", "wg0"])
        XCTAssertEqual(s.snapshot.disks.map { String(decoding: $0.mount, as: UTF8.self) }, [root, nowhere])
        guard s.snapshot.disks.count == 2 else { return }
        XCTAssertGreaterThan(s.snapshot.disks[0].totalKiB, 0)
        XCTAssertFalse(s.snapshot.disks[0].isMissing)
        XCTAssertTrue(s.snapshot.disks[1].isMissing)
        XCTAssertTrue(s.snapshot.available.contains(.disks))

        // The renderer goes: back to what was configured.
        s.measureAlso(RendererRequest(parts: []))
        s.sample(realtimeMs: Self.t0 + 2000, monotonicNs: 3_000_000_000)
        XCTAssertEqual(s.snapshot.temperatures.count, 1)
        XCTAssertTrue(s.snapshot.disks.isEmpty)
        XCTAssertEqual(s.snapshot.interfaces.count, 1)
    }

    func testCPUFrequencyAverageAndMaximum() throws {
        try copyFixture("cpufreq-basic")
        let s = sampler()
        s.sample(realtimeMs: Self.t0, monotonicNs: 1_000_000_000)
        XCTAssertTrue(s.snapshot.available.contains(.frequency))
        XCTAssertEqual(s.snapshot.cpuMHzAverage, 2000)
        XCTAssertEqual(s.snapshot.cpuMHzMaximum, 3400)
    }

    /// What the sampler measures is what history keeps: its snapshots, fed to the collector
    /// as the loop does, give the minute row its traffic, temperature and root file system use.
    func testTheSamplersSnapshotsGiveTheMinuteRowItsTrafficTemperatureAndRootUse() throws {
        try copyFixture("hwmon-intel")
        // CPU and memory (a row needs both) from the desktop fixture's /proc.
        for file in ["stat", "meminfo", "uptime", "loadavg"] {
            try write("proc/" + file, String(contentsOfFile: Fixtures.path("sampler-desktop/2/proc/" + file), encoding: .utf8))
        }
        var config = SamplerConfiguration()
        config.procRoot = procRoot
        config.sysRoot = sysRoot
        config.measureSelf = false
        config.builtinBookmarks = false
        config.disks = ["/"]   // statvfs of this machine's root: the row must say what the snapshot said
        let s = Sampler(configuration: config)
        var collector = HistoryCollector(bootID: "b", bootTime: 1)
        let counters: [[(String, UInt64, UInt64)]] = [
            [("eth0", 1000, 100), ("wlan0", 50, 50)],
            [("eth0", 251_000, 1100), ("wlan0", 70, 50)],
            [("eth0", 252_000, 1100), ("wlan0", 10, 5)],   // wlan0 reset: 0 for that step
        ]
        for (i, rows) in counters.enumerated() {
            try write("proc/net/dev", netDev(rows))
            s.sample(realtimeMs: Self.t0 - Self.t0 % 60_000 + UInt64(i) * 1000, monotonicNs: UInt64(i + 1) * 1_000_000_000)
            XCTAssertNil(collector.record(s.snapshot))
        }
        XCTAssertTrue(s.snapshot.available.isSuperset(of: [.cpu, .memory, .network, .temperature]))
        let row = try XCTUnwrap(collector.finish(nowMs: Self.t0).samples.first)
        XCTAssertEqual(row.rxBytes, 250_000 + 20 + 1000)
        XCTAssertEqual(row.txBytes, 1000)
        XCTAssertEqual(row.cpuTemperatureMilliCelsius, 52_000, "the CPU package sensor")
        if s.snapshot.available.contains(.disks) {
            XCTAssertEqual(row.rootUsedPermyriad, UInt32(s.snapshot.disks[0].usedPermyriad))
        } else {
            XCTAssertNil(row.rootUsedPermyriad)
        }
    }

    func testTheNewPartsSurviveTheSnapshotFile() throws {
        try copyFixture("hwmon-intel")
        try write("proc/net/dev", netDev([("eth0", 1, 1)]))
        let s = sampler()
        try feedNetlinkDumps(s)
        s.sample(realtimeMs: Self.t0, monotonicNs: 1_000_000_000)
        var bytes: [UInt8] = []
        s.snapshot.encode(into: &bytes)
        let decoded = try bytes.withUnsafeBytes { try Snapshot.decode($0) }
        XCTAssertEqual(decoded.interfaces, s.snapshot.interfaces)
        XCTAssertEqual(decoded.temperatures, s.snapshot.temperatures)
        XCTAssertTrue(decoded.available.isSuperset(of: [.network, .temperature]))
    }
}
