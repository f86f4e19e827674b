#if hasFeature(Embedded)
import SnapshotCodecEmbedded
#else
import SnapshotCodec
#endif

/// `up 1d 17h`.
enum UptimeBlock {
    static let placeholders: [PlaceholderSpec] = [
        PlaceholderSpec("days", "whole days"),
        PlaceholderSpec("hours", "hours, 0-23"),
        PlaceholderSpec("minutes", "minutes, 00-59"),
        PlaceholderSpec("uptime", "the compact form, 1d 17h"),
    ]

    static func render(_ snap: Snapshot, into v: inout BlockValue) {
        v.full.append("up ")
        v.full.appendDuration(seconds: snap.uptimeCentiseconds / 100)
    }

    static func append(_ index: Int, _ snap: Snapshot, into w: inout ByteWriter) {
        let seconds = snap.uptimeCentiseconds / 100
        switch index {
        case 0: w.appendDecimal(seconds / 86_400)
        case 1: w.appendDecimal(seconds / 3600 % 24)
        case 2: w.appendDecimal(seconds / 60 % 60, minimumDigits: 2)
        default: w.appendDuration(seconds: seconds)
        }
    }
}
