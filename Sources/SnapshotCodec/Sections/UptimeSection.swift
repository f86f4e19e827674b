/// Section 2: boot time (seconds since the epoch) and uptime (1/100 s).
enum UptimeSection {
    static let size = 8 + 8

    static let descriptor = SectionDescriptor(.uptime, maximumSize: size,
                                              encode: encode, decode: decode, clear: clear)

    @Sendable static func encode(_ s: inout Snapshot, into b: inout EncodeCursor) {
        b.appendSection(.uptime) { b in
            b.appendLE(s.bootTime)
            b.appendLE(s.uptimeCentiseconds)
        }
    }

    @Sendable static func decode(_ r: inout SnapshotReader, into s: inout Snapshot) throws(SnapshotDecodeError) {
        s.bootTime = try r.u64()
        s.uptimeCentiseconds = try r.u64()
    }

    @Sendable static func clear(_ s: inout Snapshot) {
        s.bootTime = 0
        s.uptimeCentiseconds = 0
    }
}
