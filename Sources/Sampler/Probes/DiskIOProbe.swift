import ProcFS
import SnapshotCodec

/// Read and write bytes per second of each whole disk, from /proc/diskstats (kept open).
struct DiskIOProbe {
    private let reader: DiskStatsReader
    private var previous = DiskStats()
    private var previousNs: UInt64 = 0

    init(procRoot: String, sysRoot: String, buffer: ReadBuffer) {
        // The reader chooses its disks at init: no second scan here.
        reader = DiskStatsReader(procRoot: procRoot, sysRoot: sysRoot)
        previous.disks.reserveCapacity(Snapshot.maximumDiskDevices)
    }

    mutating func sample(into s: inout Snapshot, buffer: ReadBuffer, monotonicNs: UInt64) {
        guard let now = reader.update(buffer) else { return }
        let elapsedNs = monotonicNs > previousNs ? monotonicNs - previousNs : 0
        let count = min(now.disks.count, Snapshot.maximumDiskDevices)
        if s.diskIO.count > count { s.diskIO.removeLast(s.diskIO.count - count) }
        for i in 0..<count {
            if i == s.diskIO.count { s.diskIO.append(DiskIOFigures()) }
            let d = now.disks[i]
            d.name.store(in: &s.diskIO[i].device)
            let before = previousNs == 0 ? nil : previous.disk(named: d.name)
            s.diskIO[i].readBytes = d.readBytes
            s.diskIO[i].writeBytes = d.writtenBytes
            s.diskIO[i].readBytesPerSecond = before.map { perSecond(d.readBytes, $0.readBytes, elapsedNs) } ?? 0
            s.diskIO[i].writeBytesPerSecond = before.map { perSecond(d.writtenBytes, $0.writtenBytes, elapsedNs) } ?? 0
        }
        previous = now
        previousNs = monotonicNs
        s.available.insert(.diskIO)
    }
}

/// The rise of a counter per second over `elapsedNs`; 0 when it went back (a reset) or no
/// time passed. Saturating: a counter may say anything.
func perSecond(_ now: UInt64, _ before: UInt64, _ elapsedNs: UInt64) -> UInt64 {
    guard now > before, elapsedNs > 0 else { return 0 }
    let delta = now - before
    let (scaled, overflow) = delta.multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return delta / max(1, elapsedNs / 1_000_000_000) }
    return scaled / elapsedNs
}
