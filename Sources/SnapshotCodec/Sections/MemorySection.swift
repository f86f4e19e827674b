/// Section 4: the memory figures (KiB) and the used-share history (oldest first).
enum MemorySection {
    static let maximumSize = 10 * 8 + 1 + 2 * Snapshot.historyLength

    static let descriptor = SectionDescriptor(.memory, maximumSize: maximumSize,
                                              encode: encode, decode: decode, clear: clear)

    @Sendable static func encode(_ s: inout Snapshot, into b: inout EncodeCursor) {
        b.appendSection(.memory) { b in
            let m = s.memory
            b.appendLE(m.total)
            b.appendLE(m.free)
            b.appendLE(m.active)
            b.appendLE(m.inactive)
            b.appendLE(m.wired)
            b.appendLE(m.other)
            b.appendLE(m.available)
            b.appendLE(m.used)
            b.appendLE(m.swapTotal)
            b.appendLE(m.swapUsed)
            let points = min(s.memoryHistory.count, Snapshot.historyLength)
            b.append(UInt8(points))
            b.appendLE(s.memoryHistory, (s.memoryHistory.count - points)..<s.memoryHistory.count)
        }
    }

    @Sendable static func decode(_ r: inout SnapshotReader, into s: inout Snapshot) throws(SnapshotDecodeError) {
        s.memory.total = try r.u64()
        s.memory.free = try r.u64()
        s.memory.active = try r.u64()
        s.memory.inactive = try r.u64()
        s.memory.wired = try r.u64()
        s.memory.other = try r.u64()
        s.memory.available = try r.u64()
        s.memory.used = try r.u64()
        s.memory.swapTotal = try r.u64()
        s.memory.swapUsed = try r.u64()
        let points = Int(try r.u8())
        guard points <= Snapshot.historyLength else { throw .malformed(.countOverLimit) }
        try r.shareArray(count: points, into: &s.memoryHistory)
    }

    @Sendable static func clear(_ s: inout Snapshot) {
        s.memory = MemoryFigures()
        s.memoryHistory.removeAll(keepingCapacity: true)
    }
}
