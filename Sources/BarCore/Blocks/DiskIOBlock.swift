import SnapshotCodec

/// `io r 1.2M/s w 300K/s`: read and write rates of one whole disk (`diskio:nvme0n1`) or,
/// by default, of all of them together.
enum DiskIOBlock {
    static let descriptor = BlockDescriptor(
        name: "diskio", label: "io", section: .diskIO, argumentKey: "device",
        placeholders: [
            PlaceholderSpec("read", "bytes read per second") { s, c, w in
                if let r = rates(s, c.argument) { w.appendRate(bytesPerSecond: r.read) } else { w.appendNotAvailable() }
            },
            PlaceholderSpec("write", "bytes written per second") { s, c, w in
                if let r = rates(s, c.argument) { w.appendRate(bytesPerSecond: r.write) } else { w.appendNotAvailable() }
            },
            PlaceholderSpec("device", "the disk, or all") { s, c, w in
                if rates(s, c.argument) == nil { w.appendNotAvailable() } else if c.argument.isEmpty { w.append("all") } else { w.append(bytes: c.argument) }
            },
        ],
        render: render)

    /// Read and write rates of the disk named `argument`, or the sum of all; nil when named and absent.
    static func rates(_ snap: Snapshot, _ argument: [UInt8]) -> (read: UInt64, write: UInt64)? {
        var read: UInt64 = 0, write: UInt64 = 0, found = argument.isEmpty
        for d in snap.diskIO where argument.isEmpty || d.device == argument {
            read = saturatingAdd(read, d.readBytesPerSecond)
            write = saturatingAdd(write, d.writeBytesPerSecond)
            found = true
        }
        return found ? (read, write) : nil
    }

    static func render(_ snap: Snapshot, _ c: BlockContext, into v: inout BlockValue) {
        let argument = c.argument
        v.full.append("io ")
        guard let (read, write) = rates(snap, argument) else {
            v.full.append(bytes: argument); v.full.append(UInt8(ascii: " ")); v.full.appendNotAvailable()
            v.short.append(v.full)
            return
        }
        if !argument.isEmpty { v.full.append(bytes: argument); v.full.append(UInt8(ascii: " ")) }
        v.full.append("r "); v.full.appendRate(bytesPerSecond: read)
        v.full.append(" w "); v.full.appendRate(bytesPerSecond: write)
        v.short.append("r "); v.short.appendRate(bytesPerSecond: read)
        v.short.append(" w "); v.short.appendRate(bytesPerSecond: write)
    }
}
