import Foundation
import HistoryRecords
import PrometheusText
import SnapshotCodec
import XCTest
import AllocationCounter
import TestSupport
@testable import Sampler

/// Runs Debian's promtool (the `prometheus` package, install/deps.sh) on an exposition.
enum Promtool {
    static let path = "/usr/bin/promtool"

    /// `promtool check metrics` on `bytes`: its status and what it said.
    static func checkMetrics(_ bytes: [UInt8]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["check", "metrics"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data(bytes))
        try input.fileHandleForWriting.close()
        let said = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: said, as: UTF8.self))
    }

    static func requireInstalled(file: StaticString = #filePath, line: UInt = #line) -> Bool {
        if FileManager.default.isExecutableFile(atPath: path) { return true }
        XCTFail("\(path) is missing: install Debian's prometheus package (install/deps.sh)", file: file, line: line)
        return false
    }
}

/// Every line of `text` is exposition-format syntax: a HELP or TYPE line, or a sample with
/// well-formed names, escapes only `\\` `\"` `\n` in label values, and a number.
func assertExpositionSyntax(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertNotNil(String(validatingUTF8: bytes.map { CChar(bitPattern: $0) } + [0]), "not UTF-8", file: file, line: line)
    XCTAssertEqual(bytes.last, 0x0A, "the last line ends with a newline", file: file, line: line)
    let text = String(decoding: bytes, as: UTF8.self)
    let name = "[a-zA-Z_:][a-zA-Z0-9_:]*"
    let labelValue = #""(?:[^"\\\n]|\\[\\"n])*""#
    let sample = try! NSRegularExpression(pattern:
        "^\(name)(?:\\{[a-zA-Z_][a-zA-Z0-9_]*=\(labelValue)(?:,[a-zA-Z_][a-zA-Z0-9_]*=\(labelValue))*\\})? -?[0-9]+(?:\\.[0-9]+)?$")
    let meta = try! NSRegularExpression(pattern: "^# (?:HELP \(name) [^\\n]*|TYPE \(name) (?:gauge|counter))$")
    var declared: Set<String> = []
    for l in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
        let s = String(l)
        let range = NSRange(s.startIndex..., in: s)
        if s.hasPrefix("#") {
            XCTAssertNotNil(meta.firstMatch(in: s, range: range), "bad metadata line: \(s)", file: file, line: line)
            if s.hasPrefix("# TYPE ") { declared.insert(String(s.split(separator: " ")[2])) }
        } else {
            XCTAssertNotNil(sample.firstMatch(in: s, range: range), "bad sample line: \(s)", file: file, line: line)
            let metric = String(s.prefix { $0 != "{" && $0 != " " })
            XCTAssertTrue(declared.contains(metric), "\(metric) has no TYPE before it", file: file, line: line)
        }
    }
}

