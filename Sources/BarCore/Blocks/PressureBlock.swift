import SnapshotCodec

/// `psi 2.5%`: memory pressure, the share of the last ten seconds in which some task waited
/// for memory (the kernel's PSI `some avg10`); it rises before memory runs out, where `mem`
/// only shows how full it is. Warning from 10 %, critical from 25 %; `n/a` on a kernel
/// without PSI.
enum PressureBlock {
    static let descriptor = BlockDescriptor(
        name: "pressure", label: "psi", section: .memory, marks: LevelMarks(unit: .percent, warning: 1000, critical: 2500),
        present: { s, _ in s.memoryPressure != nil },
        placeholders: [
            PlaceholderSpec("some", "share of the last 10 s some task waited for memory, one decimal") { s, _, w in
                if let p = s.memoryPressure { w.appendFixed(UInt64(p), scaleDigits: 2, fractionDigits: 1) } else { w.appendNotAvailable() }
            },
        ],
        render: render)

    static func render(_ snap: Snapshot, _ c: BlockContext, into v: inout BlockValue) {
        v.full.append("psi ")
        guard let pressure = snap.memoryPressure else {
            v.full.appendNotAvailable()
            v.short.append(v.full)
            return
        }
        v.full.appendFixed(UInt64(pressure), scaleDigits: 2, fractionDigits: 1)
        v.full.append(UInt8(ascii: "%"))
        v.short.append(v.full)
        v.level = c.level(rising: UInt64(pressure))
        v.percentage = wholePercent(UInt64(pressure))
    }
}
