import SnapshotCodec

/// `swap 512M/2.0G` (`swap off` without swap): warning from half used, critical from 80 %.
enum SwapBlock {
    static let descriptor = BlockDescriptor(
        name: "swap", label: "swap", section: .memory, marks: LevelMarks(unit: .percent, warning: 5000, critical: 8000),
        placeholders: [
            PlaceholderSpec("used", "swap used") { s, _, w in w.appendSize(kib: s.memory.swapUsed) },
            PlaceholderSpec("total", "swap total") { s, _, w in w.appendSize(kib: s.memory.swapTotal) },
            PlaceholderSpec("free", "swap free") { s, _, w in
                let m = s.memory
                w.appendSize(kib: m.swapTotal > m.swapUsed ? m.swapTotal - m.swapUsed : 0)
            },
            PlaceholderSpec("percent", "used share") { s, _, w in appendWholePercent(&w, usedShare(s.memory)) },
            PlaceholderSpec("bar", "eight-cell bar of the used share") { s, _, w in
                appendBar(&w, permyriad: usedShare(s.memory), cells: 8)
            },
        ],
        render: render)

    static func usedShare(_ m: MemoryFigures) -> UInt64 { share(m.swapUsed, of: m.swapTotal) }

    static func render(_ snap: Snapshot, _ c: BlockContext, into v: inout BlockValue) {
        let m = snap.memory
        v.full.append("swap ")
        guard m.swapTotal > 0 else {
            v.full.append("off")
            v.short.append(v.full)
            return
        }
        let used = share(m.swapUsed, of: m.swapTotal)
        v.full.appendSize(kib: m.swapUsed); v.full.append(UInt8(ascii: "/")); v.full.appendSize(kib: m.swapTotal)
        v.short.append("swap "); v.short.appendPercent(permyriad: used)
        v.level = c.level(rising: used)
        v.percentage = wholePercent(used)
    }
}
