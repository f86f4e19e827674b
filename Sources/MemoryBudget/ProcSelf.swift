// The test process's own figures, from its /proc files, and its allocator's free memory,
// for MemoryBudget.measure.

#if canImport(Glibc)
import Glibc
#endif

extension MemoryBudget {
    /// VmRSS and VmHWM of /proc/self/status, bytes.
    static func status() -> (rss: UInt64, hwm: UInt64) {
        let text = read("/proc/self/status")
        return (bytes(field(text, "VmRSS:") ?? 0), bytes(field(text, "VmHWM:") ?? 0))
    }

    /// The process's own memory that is not file cache, bytes, as `sysstats measure`'s
    /// peak_anon: smaps_rollup's Pss_Anon + Pss_Shmem + SwapPss, so a memfd or a
    /// MAP_SHARED|MAP_ANONYMOUS map the closure keeps counts; before Linux 5.3 (no Pss_Anon)
    /// Anonymous + Swap, which leave shared memory out.
    static func anonymous() -> UInt64 {
        let text = read("/proc/self/smaps_rollup")
        guard let pssAnon = field(text, "Pss_Anon:") else {
            return bytes(sum(field(text, "Anonymous:") ?? 0, field(text, "Swap:") ?? 0))
        }
        return bytes(sum(sum(pssAnon, field(text, "Pss_Shmem:") ?? 0), field(text, "SwapPss:") ?? 0))
    }

    /// Gives the allocator's free memory back to the kernel: glibc's malloc_trim(0), which
    /// releases the free pages inside its heaps as well as at their tops. Looked up when
    /// called (glibc's, not C's: a musl program has none); false where there is none.
    static func trimAllocator() -> Bool {
        guard let symbol = dlsym(nil, "malloc_trim") else { return false }
        let trim = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        _ = trim(0)
        return true
    }

    /// A /proc file of the process itself, whole (a few KiB: read to its end, at most 1 MiB).
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

    /// The number after `key` at the start of a line ("VmHWM:   1234 kB"), KiB, saturating;
    /// nil without such a line or without a digit on it.
    static func field(_ text: [UInt8], _ key: StaticString) -> UInt64? {
        let k = UnsafeRawBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        var start = 0
        while start < text.count {
            var end = start
            while end < text.count && text[end] != 0x0A { end += 1 }
            if end - start > k.count && text[start..<(start + k.count)].elementsEqual(k) {
                var value: UInt64 = 0, digits = 0
                for b in text[(start + k.count)..<end] where b >= 0x30 && b <= 0x39 {
                    let (times, o1) = value.multipliedReportingOverflow(by: 10)
                    let (sum, o2) = times.addingReportingOverflow(UInt64(b - 0x30))
                    value = o1 || o2 ? .max : sum
                    digits += 1
                }
                return digits > 0 ? value : nil
            }
            start = end + 1
        }
        return nil
    }

    /// KiB as bytes, saturating.
    static func bytes(_ kib: UInt64) -> UInt64 {
        let (product, overflow) = kib.multipliedReportingOverflow(by: 1024)
        return overflow ? .max : product
    }

    static func sum(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (total, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : total
    }
}
