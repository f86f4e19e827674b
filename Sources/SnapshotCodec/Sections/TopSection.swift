/// Section 9: the top processes by CPU, then by private memory; each list a u8 count and
/// its entries (pid, CPU, private KiB, name).
enum TopSection {
    static let maximumSize = 2 * (1 + Snapshot.maximumTopEntries
                                  * (SnapshotFormat.processEntryFixedLength + Snapshot.maximumNameLength))

    static let descriptor = SectionDescriptor(.top, part: .top, maximumSize: maximumSize,
                                              encode: encode, decode: decode, clear: clear)

    static func encode(_ s: inout Snapshot, into b: inout EncodeCursor) {
        b.appendSection(.top) { b in
            b.appendProcesses(s.topCPU)
            b.appendProcesses(s.topMemory)
        }
    }

    static func decode(_ r: inout SnapshotReader, into s: inout Snapshot) throws(SnapshotDecodeError) {
        try r.processes(into: &s.topCPU)
        try r.processes(into: &s.topMemory)
    }

    static func clear(_ s: inout Snapshot) {
        s.topCPU.removeAll(keepingCapacity: true)
        s.topMemory.removeAll(keepingCapacity: true)
    }
}
