/// Section 9: the top processes by CPU, then by private memory; each list a u8 count and
/// its entries (pid, CPU, private KiB, name). Version 2 appends the list by GPU use
/// (``Snapshot/topGPU``: pid, GPU share, GPU memory KiB, name), read only when present.
enum TopSection {
    static let listMaximumSize = 1 + Snapshot.maximumTopEntries * (SnapshotFormat.processEntryFixedLength + Snapshot.maximumNameLength)
    static let maximumSize = 3 * listMaximumSize

    static let descriptor = SectionDescriptor(.top, maximumSize: maximumSize,
                                              encode: encode, decode: decode, clear: clear)

    @Sendable static func encode(_ s: inout Snapshot, into b: inout EncodeCursor) {
        b.appendSection(.top, version: 2) { b in
            b.appendProcesses(s.topCPU)
            b.appendProcesses(s.topMemory)
            b.appendProcesses(s.topGPU)
        }
    }

    @Sendable static func decode(_ r: inout SnapshotReader, into s: inout Snapshot) throws(SnapshotDecodeError) {
        try r.processes(into: &s.topCPU)
        try r.processes(into: &s.topMemory)
        if r.isAtEnd {   // version 1 ends here
            s.topGPU.removeAll(keepingCapacity: true)
        } else {
            try r.processes(into: &s.topGPU)
        }
    }

    @Sendable static func clear(_ s: inout Snapshot) {
        s.topCPU.removeAll(keepingCapacity: true)
        s.topMemory.removeAll(keepingCapacity: true)
        s.topGPU.removeAll(keepingCapacity: true)
    }
}