/// A snapshot with every part measured, figures chosen to be told apart in the output.
func fullSnapshot() -> Snapshot {
    var s = Snapshot()
    s.available = .all
    s.timestampMs = 1_763_712_346_250
    s.intervalMs = 1000
    s.bootTime = 1_763_700_000
    s.uptimeCentiseconds = 1_234_567
    s.cpuBusy = 3500; s.cpuIOWait = 250
    s.memory.total = 8_000_000; s.memory.free = 1_420_000; s.memory.active = 2_300_000
    s.memory.inactive = 1_300_000; s.memory.wired = 150_000; s.memory.other = 2_830_000
    s.memory.available = 3_420_000; s.memory.used = 4_580_000
    s.memory.swapTotal = 2_000_000; s.memory.swapUsed = 500_000
    s.memoryPressure = 1250
    s.load1 = 60; s.load5 = 159; s.load15 = 1200
    s.processCount = 312; s.runningCount = 3
    s.battery.count = 1; s.battery.state = .discharging; s.battery.percent = 800
    s.battery.powerMilliwatts = 10_500; s.battery.minutesRemaining = 24
    s.topCPU = [ProcessEntry(pid: 1, cpu: 15_000, privateKiB: 10, name: Array("Firefox".utf8)),
                ProcessEntry(pid: 2, cpu: 250, privateKiB: 10, name: Array("bash".utf8))]
    s.topMemory = [ProcessEntry(pid: 1, cpu: 0, privateKiB: 400_000, name: Array("Firefox".utf8))]
    var eth = InterfaceFigures(); eth.name = Array("eth0".utf8); eth.rxBytes = 123_456_789; eth.txBytes = 42
    s.interfaces = [eth]
    var root = DiskFigures(); root.mount = Array("/".utf8); root.totalKiB = 1000; root.usedKiB = 600; root.availableKiB = 350
    s.disks = [root]
    var nvme = DiskIOFigures(); nvme.device = Array("nvme0n1".utf8); nvme.readBytes = 1_000_000; nvme.writeBytes = 2_000_000
    s.diskIO = [nvme]
    var t = TemperatureFigures(); t.chip = Array("coretemp".utf8); t.label = Array("Package id 0".utf8); t.milliCelsius = 45_500
    var cold = TemperatureFigures(); cold.chip = Array("acpitz".utf8); cold.label = Array("temp1".utf8); cold.milliCelsius = -1_250
    s.temperatures = [t, cold]
    var nvidia = GPUFigures(); nvidia.index = 0; nvidia.driver = Array("nvidia".utf8); nvidia.name = Array("NVIDIA H200".utf8)
    nvidia.known = [.busy, .memoryBusy, .vram, .temperature, .power, .clock, .fan, .powerLimit]
    nvidia.powerLimitMilliwatts = 700_000
    nvidia.busy = 9_700; nvidia.memoryBusy = 4_525; nvidia.vramUsedBytes = 18_681_233_408; nvidia.vramTotalBytes = 150_754_820_096
    nvidia.milliCelsius = 64_000; nvidia.milliwatts = 612_340; nvidia.clockMHz = 1_980
    var amd = GPUFigures(); amd.index = 1; amd.driver = Array("amdgpu".utf8); amd.name = Array("1002:164e".utf8)
    amd.known = [.busy, .gtt]; amd.busy = 0; amd.gttUsedBytes = 134_217_728; amd.gttTotalBytes = 8_589_934_592
    s.gpus = [nvidia, amd]
    var fan = PartReading(), system = PartReading(), package = PartReading(), panel = PartReading(), speakers = PartReading()
    fan.reset(source: Array("dell_smm".utf8), label: Array("Processor Fan".utf8))
    fan[FansPart.rpm] = 2_400; fan[FansPart.target] = 2_500
    system.reset(source: Array("system".utf8), label: Array("psys".utf8))
    system[PowerPart.watts] = 20_125
    package.reset(source: Array("rapl".utf8), label: Array("package-0".utf8))
    package[PowerPart.watts] = 9_000
    panel.reset(source: Array("firmware".utf8), label: Array("acpi_video0".utf8))
    panel[BacklightPart.percent] = 8_000; panel[BacklightPart.brightness] = 12; panel[BacklightPart.maximum] = 15
    _ = s.listed.update(.fans) { $0 = [fan] }
    _ = s.listed.update(.power) { $0 = [system, package] }
    _ = s.listed.update(.backlight) { $0 = [panel] }
    speakers.reset(source: Array("Headphones".utf8), label: Array("Built-in Audio Analog Stereo".utf8))
    speakers[VolumePart.volume] = 4_500; speakers[VolumePart.muted] = 1
    _ = s.listed.update(.volume) { $0 = [speakers] }
    s.samplerCPU = 12; s.samplerResidentKiB = 3_900
    return s
}

func fullCounters() -> PrometheusCounters {
    var c = PrometheusCounters()
    c.cpuTicks = .init(busy: 15_070, iowait: 1_005, idle: 80_125)
    c.ticksPerSecond = 100
    c.exits = 17
    c.freedKiB = 420_000
    c.boots = .init(clean: 3, unclean: 1, previousClean: false)
    return c
}

func format(_ s: Snapshot, _ c: PrometheusCounters = PrometheusCounters()) -> [UInt8] {
    var out: [UInt8] = []
    PrometheusText.format(s, counters: c, into: &out)
    return out
}

func lines(_ bytes: [UInt8]) -> [String] {
    String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
}

