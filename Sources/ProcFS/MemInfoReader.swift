/// Reads /proc/meminfo into ``MemInfo`` (KiB).
///
/// Each line is `Key:   value kB`. Keys are matched whole, colon included, so
/// `Active(anon):` is never taken for `Active:`. Keys not in ``MemInfo`` are skipped.
public final class MemInfoReader {
    private let file: ProcFile
    /// The last successful reading.
    public private(set) var reading = MemInfo()

    /// Prepares to read `<procRoot>/meminfo`; opens it on the first update. Never fails.
    public init(procRoot: String = "/proc") {
        file = ProcFile(joinPath(procRoot, "meminfo"))
    }

    /// Re-reads /proc/meminfo into `buffer`; nil when unreadable or unparsable (show a placeholder).
    public func update(_ buffer: ReadBuffer) -> MemInfo? {
        guard case .success(let bytes) = file.read(into: buffer) else { return nil }
        var fresh = MemInfo()
        guard Self.parse(bytes, into: &fresh) else { return nil }
        reading = fresh
        return fresh
    }

    /// Parses the text of /proc/meminfo into `info` (reset first: an absent key stays 0 or nil).
    /// Returns false when there is no `MemTotal:` line.
    public static func parse(_ bytes: UnsafeRawBufferPointer, into info: inout MemInfo) -> Bool {
        info = MemInfo()
        var sawTotal = false
        var s = ByteScanner(bytes)
        while !s.isAtEnd {
            if let key = s.word(), let value = s.unsigned() {
                switch key[0] {
                case 0x4D:  // M
                    if bytesEqual(key, "MemTotal:") { info.memTotal = value; sawTotal = true }
                    else if bytesEqual(key, "MemFree:") { info.memFree = value }
                    else if bytesEqual(key, "MemAvailable:") { info.memAvailable = value }
                case 0x41:  // A
                    if bytesEqual(key, "Active:") { info.active = value }
                case 0x42:  // B
                    if bytesEqual(key, "Buffers:") { info.buffers = value }
                case 0x43:  // C
                    if bytesEqual(key, "Cached:") { info.cached = value }
                case 0x49:  // I
                    if bytesEqual(key, "Inactive:") { info.inactive = value }
                case 0x4B:  // K
                    if bytesEqual(key, "KernelStack:") { info.kernelStack = value }
                case 0x50:  // P
                    if bytesEqual(key, "PageTables:") { info.pageTables = value }
                case 0x53:  // S
                    if bytesEqual(key, "SwapCached:") { info.swapCached = value }
                    else if bytesEqual(key, "SwapTotal:") { info.swapTotal = value }
                    else if bytesEqual(key, "SwapFree:") { info.swapFree = value }
                    else if bytesEqual(key, "Shmem:") { info.shmem = value }
                    else if bytesEqual(key, "SReclaimable:") { info.sReclaimable = value }
                    else if bytesEqual(key, "SUnreclaim:") { info.sUnreclaim = value }
                case 0x55:  // U
                    if bytesEqual(key, "Unevictable:") { info.unevictable = value }
                default:
                    break
                }
            }
            s.skipLine()
        }
        return sawTotal
    }
}
