import ProcFS
import SnapshotCodec

/// The current CPU frequency (cpufreq's scaling_cur_freq, else /proc/cpuinfo), averaged and
/// the highest, read every few seconds: one file per CPU is the costliest system-wide read.
struct FrequencyProbe {
    static let refreshMs: UInt64 = 5_000

    private let reader: CPUFrequencyReader
    private var lastReadMs: UInt64 = 0
    private var last: CPUFrequency?

    init(sysRoot: String, procRoot: String) {
        reader = CPUFrequencyReader(sysRoot: sysRoot, procRoot: procRoot)
    }

    mutating func sample(into s: inout Snapshot, buffer: ReadBuffer, realtimeMs: UInt64) {
        if lastReadMs == 0 || realtimeMs &- lastReadMs >= FrequencyProbe.refreshMs || realtimeMs < lastReadMs {
            lastReadMs = realtimeMs == 0 ? 1 : realtimeMs
            last = reader.update(buffer)
        }
        guard let f = last else { return }
        s.cpuMHzAverage = f.averageMHz
        s.cpuMHzMaximum = f.maximumMHz
        s.available.insert(.frequency)
    }
}