final class PrometheusTextTests: XCTestCase {
    func testEveryMeasuredPartIsWrittenInBaseUnitsWithHelpAndType() throws {
        let out = format(fullSnapshot(), fullCounters())
        assertExpositionSyntax(out)
        let l = Set(lines(out))
        for expected in [
            "sysstats_last_sample_timestamp_seconds 1763712346.25",
            "sysstats_sampler_interval_seconds 1",
            "sysstats_boot_time_seconds 1763700000",
            "sysstats_uptime_seconds 12345.67",
            "sysstats_boots{end=\"clean\"} 3",
            "sysstats_boots{end=\"unclean\"} 1",
            "sysstats_previous_boot_clean 0",
            "sysstats_cpu_seconds_total{mode=\"busy\"} 150.7",
            "sysstats_cpu_seconds_total{mode=\"iowait\"} 10.05",
            "sysstats_cpu_seconds_total{mode=\"idle\"} 801.25",
            "sysstats_cpu_busy_ratio 0.35",
            "sysstats_cpu_iowait_ratio 0.025",
            "sysstats_memory_bytes{part=\"free\"} 1454080000",
            "sysstats_memory_bytes{part=\"active\"} 2355200000",
            "sysstats_memory_bytes{part=\"inactive\"} 1331200000",
            "sysstats_memory_bytes{part=\"wired\"} 153600000",
            "sysstats_memory_bytes{part=\"other\"} 2897920000",
            "sysstats_memory_total_bytes 8192000000",
            "sysstats_memory_available_bytes 3502080000",
            "sysstats_swap_total_bytes 2048000000",
            "sysstats_swap_used_bytes 512000000",
            "sysstats_memory_pressure_ratio 0.125",
            "sysstats_load1 0.6", "sysstats_load5 1.59", "sysstats_load15 12",
            "sysstats_processes 312", "sysstats_processes_running 3",
            "sysstats_process_exits_total 17",
            "sysstats_process_freed_bytes_total 430080000",
            "sysstats_top_cpu_ratio{rank=\"1\",name=\"Firefox\"} 1.5",
            "sysstats_top_cpu_ratio{rank=\"2\",name=\"bash\"} 0.025",
            "sysstats_top_memory_bytes{rank=\"1\",name=\"Firefox\"} 409600000",
            "sysstats_batteries 1",
            "sysstats_battery_charge_ratio 0.08",
            "sysstats_battery_state{state=\"discharging\"} 1",
            "sysstats_battery_state{state=\"charging\"} 0",
            "sysstats_battery_power_watts 10.5",
            "sysstats_battery_remaining_seconds 1440",
            "sysstats_network_receive_bytes_total{interface=\"eth0\"} 123456789",
            "sysstats_network_transmit_bytes_total{interface=\"eth0\"} 42",
            "sysstats_disk_read_bytes_total{device=\"nvme0n1\"} 1000000",
            "sysstats_disk_written_bytes_total{device=\"nvme0n1\"} 2000000",
            "sysstats_filesystem_size_bytes{mountpoint=\"/\"} 1024000",
            "sysstats_filesystem_used_bytes{mountpoint=\"/\"} 614400",
            "sysstats_filesystem_avail_bytes{mountpoint=\"/\"} 358400",
            "sysstats_temperature_celsius{chip=\"coretemp\",sensor=\"Package id 0\"} 45.5",
            "sysstats_temperature_celsius{chip=\"acpitz\",sensor=\"temp1\"} -1.25",
            "sysstats_gpu_busy_ratio{card=\"0\",driver=\"nvidia\",name=\"NVIDIA H200\"} 0.97",
            "sysstats_gpu_busy_ratio{card=\"1\",driver=\"amdgpu\",name=\"1002:164e\"} 0",
            "sysstats_gpu_memory_busy_ratio{card=\"0\",driver=\"nvidia\",name=\"NVIDIA H200\"} 0.4525",
            "sysstats_gpu_memory_used_bytes{card=\"0\",driver=\"nvidia\",name=\"NVIDIA H200\"} 18681233408",
            "sysstats_gpu_memory_total_bytes{card=\"0\",driver=\"nvidia\",name=\"NVIDIA H200\"} 150754820096",
            "sysstats_gpu_gtt_used_bytes{card=\"1\",driver=\"amdgpu\",name=\"1002:164e\"} 134217728",
            "sysstats_gpu_temperature_celsius{card=\"0\",driver=\"nvidia\",name=\"NVIDIA H200\"} 64",
            "sysstats_gpu_power_watts{card=\"0\",driver=\"nvidia\",name=\"NVIDIA H200\"} 612.34",
            "sysstats_gpu_clock_hertz{card=\"0\",driver=\"nvidia\",name=\"NVIDIA H200\"} 1980000000",
            "sysstats_fan_speed_rpm{chip=\"dell_smm\",label=\"Processor Fan\"} 2400",
            "sysstats_fan_target_rpm{chip=\"dell_smm\",label=\"Processor Fan\"} 2500",
            "sysstats_power_watts{source=\"system\",label=\"psys\"} 20.125",
            "sysstats_power_watts{source=\"rapl\",label=\"package-0\"} 9",
            "sysstats_backlight_brightness_ratio{type=\"firmware\",label=\"acpi_video0\"} 0.8",
            "sysstats_volume_ratio{port=\"Headphones\",label=\"Built-in Audio Analog Stereo\"} 0.45",
            "sysstats_volume_muted{port=\"Headphones\",label=\"Built-in Audio Analog Stereo\"} 1",
            "sysstats_sampler_cpu_ratio 0.0012",
            "sysstats_sampler_resident_bytes 3993600",
        ] {
            XCTAssertTrue(l.contains(expected), "missing: \(expected)")
        }
        // One HELP and one TYPE per family, and every family has samples.
        let all = lines(out)
        let helps = all.filter { $0.hasPrefix("# HELP ") }.map { $0.split(separator: " ")[2] }
        let types = all.filter { $0.hasPrefix("# TYPE ") }.map { $0.split(separator: " ")[2] }
        XCTAssertEqual(helps, types)
        XCTAssertEqual(Set(helps).count, helps.count)
        let counters = all.filter { $0.hasPrefix("# TYPE ") && $0.hasSuffix(" counter") }.map { String($0.split(separator: " ")[2]) }
        XCTAssertTrue(counters.allSatisfy { $0.hasSuffix("_total") }, "\(counters)")
        if Promtool.requireInstalled() {
            let check = try Promtool.checkMetrics(out)
            XCTAssertEqual(check.status, 0, check.output)
            XCTAssertEqual(check.output, "", "promtool's lint has nothing to say")
        }
    }

