#if hasFeature(Embedded)
import SnapshotCodecEmbedded
#else
import SnapshotCodec
#endif

/// `cpu 12% ▂▃▄▅▆▇██`: the busy share and a sparkline of the last 8 samples.
enum CPUBlock {
    static let placeholders: [PlaceholderSpec] = [
        PlaceholderSpec("busy", "share busy"),
        PlaceholderSpec("iowait", "share in I/O wait"),
        PlaceholderSpec("spark", "sparkline of the last 8 samples"),
    ]

    static func render(_ snap: Snapshot, thresholds t: Thresholds, into v: inout BlockValue) {
        let busy = UInt64(snap.cpuBusy)
        v.full.append("cpu ")
        v.full.appendPercent(permyriad: busy)
        v.short.append(v.full)
        if !snap.cpuHistory.isEmpty {
            v.full.append(UInt8(ascii: " "))
            appendSparkline(snap, into: &v.full)
        }
        v.level = busy >= t.cpuCritical ? .critical : (busy >= t.cpuWarning ? .warning : .normal)
        v.percentage = wholePercent(min(busy, 10_000))
    }

    static func append(_ index: Int, _ snap: Snapshot, into w: inout ByteWriter) {
        switch index {
        case 0: appendWholePercent(&w, UInt64(snap.cpuBusy))
        case 1: appendWholePercent(&w, UInt64(snap.cpuIOWait))
        default: appendSparkline(snap, into: &w)
        }
    }

    static func appendSparkline(_ snap: Snapshot, into w: inout ByteWriter) {
        let history = snap.cpuHistory
        let shown = 8
        let start = history.count > shown ? history.count - shown : 0
        for i in start..<history.count { w.appendSparkline(permyriad: UInt64(history[i])) }
    }
}
