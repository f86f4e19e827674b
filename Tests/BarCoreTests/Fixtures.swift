import BarCore
import Foundation
import SnapshotCodec
import XCTest

/// The golden cases: snapshot files under Golden/ and the lines expected from them.
enum Fixture: String, CaseIterable {
    /// A quiet desktop: no battery, no recent exit.
    case desktop
    /// A laptop in trouble: battery low and discharging, memory pressure, a recent exit.
    case laptop
    /// Process names built to break JSON and Pango (all valid UTF-8: the codec carries them).
    case hostile
    /// A laptop on Wi-Fi with every newer part (format v3's network, disks, disk I/O,
    /// temperature, frequency and GPU sections): the system blocks' golden lines.
    case station

    /// The snapshot as built in code; the committed .snapshot file must decode to it.
    var snapshot: Snapshot {
        var s = Snapshot()
        s.sequence = 42
        s.timestampMs = 1_763_750_000_000
        s.intervalMs = 1000
        s.bootTime = 1_763_600_000
        s.uptimeCentiseconds = 15_000_000  // 1d 17h 40m
        s.cpuBusy = 1234
        s.cpuIOWait = 50
        s.coreBusy = [1000, 1468]
        s.samplerCPU = 30
        s.samplerResidentKiB = 3200
        s.memory.total = 16_000_000
        s.memory.free = 8_000_000
        s.memory.active = 3_000_000
        s.memory.inactive = 2_000_000
        s.memory.wired = 1_000_000
        s.memory.other = 2_000_000
        s.memory.available = 11_000_000
        s.memory.used = 5_000_000
        s.load1 = 52; s.load5 = 48; s.load15 = 40
        s.processCount = 312
        s.runningCount = 2
        s.threadCount = 845
        s.cpuHistory = [0, 500, 1250, 2500, 3750, 5000, 6250, 7500, 8750, 10000]
        // Busy excludes iowait: each point's sum stays within 100 %.
        s.iowaitHistory = [0, 200, 600, 1200, 1800, 1500, 900, 400, 150, 0]
        s.memoryHistory = Array(repeating: 3125, count: 10)
        s.topCPU = [ProcessEntry(pid: 10, cpu: 950, privateKiB: 120_000, name: Array("firefox".utf8))]
        switch self {
        case .desktop:
            break
        case .laptop:
            s.cpuBusy = 9500
            s.load1 = 450
            s.memory.available = 700_000
            s.memory.used = 15_300_000
            s.memoryPressure = 2500
            s.battery.count = 1
            s.battery.state = .discharging
            s.battery.percent = 800
            s.battery.powerMilliwatts = 9000
            s.battery.minutesRemaining = 83
            s.urgent = [.batteryLow, .memoryLow]
            s.exits = [ExitEntry(pid: 99, timeMs: s.timestampMs - 2000, lastPrivateKiB: 900_000,
                                 freedKiB: 1_300_000, name: Array("chromium".utf8))]
        case .hostile:
            s.exits = [ExitEntry(pid: 66, timeMs: s.timestampMs - 1000, lastPrivateKiB: 2048, freedKiB: 0,
                                 name: Array(#"a"b\c</span>"},{"full_text":"x"#.utf8))]
            s.topCPU = [ProcessEntry(pid: 67, cpu: 100, privateKiB: 1, name: Array(#"<b>&'x'"\"#.utf8))]
        case .station:
            s.memory.swapTotal = 2_097_152
            s.memory.swapUsed = 524_288
            s.coreBusy = [1000, 1468, 9000, 300]
            Self.addSystemParts(&s)
        }
        return s
    }

    /// Network, disks, disk I/O, temperatures and frequency of a laptop on Wi-Fi with a
    /// docked Ethernet cable out.
    static func addSystemParts(_ s: inout Snapshot) {
        s.available.formUnion([.network, .disks, .diskIO, .temperature, .frequency, .gpu])
        var eth = InterfaceFigures()
        eth.name = Array("enp3s0".utf8)
        eth.flags = [.up]
        var wlan = InterfaceFigures()
        wlan.name = Array("wlan0".utf8)
        wlan.flags = [.up, .carrier, .defaultRoute, .wireless, .wifiLink, .rates]
        wlan.rxBytesPerSecond = 1_258_291
        wlan.txBytesPerSecond = 35_000
        wlan.ipv4 = Array("192.168.1.20".utf8)
        wlan.ipv6 = Array("2001:db8::20".utf8)
        wlan.wifi.ssid = Array("HomeNet".utf8)
        wlan.wifi.signalDBm = -64
        wlan.wifi.qualityPercent = 72
        wlan.wifi.bitrateKbps = 866_700
        s.interfaces = [eth, wlan]
        var root = DiskFigures()
        root.mount = Array("/".utf8)
        root.totalKiB = 125_000_000; root.usedKiB = 40_000_000; root.availableKiB = 78_600_000
        var home = DiskFigures()
        home.mount = Array("/home".utf8)
        home.totalKiB = 1_000_000_000; home.usedKiB = 900_000_000; home.availableKiB = 50_000_000
        s.disks = [root, home]
        var nvme = DiskIOFigures()
        nvme.device = Array("nvme0n1".utf8)
        nvme.readBytesPerSecond = 1_300_000; nvme.writeBytesPerSecond = 300_000
        var sda = DiskIOFigures()
        sda.device = Array("sda".utf8)
        sda.readBytesPerSecond = 100_000; sda.writeBytesPerSecond = 500
        s.diskIO = [nvme, sda]
        var package = TemperatureFigures()
        package.chip = Array("coretemp".utf8); package.label = Array("Package id 0".utf8)
        package.milliCelsius = 52_499; package.highMilliCelsius = 80_000; package.criticalMilliCelsius = 100_000
        package.isCPUPackage = true
        var nvmeTemp = TemperatureFigures()
        nvmeTemp.chip = Array("nvme".utf8); nvmeTemp.label = Array("Composite".utf8)
        nvmeTemp.milliCelsius = 61_500
        s.temperatures = [nvmeTemp, package]
        s.cpuMHzAverage = 2_345; s.cpuMHzMaximum = 4_567
        var gpu = GPUFigures()
        gpu.index = 1; gpu.driver = Array("amdgpu".utf8); gpu.name = Array("AMD Radeon RX 6800".utf8)
        gpu.known = [.busy, .memoryBusy, .vram, .gtt, .temperature, .power, .clock, .fan, .powerLimit]
        gpu.powerLimitMilliwatts = 203_000
        gpu.busy = 3_700; gpu.memoryBusy = 1_200
        gpu.vramUsedBytes = 6_442_450_944; gpu.vramTotalBytes = 17_163_091_968
        gpu.gttUsedBytes = 104_857_600; gpu.gttTotalBytes = 8_589_934_592
        gpu.milliCelsius = 61_000; gpu.milliwatts = 215_400; gpu.clockMHz = 2_105; gpu.fan = 1_450
        s.gpus = [gpu]
        addListedParts(&s)
        // A download that ramps up and stops, under a steady trickle of uploads.
        s.rxHistory = (0..<40).map { UInt32($0 < 30 ? $0 * 40_000 : 0) } + [1_258_291]
        s.txHistory = (0..<40).map { UInt32(20_000 + ($0 % 5) * 10_000) } + [35_000]
    }

    /// Two fans (one with a target), the power the machine draws (the system, RAPL, the GPU)
    /// two backlights (the laptop's panel through ACPI, a monitor over DDC/CI), the sound
    /// server's default output (headphones, 40 %) and input (muted), and a player playing.
    static func addListedParts(_ s: inout Snapshot) {
        func reading(_ source: String, _ label: String, _ figures: [Int64?]) -> PartReading {
            var r = PartReading()
            r.reset(source: Array(source.utf8), label: Array(label.utf8))
            for (i, v) in figures.enumerated() { r[i] = v }
            return r
        }
        s.available.formUnion([SnapshotSections(tag: .fans)!, SnapshotSections(tag: .power)!, SnapshotSections(tag: .backlight)!,
                               SnapshotSections(tag: .volume)!, SnapshotSections(tag: .microphone)!,
                               SnapshotSections(tag: .media)!, SnapshotSections(tag: .units)!])
        _ = s.listed.update(.fans) {
            $0 = [reading("nct6798", "fan1", [1_130, nil]), reading("dell_smm", "Processor Fan", [2_400, 2_500])]
        }
        _ = s.listed.update(.power) {
            $0 = [reading("system", "cpu+gpu", [230_850]), reading("rapl", "package-0", [15_450]), reading("gpu", "card1", [215_400])]
        }
        _ = s.listed.update(.backlight) {
            $0 = [reading("firmware", "acpi_video0", [6_667, 10, 15]), reading("raw", "ddcci13", [3_500, 35, 100])]
        }
        _ = s.listed.update(.volume) { $0 = [reading("Headphones", "Built-in Audio Analog Stereo", [4_000, 0])] }
        _ = s.listed.update(.microphone) { $0 = [reading("Microphone", "Built-in Audio Analog Stereo", [6_000, 1])] }
        var song = reading("spotify", "Spotify", [1, 215])
        song.setText(MediaPart.title, Array("Nude".utf8))
        song.setText(MediaPart.artist, Array("Radiohead".utf8))
        song.setText(MediaPart.album, Array("In Rainbows".utf8))
        song.setText(MediaPart.status, Array("playing".utf8))
        _ = s.listed.update(.media) { $0 = [song] }
        // A build in a terminal's scope (busiest), the browser (largest), a container, a service.
        _ = s.listed.update(.units) {
            $0 = [reading("app", "Terminal", [18_500, 734_003_200, 650_117_120, 83_886_080, 1_048_576, 5_242_880, 212, 250]),
                  reading("app", "firefox", [910, 2_254_857_830, 1_932_735_283, 322_122_547, 0, 20_480, 187, 0]),
                  reading("container", "docker 3f2a1b9c8d7e", [35, 312_475_648, 297_795_584, 14_680_064, 0, 0, 9, 0]),
                  reading("service", "pipewire", [120, 41_943_040, 33_554_432, 8_388_608, nil, nil, 3, nil])]
            for (i, unit) in ["app-gnome-org.gnome.Terminal-4242.scope", "app-firefox-1234.scope",
                              "docker-3f2a1b9c8d7e6f5a4b3c2d1e.scope", "pipewire.service"].enumerated() {
                $0[i].setText(UnitsPart.unitName, Array(unit.utf8))
            }
        }
    }

    /// When the golden lines are rendered: half a second after the snapshot.
    var nowMs: UInt64 { snapshot.timestampMs + 500 }
}

let goldenDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

/// Set SYSSTATS_UPDATE_GOLDEN=1 to rewrite the golden files from the current code.
let updatingGolden = ProcessInfo.processInfo.environment["SYSSTATS_UPDATE_GOLDEN"] == "1"

func goldenURL(_ fixture: Fixture, _ ext: String) -> URL {
    goldenDirectory.appendingPathComponent("\(fixture.rawValue).\(ext)")
}

/// Renders `snapshot` once with a fresh renderer; time blocks show UTC (the goldens must not
/// depend on the machine's zone).
func rendered(_ snapshot: Snapshot, _ output: OutputKind, blocks: [BlockKind] = BlockKind.defaults,
              formats: BlockFormats = BlockFormats(), nowMs: UInt64, memForm: MemForm = .usedTotal,
              usage: RendererUsage = RendererUsage()) -> String {
    rendered(snapshot, output, blocks: blocks.map { BarBlock($0, argument: $0 == .time ? Array("UTC".utf8) : []) },
             formats: formats, nowMs: nowMs, memForm: memForm, usage: usage)
}

/// Renders `snapshot` once with a fresh renderer showing `blocks` as given.
func rendered(_ snapshot: Snapshot, _ output: OutputKind, blocks: [BarBlock],
              formats: BlockFormats = BlockFormats(), nowMs: UInt64, memForm: MemForm = .usedTotal,
              usage: RendererUsage = RendererUsage()) -> String {
    var r = Renderer(output: output, blocks: blocks, formats: formats)
    r.memForm = memForm
    r.render(snapshot, nowMs: nowMs, usage: usage)
    return String(decoding: r.line.bytes, as: UTF8.self)
}

/// Parses one JSON line; fails the test when it is not JSON.
func parseJSON(_ line: String, file: StaticString = #filePath, line l: UInt = #line) -> Any? {
    do {
        return try JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])
    } catch {
        XCTFail("not JSON: \(line) (\(error))", file: file, line: l)
        return nil
    }
}

/// Every block, for tests that show all of them.
/// The blocks the golden lines show: a fixed list, so that a new block brings its own test
/// rather than a change to every golden file.
let allBlocks: [BlockKind] = [.cpu, .mem, .load, .uptime, .battery, .procs, .exited, .selfCost, .top, .swap, .cores,
                              .net, .wifi, .disk, .diskio, .temp, .freq, .time, .command]

/// Parses `--format` values (`BLOCK=TEXT` each) as the command line would.
func formats(_ values: String...) throws -> BlockFormats {
    try BarOptions.parse(values.flatMap { ["--format", $0] }.map { Array($0.utf8) }).formats
}
