import ProcFS
import SnapshotCodec

/// The space of each configured mount point (statvfs, as `df` computes it), read every few
/// seconds: space changes slowly, and it is one system call per mount.
struct DiskProbe {
    static let refreshMs: UInt64 = 5_000

    private let spaces: [FileSystemSpace]
    /// Each mount point's path as the snapshot shows it (cut at its limit), made once.
    private let mountBytes: [[UInt8]]
    private var lastReadMs: UInt64 = 0
    private var measured = false

    init(mounts: [String]) {
        var spaces: [FileSystemSpace] = [], mountBytes: [[UInt8]] = []
        for i in 0..<min(mounts.count, Snapshot.maximumDisks) {
            spaces.append(FileSystemSpace(path: mounts[i]))
            var bytes = utf8Bytes(mounts[i])
            while bytes.count > Snapshot.maximumPathLength { bytes.removeLast() }
            mountBytes.append(bytes)
        }
        self.spaces = spaces
        self.mountBytes = mountBytes
    }

    mutating func sample(into s: inout Snapshot, realtimeMs: UInt64) {
        guard !spaces.isEmpty else { return }
        if lastReadMs == 0 || realtimeMs &- lastReadMs >= DiskProbe.refreshMs || realtimeMs < lastReadMs {
            lastReadMs = realtimeMs == 0 ? 1 : realtimeMs
            measured = false
            if s.disks.count > spaces.count { s.disks.removeLast(s.disks.count - spaces.count) }
            for i in spaces.indices {
                if i == s.disks.count { s.disks.append(DiskFigures()) }
                // A mount that cannot be measured (unreadable) stays listed with zeros: the
                // renderer shows it as n/a by its zero total; one whose path is not there, as
                // missing.
                let usage = spaces[i].update() ?? FileSystemUsage()
                if s.disks[i].mount.isEmpty { s.disks[i].mount = mountBytes[i] }
                if spaces[i].isMissing {
                    s.disks[i].markMissing()
                    measured = true
                    continue
                }
                s.disks[i].totalKiB = usage.totalKiB
                s.disks[i].usedKiB = usage.usedKiB
                s.disks[i].availableKiB = usage.availableKiB
                if usage.totalKiB > 0 { measured = true }
            }
        }
        if measured { s.available.insert(.disks) }
    }
}
