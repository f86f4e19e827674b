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
    public static let maximumSize = 40 * 1024 + ListedPart.all.reduce(0) {
        // Per family, its HELP and TYPE lines; per sample, the name, two labels at their
        // limit and the longest value.
        $0 + $1.figures.reduce(0) { n, f in f.prometheus == nil ? n : n + 1 } * (320 + $1.maximumReadings * 352)
    }

    /// Replaces `out`'s contents with the exposition of `s` and `counters`.
    public static func format(_ s: Snapshot, counters: PrometheusCounters, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        // Swapped in and out: `w` holds the only reference, so appends stay in place.
        var w = ExpositionWriter(out: [])
        swap(&w.out, &out)
        write(s, counters, &w)
        swap(&w.out, &out)
    }

    /// The families in the order of the file: one function per part of the snapshot
    /// (PrometheusSeries.swift), each leaving out what was not measured.
    private static func write(_ s: Snapshot, _ c: PrometheusCounters, _ w: inout ExpositionWriter) {
        writeSampleTimes(s, c, &w)
        writeUptime(s, c, &w)
        writeBoots(s, c, &w)
        writeCPU(s, c, &w)
        writeMemory(s, c, &w)
        writeLoad(s, c, &w)
        writeProcesses(s, c, &w)
        writeTop(s, c, &w)
        writeBattery(s, c, &w)
        writeNetwork(s, c, &w)
        writeDisks(s, c, &w)
        writeTemperatures(s, c, &w)
        writeGPUs(s, c, &w)
        writeListedParts(s, c, &w)
        writeSamplerCost(s, c, &w)
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
