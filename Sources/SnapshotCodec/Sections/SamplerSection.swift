/// Section 11: what the sampler itself costs: CPU (permyriad of one core) and resident KiB.
enum SamplerSection {
    static let size = 2 + 4

    static let descriptor = SectionDescriptor(.sampler, maximumSize: size, cached: true,
                                              encode: encode, decode: decode, clear: clear)

    @Sendable static func encode(_ s: inout Snapshot, into b: inout EncodeCursor) {
        b.appendSection(.sampler) { b in
            b.appendLE(s.samplerCPU)
            b.appendLE(s.samplerResidentKiB)
        }
    }

    @Sendable static func decode(_ r: inout SnapshotReader, into s: inout Snapshot) throws(SnapshotDecodeError) {
        s.samplerCPU = try r.share()
        s.samplerResidentKiB = try r.u32()
    }

    @Sendable static func clear(_ s: inout Snapshot) {
        s.samplerCPU = 0; s.samplerResidentKiB = 0
    }
}
