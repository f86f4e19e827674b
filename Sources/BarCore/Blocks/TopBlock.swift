#if hasFeature(Embedded)
import SnapshotCodecEmbedded
#else
import SnapshotCodec
#endif

/// `top firefox 9% 117M`: the busiest process, else the largest.
enum TopBlock {
    static let descriptor = BlockDescriptor(
        name: "top", label: "top", section: .top,
        placeholders: [
            PlaceholderSpec("name", "its name (friendly name when bookmarked)") { s, _, w in
                if let p = process(s) { w.append(bytes: p.name) }
            },
            PlaceholderSpec("cpu", "whole percent of one core") { s, _, w in
                if let p = process(s) { appendWholePercent(&w, UInt64(p.cpu)) }
            },
            PlaceholderSpec("mem", "private memory") { s, _, w in if let p = process(s) { w.appendSize(kib: p.privateKiB) } },
        ],
        render: { s, _, v in render(s, into: &v) })

    static func render(_ snap: Snapshot, into v: inout BlockValue) {
        // The busiest process; the largest when none used CPU in the interval (the first
        // sample, an idle machine). Its name is the friendly one when a bookmark gave one.
        guard let p = process(snap) else { v.visible = false; return }
        v.full.append("top ")
        v.full.append(bytes: p.name)
        v.short.append(v.full)
        v.full.append(UInt8(ascii: " "))
        v.full.appendPercent(permyriad: UInt64(p.cpu))
        v.full.append(UInt8(ascii: " "))
        v.full.appendSize(kib: p.privateKiB)
    }

    /// The first of the CPU list, else of the memory list.
    static func process(_ snap: Snapshot) -> ProcessEntry? {
        snap.topCPU.first ?? snap.topMemory.first
    }
}
