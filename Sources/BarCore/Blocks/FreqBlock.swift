#if hasFeature(Embedded)
import SnapshotCodecEmbedded
#else
import SnapshotCodec
#endif

/// `freq 2.3/4.6GHz`: the CPUs' current frequency, average and highest.
enum FreqBlock {
    static let placeholders: [PlaceholderSpec] = [
        PlaceholderSpec("average", "average over the CPUs, GHz with one decimal"),
        PlaceholderSpec("max", "the highest, GHz"),
        PlaceholderSpec("average_mhz", "average, MHz"),
        PlaceholderSpec("max_mhz", "the highest, MHz"),
    ]

    static func render(_ snap: Snapshot, into v: inout BlockValue) {
        v.full.append("freq ")
        v.full.appendFixed(UInt64(snap.cpuMHzAverage), scaleDigits: 3, fractionDigits: 1)
        v.short.append(v.full); v.short.append("GHz")
        v.full.append(UInt8(ascii: "/"))
        v.full.appendFixed(UInt64(snap.cpuMHzMaximum), scaleDigits: 3, fractionDigits: 1)
        v.full.append("GHz")
    }

    static func append(_ index: Int, _ snap: Snapshot, into w: inout ByteWriter) {
        switch index {
        case 0: w.appendFixed(UInt64(snap.cpuMHzAverage), scaleDigits: 3, fractionDigits: 1)
        case 1: w.appendFixed(UInt64(snap.cpuMHzMaximum), scaleDigits: 3, fractionDigits: 1)
        case 2: w.appendDecimal(UInt64(snap.cpuMHzAverage))
        default: w.appendDecimal(UInt64(snap.cpuMHzMaximum))
        }
    }
}
