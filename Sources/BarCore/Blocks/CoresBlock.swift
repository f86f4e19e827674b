#if hasFeature(Embedded)
import SnapshotCodecEmbedded
#else
import SnapshotCodec
#endif

/// `cores ▂▅▁█`: one sparkline cell per core (the first ``maximumShown``), coloured by the busiest.
enum CoresBlock {
    static let placeholders: [PlaceholderSpec] = [
        PlaceholderSpec("bars", "one cell per core, ▁ idle to █ busy"),
        PlaceholderSpec("max", "busiest core's share"),
        PlaceholderSpec("count", "number of cores"),
    ]

    /// Cells drawn at most: a 128-core machine still fits a bar.
    static let maximumShown = 64

    static func render(_ snap: Snapshot, thresholds t: Thresholds, into v: inout BlockValue) {
        v.full.append("cores ")
        appendCells(snap, into: &v.full)
        let busiest = maximum(snap)
        v.short.append("cores max "); v.short.appendPercent(permyriad: busiest)
        v.level = busiest >= t.cpuCritical ? .warning : .normal
        v.percentage = wholePercent(busiest)
    }

    static func append(_ index: Int, _ snap: Snapshot, into w: inout ByteWriter) {
        switch index {
        case 0: appendCells(snap, into: &w)
        case 1: appendWholePercent(&w, maximum(snap))
        default: w.appendDecimal(UInt64(snap.coreBusy.count))
        }
    }

    static func appendCells(_ snap: Snapshot, into w: inout ByteWriter) {
        for i in 0..<min(snap.coreBusy.count, maximumShown) { w.appendSparkline(permyriad: UInt64(snap.coreBusy[i])) }
    }

    static func maximum(_ snap: Snapshot) -> UInt64 {
        var m: UInt64 = 0
        for b in snap.coreBusy { m = max(m, min(UInt64(b), 10_000)) }
        return m
    }
}
