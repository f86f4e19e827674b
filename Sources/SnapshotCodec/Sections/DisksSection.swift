/// Section 13: file system space. A u8 count (0...8), then per mount: the mount point
/// (u8 length ≤ 64, bytes), total, used and available KiB (u64 each).
enum DisksSection {
    static let maximumSize = 1 + Snapshot.maximumDisks * (1 + Snapshot.maximumPathLength + 3 * 8)

    static func encode(_ s: Snapshot, into b: inout [UInt8]) {
        b.appendSection(.disks) { b in
            let count = min(s.disks.count, Snapshot.maximumDisks)
            b.append(UInt8(count))
            for i in 0..<count {
                let d = s.disks[i]
                b.appendShortBytes(d.mount, maximum: Snapshot.maximumPathLength)
                b.appendLE(d.totalKiB)
                b.appendLE(d.usedKiB)
                b.appendLE(d.availableKiB)
            }
        }
    }

    static func decode(_ r: inout ByteReader, into s: inout Snapshot) throws(SnapshotDecodeError) {
        let count = Int(try r.u8())
        guard count <= Snapshot.maximumDisks else { throw .malformed(.countOverLimit) }
        if s.disks.count > count { s.disks.removeLast(s.disks.count - count) }
        for i in 0..<count {
            if i == s.disks.count { s.disks.append(DiskFigures()) }
            try r.shortBytes(into: &s.disks[i].mount, maximum: Snapshot.maximumPathLength)
            s.disks[i].totalKiB = try r.u64()
            s.disks[i].usedKiB = try r.u64()
            s.disks[i].availableKiB = try r.u64()
        }
    }

    static func clear(_ s: inout Snapshot) {
        s.disks.removeAll(keepingCapacity: true)
    }
}
