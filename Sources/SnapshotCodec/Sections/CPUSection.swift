/// Section 3: busy and iowait shares, each core's busy share, and the busy and iowait
/// histories (one count, then the busy points, then the iowait points, oldest first).
enum CPUSection {
    static let maximumSize = 2 + 2 + 2 + 2 * Snapshot.maximumCores + 1 + 4 * Snapshot.historyLength

    static let descriptor = SectionDescriptor(.cpu, maximumSize: maximumSize,
                                              encode: encode, decode: decode, clear: clear)

    @Sendable static func encode(_ s: inout Snapshot, into b: inout EncodeCursor) {
        b.appendSection(.cpu) { b in
            b.appendLE(s.cpuBusy)
            b.appendLE(s.cpuIOWait)
            let cores = min(s.coreBusy.count, Snapshot.maximumCores)
            b.appendLE(UInt16(cores))
            b.appendLE(s.coreBusy, 0..<cores)
            let points = min(s.cpuHistory.count, Snapshot.historyLength)
            b.append(UInt8(points))
            b.appendLE(s.cpuHistory, (s.cpuHistory.count - points)..<s.cpuHistory.count)
            // Right-aligned on cpuHistory: iowait's newest point goes with the newest busy
            // point; points it lacks (a snapshot decoded from v1) are written as 0.
            let missing = max(0, points - s.iowaitHistory.count)
            b.appendZeros(missing * MemoryLayout<Permyriad>.size)
            b.appendLE(s.iowaitHistory, (s.iowaitHistory.count - (points - missing))..<s.iowaitHistory.count)
        }
    }

    @Sendable static func decode(_ r: inout SnapshotReader, into s: inout Snapshot) throws(SnapshotDecodeError) {
        s.cpuBusy = try r.share()
        s.cpuIOWait = try r.share()
        let cores = Int(try r.u16())
        guard cores <= Snapshot.maximumCores else { throw .malformed(.countOverLimit) }
        try r.shareArray(count: cores, into: &s.coreBusy)
        let points = Int(try r.u8())
        guard points <= Snapshot.historyLength else { throw .malformed(.countOverLimit) }
        try r.shareArray(count: points, into: &s.cpuHistory)
        try r.shareArray(count: points, into: &s.iowaitHistory)
    }

    @Sendable static func clear(_ s: inout Snapshot) {
        s.cpuBusy = 0
        s.cpuIOWait = 0
        s.coreBusy.removeAll(keepingCapacity: true)
        s.cpuHistory.removeAll(keepingCapacity: true)
        s.iowaitHistory.removeAll(keepingCapacity: true)
    }
}
