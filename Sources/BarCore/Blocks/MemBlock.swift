#if hasFeature(Embedded)
import SnapshotCodecEmbedded
#else
import SnapshotCodec
#endif

/// The display forms of the mem block; a left click shows the next, a right click the previous.
public enum MemForm: UInt8, Sendable, CaseIterable {
    /// `mem 3.2G/15.5G`
    case usedTotal
    /// `mem A2.1G I1.0G W512M O300M F11.6G` (active, inactive, wired, other, free)
    case breakdown
    /// `mem ██▌░░░░░` (used share as an eight-cell bar)
    case bar
    /// `mem 21%`
    case percent

    /// The next form, wrapping around.
    public var next: MemForm { MemForm(rawValue: (rawValue + 1) % 4)! }
    /// The previous form, wrapping around.
    public var previous: MemForm { MemForm(rawValue: (rawValue + 3) % 4)! }
}

/// `mem 3.2G/15.5G` and its other forms (clicks cycle them); urgent on low memory or pressure.
enum MemBlock {
    static let placeholders: [PlaceholderSpec] = [
        PlaceholderSpec("used", "used (total − available)"),
        PlaceholderSpec("total", "total"),
        PlaceholderSpec("available", "available"),
        PlaceholderSpec("free", "free"),
        PlaceholderSpec("active", "active"),
        PlaceholderSpec("inactive", "inactive"),
        PlaceholderSpec("wired", "wired"),
        PlaceholderSpec("other", "other"),
        PlaceholderSpec("percent", "used share"),
        PlaceholderSpec("bar", "eight-cell bar of the used share"),
        PlaceholderSpec("swap", "swap used"),
        PlaceholderSpec("swap_total", "swap total"),
    ]

    static func render(_ snap: Snapshot, form: MemForm, thresholds t: Thresholds, into v: inout BlockValue) {
        let m = snap.memory
        let share = memoryShare(m)
        v.full.append("mem ")
        switch form {
        case .usedTotal:
            v.full.appendSize(kib: m.used); v.full.append(UInt8(ascii: "/")); v.full.appendSize(kib: m.total)
        case .breakdown:
            v.full.append(UInt8(ascii: "A")); v.full.appendSize(kib: m.active)
            v.full.append(" I"); v.full.appendSize(kib: m.inactive)
            v.full.append(" W"); v.full.appendSize(kib: m.wired)
            v.full.append(" O"); v.full.appendSize(kib: m.other)
            v.full.append(" F"); v.full.appendSize(kib: m.free)
        case .bar:
            appendBar(&v.full, permyriad: share, cells: 8)
        case .percent:
            v.full.appendPercent(permyriad: share)
        }
        v.short.append("mem "); v.short.appendPercent(permyriad: share)
        v.level = share >= t.memCritical ? .critical : (share >= t.memWarning ? .warning : .normal)
        if snap.urgent.contains(.memoryLow) || snap.urgent.contains(.memoryPressure) {
            v.urgent = true
            v.level = .critical
        }
        v.percentage = wholePercent(min(share, 10_000))
    }

    static func append(_ index: Int, _ snap: Snapshot, into w: inout ByteWriter) {
        let m = snap.memory
        switch index {
        case 0: w.appendSize(kib: m.used)
        case 1: w.appendSize(kib: m.total)
        case 2: w.appendSize(kib: m.available)
        case 3: w.appendSize(kib: m.free)
        case 4: w.appendSize(kib: m.active)
        case 5: w.appendSize(kib: m.inactive)
        case 6: w.appendSize(kib: m.wired)
        case 7: w.appendSize(kib: m.other)
        case 8: appendWholePercent(&w, memoryShare(m))
        case 9: appendBar(&w, permyriad: memoryShare(m), cells: 8)
        case 10: w.appendSize(kib: m.swapUsed)
        default: w.appendSize(kib: m.swapTotal)
        }
    }
}

/// Used memory (total − available) as a share of the total, hundredths of a percent
/// (0...10000 whatever the snapshot says).
func memoryShare(_ m: MemoryFigures) -> UInt64 {
    share(m.used, of: m.total)
}
