import SnapshotCodec

/// `top firefox 9% 117M`: the busiest process, else the largest. `top:gpu` (`list = "gpu"`),
/// its GPU form: the process using the GPUs most, `top Xwayland gpu 37% 512M` (its share of
/// the busiest kind of engine and its GPU memory); hidden when no process uses a GPU. That
/// list is measured only while a bar shows it (its wants file asks `top gpu`). `top:units`
/// (`list = "units"`), the unit of the cgroup v2 tree using the CPU most (an app, a service,
/// a container: `top firefox 12% 1.2G`), else the largest; `top:units-mem` the largest by
/// memory: the units part (``UnitsPart``), measured only while a bar shows it.
enum TopBlock {
    static let descriptor = BlockDescriptor(
        name: "top", label: "top", section: .top, argumentKey: "list",
        argumentCheck: ArgumentCheck(known: { isGPU($0) || unitsList($0) != nil }, what: "top list",
                                     whereFrom: "the top block's lists (gpu, units, units-mem)", optionsError: .unknownTopList),
        asks: .top, reading: { s, c in unitsList(c.argument[...]).flatMap { unit(s, byMemory: $0) } },
        argumentShows: { unitsList($0[...]) == nil ? [] : UnitsPart.part.part },
        readingPart: { unitsList($0[...]) == nil ? nil : UnitsPart.part },
        placeholders: [
            PlaceholderSpec("name", "its name (friendly name when bookmarked); top:gpu, the GPU's; top:units, the unit's") { s, c, w in
                if let u = unitsList(c.argument[...]) { if let r = unit(s, byMemory: u) { w.append(bytes: r.label) }; return }
                if let p = process(s, c) { w.append(bytes: p.name) }
            },
            PlaceholderSpec("cpu", "whole percent of one core") { s, c, w in
                if let u = unitsList(c.argument[...]) { if let v = unit(s, byMemory: u)?[UnitsPart.cpu] { appendWholePercent(&w, UInt64(clamping: v)) }; return }
                if let p = process(s, gpu: false) { appendWholePercent(&w, UInt64(p.cpu)) }
            },
            PlaceholderSpec("mem", "private memory; top:units, the memory charged to the unit") { s, c, w in
                if let u = unitsList(c.argument[...]) { if let v = unit(s, byMemory: u)?[UnitsPart.memory] { w.appendSize(kib: UInt64(clamping: v) / 1024) }; return }
                if let p = process(s, gpu: false) { w.appendSize(kib: p.privateKiB) }
            },
            PlaceholderSpec("io", "top:units: the unit's bytes read and written a second") { s, c, w in
                guard let u = unitsList(c.argument[...]), let r = unit(s, byMemory: u) else { return }
                let io = UInt64(clamping: r[UnitsPart.read] ?? 0).addingReportingOverflow(UInt64(clamping: r[UnitsPart.written] ?? 0))
                w.appendSize(kib: (io.overflow ? .max : io.partialValue) / 1024)
                w.append("/s")
            },
            PlaceholderSpec("pressure", "top:units: the most of the unit's CPU, memory and I/O pressure, a whole percent") { s, c, w in
                guard let u = unitsList(c.argument[...]), let v = unit(s, byMemory: u)?[UnitsPart.pressure] else { return }
                appendWholePercent(&w, UInt64(clamping: v))
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
        if let byMemory = unitsList(c.argument[...]) { renderUnit(snap, byMemory: byMemory, into: &v); return }
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

    /// Whether an argument names a units list: false, `units` (by CPU); true, `units-mem`; nil: neither.
    static func unitsList(_ argument: ArraySlice<UInt8>) -> Bool? {
        bytesEqual(argument, "units") ? false : bytesEqual(argument, "units-mem") ? true : nil
    }

    /// The unit shown: the busiest of the readings, else (none used the CPU) the largest;
    /// by memory, the largest. (The readings lead with the units the configuration keeps.)
    static func unit(_ snap: Snapshot, byMemory: Bool) -> PartReading? {
        let readings = snap.listed[.units]
        guard !readings.isEmpty else { return nil }
        let figure = byMemory ? UnitsPart.memory : UnitsPart.cpu
        var best = 0
        for i in 1..<readings.count where (readings[i][figure] ?? -1) > (readings[best][figure] ?? -1) { best = i }
        if !byMemory && (readings[best][figure] ?? 0) <= 0 { return unit(snap, byMemory: true) }
        return readings[best]
    }

    /// `top firefox 12% 1.2G`: the unit's name, CPU and memory; `n/a` on a host without a
    /// cgroup v2 tree; hidden when the tree has no unit.
    static func renderUnit(_ snap: Snapshot, byMemory: Bool, into v: inout BlockValue) {
        v.full.append("top ")
        guard snap.available.contains(UnitsPart.part.part) else {
            v.full.append("units ")
            v.full.appendNotAvailable()
            v.short.append(v.full)
            return
        }
        guard let r = unit(snap, byMemory: byMemory) else { v.visible = false; return }
        v.full.append(bytes: r.label)
        v.short.append(v.full)
        if let cpu = r[UnitsPart.cpu] {
            v.full.append(UInt8(ascii: " "))
            v.full.appendPercent(permyriad: UInt64(clamping: cpu))
        }
        if let memory = r[UnitsPart.memory] {
            v.full.append(UInt8(ascii: " "))
            v.full.appendSize(kib: UInt64(clamping: memory) / 1024)
        }
    }
}
