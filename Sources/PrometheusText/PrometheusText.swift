// The snapshot in Prometheus's text exposition format (version 0.0.4), for node_exporter's
// textfile collector (docs/fleet.md). No Foundation, no Glibc, no String: bytes appended to
// one array whose capacity the caller reserved (``PrometheusText/maximumSize``), so a
// steady-state write allocates nothing. Arithmetic saturates; a part of the snapshot that
// was not measured is left out, never written as 0.

import SnapshotCodec
import UTF8Text

/// Figures the export needs that the snapshot does not carry: counters since boot (or since
/// the sampler started) that the sampler keeps.
public struct PrometheusCounters: Equatable, Sendable {
    /// /proc/stat's aggregate `cpu` line, ticks since boot, summed over all CPUs.
    public struct CPUTicks: Equatable, Sendable {
        public var busy: UInt64, iowait: UInt64, idle: UInt64
        public init(busy: UInt64, iowait: UInt64, idle: UInt64) { self.busy = busy; self.iowait = iowait; self.idle = idle }
    }
    /// The earlier boots the history keeps, by how they ended (the running one not counted),
    /// and how the boot before the running one ended (nil: there was none).
    public struct Boots: Equatable, Sendable {
        public var clean: UInt64, unclean: UInt64
        public var previousClean: Bool?
        public init(clean: UInt64, unclean: UInt64, previousClean: Bool?) {
            self.clean = clean; self.unclean = unclean; self.previousClean = previousClean
        }
    }
    /// nil: /proc/stat not read.
    public var cpuTicks: CPUTicks?
    /// USER_HZ, the ticks in one second of one CPU (sysconf(_SC_CLK_TCK); 100 on Linux).
    public var ticksPerSecond: UInt64 = 100
    /// Processes (not kernel threads) that exited since the sampler started; nil: not scanned.
    public var exits: UInt64?
    /// Memory the exits freed as MemAvailable measured it (``ExitEntry/freedKiB``), KiB, summed.
    public var freedKiB: UInt64?
    /// nil: no history (or not read yet).
    public var boots: Boots?
    public init() {}
}

public enum PrometheusText {
    /// What node_exporter's textfile collector reads (it reads `*.prom` files only).
    public static let fileName = "sysstats.prom"
    /// A label value's limit, bytes after escaping (a process name is at most 48 bytes, an
    /// interface 15, a mount point 64: only hostile input is ever cut).
    public static let maximumLabelBytes = 128
    /// The longest file ``format(_:counters:into:)`` writes: every list full, every label at
    /// its limit, every number at its longest (a unit test builds that snapshot).
    public static let maximumSize = 24 * 1024

    /// Replaces `out`'s contents with the exposition of `s` and `counters`.
    public static func format(_ s: Snapshot, counters: PrometheusCounters, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        // Swapped in and out: `w` holds the only reference, so appends stay in place.
        var w = ExpositionWriter(out: [])
        swap(&w.out, &out)
        write(s, counters, &w)
        swap(&w.out, &out)
    }

