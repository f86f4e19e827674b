import SnapshotCodec

/// `procs 312 (2 run)`.
enum ProcsBlock {
    static let descriptor = BlockDescriptor(
        name: "procs", label: "procs", section: .processes,
        placeholders: [
            PlaceholderSpec("count", "processes") { s, _, w in w.appendDecimal(UInt64(s.processCount)) },
            PlaceholderSpec("running", "running") { s, _, w in w.appendDecimal(UInt64(s.runningCount)) },
            PlaceholderSpec("threads", "threads") { s, _, w in w.appendDecimal(UInt64(s.threadCount)) },
        ],
        render: { s, _, v in render(s, into: &v) })

    static func render(_ snap: Snapshot, into v: inout BlockValue) {
        v.full.append("procs ")
        v.full.appendDecimal(UInt64(snap.processCount))
        v.short.append(v.full)
        v.full.append(" (")
        v.full.appendDecimal(UInt64(snap.runningCount))
        v.full.append(" run)")
    }
}