    func testAPartNotMeasuredIsLeftOutNotWrittenAsZero() {
        var s = fullSnapshot()
        s.available = []
        s.memoryPressure = nil
        let out = lines(format(s))
        XCTAssertEqual(out.filter { !$0.hasPrefix("#") },
                       ["sysstats_last_sample_timestamp_seconds 1763712346.25", "sysstats_sampler_interval_seconds 1"])

        // Measured, but a figure the sensor does not give: left out too.
        var b = fullSnapshot()
        b.battery.powerMilliwatts = 0
        b.battery.minutesRemaining = .max
        let battery = lines(format(b)).filter { $0.hasPrefix("sysstats_batter") }
        XCTAssertFalse(battery.contains { $0.hasPrefix("sysstats_battery_power_watts") || $0.hasPrefix("sysstats_battery_remaining") })
        XCTAssertTrue(battery.contains("sysstats_battery_charge_ratio 0.08"))

        // No battery is a measured "none": the count alone.
        var desktop = fullSnapshot()
        desktop.battery = BatteryFigures()
        XCTAssertEqual(lines(format(desktop)).filter { $0.hasPrefix("sysstats_batter") }, ["sysstats_batteries 0"])

        // Empty lists write no family at all (no HELP without samples).
        var bare = fullSnapshot()
        bare.interfaces = []; bare.disks = []; bare.diskIO = []; bare.temperatures = []; bare.topCPU = []; bare.topMemory = []
        let text = String(decoding: format(bare), as: UTF8.self)
        for family in ["network", "filesystem", "disk_", "temperature", "top_"] {
            XCTAssertFalse(text.contains("sysstats_\(family)"), family)
        }
    }

