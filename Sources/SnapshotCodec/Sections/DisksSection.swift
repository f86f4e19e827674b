/// Section 13: file system space. A u8 count (0...8), then per mount: the mount point
/// (u8 length ≤ 64, bytes), total, used and available KiB (u64 each).
enum DisksSection {
    static let maximumSize = 1 + Snapshot.maximumDisks * (1 + Snapshot.maximumPathLength + 3 * 8)

    static let descriptor = SectionDescriptor(.disks, maximumSize: maximumSize, cached: true,
                                              encode: encode, decode: decode, clear: clear)

    @Sendable static func encode(_ s: inout Snapshot, into b: inout EncodeCursor) {
        b.appendSection(.disks) { b in
            b.appendList(s.disks, maximum: Snapshot.maximumDisks) { b, d in
                b.appendShortBytes(d.mount, maximum: Snapshot.maximumPathLength)
                b.appendLE(d.totalKiB)
                b.appendLE(d.usedKiB)
                b.appendLE(d.availableKiB)
            }
        }
    }

    @Sendable static func decode(_ r: inout SnapshotReader, into s: inout Snapshot) throws(SnapshotDecodeError) {
        try r.list(into: &s.disks, maximum: Snapshot.maximumDisks, empty: DiskFigures()) { (r, d) throws(SnapshotDecodeError) in
            try r.shortBytes(into: &d.mount, maximum: Snapshot.maximumPathLength)
            d.totalKiB = try r.u64()
            d.usedKiB = try r.u64()
            d.availableKiB = try r.u64()
        }
    }

    @Sendable static func clear(_ s: inout Snapshot) {
        s.disks.removeAll(keepingCapacity: true)
    }
}
