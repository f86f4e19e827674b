import SnapshotCodec

/// `exited chromium freed 1.2G`: the latest exit, shown for a while after it happened.
enum ExitedBlock {
    static let descriptor = BlockDescriptor(
        name: "exited", label: "exited", section: .exits, filtersByFreedMemory: true, showsEvents: true,
        placeholders: [
            PlaceholderSpec("name", "its name (friendly name when bookmarked)") { s, _, w in
                if let e = s.exits.first { w.append(bytes: e.name) }
            },
            PlaceholderSpec("pid", "its pid") { s, _, w in if let e = s.exits.first { w.appendDecimal(UInt64(e.pid)) } },
            PlaceholderSpec("freed", "memory freed") { s, _, w in if let e = s.exits.first { w.appendSize(kib: e.freedKiB) } },
            PlaceholderSpec("private", "its private memory before it exited") { s, _, w in
                if let e = s.exits.first { w.appendSize(kib: e.lastPrivateKiB) }
            },
            PlaceholderSpec("ago", "time since, 2s") { s, c, w in
                if let e = s.exits.first { w.appendDuration(seconds: c.nowMs > e.timeMs ? (c.nowMs - e.timeMs) / 1000 : 0) }
            },
        ],
        render: render)

    /// How long an exit stays shown, ms.
    static let recentMs: UInt64 = 60_000

    static func render(_ snap: Snapshot, _ c: BlockContext, into v: inout BlockValue) {
        let nowMs = c.nowMs
        guard let e = snap.exits.first, e.timeMs <= nowMs &+ 5_000,
              nowMs < e.timeMs || nowMs - e.timeMs <= recentMs, e.freedKiB >= c.minimumFreedKiB
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
}
