/// The CPUs' current clock, MHz.
public struct CPUFrequency: Equatable, Sendable {
    public enum Source: Equatable, Sendable {
        /// `cpuN/cpufreq/scaling_cur_freq` (kHz).
        case cpufreq
        /// The `cpu MHz` lines of /proc/cpuinfo (virtual machines have no cpufreq).
        case cpuinfo
    }
    /// The mean over the CPUs measured, rounded to the nearest MHz.
    public var averageMHz: UInt32 = 0
    /// The fastest CPU, rounded to the nearest MHz.
    public var maximumMHz: UInt32 = 0
    /// How many CPUs were measured.
    public var count: Int = 0
    public var source: Source = .cpufreq
    public init() {}
}

/// Reads each CPU's `<sysRoot>/devices/system/cpu/cpuN/cpufreq/scaling_cur_freq` (kHz),
/// or, when none can be read, the `cpu MHz` lines of `<procRoot>/cpuinfo`.
///
/// The CPUs are counted once, at `init` and on ``rescan()`` (at most 512); each file is
/// opened on its first update and kept open. An offline CPU's file fails to read and is
/// left out of the figures.
public final class CPUFrequencyReader {
    /// The most CPUs read.
    public static let maximumCPUs = 512

    public let sysRoot: String
    private let cpuinfo: ProcFile
    private var files: [ProcFile] = []
    /// The last successful reading.
    public private(set) var reading = CPUFrequency()

    public init(sysRoot: String = "/sys", procRoot: String = "/proc") {
        self.sysRoot = sysRoot
        cpuinfo = ProcFile(joinPath(procRoot, "cpuinfo"))
        rescan()
    }

    /// Number of CPUs with a `scaling_cur_freq` file at the last scan (0: the cpuinfo fallback).
    public var cpufreqCount: Int { files.count }

    /// Counts the CPUs again (after a CPU or the cpufreq driver appears). Allocates: call it rarely.
    public func rescan() {
        var path = BytePath(sysRoot)
        path.append("/devices/system/cpu")
        let directoryLength = path.count
        let numbers = Hwmon.numberedEntries(path, prefix: "cpu", suffix: "", limit: Self.maximumCPUs)
        files.removeAll()
        for i in 0..<numbers.count {
            path.truncate(to: directoryLength)
            path.append("/cpu")
            path.append(decimal: numbers[i])
            path.append("/cpufreq/scaling_cur_freq")
            if path.exists() { files.append(ProcFile(path.string)) }
        }
    }

    /// Reads every CPU's clock into `buffer`; nil when neither cpufreq nor /proc/cpuinfo
    /// gives a single figure.
    public func update(_ buffer: ReadBuffer) -> CPUFrequency? {
        var sum = KilohertzSum()
        // Indices, not `for file in`: an unspecialized (debug) array iterator allocates.
        for i in 0..<files.count {
            guard case .success(let bytes) = files[i].read(into: buffer) else { continue }
            var s = ByteScanner(bytes)
            guard let kHz = s.unsigned() else { continue }
            s.skipBlanks()
            guard s.isAtEnd || s.current == 0x0A else { continue }
            sum.add(kHz)
        }
        var fresh: CPUFrequency
        if sum.count > 0 {
            fresh = sum.frequency(.cpufreq)
        } else {
            guard case .success(let bytes) = cpuinfo.read(into: buffer),
                  let parsed = Self.parseCPUInfo(bytes) else { return nil }
            fresh = parsed
        }
        reading = fresh
        return fresh
    }

    /// The `cpu MHz : 2400.123` lines of /proc/cpuinfo; nil when there is none (ARM has none).
    public static func parseCPUInfo(_ bytes: UnsafeRawBufferPointer) -> CPUFrequency? {
        var sum = KilohertzSum()
        var s = ByteScanner(bytes)
        while !s.isAtEnd {
            if s.consume("cpu MHz") {
                s.skipBlanks()
                if s.consume(":"), let kHz = s.fixedPoint(scale: 3) {
                    sum.add(kHz)
                }
            }
            s.skipLine()
        }
        return sum.count > 0 ? sum.frequency(.cpuinfo) : nil
    }
}

/// Sum, maximum and count of clock figures in kHz, saturating.
private struct KilohertzSum {
    var total: UInt64 = 0
    var maximum: UInt64 = 0
    var count = 0

    mutating func add(_ kHz: UInt64) {
        let (t, overflow) = total.addingReportingOverflow(kHz)
        total = overflow ? .max : t
        maximum = max(maximum, kHz)
        count += 1
    }

    func frequency(_ source: CPUFrequency.Source) -> CPUFrequency {
        var f = CPUFrequency()
        f.count = count
        f.source = source
        f.averageMHz = megahertz(total / UInt64(count))
        f.maximumMHz = megahertz(maximum)
        return f
    }

    /// kHz to the nearest MHz, clamped to UInt32.
    private func megahertz(_ kHz: UInt64) -> UInt32 {
        UInt32(clamping: kHz / 1000 + (kHz % 1000 >= 500 ? 1 : 0))
    }
}
