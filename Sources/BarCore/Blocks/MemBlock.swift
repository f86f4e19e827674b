import SnapshotCodec

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
    static let descriptor = BlockDescriptor(
        name: "mem", label: "mem", section: .memory, marks: LevelMarks(unit: .percent, warning: 8000, critical: 9000),
        hasForms: true,
        placeholders: [
            PlaceholderSpec("used", "used (total − available)") { s, _, w in w.appendSize(kib: s.memory.used) },
            PlaceholderSpec("total", "total") { s, _, w in w.appendSize(kib: s.memory.total) },
            PlaceholderSpec("available", "available") { s, _, w in w.appendSize(kib: s.memory.available) },
            PlaceholderSpec("free", "free") { s, _, w in w.appendSize(kib: s.memory.free) },
            PlaceholderSpec("active", "active") { s, _, w in w.appendSize(kib: s.memory.active) },
            PlaceholderSpec("inactive", "inactive") { s, _, w in w.appendSize(kib: s.memory.inactive) },
            PlaceholderSpec("wired", "wired") { s, _, w in w.appendSize(kib: s.memory.wired) },
            PlaceholderSpec("other", "other") { s, _, w in w.appendSize(kib: s.memory.other) },
            PlaceholderSpec("percent", "used share") { s, _, w in appendWholePercent(&w, memoryShare(s.memory)) },
            PlaceholderSpec("bar", "eight-cell bar of the used share") { s, _, w in
                appendBar(&w, permyriad: memoryShare(s.memory), cells: 8)
            },
            PlaceholderSpec("swap", "swap used") { s, _, w in w.appendSize(kib: s.memory.swapUsed) },
            PlaceholderSpec("swap_total", "swap total") { s, _, w in w.appendSize(kib: s.memory.swapTotal) },
            PlaceholderSpec("swap_percent", "swap used share") { s, _, w in appendWholePercent(&w, SwapBlock.usedShare(s.memory)) },
            PlaceholderSpec("swap_free", "swap free") { s, _, w in
                w.appendSize(kib: s.memory.swapTotal > s.memory.swapUsed ? s.memory.swapTotal - s.memory.swapUsed : 0)
            },
        ],
        render: render)

    static func render(_ snap: Snapshot, _ c: BlockContext, into v: inout BlockValue) {
        let form = c.memForm
        let m = snap.memory
        let share = memoryShare(m)
        v.full.append("mem ")
        switch form {
        case .usedTotal:
            v.full.appendSize(kib: m.used); v.full.append(UInt8(ascii: "/")); v.full.appendSize(kib: m.total)
        case .breakdown:
            // The words of `vmstat -a` and `free`, not one-letter codes a reader must look up.
            v.full.append("active "); v.full.appendSize(kib: m.active)
            v.full.append(" inact "); v.full.appendSize(kib: m.inactive)
            v.full.append(" wired "); v.full.appendSize(kib: m.wired)
            v.full.append(" other "); v.full.appendSize(kib: m.other)
            v.full.append(" free "); v.full.appendSize(kib: m.free)
        case .bar:
            appendBar(&v.full, permyriad: share, cells: 8)
        case .percent:
            v.full.appendPercent(permyriad: share)
        }
        v.short.append("mem "); v.short.appendPercent(permyriad: share)
        v.level = c.level(rising: share)
        if snap.urgent.contains(.memoryLow) || snap.urgent.contains(.memoryPressure) {
            v.urgent = true
            v.level = .critical
        }
        v.percentage = wholePercent(min(share, 10_000))
    }
}

/// Used memory (total − available) as a share of the total, hundredths of a percent
/// (0...10000 whatever the snapshot says).
func memoryShare(_ m: MemoryFigures) -> UInt64 {
    share(m.used, of: m.total)
}
