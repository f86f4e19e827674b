import Foundation
import SnapshotCodec

@_exported import TestSupport

extension TemporaryDirectory {
    convenience init() throws { try self.init("cli-tests") }

    func write(_ snapshot: Snapshot, to name: String = "snapshot") throws {
        var bytes: [UInt8] = []
        snapshot.encode(into: &bytes)
        try write(bytes, to: name)
    }
}

/// Snapshots with known figures.
enum Samples {
    static let timestampMs: UInt64 = 1_700_000_000_000

    /// A small laptop: 12:17:38 up, 23 % CPU, 85 % battery, 39 processes.
    static var laptop: Snapshot {
        var s = Snapshot()
        s.sequence = 42
        s.timestampMs = timestampMs
        s.intervalMs = 1000
        s.uptimeCentiseconds = 4_425_857          // 44258.57 s = 12:17:38
        s.cpuBusy = 2345                          // 23.45 %
        s.memory.free = 17818                     // 17.40 MiB
        s.memory.other = 336_998                  // 329.10 MiB
        s.memory.wired = 71373                    // 69.70 MiB
        s.memory.active = 55194                   // 53.90 MiB
        s.memory.inactive = 33587                 // 32.80 MiB
        s.memory.total = 17818 + 336_998 + 71373 + 55194 + 33587
        s.memory.available = 400_000
        s.memory.used = s.memory.total - 400_000
        s.memory.swapTotal = 1_048_576            // 1024 MiB
        s.memory.swapUsed = 51200                 // 50 MiB
        s.load1 = 123; s.load5 = 45; s.load15 = 7
        s.processCount = 39
        s.runningCount = 2
        s.battery.count = 1
        s.battery.state = .discharging
        s.battery.percent = 8512
        s.topCPU = [ProcessEntry(pid: 1200, cpu: 1550, privateKiB: 204_800, name: Array("firefox".utf8))]
        s.topMemory = [ProcessEntry(pid: 1200, cpu: 1550, privateKiB: 204_800, name: Array("firefox".utf8)),
                       ProcessEntry(pid: 1300, cpu: 0, privateKiB: 10240, name: Array("say \"hi\"/é".utf8))]
        s.exits = [ExitEntry(pid: 77, timeMs: timestampMs - 500, lastPrivateKiB: 8192, freedKiB: 6144,
                             name: Array("make".utf8))]
        return s
    }

    static var desktop: Snapshot {
        var s = laptop
        s.battery = BatteryFigures()
        return s
    }
}

