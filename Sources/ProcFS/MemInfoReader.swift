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

    /// Where each kept key's line began in the last full parse, and what it began with, by
    /// ``Field``: four words each, the offset, the key's length with its colon (0: not seen),
    /// and the key's bytes as ``ByteScanner/words(_:)`` packs them. The kernel
    /// pads every figure to eight digits, so the lines keep their places until one outgrows
    /// that: a reading first looks for the keys there (``parseInPlace``), which reads 16 lines
    /// instead of scanning 26 (12,100 → about 1,500 instructions a sample), and compares each
    /// key with the words kept here rather than its literal (read-only data: a page a sample).
    @exclusivity(unchecked) private var places = [Int64](repeating: 0, count: 4 * Field.count)   // one thread's, read once a sample
    /// How many readings parsed the whole file rather than the 16 lines in place (the first,
    /// and one each time a line moved): tests and benchmarks.
    public private(set) var fullParses = 0

    /// Re-reads /proc/meminfo into `buffer`; nil when unreadable or unparsable (show a placeholder).
    public func update(_ buffer: ReadBuffer) -> MemInfo? {
        refresh(buffer) ? reading : nil
    }

    /// Re-reads /proc/meminfo into `buffer` and ``reading``; false when unreadable or
    /// unparsable (``reading`` then stays the last good one). The sampler's way: an optional
    /// reading is 129 bytes, and each copy of it was a call into glibc's memmove.
    public func refresh(_ buffer: ReadBuffer) -> Bool {
        guard case .success(let bytes) = file.read(into: buffer) else { return false }
        var fresh = MemInfo()
        if !Self.parseInPlace(bytes, places: places, into: &fresh) {
            fullParses += 1
            guard Self.parse(bytes, into: &fresh, places: &places) else { return false }
        }
        reading = fresh
        return true
    }

    /// Parses the text of /proc/meminfo into `info` (reset first: an absent key stays 0 or nil).
    /// Returns false when there is no `MemTotal:` line.
    public static func parse(_ bytes: UnsafeRawBufferPointer, into info: inout MemInfo) -> Bool {
        var unused = [Int64](repeating: 0, count: 4 * Field.count)
        return parse(bytes, into: &info, places: &unused)
    }

    /// The whole parse; records in `places` where each key's line began, and its key.
    private static func parse(_ bytes: UnsafeRawBufferPointer, into info: inout MemInfo, places: inout [Int64]) -> Bool {
        info = MemInfo()
        for i in places.indices { places[i] = 0 }
        var sawTotal = false
        var s = ByteScanner(bytes)
        var seen: UInt32 = 0
        while !s.isAtEnd {
            // The number is parsed only for the 16 keys kept, of the ~55 lines: parsing every
            // line's was half of a sample's instructions in this reader. Once all 16 are seen
            // (the kernel lists them in its first ~26 lines) the rest is not looked at.
            let lineStart = s.position
            if let key = s.word(), let field = Field(key), let value = s.unsigned() {
                field.store(value, into: &info)
                let at = 4 * Int(field.rawValue)
                let words = ByteScanner.words(key)
                places[at] = Int64(lineStart)
                places[at + 1] = Int64(key.count)
                places[at + 2] = Int64(bitPattern: words.low)
                places[at + 3] = Int64(bitPattern: words.high)
                if field == .memTotal { sawTotal = true }
                seen |= 1 << field.rawValue
                if seen == Field.all { break }
            }
            s.skipLine()
        }
        return sawTotal
    }

    /// Reads the 16 keys at the places of the last full parse; false (parse it all) unless
    /// each one is there — at the start of a line, the same key, followed by a blank and a number.
    static func parseInPlace(_ bytes: UnsafeRawBufferPointer, places: [Int64], into info: inout MemInfo) -> Bool {
        guard let base = bytes.baseAddress, places.count == 4 * Field.count else { return false }
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: Field.count) { values in
            for i in 0..<Field.count {
                let start = Int(truncatingIfNeeded: places[4 * i]), length = Int(truncatingIfNeeded: places[4 * i + 1])
                guard length > 0, start >= 0, start < bytes.count,
                      start == 0 || base.load(fromByteOffset: start &- 1, as: UInt8.self) == 0x0A else { return false }
                var s = ByteScanner(bytes, position: start)
                guard s.startsWith(low: UInt64(bitPattern: places[4 * i + 2]), high: UInt64(bitPattern: places[4 * i + 3]),
                                   count: length) else { return false }
                s.position = start &+ length
                guard s.current == 0x20 || s.current == 0x09, let value = s.unsigned() else { return false }
                values[i] = value
            }
            // In the order of Field's cases; straight stores, not Field.store's jump table
            // (read-only data again).
            info = MemInfo()
            info.memTotal = values[0]; info.memFree = values[1]; info.memAvailable = values[2]
            info.active = values[3]; info.buffers = values[4]; info.cached = values[5]
            info.inactive = values[6]; info.kernelStack = values[7]; info.pageTables = values[8]
            info.swapCached = values[9]; info.swapTotal = values[10]; info.swapFree = values[11]
            info.shmem = values[12]; info.sReclaimable = values[13]; info.sUnreclaim = values[14]
            info.unevictable = values[15]
            return true
        }
    }

    /// The keys kept, matched whole.
    private enum Field: UInt32 {
        case memTotal, memFree, memAvailable, active, buffers, cached, inactive, kernelStack, pageTables
        case swapCached, swapTotal, swapFree, shmem, sReclaimable, sUnreclaim, unevictable

        static let count = 16
        /// A bit for each case.
        static let all: UInt32 = (1 << 16) - 1

        /// The key as the file writes it, colon included.
        var key: StaticString {
            switch self {
            case .memTotal: "MemTotal:"
            case .memFree: "MemFree:"
            case .memAvailable: "MemAvailable:"
            case .active: "Active:"
            case .buffers: "Buffers:"
            case .cached: "Cached:"
            case .inactive: "Inactive:"
            case .kernelStack: "KernelStack:"
            case .pageTables: "PageTables:"
            case .swapCached: "SwapCached:"
            case .swapTotal: "SwapTotal:"
            case .swapFree: "SwapFree:"
            case .shmem: "Shmem:"
            case .sReclaimable: "SReclaimable:"
            case .sUnreclaim: "SUnreclaim:"
            case .unevictable: "Unevictable:"
            }
        }

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
