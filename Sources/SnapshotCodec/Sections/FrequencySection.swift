/// Section 16: the current CPU frequency, MHz: average u32, highest u32.
enum FrequencySection {
    static let size = 2 * 4

    static let descriptor = SectionDescriptor(.frequency, maximumSize: size, cached: true,
                                              encode: encode, decode: decode, clear: clear)

    @Sendable static func encode(_ s: inout Snapshot, into b: inout EncodeCursor) {
        b.appendSection(.frequency) { b in
            b.appendLE(s.cpuMHzAverage)
            b.appendLE(s.cpuMHzMaximum)
        }
    }

    @Sendable static func decode(_ r: inout SnapshotReader, into s: inout Snapshot) throws(SnapshotDecodeError) {
        s.cpuMHzAverage = try r.u32()
        s.cpuMHzMaximum = try r.u32()
    }

    @Sendable static func clear(_ s: inout Snapshot) {
        s.cpuMHzAverage = 0
        s.cpuMHzMaximum = 0
    }
}
