/// Section 10: the processes that exited recently, most recent first.
enum ExitsSection {
    static let maximumSize = 1 + Snapshot.maximumExits * (SnapshotFormat.exitEntryFixedLength + Snapshot.maximumNameLength)

    static let descriptor = SectionDescriptor(.exits, maximumSize: maximumSize,
                                              encode: encode, decode: decode, clear: clear)

    @Sendable static func encode(_ s: inout Snapshot, into b: inout EncodeCursor) {
        b.appendSection(.exits) { b in b.appendExits(s.exits) }
    }

    @Sendable static func decode(_ r: inout SnapshotReader, into s: inout Snapshot) throws(SnapshotDecodeError) {
        try r.exits(into: &s.exits)
    }

    @Sendable static func clear(_ s: inout Snapshot) {
        s.exits.removeAll(keepingCapacity: true)
    }
}
