// Where a process's memory is, from /proc/PID/smaps: its mappings grouped by what they map
// (the heap, stacks, anonymous maps, shared anonymous memory, each file or library), for
// `measure`'s breakdown at a
// process's peak (docs/budgets.md, "Where the memory went"). The standard library only:
// the fuzz target `smaps` compiles this file alone. A mapped file's name is the process's to
// choose (any bytes but newline, which the kernel escapes): kept as bytes, cut, escaped
// where shown.

/// One kind of mapping's memory in a process, summed over its mappings, KiB.
public struct MappingFigures: Equatable, Sendable {
    /// `[heap]`, `[stack]`, `anon` (anonymous maps), `[anon:NAME]` (a named one), `shared
    /// anon` (MAP_SHARED|MAP_ANONYMOUS), `memfd NAME`, another `[...]` of the kernel's, or the
    /// mapped file's last path component.
    public var name: [UInt8]
    public var rssKiB: UInt64 = 0
    public var pssKiB: UInt64 = 0
    /// Private_Clean + Private_Dirty.
    public var ussKiB: UInt64 = 0
    /// The program's own memory that is not file cache, as ``MemoryFigures/anonKiB``:
    /// Anonymous + Swap of a private mapping; of shared anonymous memory (shmem: `shared
    /// anon`, a memfd, System V or POSIX shared memory), Pss + SwapPss, its share of it.
    public var anonKiB: UInt64 = 0
    /// How many mappings it sums.
    public var mappings: UInt64 = 0

    public init(name: [UInt8]) { self.name = name }

}

public enum SmapsMappings {
    /// A name's longest form, bytes (a path's last component is at most 255).
    public static let maximumNameBytes = 64
    /// The most kinds kept apart; the mappings of any further ones are summed as `other`.
    public static let maximumKinds = 256