    private static func write(_ s: Snapshot, _ c: PrometheusCounters, _ w: inout ExpositionWriter) {
        let a = s.available
        w.family("sysstats_last_sample_timestamp_seconds", "When the sampler took the sample this file shows, seconds since the epoch.", .gauge)
        w.sample("sysstats_last_sample_timestamp_seconds", fixed: s.timestampMs, decimals: 3)
        w.family("sysstats_sampler_interval_seconds", "Seconds between the sampler's samples.", .gauge)
        w.sample("sysstats_sampler_interval_seconds", fixed: UInt64(s.intervalMs), decimals: 3)

        if a.contains(.uptime) {
            w.family("sysstats_boot_time_seconds", "When the machine booted, seconds since the epoch.", .gauge)
            w.sample("sysstats_boot_time_seconds", s.bootTime)
            w.family("sysstats_uptime_seconds", "Seconds since the machine booted.", .gauge)
            w.sample("sysstats_uptime_seconds", fixed: s.uptimeCentiseconds, decimals: 2)
        }
        if let boots = c.boots {
            // Gauges, not counters: history retention drops old boots, so the figures can fall.
            w.family("sysstats_boots", "Earlier boots the history keeps, by how they ended (clean: the sampler was stopped; unclean: crash or power loss).", .gauge)
            w.begin("sysstats_boots"); w.label("end", "clean"); w.value(boots.clean)
            w.begin("sysstats_boots"); w.label("end", "unclean"); w.value(boots.unclean)
            if let clean = boots.previousClean {
                w.family("sysstats_previous_boot_clean", "1 when the boot before this one ended cleanly, 0 after a crash or power loss.", .gauge)
                w.sample("sysstats_previous_boot_clean", clean ? 1 : 0)
            }
        }

        if let t = c.cpuTicks {
            w.family("sysstats_cpu_seconds_total", "CPU time since boot summed over all CPUs, by mode (busy excludes iowait; busy + iowait + idle is all of it).", .counter)
            let hz = max(c.ticksPerSecond, 1)
            // One call per line, not a loop over a literal list: an array literal allocates.
            w.begin("sysstats_cpu_seconds_total"); w.label("mode", "busy"); w.fixedValue(centiseconds(t.busy, hz), decimals: 2)
            w.begin("sysstats_cpu_seconds_total"); w.label("mode", "iowait"); w.fixedValue(centiseconds(t.iowait, hz), decimals: 2)
            w.begin("sysstats_cpu_seconds_total"); w.label("mode", "idle"); w.fixedValue(centiseconds(t.idle, hz), decimals: 2)
        }
        if a.contains(.cpu) {
            w.family("sysstats_cpu_busy_ratio", "Share of all CPUs' time busy over the sampler's last interval (what the bar shows).", .gauge)
            w.sample("sysstats_cpu_busy_ratio", fixed: UInt64(s.cpuBusy), decimals: 4)
            w.family("sysstats_cpu_iowait_ratio", "Share of all CPUs' time waiting for I/O over the sampler's last interval.", .gauge)
            w.sample("sysstats_cpu_iowait_ratio", fixed: UInt64(s.cpuIOWait), decimals: 4)
        }

        if a.contains(.memory) {
            let m = s.memory
            w.family("sysstats_memory_bytes", "Memory by part: free, active, inactive, wired (kernel, unevictable, locked) and other; the parts sum to the total.", .gauge)
            w.begin("sysstats_memory_bytes"); w.label("part", "free"); w.value(bytes(m.free))
            w.begin("sysstats_memory_bytes"); w.label("part", "active"); w.value(bytes(m.active))
            w.begin("sysstats_memory_bytes"); w.label("part", "inactive"); w.value(bytes(m.inactive))
            w.begin("sysstats_memory_bytes"); w.label("part", "wired"); w.value(bytes(m.wired))
            w.begin("sysstats_memory_bytes"); w.label("part", "other"); w.value(bytes(m.other))
            w.family("sysstats_memory_total_bytes", "Memory the kernel manages (MemTotal).", .gauge)
            w.sample("sysstats_memory_total_bytes", bytes(m.total))
            w.family("sysstats_memory_available_bytes", "Memory available to start programs without swapping (MemAvailable).", .gauge)
            w.sample("sysstats_memory_available_bytes", bytes(m.available))
            w.family("sysstats_swap_total_bytes", "Swap space.", .gauge)
            w.sample("sysstats_swap_total_bytes", bytes(m.swapTotal))
            w.family("sysstats_swap_used_bytes", "Swap space in use.", .gauge)
            w.sample("sysstats_swap_used_bytes", bytes(m.swapUsed))
        }
        if let p = s.memoryPressure {
            w.family("sysstats_memory_pressure_ratio", "Share of the last 10 s in which some task stalled on memory (PSI some avg10).", .gauge)
            w.sample("sysstats_memory_pressure_ratio", fixed: UInt64(p), decimals: 4)
        }

        if a.contains(.load) {
            w.family("sysstats_load1", "Load average over 1 minute.", .gauge)
            w.sample("sysstats_load1", fixed: UInt64(s.load1), decimals: 2)
            w.family("sysstats_load5", "Load average over 5 minutes.", .gauge)
            w.sample("sysstats_load5", fixed: UInt64(s.load5), decimals: 2)
            w.family("sysstats_load15", "Load average over 15 minutes.", .gauge)
            w.sample("sysstats_load15", fixed: UInt64(s.load15), decimals: 2)
        }
        if a.contains(.processes) {
            w.family("sysstats_processes", "Processes (and kernel threads) in the process table.", .gauge)
            w.sample("sysstats_processes", UInt64(s.processCount))
            w.family("sysstats_processes_running", "Tasks running or ready to run (procs_running).", .gauge)
            w.sample("sysstats_processes_running", UInt64(s.runningCount))
        }
        if let exits = c.exits {
            w.family("sysstats_process_exits_total", "Processes (not kernel threads) that exited since the sampler started.", .counter)
            w.sample("sysstats_process_exits_total", exits)
        }
        if let freed = c.freedKiB {
            w.family("sysstats_process_freed_bytes_total", "Memory freed by process exits since the sampler started, as the rise of available memory measured it.", .counter)
            w.sample("sysstats_process_freed_bytes_total", bytes(freed))
        }
        if a.contains(.top) {
            if !s.topCPU.isEmpty {
                w.family("sysstats_top_cpu_ratio", "The processes using the most CPU, as a share of one CPU; rank 1 is the highest, at most 5.", .gauge)
                for i in 0..<min(s.topCPU.count, Snapshot.maximumTopEntries) {
                    w.begin("sysstats_top_cpu_ratio"); w.rank(i + 1); w.label("name", bytes: s.topCPU[i].name)
                    w.fixedValue(UInt64(s.topCPU[i].cpu), decimals: 4)
                }
            }
            if !s.topMemory.isEmpty {
                w.family("sysstats_top_memory_bytes", "The processes with the most private memory; rank 1 is the highest, at most 5.", .gauge)
                for i in 0..<min(s.topMemory.count, Snapshot.maximumTopEntries) {
                    w.begin("sysstats_top_memory_bytes"); w.rank(i + 1); w.label("name", bytes: s.topMemory[i].name)
                    w.value(bytes(s.topMemory[i].privateKiB))
                }
            }
        }

        if a.contains(.battery) {
            let b = s.battery
            w.family("sysstats_batteries", "Batteries found (0 on a machine without one).", .gauge)
            w.sample("sysstats_batteries", UInt64(b.count))
            if b.count > 0 {
                w.family("sysstats_battery_charge_ratio", "Charge of the batteries together.", .gauge)
                w.sample("sysstats_battery_charge_ratio", fixed: UInt64(min(b.percent, 10_000)), decimals: 4)
                w.family("sysstats_battery_state", "1 for the batteries' state, 0 for the others.", .gauge)
                w.batteryState("unknown", b.state == .unknown)
                w.batteryState("charging", b.state == .charging)
                w.batteryState("discharging", b.state == .discharging)
                w.batteryState("not_charging", b.state == .notCharging)
                w.batteryState("full", b.state == .full)
                if b.powerMilliwatts > 0 {
                    w.family("sysstats_battery_power_watts", "Power flowing into or out of the batteries.", .gauge)
                    w.sample("sysstats_battery_power_watts", fixed: UInt64(b.powerMilliwatts), decimals: 3)
                }
                if b.minutesRemaining != .max {
                    w.family("sysstats_battery_remaining_seconds", "Time until empty (discharging) or full (charging).", .gauge)
                    w.sample("sysstats_battery_remaining_seconds", UInt64(b.minutesRemaining) &* 60)
                }
            }
        }

        if a.contains(.network), !s.interfaces.isEmpty {
            // Index loops: a slice's or `enumerated()`'s iterator allocates in a debug build.
            let n = min(s.interfaces.count, Snapshot.maximumInterfaces)
            w.family("sysstats_network_receive_bytes_total", "Bytes received by the interface since it appeared.", .counter)
            for i in 0..<n {
                w.begin("sysstats_network_receive_bytes_total"); w.label("interface", bytes: s.interfaces[i].name); w.value(s.interfaces[i].rxBytes)
            }
            w.family("sysstats_network_transmit_bytes_total", "Bytes sent by the interface since it appeared.", .counter)
            for i in 0..<n {
                w.begin("sysstats_network_transmit_bytes_total"); w.label("interface", bytes: s.interfaces[i].name); w.value(s.interfaces[i].txBytes)
            }
        }
        if a.contains(.diskIO), !s.diskIO.isEmpty {
            let n = min(s.diskIO.count, Snapshot.maximumDiskDevices)
            w.family("sysstats_disk_read_bytes_total", "Bytes read from the whole disk since boot.", .counter)
            for i in 0..<n { w.begin("sysstats_disk_read_bytes_total"); w.label("device", bytes: s.diskIO[i].device); w.value(s.diskIO[i].readBytes) }
            w.family("sysstats_disk_written_bytes_total", "Bytes written to the whole disk since boot.", .counter)
            for i in 0..<n { w.begin("sysstats_disk_written_bytes_total"); w.label("device", bytes: s.diskIO[i].device); w.value(s.diskIO[i].writeBytes) }
        }
        if a.contains(.disks), !s.disks.isEmpty {
            let n = min(s.disks.count, Snapshot.maximumDisks)
            w.family("sysstats_filesystem_size_bytes", "Size of the file system mounted there.", .gauge)
            for i in 0..<n { w.begin("sysstats_filesystem_size_bytes"); w.label("mountpoint", bytes: s.disks[i].mount); w.value(bytes(s.disks[i].totalKiB)) }
            w.family("sysstats_filesystem_used_bytes", "Space in use (as df: reserved blocks are neither used nor available).", .gauge)
            for i in 0..<n { w.begin("sysstats_filesystem_used_bytes"); w.label("mountpoint", bytes: s.disks[i].mount); w.value(bytes(s.disks[i].usedKiB)) }
            w.family("sysstats_filesystem_avail_bytes", "Space available to unprivileged users.", .gauge)
            for i in 0..<n {
                w.begin("sysstats_filesystem_avail_bytes"); w.label("mountpoint", bytes: s.disks[i].mount); w.value(bytes(s.disks[i].availableKiB))
            }
        }
        if a.contains(.temperature), !s.temperatures.isEmpty {
            w.family("sysstats_temperature_celsius", "Temperature of the sensor (chip: the hwmon chip or thermal zone; sensor: its label).", .gauge)
            for i in 0..<min(s.temperatures.count, Snapshot.maximumSensors) {
                w.begin("sysstats_temperature_celsius")
                w.label("chip", bytes: s.temperatures[i].chip); w.label("sensor", bytes: s.temperatures[i].label)
                w.signedFixedValue(Int64(s.temperatures[i].milliCelsius), decimals: 3)
            }
        }

        if a.contains(.sampler) {
            w.family("sysstats_sampler_cpu_ratio", "The sampler's own CPU use over its last interval, as a share of one CPU.", .gauge)
            w.sample("sysstats_sampler_cpu_ratio", fixed: UInt64(s.samplerCPU), decimals: 4)
            w.family("sysstats_sampler_resident_bytes", "The sampler's own resident memory.", .gauge)
            w.sample("sysstats_sampler_resident_bytes", bytes(UInt64(s.samplerResidentKiB)))
        }
    }

