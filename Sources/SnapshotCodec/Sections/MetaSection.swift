/// Section 1, required: when the sample was taken, the sampler's interval (for staleness)
/// and the urgent flags.
enum MetaSection {
    static let size = 8 + 4 + 4

    static let descriptor = SectionDescriptor(.meta, maximumSize: size,
                                              encode: encode, decode: decode, clear: nil)

    @Sendable static func encode(_ s: inout Snapshot, into b: inout EncodeCursor) {
        b.appendSection(.meta) { b in
            b.appendLE(s.timestampMs)
            b.appendLE(s.intervalMs)
            b.appendLE(s.urgent.rawValue)
        }
    }

    @Sendable static func decode(_ r: inout SnapshotReader, into s: inout Snapshot) throws(SnapshotDecodeError) {
        s.timestampMs = try r.u64()
        s.intervalMs = try r.u32()
        s.urgent = UrgentFlags(rawValue: try r.u32())
    }
}
