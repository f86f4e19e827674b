#if hasFeature(Embedded)
import SnapshotCodecEmbedded
#else
import SnapshotCodec
#endif

/// `exited chromium freed 1.2G`: the latest exit, shown for a while after it happened.
enum ExitedBlock {
    static let placeholders: [PlaceholderSpec] = [
        PlaceholderSpec("name", "its name (friendly name when bookmarked)"),
        PlaceholderSpec("pid", "its pid"),
        PlaceholderSpec("freed", "memory freed"),
        PlaceholderSpec("private", "its private memory before it exited"),
        PlaceholderSpec("ago", "time since, 2s"),
    ]

    static func render(_ snap: Snapshot, nowMs: UInt64, thresholds t: Thresholds, into v: inout BlockValue) {
        guard let e = snap.exits.first, e.timeMs <= nowMs &+ 5_000,
              nowMs < e.timeMs || nowMs - e.timeMs <= t.exitRecentMs
        else { v.visible = false; return }
        v.full.append("exited ")
        v.full.append(bytes: e.name)
        v.short.append(v.full)
        if e.freedKiB > 0 {
            v.full.append(" freed ")
            v.full.appendSize(kib: e.freedKiB)
        } else {
            v.full.append(" had ")
            v.full.appendSize(kib: e.lastPrivateKiB)
        }
    }

    static func append(_ index: Int, _ snap: Snapshot, nowMs: UInt64, into w: inout ByteWriter) {
        guard let e = snap.exits.first else { return }
        switch index {
        case 0: w.append(bytes: e.name)
        case 1: w.appendDecimal(UInt64(e.pid))
        case 2: w.appendSize(kib: e.freedKiB)
        case 3: w.appendSize(kib: e.lastPrivateKiB)
        default: w.appendDuration(seconds: nowMs > e.timeMs ? (nowMs - e.timeMs) / 1000 : 0)
        }
    }
}
