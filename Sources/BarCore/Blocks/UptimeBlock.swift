import SnapshotCodec

/// `up 1d 17h`.
enum UptimeBlock {
    static let descriptor = BlockDescriptor(
        name: "uptime", label: "up", section: .uptime,
        placeholders: [
            PlaceholderSpec("days", "whole days") { s, _, w in w.appendDecimal(seconds(s) / 86_400) },
            PlaceholderSpec("hours", "hours, 0-23") { s, _, w in w.appendDecimal(seconds(s) / 3600 % 24) },
            PlaceholderSpec("minutes", "minutes, 00-59") { s, _, w in w.appendDecimal(seconds(s) / 60 % 60, minimumDigits: 2) },
            PlaceholderSpec("uptime", "the compact form, 1d 17h") { s, _, w in w.appendDuration(seconds: seconds(s)) },
        ],
        render: { s, _, v in
            v.full.append("up ")
            v.full.appendDuration(seconds: seconds(s))
        })

    static func seconds(_ snap: Snapshot) -> UInt64 { snap.uptimeCentiseconds / 100 }
}
