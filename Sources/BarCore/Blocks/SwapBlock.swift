#if hasFeature(Embedded)
import SnapshotCodecEmbedded
#else
import SnapshotCodec
#endif

/// `swap 512M/2.0G` (`swap off` without swap): warning from half used, critical from 80 %.
enum SwapBlock {
    static let placeholders: [PlaceholderSpec] = [
        PlaceholderSpec("used", "swap used"),
        PlaceholderSpec("total", "swap total"),
        PlaceholderSpec("free", "swap free"),
        PlaceholderSpec("percent", "used share"),
        PlaceholderSpec("bar", "eight-cell bar of the used share"),
    ]

    static func render(_ snap: Snapshot, thresholds t: Thresholds, into v: inout BlockValue) {
        let m = snap.memory
        v.full.append("swap ")
        guard m.swapTotal > 0 else {
            v.full.append("off")
            v.short.append(v.full)
            return
        }
        let used = share(m.swapUsed, of: m.swapTotal)
        v.full.appendSize(kib: m.swapUsed); v.full.append(UInt8(ascii: "/")); v.full.appendSize(kib: m.swapTotal)
        v.short.append("swap "); v.short.appendPercent(permyriad: used)
        v.level = used >= t.swapCritical ? .critical : (used >= t.swapWarning ? .warning : .normal)
        v.percentage = wholePercent(used)
    }

    static func append(_ index: Int, _ snap: Snapshot, into w: inout ByteWriter) {
        let m = snap.memory
        switch index {
        case 0: w.appendSize(kib: m.swapUsed)
        case 1: w.appendSize(kib: m.swapTotal)
        case 2: w.appendSize(kib: m.swapTotal > m.swapUsed ? m.swapTotal - m.swapUsed : 0)
        case 3: appendWholePercent(&w, share(m.swapUsed, of: m.swapTotal))
        default: appendBar(&w, permyriad: share(m.swapUsed, of: m.swapTotal), cells: 8)
        }
    }
}