    func testHostileNamesAreEscapedAndBoundedAndPromtoolAcceptsThem() throws {
        var s = fullSnapshot()
        let hostile: [[UInt8]] = [
            Array("say \"hi\"".utf8),
            Array(#"C:\temp\"#.utf8),
            Array("two\nlines".utf8),
            [0x66, 0xFF, 0x6F, 0xC3, 0x28, 0xED, 0xA0, 0x80, 0x6F],          // invalid UTF-8, a surrogate
            [UInt8](repeating: 0x22, count: 4096),                              // 4 KiB of quotes
        ]
        s.topCPU = hostile.enumerated().map { ProcessEntry(pid: UInt32($0.offset), cpu: 100, privateKiB: 1, name: $0.element) }
        s.topMemory = [ProcessEntry(pid: 9, cpu: 0, privateKiB: 1, name: Array(String(repeating: "é\\", count: 2048).utf8)),
                       ProcessEntry(pid: 10, cpu: 0, privateKiB: 1, name: [0x61, 0x09, 0x0D, 0x7F, 0xC2, 0x9B, 0x00, 0x62])]
        let out = format(s)
        assertExpositionSyntax(out)
        let l = lines(out)
        XCTAssertTrue(l.contains(#"sysstats_top_cpu_ratio{rank="1",name="say \"hi\""} 0.01"#))
        XCTAssertTrue(l.contains(#"sysstats_top_cpu_ratio{rank="2",name="C:\\temp\\"} 0.01"#))
        XCTAssertTrue(l.contains(#"sysstats_top_cpu_ratio{rank="3",name="two\nlines"} 0.01"#))
        XCTAssertTrue(l.contains("sysstats_top_cpu_ratio{rank=\"4\",name=\"f\u{FFFD}o\u{FFFD}(\u{FFFD}\u{FFFD}\u{FFFD}o\"} 0.01"), "\(l)")
        XCTAssertTrue(l.contains("sysstats_top_cpu_ratio{rank=\"5\",name=\"" + String(repeating: "\\\"", count: 64) + "\"} 0.01"))
        XCTAssertTrue(l.contains("sysstats_top_memory_bytes{rank=\"1\",name=\"" + String(repeating: "é\\\\", count: 32) + "\"} 1024"))
        // Tab, carriage return, DEL, the C1 CSI and NUL: each a "?".
        XCTAssertTrue(l.contains("sysstats_top_memory_bytes{rank=\"2\",name=\"a?????b\"} 1024"), "\(l)")
        if Promtool.requireInstalled() {
            let check = try Promtool.checkMetrics(out)
            XCTAssertEqual(check.status, 0, check.output)
        }
    }

    func testEntriesWhoseLabelsComeOutTheSameAreToldApartByN() throws {
        var s = fullSnapshot()
        var nvme = TemperatureFigures(); nvme.chip = Array("nvme".utf8); nvme.label = Array("Composite".utf8); nvme.milliCelsius = 40_000
        var other = nvme; other.milliCelsius = 41_000
        var third = nvme; third.milliCelsius = 42_000
        s.temperatures = [nvme, other, third]
        var a = InterfaceFigures(); a.name = [0x77, 0xFF]; a.rxBytes = 1
        var b = InterfaceFigures(); b.name = [0x77, 0xFE]; b.rxBytes = 2   // both "w\u{FFFD}" once escaped
        s.interfaces = [a, b]
        let out = format(s)
        let l = lines(out)
        XCTAssertTrue(l.contains("sysstats_temperature_celsius{chip=\"nvme\",sensor=\"Composite\"} 40"))
        XCTAssertTrue(l.contains("sysstats_temperature_celsius{chip=\"nvme\",sensor=\"Composite\",n=\"2\"} 41"))
        XCTAssertTrue(l.contains("sysstats_temperature_celsius{chip=\"nvme\",sensor=\"Composite\",n=\"3\"} 42"))
        XCTAssertTrue(l.contains("sysstats_network_receive_bytes_total{interface=\"w\u{FFFD}\"} 1"))
        XCTAssertTrue(l.contains("sysstats_network_receive_bytes_total{interface=\"w\u{FFFD}\",n=\"2\"} 2"))
        if Promtool.requireInstalled() {
            let check = try Promtool.checkMetrics(out)
            XCTAssertEqual(check.status, 0, check.output)
        }
    }

    func testLabelValuesAreCutBeforeACharacterOrEscapeThatWouldNotFit() {
        func escaped(_ raw: [UInt8]) -> [UInt8] {
            var out: [UInt8] = []
            raw.withUnsafeBytes { PrometheusText.appendLabelValue($0, to: &out) }
            return out
        }
        XCTAssertEqual(escaped(Array(repeating: 0x61, count: 200)).count, PrometheusText.maximumLabelBytes)
        // 127 bytes, then an escape of two: cut before it, never half an escape.
        let cut = escaped(Array(repeating: 0x61, count: 127) + [0x5C, 0x5C])
        XCTAssertEqual(cut, Array(repeating: 0x61, count: 127))
        // 126 bytes, then a three-byte character: cut before it, never half a character.
        XCTAssertEqual(escaped(Array(repeating: 0x61, count: 126) + Array("€".utf8)), Array(repeating: 0x61, count: 126))
        XCTAssertEqual(escaped([]), [])
    }

    func testArithmeticSaturatesAndTicksFollowUserHZ() {
        var s = Snapshot()
        s.available = [.memory, .sampler, .disks]
        s.memory.total = .max; s.memory.available = UInt64.max / 1024 + 1
        var d = DiskFigures(); d.mount = Array("/".utf8); d.totalKiB = .max
        s.disks = [d]
        var c = PrometheusCounters()
        c.cpuTicks = .init(busy: .max, iowait: 250, idle: 0)
        c.ticksPerSecond = 250
        c.freedKiB = .max
        c.exits = .max
        let l = Set(lines(format(s, c)))
        XCTAssertTrue(l.contains("sysstats_memory_total_bytes 18446744073709551615"))
        XCTAssertTrue(l.contains("sysstats_memory_available_bytes 18446744073709551615"))
        XCTAssertTrue(l.contains("sysstats_filesystem_size_bytes{mountpoint=\"/\"} 18446744073709551615"))
        XCTAssertTrue(l.contains("sysstats_process_freed_bytes_total 18446744073709551615"))
        XCTAssertTrue(l.contains("sysstats_process_exits_total 18446744073709551615"))
        XCTAssertTrue(l.contains("sysstats_cpu_seconds_total{mode=\"iowait\"} 1"), "250 ticks at 250 Hz")
        XCTAssertTrue(l.contains("sysstats_cpu_seconds_total{mode=\"busy\"} 73786976294838206"), "UInt64.max ticks at 250 Hz: whole seconds when ×100 overflows")
        XCTAssertTrue(l.contains("sysstats_cpu_seconds_total{mode=\"idle\"} 0"))
    }

    /// Every list full, every name 4 KiB of bytes that escape to the most, every number at
    /// its longest: the file still fits the buffer the writer reserves.
    func testTheLongestFileFitsTheReservedBuffer() throws {
        var s = Snapshot()
        s.available = .all
        s.timestampMs = .max; s.intervalMs = .max; s.bootTime = .max; s.uptimeCentiseconds = .max
        s.cpuBusy = .max; s.cpuIOWait = .max; s.samplerCPU = .max; s.samplerResidentKiB = .max
        s.memory.total = .max; s.memory.free = .max; s.memory.active = .max; s.memory.inactive = .max
        s.memory.wired = .max; s.memory.other = .max; s.memory.available = .max
        s.memory.swapTotal = .max; s.memory.swapUsed = .max
        s.memoryPressure = .max
        s.load1 = .max; s.load5 = .max; s.load15 = .max; s.processCount = .max; s.runningCount = .max
        s.battery.count = .max; s.battery.percent = .max; s.battery.powerMilliwatts = .max; s.battery.minutesRemaining = .max - 1
        let worst = [UInt8](repeating: 0xFF, count: 4096)   // each byte becomes U+FFFD: three bytes
        let entry = ProcessEntry(pid: .max, cpu: .max, privateKiB: .max, name: worst)
        s.topCPU = Array(repeating: entry, count: Snapshot.maximumTopEntries)
        s.topMemory = Array(repeating: entry, count: Snapshot.maximumTopEntries)
        var i = InterfaceFigures(); i.name = worst; i.rxBytes = .max; i.txBytes = .max
        s.interfaces = Array(repeating: i, count: Snapshot.maximumInterfaces)
        var d = DiskFigures(); d.mount = worst; d.totalKiB = .max; d.usedKiB = .max; d.availableKiB = .max
        s.disks = Array(repeating: d, count: Snapshot.maximumDisks)
        var io = DiskIOFigures(); io.device = worst; io.readBytes = .max; io.writeBytes = .max
        s.diskIO = Array(repeating: io, count: Snapshot.maximumDiskDevices)
        var t = TemperatureFigures(); t.chip = worst; t.label = worst; t.milliCelsius = .min
        s.temperatures = Array(repeating: t, count: Snapshot.maximumSensors)
        var g = GPUFigures(); g.index = .max; g.driver = worst; g.name = worst; g.known = GPUFigures.Known(rawValue: .max)
        g.busy = .max; g.memoryBusy = .max; g.vramUsedBytes = .max; g.vramTotalBytes = .max; g.gttUsedBytes = .max
        g.gttTotalBytes = .max; g.milliCelsius = .min; g.milliwatts = .max; g.clockMHz = .max; g.fan = .max
        s.gpus = Array(repeating: g, count: Snapshot.maximumGPUs)
        for part in ListedPart.all {
            var r = PartReading()
            r.source = worst; r.label = worst
            for f in 0..<part.figures.count { r[f] = part.figures[f].unit == .milliCelsius ? .min : .max }
            _ = s.listed.update(part.tag) { $0 = Array(repeating: r, count: part.maximumReadings) }
        }
        var c = fullCounters()
        c.cpuTicks = .init(busy: .max, iowait: .max, idle: .max); c.ticksPerSecond = 1
        c.exits = .max; c.freedKiB = .max; c.boots = .init(clean: .max, unclean: .max, previousClean: true)
        let out = format(s, c)
        XCTAssertLessThanOrEqual(out.count, PrometheusText.maximumSize)
        XCTAssertGreaterThan(out.count, PrometheusText.maximumSize * 3 / 4, "the bound is not far above the worst case")
        // The cardinality bound docs/fleet.md states ("at most **N\nseries**"): every list full.
        let fleet = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("docs/fleet.md"), encoding: .utf8)
        let stated = fleet.components(separatedBy: "writes at most **").dropFirst().first?.prefix { $0.isNumber }
        XCTAssertEqual(lines(out).filter { !$0.hasPrefix("#") }.count, stated.flatMap { Int($0) }, "docs/fleet.md's bound")
        assertExpositionSyntax(out)
    }
}

/// The writer in the sampler: the file on disk, its mode, the directory's checks.
final class TextfileWriterTests: XCTestCase {
    var directory: TemporaryDirectory!
    override func setUpWithError() throws { directory = try TemporaryDirectory("textfile") }
    override func tearDownWithError() throws { directory = nil }

    func testTheFileIsReplacedWholeWithMode0644WhateverTheUmask() throws {
        let writer = try TextfileWriter.open(directory.path).get()
        XCTAssertEqual(writer.path, directory.file("sysstats.prom"))
        let old = umask(0o077)
        defer { umask(old) }
        try directory.write(Array("leftover".utf8), to: ".sysstats.prom.tmp")   // a crash's leftover
        var s = fullSnapshot()
        XCTAssertNoThrow(try writer.write(s, counters: fullCounters()).get())
        s.processCount = 313
        XCTAssertNoThrow(try writer.write(s, counters: fullCounters()).get())
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: writer.path)))
        XCTAssertEqual(bytes, format(s, fullCounters()))
        let attributes = try FileManager.default.attributesOfItem(atPath: writer.path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o644)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["sysstats.prom"],
                       "no temporary file left")
    }

    func testTheDirectoryMustBeADirectoryNotASymbolicLinkNorMissing() throws {
        let file = directory.file("plain")
        try directory.write([], to: "plain")
        let link = directory.file("link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: directory.path)
        let fileLink = directory.file("file-link")
        try FileManager.default.createSymbolicLink(atPath: fileLink, withDestinationPath: file)
        func refusal(_ path: String) -> TextfileDirectoryError? {
            if case .failure(let e) = TextfileWriter.open(path) { return e }
            return nil
        }
        XCTAssertEqual(refusal(file), .notDirectory(path: file))
        XCTAssertEqual(refusal(link), .symbolicLink(path: link))
        XCTAssertEqual(refusal(fileLink), .symbolicLink(path: fileLink))
        let missing = directory.file("missing")
        guard case .cannotOpen(missing, let e)? = refusal(missing) else { return XCTFail() }
        XCTAssertEqual(e, .noSuchFile)
        XCTAssertEqual(refusal(link)?.description,
                       "the textfile directory \(link) is a symbolic link; give the directory itself")
    }

    func testFormattingAndWritingTheFileAllocateNothingInSteadyState() throws {
        let writer = try TextfileWriter.open(directory.path).get()
        let boots = BootSummaryReader(dataDirectory: directory.path)
        try directory.write(BootSummary(clean: 2, unclean: 1, previousClean: true).encoded, to: BootSummary.fileName)
        let s = fullSnapshot()
        var c = fullCounters()
        for _ in 0..<3 {   // first calls: lazy globals and metadata
            c.boots = boots.read()
            _ = writer.write(s, counters: c)
        }
        allocation_counter_start()
        for _ in 0..<100 {
            c.boots = boots.read()
            _ = writer.write(s, counters: c)
        }
        let allocations = allocation_counter_stop()
        XCTAssertEqual(allocations, 0, "100 writes allocated \(allocations) times")
        XCTAssertEqual(c.boots, .init(clean: 2, unclean: 1, previousClean: true))
    }
}

/// The counters the sampler keeps for the export, on the committed fixture trees.
final class PrometheusCountersTests: XCTestCase {
    func testExitsFreedMemoryAndCPUTicksAreCountedFromTheFixture() throws {
        let machine = try FixtureMachine("sampler-desktop")
        var config = SamplerConfiguration()
        config.procRoot = machine.procRoot
        config.sysRoot = machine.sysRoot
        config.measureSelf = false
        try machine.advance(to: 1)
        let sampler = Sampler(configuration: config)
        XCTAssertNil(sampler.prometheusCounters.exits, "not scanned yet: no counter, not 0")
        XCTAssertNil(sampler.prometheusCounters.cpuTicks)
        sampler.sample(realtimeMs: SamplerTests.t0, monotonicNs: 1_000_000_000)
        XCTAssertEqual(sampler.prometheusCounters.exits, 0)
        try machine.advance(to: 2)
        sampler.sample(realtimeMs: SamplerTests.t0 + 1000, monotonicNs: 2_000_000_000)
        let c = sampler.prometheusCounters
        XCTAssertEqual(c.exits, 1, "firefox-esr (pid 100) left")
        XCTAssertEqual(c.freedKiB, 400_798, "the rise of 420,000 KiB, credited up to what it held (ExitTracker.creditLimitKiB)")
        XCTAssertEqual(c.cpuTicks, .init(busy: 15_070, iowait: 1_005, idle: 80_125))
        // The same tree again: nothing more exited, the counters stay.
        sampler.sample(realtimeMs: SamplerTests.t0 + 2000, monotonicNs: 3_000_000_000)
        XCTAssertEqual(sampler.prometheusCounters.exits, 1)
        XCTAssertEqual(sampler.prometheusCounters.freedKiB, 400_798)
    }

    func testBootSummaryRoundTripsAndAnythingElseIsRefused() {
        func parse(_ text: String) -> BootSummary? { Array(text.utf8).withUnsafeBytes { BootSummary.parse($0) } }
        for summary in [BootSummary(clean: 0, unclean: 0, previousClean: nil), BootSummary(clean: 12, unclean: 3, previousClean: false),
                        BootSummary(clean: 1, unclean: 0, previousClean: true)] {
            XCTAssertEqual(summary.encoded.withUnsafeBytes { BootSummary.parse($0) }, summary)
        }
        XCTAssertEqual(BootSummary(earlierBootsCleanEnds: [true, false, true, false]),
                       BootSummary(clean: 2, unclean: 2, previousClean: false))
        XCTAssertEqual(parse("3 1 0\n"), BootSummary(clean: 3, unclean: 1, previousClean: false))
        for bad in ["", "3 1 0", "3 1 2\n", "3  1 0\n", "-3 1 0\n", "3 1 0\n\n", "99999999999999999999 1 0\n", "a b c\n",
                    String(repeating: "1", count: 60)] {
            XCTAssertNil(parse(bad), bad)
        }
    }
}