extension Samples {
    /// The laptop with one entry in each of the newer parts (network, disks, disk I/O,
    /// temperatures, CPU frequency, GPUs): every member `report --json` has.
    static var laptopWithEveryPart: Snapshot {
        var s = Samples.laptop
        s.available.formUnion([.network, .disks, .diskIO, .temperature, .frequency, .gpu])
        s.available.formUnion(SnapshotSections(tag: .fans)!.union(SnapshotSections(tag: .power)!))
        s.available.formUnion(SnapshotSections(tag: .backlight)!)
        s.available.formUnion(SnapshotSections(tag: .volume)!.union(SnapshotSections(tag: .microphone)!))
        s.available.formUnion(SnapshotSections(tag: .media)!)
        var fan = PartReading(), stopped = PartReading(), system = PartReading(), panel = PartReading(), dark = PartReading()
        fan.reset(source: Array("dell_smm".utf8), label: Array("Processor Fan".utf8))
        fan[FansPart.rpm] = 2_400; fan[FansPart.target] = 2_500
        stopped.reset(source: Array("nct6798".utf8), label: Array("fan\u{1B}2".utf8))
        stopped[FansPart.rpm] = 0
        system.reset(source: Array("system".utf8), label: Array("battery".utf8))
        system[PowerPart.watts] = 14_235
        panel.reset(source: Array("firmware".utf8), label: Array("acpi_video0".utf8))
        panel[BacklightPart.percent] = 4_667; panel[BacklightPart.brightness] = 7; panel[BacklightPart.maximum] = 15
        dark.reset(source: Array("raw".utf8), label: Array("amdgpu_bl0".utf8))   // a maximum of 0: no share
        dark[BacklightPart.brightness] = 0; dark[BacklightPart.maximum] = 0
        _ = s.listed.update(.fans) { $0 = [fan, stopped] }
        _ = s.listed.update(.power) { $0 = [system] }
        _ = s.listed.update(.backlight) { $0 = [panel, dark] }
        var speakers = PartReading(), microphone = PartReading()
        speakers.reset(source: Array("Speakers".utf8), label: Array("Built-in Audio Analog Stereo".utf8))
        speakers[VolumePart.volume] = 4_000; speakers[VolumePart.muted] = 0
        microphone.reset(source: Array("".utf8), label: Array("USB \"Mic\"".utf8))
        microphone[VolumePart.volume] = 12_500; microphone[VolumePart.muted] = 1
        _ = s.listed.update(.volume) { $0 = [speakers] }
        _ = s.listed.update(.microphone) { $0 = [microphone] }
        var player = PartReading()
        player.reset(source: Array("mpv".utf8), label: Array("mpv Media Player".utf8))
        player[MediaPart.playing] = 0
        player.setText(MediaPart.title, Array("Song \"1\"\u{1B}".utf8))
        player.setText(MediaPart.status, Array("paused".utf8))
        _ = s.listed.update(.media) { $0 = [player] }
        var build = PartReading()
        build.reset(source: Array("app".utf8), label: Array("Terminal".utf8))
        build[UnitsPart.cpu] = 18_500; build[UnitsPart.memory] = 734_003_200; build[UnitsPart.tasks] = 212
        build.setText(UnitsPart.unitName, Array("app-gnome-org.gnome.Terminal-4242.scope".utf8))
        _ = s.listed.update(.units) { $0 = [build] }
        s.available.formUnion(SnapshotSections(tag: .units)!)
        var wlan = InterfaceFigures()
        wlan.name = Array("wlan0".utf8)
        wlan.flags = [.up, .carrier, .defaultRoute, .wireless, .wifiLink, .rates]
        wlan.rxBytesPerSecond = 1200; wlan.txBytesPerSecond = 34
        wlan.ipv4 = Array("192.168.1.20".utf8)
        wlan.wifi.ssid = Array("Caf\u{E9} \"net\"".utf8) + [0xFF, 0x1B]
        wlan.wifi.signalDBm = -61; wlan.wifi.qualityPercent = 78; wlan.wifi.bitrateKbps = 866_700
        var eth = InterfaceFigures()
        eth.name = Array("eth0".utf8)
        eth.ipv6 = Array("2001:db8::20".utf8)
        s.interfaces = [wlan, eth]
        var root = DiskFigures()
        root.mount = Array("/".utf8); root.totalKiB = 100; root.usedKiB = 40; root.availableKiB = 55
        s.disks = [root]
        var nvme = DiskIOFigures()
        nvme.device = Array("nvme0n1".utf8); nvme.readBytesPerSecond = 5; nvme.writeBytesPerSecond = 6
        s.diskIO = [nvme]
        var t = TemperatureFigures()
        t.chip = Array("coretemp".utf8); t.label = Array("Package id 0".utf8); t.milliCelsius = 52_500
        s.temperatures = [t]
        s.cpuMHzAverage = 2345; s.cpuMHzMaximum = 4567
        var nvidia = GPUFigures()
        nvidia.index = 0; nvidia.driver = Array("nvidia".utf8); nvidia.name = Array("NVIDIA H200".utf8)
        nvidia.known = [.busy, .memoryBusy, .vram, .temperature, .power, .clock, .fan, .powerLimit]
        nvidia.busy = 9_700; nvidia.memoryBusy = 4_500
        nvidia.vramUsedBytes = 18_681_233_408; nvidia.vramTotalBytes = 150_754_820_096
        nvidia.milliCelsius = 64_000; nvidia.milliwatts = 612_340; nvidia.clockMHz = 1_980; nvidia.fan = 0
        nvidia.powerLimitMilliwatts = 700_000
        var intel = GPUFigures()
        intel.index = 1; intel.driver = Array("i915".utf8); intel.name = Array("8086:9a49".utf8)
        intel.known = [.clock]; intel.clockMHz = 1_300
        var amd = GPUFigures()
        amd.index = 2; amd.driver = Array("amdgpu".utf8); amd.name = Array("1002:164e".utf8)
        amd.known = [.busy, .vram, .gtt]; amd.busy = 500
        amd.vramUsedBytes = 1 << 29; amd.vramTotalBytes = 1 << 31; amd.gttUsedBytes = 1 << 27; amd.gttTotalBytes = 1 << 33
        s.gpus = [nvidia, intel, amd]
        return s
    }
}