    /// KiB to bytes, saturating.
    @inline(__always)
    static func bytes(_ kib: UInt64) -> UInt64 {
        let (product, overflow) = kib.multipliedReportingOverflow(by: 1024)
        return overflow ? .max : product
    }

    /// Ticks at `hz` to hundredths of a second, saturating.
    static func centiseconds(_ ticks: UInt64, _ hz: UInt64) -> UInt64 {
        if hz == 100 { return ticks }
        let (product, overflow) = ticks.multipliedReportingOverflow(by: 100)
        if !overflow { return product / hz }
        let (whole, over) = (ticks / hz).multipliedReportingOverflow(by: 100)
        return over ? .max : whole
    }

    /// Appends `raw` as the inside of a label value (without the quotes): invalid UTF-8 as
    /// U+FFFD, `\` `"` and newline escaped as the format says, other controls (C0, DEL, C1)
    /// as `?`, at most ``maximumLabelBytes`` bytes, cut before a character or escape that
    /// would not fit.
    public static func appendLabelValue(_ raw: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        var used = 0
        var i = 0
        while i < raw.count {
            let decoded = UTF8Text.decode(raw, at: i)
            i += decoded.length
            let scalar = decoded.value
            switch scalar {
            case 0x5C, 0x22, 0x0A:   // \ " newline
                guard used + 2 <= maximumLabelBytes else { return }
                out.append(0x5C)
                out.append(scalar == 0x0A ? 0x6E : UInt8(scalar))
                used += 2
            default:
                let mapped = UTF8Text.isControl(scalar) ? 0x3F : scalar
                let length = UTF8Text.encodedLength(mapped)
                guard used + length <= maximumLabelBytes else { return }
                UTF8Text.append(mapped, to: &out)
                used += length
            }
        }
    }
}