    /// smaps's mappings grouped by name, the largest RSS first (ties by name).
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> [MappingFigures] {
        var kinds: [MappingFigures] = []
        var index: [[UInt8]: Int] = [:]
        var current: Int?
        var shared = false
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            if isHeader(bytes, start, end) {
                let kind = mapping(bytes, start, end)
                var name = kind.name
                shared = kind.sharedAnonymous
                if index[name] == nil && kinds.count >= maximumKinds { name = Array("other".utf8) }
                if let at = index[name] { current = at } else {
                    index[name] = kinds.count
                    current = kinds.count
                    kinds.append(MappingFigures(name: name))
                }
                kinds[current!].mappings &+= 1
            } else if let at = current {
                add(bytes, start, end, sharedAnonymous: shared, to: &kinds[at])
            }
            start = end + 1
        }
        return kinds.sorted { $0.rssKiB != $1.rssKiB ? $0.rssKiB > $1.rssKiB : $0.name.lexicographicallyPrecedes($1.name) }
    }

    /// The `count` largest by `figure`, the rest summed as one `other` (when there is any).
    public static func largest(_ all: [MappingFigures], _ count: Int, by figure: (MappingFigures) -> UInt64) -> [MappingFigures] {
        let sorted = all.sorted { figure($0) != figure($1) ? figure($0) > figure($1) : $0.name.lexicographicallyPrecedes($1.name) }
        guard sorted.count > count else { return sorted }
        var other = MappingFigures(name: Array("other".utf8))
        for m in sorted[count...] {
            other.rssKiB = other.rssKiB.saturatingSum(m.rssKiB)
            other.pssKiB = other.pssKiB.saturatingSum(m.pssKiB)
            other.ussKiB = other.ussKiB.saturatingSum(m.ussKiB)
            other.anonKiB = other.anonKiB.saturatingSum(m.anonKiB)
            other.mappings = other.mappings.saturatingSum(m.mappings)
        }
        return Array(sorted[..<count]) + [other]
    }

    /// A mapping's first line: `start-end perms offset dev inode [path]`, the address in
    /// lower-case hex; a field line starts with its key's capital letter.
    static func isHeader(_ b: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Bool {
        var i = start
        while i < end, isHex(b[i]) { i += 1 }
        return i > start && i < end && b[i] == 0x2D
    }

    static func isHex(_ c: UInt8) -> Bool { (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) }

    /// The path after the five fields, grouped, and whether the mapping is shared anonymous
    /// memory (shmem): `anon` when there is no path, `[stack]` for any thread's stack, else
    /// the last component of a file's path without " (deleted)". The kernel names a
    /// MAP_SHARED|MAP_ANONYMOUS map `/dev/zero (deleted)` (called `zero`, it read as a file
    /// while it held a pre-fork server's 64 MiB arena): `shared anon`; a memfd
    /// `/memfd:NAME (deleted)`, NAME any bytes the program chose, `/` included: `memfd NAME`.
    /// System V segments (`/SYSV… (deleted)`) and POSIX ones (under /dev/shm) keep their names.
    static func mapping(_ b: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> (name: [UInt8], sharedAnonymous: Bool) {
        var i = start
        for _ in 0..<5 {
            while i < end && b[i] == 0x20 { i += 1 }
            while i < end && b[i] != 0x20 { i += 1 }
        }
        while i < end && b[i] == 0x20 { i += 1 }
        var path = Array(b[i..<end])
        if path.isEmpty { return (Array("anon".utf8), false) }
        if path.starts(with: "[stack".utf8) { return (Array("[stack]".utf8), false) }
        let deleted = Array(" (deleted)".utf8)
        let wasDeleted = path.count > deleted.count && Array(path[(path.count - deleted.count)...]) == deleted
        if wasDeleted { path.removeLast(deleted.count) }
        if wasDeleted && path.elementsEqual("/dev/zero".utf8) { return (Array("shared anon".utf8), true) }
        if wasDeleted && path.starts(with: "/memfd:".utf8) {
            var name = Array("memfd ".utf8)
            name.append(contentsOf: path.dropFirst(7))
            return (Array(name.prefix(maximumNameBytes)), true)
        }
        let sharedMemory = (wasDeleted && path.starts(with: "/SYSV".utf8)) || path.starts(with: "/dev/shm/".utf8)
        if path.first == 0x2F, let slash = path.lastIndex(of: 0x2F), slash + 1 < path.count {
            path.removeSubrange(...slash)
        }
        return (Array(path.prefix(maximumNameBytes)), sharedMemory)
    }

    /// Adds a field line's figure (`Rss:      120 kB`) to `m`, when it is one kept. Shared
    /// anonymous memory's anonymous figure is its share (Pss, SwapPss): smaps's `Anonymous`
    /// counts none of it, and the tree's figure divides it among its users.
    static func add(_ b: UnsafeRawBufferPointer, _ start: Int, _ end: Int, sharedAnonymous: Bool, to m: inout MappingFigures) {
        guard let colon = (start..<end).first(where: { b[$0] == 0x3A }) else { return }
        let key = b[start..<colon]
        var i = colon + 1
        while i < end && b[i] == 0x20 { i += 1 }
        var value: UInt64 = 0
        var digits = 0
        while i < end, b[i] >= 0x30 && b[i] <= 0x39 {
            value = value.saturatingTimesTen().saturatingSum(UInt64(b[i] - 0x30))
            i += 1; digits += 1
        }
        guard digits > 0 else { return }
        if key.elementsEqual("Rss".utf8) { m.rssKiB = m.rssKiB.saturatingSum(value) }
        else if key.elementsEqual("Pss".utf8) {
            m.pssKiB = m.pssKiB.saturatingSum(value)
            if sharedAnonymous { m.anonKiB = m.anonKiB.saturatingSum(value) }
        }
        else if key.elementsEqual("Private_Clean".utf8) || key.elementsEqual("Private_Dirty".utf8) { m.ussKiB = m.ussKiB.saturatingSum(value) }
        else if sharedAnonymous ? key.elementsEqual("SwapPss".utf8) : (key.elementsEqual("Anonymous".utf8) || key.elementsEqual("Swap".utf8)) {
            m.anonKiB = m.anonKiB.saturatingSum(value)
        }
    }
}

private extension UInt64 {
    func saturatingSum(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }

    func saturatingTimesTen() -> UInt64 {
        let (product, overflow) = multipliedReportingOverflow(by: 10)
        return overflow ? .max : product
    }
}
