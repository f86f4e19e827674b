/// Section 14: whole-disk I/O. A u8 count (0...8), then per disk: the device name (u8 length
/// ≤ 15, bytes), read and write bytes per second, read and written bytes since boot (u64 each).
enum DiskIOSection {
    static let maximumSize = 1 + Snapshot.maximumDiskDevices * (1 + Snapshot.maximumInterfaceNameLength + 4 * 8)

    static func encode(_ s: Snapshot, into b: inout [UInt8]) {
        b.appendSection(.diskIO) { b in
            let count = min(s.diskIO.count, Snapshot.maximumDiskDevices)
            b.append(UInt8(count))
            for i in 0..<count {
                let d = s.diskIO[i]
                b.appendShortBytes(d.device, maximum: Snapshot.maximumInterfaceNameLength)
                b.appendLE(d.readBytesPerSecond)
                b.appendLE(d.writeBytesPerSecond)
                b.appendLE(d.readBytes)
                b.appendLE(d.writeBytes)
            }
        }
    }

    static func decode(_ r: inout ByteReader, into s: inout Snapshot) throws(SnapshotDecodeError) {
        let count = Int(try r.u8())
        guard count <= Snapshot.maximumDiskDevices else { throw .malformed(.countOverLimit) }
        if s.diskIO.count > count { s.diskIO.removeLast(s.diskIO.count - count) }
        for i in 0..<count {
            if i == s.diskIO.count { s.diskIO.append(DiskIOFigures()) }
            try r.shortBytes(into: &s.diskIO[i].device, maximum: Snapshot.maximumInterfaceNameLength)
            s.diskIO[i].readBytesPerSecond = try r.u64()
            s.diskIO[i].writeBytesPerSecond = try r.u64()
            s.diskIO[i].readBytes = try r.u64()
            s.diskIO[i].writeBytes = try r.u64()
        }
    }

    static func clear(_ s: inout Snapshot) {
        s.diskIO.removeAll(keepingCapacity: true)
    }
}
