import SnapshotCodec

/// `cpu 12% ▂▃▄▅▆▇██`: the busy share and a sparkline of the last 8 samples.
enum CPUBlock {
    static let descriptor = BlockDescriptor(
        name: "cpu", label: "cpu", section: .cpu, marks: LevelMarks(unit: .percent, warning: 7000, critical: 9000),
        placeholders: [
            PlaceholderSpec("busy", "share busy") { s, _, w in appendWholePercent(&w, UInt64(s.cpuBusy)) },
            PlaceholderSpec("iowait", "share in I/O wait") { s, _, w in appendWholePercent(&w, UInt64(s.cpuIOWait)) },
            PlaceholderSpec("spark", "sparkline of the last 8 samples") { s, _, w in appendSparkline(s, into: &w) },
            PlaceholderSpec("bars", "one cell per core, ▁ idle to █ busy (the cores block's)") { s, _, w in CoresBlock.appendCells(s, into: &w) },
            PlaceholderSpec("frequency", "the CPUs' average frequency, GHz with one decimal (the freq block's)", alsoShows: .frequency) { s, _, w in
                w.appendFixed(UInt64(s.cpuMHzAverage), scaleDigits: 3, fractionDigits: 1)
            },
        ],
        render: render)

    static func render(_ snap: Snapshot, _ c: BlockContext, into v: inout BlockValue) {
        let busy = UInt64(snap.cpuBusy)
        v.full.append("cpu ")
        v.full.appendPercent(permyriad: busy)
        v.short.append(v.full)
        if !snap.cpuHistory.isEmpty {
            v.full.append(UInt8(ascii: " "))
            appendSparkline(snap, into: &v.full)
        }
        v.level = c.level(rising: busy)
        v.percentage = wholePercent(min(busy, 10_000))
    }

    /// The last eight samples, the newest on the right; fewer (the first seconds after the
    /// sampler starts) are padded with spaces on the left, so the line does not slide as
    /// the history fills.
    static func appendSparkline(_ snap: Snapshot, into w: inout ByteWriter) {
        let history = snap.cpuHistory
        let shown = 8
        let start = history.count > shown ? history.count - shown : 0
        for _ in (history.count - start)..<shown { w.append(UInt8(ascii: " ")) }
        for i in start..<history.count { w.appendSparkline(permyriad: UInt64(history[i])) }
    }
}
