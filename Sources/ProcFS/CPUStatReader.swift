import CLibc

/// Reads /proc/stat: the `cpu` and `cpuN` lines, `btime`, `processes`, `procs_running`, `procs_blocked`.
///
/// A `cpu` line holds `user nice system idle iowait irq softirq steal guest guest_nice`
/// in clock ticks; older kernels stop earlier (missing fields are 0), and guest time
/// is ignored because the kernel already counts it in user and nice. Every other
/// line (the long `intr` line among them) is skipped eight bytes at a time.
public final class CPUStatReader {
    private let file: ProcFile
    /// The last successful reading.
    public private(set) var reading = CPUStat()
    /// Filled by the next parse, then swapped with `reading`: both keep their `cores` capacity.
    private var scratch = CPUStat()

    /// Prepares to read `<procRoot>/stat`; opens it on the first update. Never fails.
    public init(procRoot: String = "/proc") {
        file = ProcFile(joinPath(procRoot, "stat"))
    }

    /// Re-reads /proc/stat into `buffer`; nil when unreadable or unparsable (show a placeholder).
    ///
    /// Two `cores` arrays alternate, so a caller may keep the previous reading (for rates)
    /// without causing a copy; keeping two or more older readings makes the refill copy.
    public func update(_ buffer: ReadBuffer) -> CPUStat? {
        guard case .success(let bytes) = file.read(into: buffer),
              Self.parse(bytes, into: &scratch) else { return nil }
        swap(&reading, &scratch)
        return reading
    }

    /// Re-reads /proc/stat into `buffer` and parses it into the caller's `stat` (its `cores`
    /// storage reused); false when unreadable or unparsable (`stat` is then partly written).
    /// ``reading`` is left alone: a caller that keeps two readings of its own for rates
    /// copies neither (a copy of a reading went through its type's value witnesses).
    public func read(_ buffer: ReadBuffer, into stat: inout CPUStat) -> Bool {
        guard case .success(let bytes) = file.read(into: buffer) else { return false }
        return Self.parse(bytes, into: &stat)
    }

    /// Parses the text of /proc/stat into `stat`, reusing its `cores` storage.
    /// Returns false (leaving `stat` partly written) when there is no aggregate `cpu` line
    /// or a `cpu` line has fewer than the four fields every kernel has.
    public static func parse(_ bytes: UnsafeRawBufferPointer, into stat: inout CPUStat) -> Bool {
        // The cores are written over in place, and the array cut only if there are fewer:
        // removeAll(keepingCapacity:) was a call into glibc's memmove (of nothing) each time.
        var cores = 0
        stat.bootTime = 0
        stat.procsRunning = 0
        stat.procsBlocked = 0
        stat.forks = nil
        var sawAggregate = false
        var s = ByteScanner(bytes)
        while let first = s.current {
            // By the first byte: most lines (intr, ctxt, softirq) are passed over at once.
            switch first {
            case 0x63:  // c
                guard s.consume("cpu", low: 0x0000_0000_0075_7063) else { break }
                if let b = s.current, b >= 0x30, b <= 0x39 {
                    _ = s.unsigned()  // N: cores are kept in file order
                    guard let times = cpuTimes(&s) else { return false }
                    if cores < stat.cores.count { stat.cores[cores] = times } else { stat.cores.append(times) }
                    cores &+= 1
                } else if s.current == 0x20 {
                    guard let times = cpuTimes(&s) else { return false }
                    stat.total = times
                    sawAggregate = true
                }
            case 0x62:  // b
                if s.consume("btime ", low: 0x0000_2065_6D69_7462) { stat.bootTime = s.unsigned() ?? 0 }
            case 0x70:  // p
                if s.consume("processes ", low: 0x6573_7365_636F_7270, high: 0x0000_0000_0000_2073) {
                    stat.forks = s.unsigned()
                } else if s.consume("procs_running ", low: 0x7572_5F73_636F_7270, high: 0x0000_2067_6E69_6E6E) {
                    stat.procsRunning = UInt32(clamping: s.unsigned() ?? 0)
                } else if s.consume("procs_blocked ", low: 0x6C62_5F73_636F_7270, high: 0x0000_2064_656B_636F) {
                    stat.procsBlocked = UInt32(clamping: s.unsigned() ?? 0)
                }
            default:
                break
            }
            s.skipLine()
        }
        if stat.cores.count > cores { stat.cores.removeLast(stat.cores.count &- cores) }
        return sawAggregate
    }

    /// Up to eight tick counts after a `cpu` label; nil if fewer than four.
    private static func cpuTimes(_ s: inout ByteScanner) -> CPUTimes? {
        guard let user = s.unsigned(), let nice = s.unsigned(),
              let system = s.unsigned(), let idle = s.unsigned() else { return nil }
        return CPUTimes(user: user, nice: nice, system: system, idle: idle,
                        iowait: s.unsigned() ?? 0, irq: s.unsigned() ?? 0,
                        softirq: s.unsigned() ?? 0, steal: s.unsigned() ?? 0)
    }
}
