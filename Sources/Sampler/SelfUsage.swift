import CLibc
import ProcFS
import SnapshotCodec

/// What the sampler itself costs: CPU share since the last call and resident memory.
///
/// Reads this process's own usage (getrusage, /proc/self/statm), never the
/// fixture root: it measures the running program, not the machine under test.
public struct SelfUsage {
    private var previousCPUMicros: UInt64 = 0
    private var previousMonotonicNs: UInt64 = 0
    private let statm = ProcFile("/proc/self/statm")
    private let pageSizeKiB = UInt64(max(sysconf(Int32(_SC_PAGESIZE)), 1024)) / 1024

    public init() {}

    /// CPU used since the previous call as a share of one core, and resident KiB.
    public mutating func measure(monotonicNs: UInt64, buffer: ReadBuffer) -> (cpu: Permyriad, residentKiB: UInt32) {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let cpuMicros = UInt64(usage.ru_utime.tv_sec) * 1_000_000 + UInt64(usage.ru_utime.tv_usec)
            + UInt64(usage.ru_stime.tv_sec) * 1_000_000 + UInt64(usage.ru_stime.tv_usec)
        var cpu: Permyriad = 0
        if previousMonotonicNs != 0, monotonicNs > previousMonotonicNs, cpuMicros >= previousCPUMicros {
            let elapsedMicros = (monotonicNs - previousMonotonicNs) / 1000
            if elapsedMicros > 0 {
                cpu = Permyriad(min((cpuMicros - previousCPUMicros) * 10_000 / elapsedMicros, 10_000))
            }
        }
        previousCPUMicros = cpuMicros
        previousMonotonicNs = monotonicNs

        var residentKiB: UInt32 = 0
        if case .success(let bytes) = statm.read(into: buffer) {
            var scanner = ByteScanner(bytes)
            _ = scanner.unsigned()
            if let pages = scanner.unsigned() { residentKiB = UInt32(clamping: pages * pageSizeKiB) }
        }
        return (cpu, residentKiB)
    }
}
