/// Section 5: PSI memory "some" avg10, permyriad. Absent when the kernel has no PSI
/// (``Snapshot/memoryPressure`` is then nil).
enum PressureSection {
    static let size = 2

    static let descriptor = SectionDescriptor(.pressure, maximumSize: size,
                                              encode: encode, decode: decode, clear: nil)

    @Sendable static func encode(_ s: inout Snapshot, into b: inout EncodeCursor) {
        guard let pressure = s.memoryPressure else { return }
        b.appendSection(.pressure) { b in b.appendLE(pressure) }
    }

    @Sendable static func decode(_ r: inout SnapshotReader, into s: inout Snapshot) throws(SnapshotDecodeError) {
        s.memoryPressure = try r.share()
    }
}
