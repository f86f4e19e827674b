#if hasFeature(Embedded)
import SnapshotCodecEmbedded
#else
import SnapshotCodec
#endif

/// `load 0.52 0.48 0.40`: warning at one per core, critical at two.
enum LoadBlock {
    static let placeholders: [PlaceholderSpec] = [
        PlaceholderSpec("1", "1-minute load average, two decimals"),
        PlaceholderSpec("5", "5-minute load average"),
        PlaceholderSpec("15", "15-minute load average"),
    ]

    static func render(_ snap: Snapshot, into v: inout BlockValue) {
        v.full.append("load ")
        v.full.appendFixed(UInt64(snap.load1), scaleDigits: 2, fractionDigits: 2)
        v.short.append(v.full)
        v.full.append(UInt8(ascii: " ")); v.full.appendFixed(UInt64(snap.load5), scaleDigits: 2, fractionDigits: 2)
        v.full.append(UInt8(ascii: " ")); v.full.appendFixed(UInt64(snap.load15), scaleDigits: 2, fractionDigits: 2)
        let cores = UInt64(max(1, snap.coreBusy.count)) * 100
        let l1 = UInt64(snap.load1)
        v.level = l1 >= 2 * cores ? .critical : (l1 >= cores ? .warning : .normal)
    }

    static func append(_ index: Int, _ snap: Snapshot, into w: inout ByteWriter) {
        let value = index == 0 ? snap.load1 : (index == 1 ? snap.load5 : snap.load15)
        w.appendFixed(UInt64(value), scaleDigits: 2, fractionDigits: 2)
    }
}
