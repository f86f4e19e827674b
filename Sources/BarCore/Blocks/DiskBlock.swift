import SnapshotCodec

/// `disk / 78.1G free`: the free space of a mount point (`disk:/home`; default the first the
/// sampler measures, `/` unless told otherwise), as `df` counts it; warning from 80 % used,
/// critical from 90 %.
enum DiskBlock {
    static let descriptor = BlockDescriptor(
        name: "disk", label: "disk", section: .disks, argumentKey: "mount", asks: .disk,
        marks: LevelMarks(unit: .percent, warning: 8000, critical: 9000),
        present: { s, c in disk(s, c.argument).map { $0.totalKiB > 0 } ?? false },
        hiddenWhenMissingByDefault: true,
        placeholders: [
            PlaceholderSpec("mount", "the mount point") { s, c, w in figure(s, c, &w) { d, w in w.append(bytes: d.mount) } },
            PlaceholderSpec("free", "available space (what df calls Avail)") { s, c, w in
                figure(s, c, &w) { d, w in w.appendSize(kib: d.availableKiB) }
            },
            PlaceholderSpec("used", "used space") { s, c, w in figure(s, c, &w) { d, w in w.appendSize(kib: d.usedKiB) } },
            PlaceholderSpec("total", "size") { s, c, w in figure(s, c, &w) { d, w in w.appendSize(kib: d.totalKiB) } },
            PlaceholderSpec("percent", "used share, as df's Use%") { s, c, w in
                figure(s, c, &w) { d, w in appendWholePercent(&w, d.usedPermyriad) }
            },
            PlaceholderSpec("free_percent", "available share, 100 less Use%") { s, c, w in
                figure(s, c, &w) { d, w in appendWholePercent(&w, 10_000 - min(d.usedPermyriad, 10_000)) }
            },
            PlaceholderSpec("bar", "eight-cell bar of the used share") { s, c, w in
                figure(s, c, &w) { d, w in appendBar(&w, permyriad: d.usedPermyriad, cells: 8) }
            },
        ],
        render: render)

    /// Appends a figure of the block's disk, `n/a` without one.
    private static func figure(_ snap: Snapshot, _ c: BlockContext, _ w: inout ByteWriter,
                               _ append: (DiskFigures, inout ByteWriter) -> Void) {
        guard let d = disk(snap, c.argument), d.totalKiB > 0 else { w.appendNotAvailable(); return }
        append(d, &w)
    }

    /// The disk the block shows: the one mounted at `argument`, else the first.
    static func disk(_ snap: Snapshot, _ argument: [UInt8]) -> DiskFigures? {
        if argument.isEmpty { return snap.disks.first }
        for d in snap.disks where d.mount == argument { return d }
        return nil
    }

    static func render(_ snap: Snapshot, _ c: BlockContext, into v: inout BlockValue) {
        let argument = c.argument
        v.full.append("disk ")
        if let d = disk(snap, argument), d.isMissing {
            // A typo in the config, or a drive not plugged in: say which, not n/a.
            v.full.append(bytes: d.mount); v.full.append(": no such mount")
            v.short.append(v.full)
            v.level = .warning
            return
        }
        if let d = disk(snap, argument), d.isNotAnswering {
            // Its file system did not answer the sampler's statfs (a hung server): the rest
            // of the bar goes on.
            v.full.append(bytes: d.mount); v.full.append(": not answering")
            v.short.append(v.full)
            v.level = .warning
            return
        }
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
        v.level = c.level(rising: used)
        v.percentage = wholePercent(used)
    }
}
