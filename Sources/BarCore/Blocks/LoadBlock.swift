import SnapshotCodec

/// `load 0.52 0.48 0.40`: the 1-minute average against the block's marks (`warning = 4`,
/// `critical = 8.5`), else warning at one per core and critical at two.
enum LoadBlock {
    static let descriptor = BlockDescriptor(
        name: "load", label: "load", section: .load,
        marks: LevelMarks(unit: .load, warning: nil, critical: nil, decides: "one per core (warning), two (critical)"),
        placeholders: [
            PlaceholderSpec("1", "1-minute load average, two decimals") { s, _, w in appendLoad(s.load1, into: &w) },
            PlaceholderSpec("5", "5-minute load average") { s, _, w in appendLoad(s.load5, into: &w) },
            PlaceholderSpec("15", "15-minute load average") { s, _, w in appendLoad(s.load15, into: &w) },
        ],
        render: { s, c, v in render(s, c, into: &v) })

    static func appendLoad(_ hundredths: UInt32, into w: inout ByteWriter) {
        w.appendFixed(UInt64(hundredths), scaleDigits: 2, fractionDigits: 2)
    }

    static func render(_ snap: Snapshot, _ context: BlockContext, into v: inout BlockValue) {
        v.full.append("load ")
        v.full.appendFixed(UInt64(snap.load1), scaleDigits: 2, fractionDigits: 2)
        v.short.append(v.full)
        v.full.append(UInt8(ascii: " ")); v.full.appendFixed(UInt64(snap.load5), scaleDigits: 2, fractionDigits: 2)
        v.full.append(UInt8(ascii: " ")); v.full.appendFixed(UInt64(snap.load15), scaleDigits: 2, fractionDigits: 2)
        let cores = UInt64(max(1, snap.coreBusy.count)) * 100
        let l1 = UInt64(snap.load1)
        let warning = context.warning ?? cores, critical = context.critical ?? 2 * cores
        v.level = l1 >= critical ? .critical : (l1 >= warning ? .warning : .normal)
    }
}
