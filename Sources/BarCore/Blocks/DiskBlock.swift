#if hasFeature(Embedded)
import SnapshotCodecEmbedded
#else
import SnapshotCodec
#endif

/// `disk / 78.1G free`: the free space of a mount point (`disk:/home`; default the first the
/// sampler measures, `/` unless told otherwise), as `df` counts it; warning from 80 % used,
/// critical from 90 %.
enum DiskBlock {
    static let placeholders: [PlaceholderSpec] = [
        PlaceholderSpec("mount", "the mount point"),
        PlaceholderSpec("free", "available space (what df calls Avail)"),
        PlaceholderSpec("used", "used space"),
        PlaceholderSpec("total", "size"),
        PlaceholderSpec("percent", "used share, as df's Use%"),
        PlaceholderSpec("bar", "eight-cell bar of the used share"),
    ]

    /// The disk the block shows: the one mounted at `argument`, else the first.
    static func disk(_ snap: Snapshot, _ argument: [UInt8]) -> DiskFigures? {
        if argument.isEmpty { return snap.disks.first }
        for d in snap.disks where d.mount == argument { return d }
        return nil
    }

    static func render(_ snap: Snapshot, argument: [UInt8], thresholds t: Thresholds, into v: inout BlockValue) {
        v.full.append("disk ")
        guard let d = disk(snap, argument), d.totalKiB > 0 else {
            v.full.append(bytes: argument.isEmpty ? [] : argument)
            if !argument.isEmpty { v.full.append(UInt8(ascii: " ")) }
            v.full.appendNotAvailable()
            v.short.append(v.full)
            return
        }
        let used = d.usedPermyriad
        v.full.append(bytes: d.mount); v.full.append(UInt8(ascii: " "))
        v.full.appendSize(kib: d.availableKiB); v.full.append(" free")
        v.short.append(bytes: d.mount); v.short.append(UInt8(ascii: " ")); v.short.appendSize(kib: d.availableKiB)
        v.level = used >= t.diskCritical ? .critical : (used >= t.diskWarning ? .warning : .normal)
        v.percentage = wholePercent(used)
    }

    static func append(_ index: Int, _ snap: Snapshot, argument: [UInt8], into w: inout ByteWriter) {
        guard let d = disk(snap, argument), d.totalKiB > 0 else { w.appendNotAvailable(); return }
        switch index {
        case 0: w.append(bytes: d.mount)
        case 1: w.appendSize(kib: d.availableKiB)
        case 2: w.appendSize(kib: d.usedKiB)
        case 3: w.appendSize(kib: d.totalKiB)
        case 4: appendWholePercent(&w, d.usedPermyriad)
        default: appendBar(&w, permyriad: d.usedPermyriad, cells: 8)
        }
    }
}