/// Appends the lines of one exposition. A sample is `begin`, any `label`s, then one value.
///
/// Two entries whose labels come out the same (two hwmon chips both `nvme` with a sensor
/// `Composite`, names that differ only in what escaping or the length limit removed) would
/// make node_exporter refuse the whole file; the second gets `n="2"`, the third `n="3"`.
struct ExpositionWriter {
    enum Kind { case gauge, counter }
    var out: [UInt8]
    private var labels = 0
    /// Where the current family's first sample, the current sample and its labels start.
    private var familyStart = 0
    private var sampleStart = 0
    private var labelsStart = 0

    init(out: [UInt8]) { self.out = out }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// `# HELP` and `# TYPE` (the help texts are constants: no backslash, no newline).
    mutating func family(_ name: StaticString, _ help: StaticString, _ kind: Kind) {
        append("# HELP "); append(name); append(" "); append(help); append("\n# TYPE "); append(name)
        append(kind == .gauge ? " gauge\n" : " counter\n")
        familyStart = out.count
    }

    mutating func begin(_ name: StaticString) {
        sampleStart = out.count
        append(name)
        labelsStart = out.count
        labels = 0
    }

    private mutating func openLabel(_ key: StaticString) {
        out.append(labels == 0 ? UInt8(ascii: "{") : UInt8(ascii: ","))
        labels += 1
        append(key); append("=\"")
    }

