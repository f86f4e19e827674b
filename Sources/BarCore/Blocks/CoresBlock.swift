import SnapshotCodec

/// `cores ▂▅▁█`: one sparkline cell per core (the first ``maximumShown``), coloured by the busiest.
enum CoresBlock {
    static let descriptor = BlockDescriptor(
        name: "cores", label: "cores", section: .cpu, marks: LevelMarks(unit: .percent, warning: 7000, critical: 9000),
        placeholders: [
            PlaceholderSpec("bars", "one cell per core, ▁ idle to █ busy") { s, _, w in appendCells(s, into: &w) },
            PlaceholderSpec("max", "busiest core's share") { s, _, w in appendWholePercent(&w, maximum(s)) },
            PlaceholderSpec("count", "number of cores") { s, _, w in w.appendDecimal(UInt64(s.coreBusy.count)) },
        ],
        render: render)

    /// Cells drawn at most: a 128-core machine still fits a bar.
    static let maximumShown = 64

    static func render(_ snap: Snapshot, _ c: BlockContext, into v: inout BlockValue) {
        v.full.append("cores ")
        appendCells(snap, into: &v.full)
        let busiest = maximum(snap)
        v.short.append("cores max "); v.short.appendPercent(permyriad: busiest)
        // One busy core is not the machine busy: it warns at most.
        v.level = c.level(rising: busiest) == .critical ? .warning : .normal
        v.percentage = wholePercent(busiest)
    }

    static func appendCells(_ snap: Snapshot, into w: inout ByteWriter) {
        for i in 0..<min(snap.coreBusy.count, maximumShown) { w.appendSparkline(permyriad: UInt64(snap.coreBusy[i])) }
    }

    static func maximum(_ snap: Snapshot) -> UInt64 {
        var m: UInt64 = 0
        for b in snap.coreBusy { m = max(m, min(UInt64(b), 10_000)) }
        return m
    }
}
