/// Section 6: the load averages × 100.
enum LoadSection {
    static let size = 3 * 4

    static let descriptor = SectionDescriptor(.load, maximumSize: size,
                                              encode: encode, decode: decode, clear: clear)

    @Sendable static func encode(_ s: inout Snapshot, into b: inout EncodeCursor) {
        b.appendSection(.load) { b in
            b.appendLE(s.load1)
            b.appendLE(s.load5)
            b.appendLE(s.load15)
        }
    }

    @Sendable static func decode(_ r: inout SnapshotReader, into s: inout Snapshot) throws(SnapshotDecodeError) {
        s.load1 = try r.u32()
        s.load5 = try r.u32()
        s.load15 = try r.u32()
    }

    @Sendable static func clear(_ s: inout Snapshot) {
        s.load1 = 0; s.load5 = 0; s.load15 = 0
    }
}
