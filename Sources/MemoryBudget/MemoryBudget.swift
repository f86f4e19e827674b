// A memory budget inside a test: what a closure costs in the test's own process, from the
// kernel's figures, with no allocator hook (docs/budgets.md, "Budgets inside a test suite").
// Glibc and the standard library only.

#if canImport(Glibc)
import Glibc
#endif

/// What a closure cost in memory in the process that ran it, bytes.
public struct MemoryUse: Equatable, Sendable {
    /// Resident memory (VmRSS) when it started, and the kernel's peak (VmHWM) when it ended:
    /// the peak was reset to the resident size just before (/proc/self/clear_refs).
    public var rssBefore: UInt64
    public var peakRSS: UInt64
    /// Anonymous memory (smaps_rollup Anonymous + Swap: heap, stacks, anonymous maps) before
    /// and after: what the closure kept of its own, without any file's page cache.
    public var anonBefore: UInt64
    public var anonAfter: UInt64
    /// False when the kernel's peak could not be reset (a kernel before 4.0, or
    /// /proc/self/clear_refs not writable): `peakRSS` is then the process's whole-life peak.
    public var peakWasReset: Bool

    /// How far the peak rose over the resident size at the start.
    public var peakGrowth: UInt64 { peakRSS > rssBefore ? peakRSS - rssBefore : 0 }
    /// How much anonymous memory the closure left behind (0 when it gave back more).
    public var anonGrowth: UInt64 { anonAfter > anonBefore ? anonAfter - anonBefore : 0 }
}

/// Limits on a closure's ``MemoryUse``; nil sets none.
public struct MemoryLimits: Equatable, Sendable {
    public var peakGrowth: UInt64?
    public var anonGrowth: UInt64?

    public init(peakGrowth: UInt64? = nil, anonGrowth: UInt64? = nil) {
        self.peakGrowth = peakGrowth; self.anonGrowth = anonGrowth
    }
}

public enum MemoryBudget {
    /// Runs `body` and measures it: the peak reset, then VmRSS and smaps_rollup read, the
    /// closure run, VmHWM and smaps_rollup read again. Other threads of the process count too
    /// (a test runner's are quiet while a test runs); the figures are whole pages.
    public static func measure<T>(_ body: () throws -> T) rethrows -> (result: T, use: MemoryUse) {
        let reset = resetPeak()
        let before = status()
        let anonBefore = anonymous()
        let result = try body()
        let after = status()
        let use = MemoryUse(rssBefore: before.rss, peakRSS: max(after.hwm, before.rss), anonBefore: anonBefore,
                            anonAfter: anonymous(), peakWasReset: reset)
        return (result, use)
    }

    /// nil when `use` keeps `limits`, else one line naming each limit passed and by how much.
    public static func check(_ use: MemoryUse, _ limits: MemoryLimits) -> String? {
        var over: [String] = []
        if let limit = limits.peakGrowth, use.peakGrowth > limit {
            over.append("peak RSS grew \(format(use.peakGrowth)), limit \(format(limit))"
                        + (use.peakWasReset ? "" : " (the peak could not be reset: the process's whole-life peak)"))
        }
        if let limit = limits.anonGrowth, use.anonGrowth > limit {
            over.append("anonymous memory grew \(format(use.anonGrowth)), limit \(format(limit))")
        }
        return over.isEmpty ? nil : "memory budget: " + over.joined(separator: "; ")
    }

    /// `bytes` as "1.50 MiB" / "512 KiB" / "100 B".
    public static func format(_ bytes: UInt64) -> String {
        if bytes >= 1 << 20 {
            let hundredths = bytes / (1 << 20) * 100 + bytes % (1 << 20) * 100 / (1 << 20)
            return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100) MiB"
        }
        return bytes >= 1024 ? "\(bytes / 1024) KiB" : "\(bytes) B"
    }

    // MARK: - The kernel's files

    /// Writes "5" to /proc/self/clear_refs: VmHWM becomes VmRSS (Linux 4.0).
    static func resetPeak() -> Bool {
        let fd = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var five: UInt8 = 0x35
        return write(fd, &five, 1) == 1
    }

    /// VmRSS and VmHWM of /proc/self/status, bytes.
    static func status() -> (rss: UInt64, hwm: UInt64) {
        let text = read("/proc/self/status")
        return (field(text, "VmRSS:") * 1024, field(text, "VmHWM:") * 1024)
    }

    /// Anonymous + Swap of /proc/self/smaps_rollup, bytes.
    static func anonymous() -> UInt64 {
        let text = read("/proc/self/smaps_rollup")
        return (field(text, "Anonymous:") + field(text, "Swap:")) * 1024
    }

    /// A /proc file of the process itself, whole (a few KiB: read to its end).
    static func read(_ path: String) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20 {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            bytes.append(contentsOf: chunk[..<n])
        }
        return bytes
    }

    /// The number after `key` at the start of a line ("VmHWM:   1234 kB"), KiB; 0 without one.
    static func field(_ text: [UInt8], _ key: StaticString) -> UInt64 {
        let k = UnsafeRawBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        var start = 0
        while start < text.count {
            var end = start
            while end < text.count && text[end] != 0x0A { end += 1 }
            if end - start > k.count && text[start..<(start + k.count)].elementsEqual(k) {
                var value: UInt64 = 0
                for b in text[(start + k.count)..<end] where b >= 0x30 && b <= 0x39 {
                    let (times, o1) = value.multipliedReportingOverflow(by: 10)
                    let (sum, o2) = times.addingReportingOverflow(UInt64(b - 0x30))
                    value = o1 || o2 ? .max : sum
                }
                return value
            }
            start = end + 1
        }
        return 0
    }
}
