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
        var seen: UInt32 = 0
        while !s.isAtEnd {
            // The number is parsed only for the 16 keys kept, of the ~55 lines: parsing every
            // line's was half of a sample's instructions in this reader. Once all 16 are seen
            // (the kernel lists them in its first ~26 lines) the rest is not looked at.
            if let key = s.word(), let field = Field(key), let value = s.unsigned() {
                field.store(value, into: &info)
                if field == .memTotal { sawTotal = true }
                seen |= 1 << field.rawValue
                if seen == Field.all { break }
            }
            s.skipLine()
        }
        return sawTotal
    }

    /// The keys kept, matched whole.
    private enum Field: UInt32 {
        case memTotal, memFree, memAvailable, active, buffers, cached, inactive, kernelStack, pageTables
        case swapCached, swapTotal, swapFree, shmem, sReclaimable, sUnreclaim, unevictable

        /// A bit for each case.
        static let all: UInt32 = (1 << 16) - 1

        init?(_ key: UnsafeRawBufferPointer) {
            guard !key.isEmpty else { return nil }
            switch key[0] {
            case 0x4D:  // M
                if bytesEqual(key, "MemTotal:") { self = .memTotal }
                else if bytesEqual(key, "MemFree:") { self = .memFree }
                else if bytesEqual(key, "MemAvailable:") { self = .memAvailable }
                else { return nil }
            case 0x41: if bytesEqual(key, "Active:") { self = .active } else { return nil }  // A
            case 0x42: if bytesEqual(key, "Buffers:") { self = .buffers } else { return nil }  // B
            case 0x43: if bytesEqual(key, "Cached:") { self = .cached } else { return nil }  // C
            case 0x49: if bytesEqual(key, "Inactive:") { self = .inactive } else { return nil }  // I
            case 0x4B: if bytesEqual(key, "KernelStack:") { self = .kernelStack } else { return nil }  // K
            case 0x50: if bytesEqual(key, "PageTables:") { self = .pageTables } else { return nil }  // P
            case 0x53:  // S
                if bytesEqual(key, "SwapCached:") { self = .swapCached }
                else if bytesEqual(key, "SwapTotal:") { self = .swapTotal }
                else if bytesEqual(key, "SwapFree:") { self = .swapFree }
                else if bytesEqual(key, "Shmem:") { self = .shmem }
                else if bytesEqual(key, "SReclaimable:") { self = .sReclaimable }
                else if bytesEqual(key, "SUnreclaim:") { self = .sUnreclaim }
                else { return nil }
            case 0x55: if bytesEqual(key, "Unevictable:") { self = .unevictable } else { return nil }  // U
            default: return nil
            }
        }

        func store(_ value: UInt64, into info: inout MemInfo) {
            switch self {
            case .memTotal: info.memTotal = value
            case .memFree: info.memFree = value
            case .memAvailable: info.memAvailable = value
            case .active: info.active = value
            case .buffers: info.buffers = value
            case .cached: info.cached = value
            case .inactive: info.inactive = value
            case .kernelStack: info.kernelStack = value
            case .pageTables: info.pageTables = value
            case .swapCached: info.swapCached = value
            case .swapTotal: info.swapTotal = value
            case .swapFree: info.swapFree = value
            case .shmem: info.shmem = value
            case .sReclaimable: info.sReclaimable = value
            case .sUnreclaim: info.sUnreclaim = value
            case .unevictable: info.unevictable = value
            }
        }
    }
}
