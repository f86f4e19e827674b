/// Section 7: how many processes there are, how many are running, and (version 2) how many
/// threads.
enum ProcessesSection {
    static let size = 4 + 4 + 4

    static let descriptor = SectionDescriptor(.processes, maximumSize: size,
                                              encode: encode, decode: decode, clear: clear)

    @Sendable static func encode(_ s: inout Snapshot, into b: inout EncodeCursor) {
        b.appendSection(.processes, version: 2) { b in
            b.appendLE(s.processCount)
            b.appendLE(s.runningCount)
            b.appendLE(s.threadCount)
        }
    }

    @Sendable static func decode(_ r: inout SnapshotReader, into s: inout Snapshot) throws(SnapshotDecodeError) {
        s.processCount = try r.u32()
        s.runningCount = try r.u32()
        s.threadCount = r.isAtEnd ? 0 : try r.u32()   // version 1 ends here
    }

    @Sendable static func clear(_ s: inout Snapshot) {
        s.processCount = 0; s.runningCount = 0; s.threadCount = 0
    }
}