    mutating func label(_ key: StaticString, _ value: StaticString) {
        openLabel(key); append(value); out.append(UInt8(ascii: "\""))
    }

    mutating func label(_ key: StaticString, bytes value: [UInt8]) {
        openLabel(key)
        value.withUnsafeBytes { PrometheusText.appendLabelValue($0, to: &out) }
        out.append(UInt8(ascii: "\""))
    }

    mutating func rank(_ n: Int) {
        openLabel("rank"); appendDecimal(UInt64(n)); out.append(UInt8(ascii: "\""))
    }

    private mutating func closeLabels() {
        if labels > 0 {
            let earlier = earlierSamplesWithTheseLabels()
            if earlier > 0 {
                openLabel("n"); appendDecimal(UInt64(earlier + 1)); out.append(UInt8(ascii: "\""))
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: " "))
    }

    /// The family's earlier samples whose labels are the current sample's (with or without
    /// an `n` of their own). The current labels end in a closing quote, so an earlier line
    /// that starts with the same bytes has the same values. At most a few dozen short lines.
    private func earlierSamplesWithTheseLabels() -> Int {
        let nameLength = labelsStart - sampleStart
        let current = out.count - labelsStart
        var count = 0
        var line = familyStart
        while line < sampleStart {
            var end = line
            while out[end] != 0x0A { end += 1 }
            let start = line + nameLength
            if start + current < end {
                var same = true
                var i = 0
                while i < current { if out[start + i] != out[labelsStart + i] { same = false; break }; i += 1 }
                if same {
                    let next = out[start + current]
                    if next == UInt8(ascii: "}") || (next == UInt8(ascii: ",") && out[start + current + 1] == UInt8(ascii: "n")
                                                      && out[start + current + 2] == UInt8(ascii: "=")) {
                        count += 1
                    }
                }
            }
            line = end + 1
        }
        return count
    }

    mutating func value(_ v: UInt64) { closeLabels(); appendDecimal(v); out.append(0x0A) }

    mutating func fixedValue(_ v: UInt64, decimals: Int) { closeLabels(); appendFixed(v, decimals: decimals); out.append(0x0A) }

    mutating func signedFixedValue(_ v: Int64, decimals: Int) {
        closeLabels()
        if v < 0 { out.append(UInt8(ascii: "-")) }
        appendFixed(v.magnitude, decimals: decimals)
        out.append(0x0A)
    }

    mutating func sample(_ name: StaticString, _ v: UInt64) { begin(name); value(v) }
    mutating func batteryState(_ state: StaticString, _ on: Bool) {
        begin("sysstats_battery_state"); label("state", state); value(on ? 1 : 0)
    }
    mutating func sample(_ name: StaticString, fixed v: UInt64, decimals: Int) { begin(name); fixedValue(v, decimals: decimals) }

    mutating func appendDecimal(_ value: UInt64) {
        if value < 10 { out.append(0x30 &+ UInt8(value)); return }
        var divisor: UInt64 = 1
        while value / divisor >= 10 { divisor &*= 10 }
        var rest = value
        while divisor > 0 {
            out.append(0x30 &+ UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// `value / 10^decimals`, trailing zeros of the fraction dropped ("0.25", "3", "12.5").
    mutating func appendFixed(_ value: UInt64, decimals: Int) {
        var scale: UInt64 = 1
        for _ in 0..<decimals { scale &*= 10 }
        appendDecimal(value / scale)
        var fraction = value % scale
        guard fraction > 0 else { return }
        out.append(UInt8(ascii: "."))
        var digits = decimals
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        var divisor: UInt64 = 1
        for _ in 1..<digits { divisor &*= 10 }
        while divisor > 0 {
            out.append(0x30 &+ UInt8(fraction / divisor))
            fraction %= divisor
            divisor /= 10
        }
    }
}
