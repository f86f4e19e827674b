#if hasFeature(Embedded)
import SnapshotCodecEmbedded
#else
import SnapshotCodec
#endif

/// `procs 312 (2 run)`.
enum ProcsBlock {
    static let placeholders: [PlaceholderSpec] = [
        PlaceholderSpec("count", "processes"),
        PlaceholderSpec("running", "running"),
    ]

    static func render(_ snap: Snapshot, into v: inout BlockValue) {
        v.full.append("procs ")
        v.full.appendDecimal(UInt64(snap.processCount))
        v.short.append(v.full)
        v.full.append(" (")
        v.full.appendDecimal(UInt64(snap.runningCount))
        v.full.append(" run)")
    }

    static func append(_ index: Int, _ snap: Snapshot, into w: inout ByteWriter) {
        w.appendDecimal(UInt64(index == 0 ? snap.processCount : snap.runningCount))
    }
}
