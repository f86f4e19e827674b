/// Section 14: whole-disk I/O. A u8 count (0...8), then per disk: the device name (u8 length
/// ≤ 15, bytes), read and write bytes per second, read and written bytes since boot (u64 each).
enum DiskIOSection {
    static let maximumSize = 1 + Snapshot.maximumDiskDevices * (1 + Snapshot.maximumInterfaceNameLength + 4 * 8)

    static let descriptor = SectionDescriptor(.diskIO, maximumSize: maximumSize, cached: true,
                                              encode: encode, decode: decode, clear: clear)

    @Sendable static func encode(_ s: inout Snapshot, into b: inout EncodeCursor) {
        b.appendSection(.diskIO) { b in
            b.appendList(s.diskIO, maximum: Snapshot.maximumDiskDevices) { b, d in
                b.appendShortBytes(d.device, maximum: Snapshot.maximumInterfaceNameLength)
                b.appendLE(d.readBytesPerSecond)
                b.appendLE(d.writeBytesPerSecond)
                b.appendLE(d.readBytes)
                b.appendLE(d.writeBytes)
            }
        }
    }

    @Sendable static func decode(_ r: inout SnapshotReader, into s: inout Snapshot) throws(SnapshotDecodeError) {
        try r.list(into: &s.diskIO, maximum: Snapshot.maximumDiskDevices, empty: DiskIOFigures()) { (r, d) throws(SnapshotDecodeError) in
            try r.shortBytes(into: &d.device, maximum: Snapshot.maximumInterfaceNameLength)
            d.readBytesPerSecond = try r.u64()
            d.writeBytesPerSecond = try r.u64()
            d.readBytes = try r.u64()
            d.writeBytes = try r.u64()
        }
    }

    @Sendable static func clear(_ s: inout Snapshot) {
        s.diskIO.removeAll(keepingCapacity: true)
    }
}
