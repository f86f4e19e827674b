import SnapshotCodec

/// `freq 2.3/4.6GHz`: the CPUs' current frequency, average and highest.
enum FreqBlock {
    static let descriptor = BlockDescriptor(
        name: "freq", label: "freq", section: .frequency,
        placeholders: [
            PlaceholderSpec("average", "average over the CPUs, GHz with one decimal") { s, _, w in
                w.appendFixed(UInt64(s.cpuMHzAverage), scaleDigits: 3, fractionDigits: 1)
            },
            PlaceholderSpec("max", "the highest, GHz") { s, _, w in
                w.appendFixed(UInt64(s.cpuMHzMaximum), scaleDigits: 3, fractionDigits: 1)
            },
            PlaceholderSpec("average_mhz", "average, MHz") { s, _, w in w.appendDecimal(UInt64(s.cpuMHzAverage)) },
            PlaceholderSpec("max_mhz", "the highest, MHz") { s, _, w in w.appendDecimal(UInt64(s.cpuMHzMaximum)) },
        ],
        render: { s, _, v in render(s, into: &v) })

    static func render(_ snap: Snapshot, into v: inout BlockValue) {
        v.full.append("freq ")
        v.full.appendFixed(UInt64(snap.cpuMHzAverage), scaleDigits: 3, fractionDigits: 1)
        v.short.append(v.full); v.short.append("GHz")
        v.full.append(UInt8(ascii: "/"))
        v.full.appendFixed(UInt64(snap.cpuMHzMaximum), scaleDigits: 3, fractionDigits: 1)
        v.full.append("GHz")
    }
}
