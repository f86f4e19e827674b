import SnapshotCodec

/// `top firefox 9% 117M`: the busiest process, else the largest. `top:gpu` (`list = "gpu"`),
/// its GPU form: the process using the GPUs most, `top Xwayland gpu 37% 512M` (its share of
/// the busiest kind of engine and its GPU memory); hidden when no process uses a GPU. That
/// list is measured only while a bar shows it (its wants file asks `top gpu`).
enum TopBlock {
    static let descriptor = BlockDescriptor(
        name: "top", label: "top", section: .top, argumentKey: "list",
        argumentCheck: ArgumentCheck(known: { isGPU($0) }, what: "top list", whereFrom: "the top block's lists (gpu)",
                                     optionsError: .unknownTopList),
        asks: .top,
        placeholders: [
            PlaceholderSpec("name", "its name (friendly name when bookmarked); top:gpu, the GPU's") { s, c, w in
                if let p = process(s, c) { w.append(bytes: p.name) }
            },
            PlaceholderSpec("cpu", "whole percent of one core") { s, _, w in
                if let p = process(s, gpu: false) { appendWholePercent(&w, UInt64(p.cpu)) }
            },
            PlaceholderSpec("mem", "private memory") { s, _, w in
                if let p = process(s, gpu: false) { w.appendSize(kib: p.privateKiB) }
            },
            PlaceholderSpec("gpu", "top:gpu: its whole percent of the busiest GPU engine") { s, _, w in
                if let p = process(s, gpu: true) { appendWholePercent(&w, UInt64(p.cpu)) }
            },
            PlaceholderSpec("gpu_mem", "top:gpu: its GPU memory") { s, _, w in
                if let p = process(s, gpu: true) { w.appendSize(kib: p.privateKiB) }
            },
        ],
        render: { s, c, v in render(s, c, into: &v) })

    static func render(_ snap: Snapshot, _ c: BlockContext, into v: inout BlockValue) {
        // The busiest process; the largest when none used CPU in the interval (the first
        // sample, an idle machine). Its name is the friendly one when a bookmark gave one.
        let gpu = isGPU(c.argument[...])
        guard let p = process(snap, gpu: gpu) else { v.visible = false; return }
        v.full.append("top ")
        v.full.append(bytes: p.name)
        v.short.append(v.full)
        v.full.append(gpu ? " gpu " : " ")
        v.full.appendPercent(permyriad: UInt64(p.cpu))
        v.full.append(UInt8(ascii: " "))
        v.full.appendSize(kib: p.privateKiB)
    }

    /// The process the block shows: its form's.
    static func process(_ snap: Snapshot, _ c: BlockContext) -> ProcessEntry? {
        process(snap, gpu: isGPU(c.argument[...]))
    }

    /// The first of the GPU list (`gpu`); else the first of the CPU list, else of the memory list.
    static func process(_ snap: Snapshot, gpu: Bool) -> ProcessEntry? {
        gpu ? snap.topGPU.first : snap.topCPU.first ?? snap.topMemory.first
    }

    /// Whether an argument names the GPU list.
    static func isGPU(_ argument: ArraySlice<UInt8>) -> Bool { bytesEqual(argument, "gpu") }
}
