// Blocks turn a snapshot into values (text, level, urgency). They never see
// the bar protocol: the outputs (Renderer.swift) turn values into bytes.

#if hasFeature(Embedded)
import SnapshotCodecEmbedded
#else
import SnapshotCodec
#endif

/// The blocks `--blocks` can name, in the order they are listed.
public enum BlockKind: UInt8, Sendable, CaseIterable {
    case cpu, mem, load, uptime, battery, procs, exited, selfCost, top

    /// The block's name in `--blocks`, i3bar's `name`/`instance` and click events.
    public var name: StaticString {
        switch self {
        case .cpu: "cpu"
        case .mem: "mem"
        case .load: "load"
        case .uptime: "uptime"
        case .battery: "battery"
        case .procs: "procs"
        case .exited: "exited"
        case .selfCost: "self"
        case .top: "top"
        }
    }

    /// The block named by `bytes`, or nil.
    public init?(name bytes: ArraySlice<UInt8>) {
        for kind in BlockKind.allCases where bytesEqual(bytes, kind.name) {
            self = kind
            return
        }
        return nil
    }

    /// The blocks shown when `--blocks` is not given.
    public static let defaults: [BlockKind] = [.cpu, .mem, .load, .battery, .exited, .uptime]

    /// The part of the snapshot the block shows; when it was not measured the block says `n/a`.
    public var section: SnapshotSections {
        switch self {
        case .cpu: .cpu
        case .mem: .memory
        case .load: .load
        case .uptime: .uptime
        case .battery: .battery
        case .procs: .processes
        case .exited: .exits
        case .selfCost: .sampler
        case .top: .top
        }
    }

    /// The word the block's text starts with (`cpu 12%`, `up 3h 5m`).
    var label: StaticString {
        switch self {
        case .cpu: "cpu"
        case .mem: "mem"
        case .load: "load"
        case .uptime: "up"
        case .battery: "bat"
        case .procs: "procs"
        case .exited: "exited"
        case .selfCost: "self"
        case .top: "top"
        }
    }
}

/// What a block or placeholder shows for a figure that was not measured (slstatus' unknown string).
public let notAvailableText: StaticString = "n/a"

/// How alarming a value is; outputs map it to a colour or a CSS class.
public enum Level: UInt8, Sendable, Comparable {
    case normal, warning, critical

    public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
}

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

/// Colour thresholds, in hundredths of a percent unless noted.
public struct Thresholds: Sendable {
    /// CPU busy at or above which the cpu block warns / is critical.
    public var cpuWarning: UInt64 = 7000, cpuCritical: UInt64 = 9000
    /// Memory used (total − available) share thresholds.
    public var memWarning: UInt64 = 8000, memCritical: UInt64 = 9000
    /// Battery charge at or below which a discharging battery warns / is critical.
    public var batteryWarning: UInt64 = 2000, batteryCritical: UInt64 = 1000
    /// How long an exit stays shown, ms.
    public var exitRecentMs: UInt64 = 60_000
    public init() {}
}

/// What the renderer itself costs, measured by the program each update.
public struct RendererUsage: Sendable, Equatable {
    /// CPU share of one core since the previous update, hundredths of a percent.
    public var cpu: UInt64
    /// Resident memory, KiB.
    public var residentKiB: UInt64
    public init(cpu: UInt64 = 0, residentKiB: UInt64 = 0) { self.cpu = cpu; self.residentKiB = residentKiB }
}

/// One block's values, refilled in place on every update (its buffers are reused).
public struct BlockValue {
    /// Raw text (UTF-8, not escaped): outputs escape it.
    public var full = ByteWriter(capacity: 1024)
    /// A shorter form for narrow bars; empty when there is none.
    public var short = ByteWriter(capacity: 64)
    public var level: Level = .normal
    public var urgent = false
    /// 0...100 for waybar's `percentage`; nil when the block has no single share.
    public var percentage: UInt64? = nil
    /// False when the block has nothing to show (no battery, no recent exit).
    public var visible = true

    public init() {}

    mutating func reset() {
        full.reset(); short.reset(); level = .normal; urgent = false; percentage = nil; visible = true
    }
}

/// Fills `v` with `kind`'s values for `snap` at `nowMs`. With a `--format` for
/// the block, its text replaces the built-in full text (for mem: the used/total
/// form only, so clicks still reach the other forms); short text, level,
/// urgency, percentage and visibility stay the block's own.
func renderBlock(_ kind: BlockKind, _ snap: Snapshot, nowMs: UInt64, memForm: MemForm,
                 thresholds t: Thresholds, usage: RendererUsage, formats: BlockFormats, into v: inout BlockValue) {
    renderBuiltIn(kind, snap, nowMs: nowMs, memForm: memForm, thresholds: t, usage: usage, into: &v)
    guard v.visible, kind != .mem || memForm == .usedTotal, let format = formats[kind] else { return }
    v.full.reset()
    format.render(snap, nowMs: nowMs, usage: usage, into: &v.full)
}

/// Fills `v` with `kind`'s built-in values for `snap` at `nowMs`.
func renderBuiltIn(_ kind: BlockKind, _ snap: Snapshot, nowMs: UInt64, memForm: MemForm,
                   thresholds t: Thresholds, usage: RendererUsage, into v: inout BlockValue) {
    v.reset()
    guard snap.available.contains(kind.section) else {
        // Not measured: say so, never show a stale or zero figure. An exit is an event,
        // not a figure: without the exits part there is simply none to show.
        if kind == .exited { v.visible = false; return }
        v.full.append(kind.label); v.full.append(UInt8(ascii: " ")); v.full.append(notAvailableText)
        v.short.append(v.full)
        return
    }
    switch kind {
    case .cpu:
        let busy = UInt64(snap.cpuBusy)
        v.full.append("cpu ")
        v.full.appendPercent(permyriad: busy)
        v.short.append(v.full)
        let history = snap.cpuHistory
        if !history.isEmpty {
            v.full.append(UInt8(ascii: " "))
            let shown = 8
            let start = history.count > shown ? history.count - shown : 0
            for i in start..<history.count { v.full.appendSparkline(permyriad: UInt64(history[i])) }
        }
        v.level = busy >= t.cpuCritical ? .critical : (busy >= t.cpuWarning ? .warning : .normal)
        v.percentage = wholePercent(min(busy, 10_000))

    case .mem:
        let m = snap.memory
        let share = memoryShare(m)
        v.full.append("mem ")
        switch memForm {
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

    case .load:
        v.full.append("load ")
        v.full.appendFixed(UInt64(snap.load1), scaleDigits: 2, fractionDigits: 2)
        v.short.append(v.full)
        v.full.append(UInt8(ascii: " ")); v.full.appendFixed(UInt64(snap.load5), scaleDigits: 2, fractionDigits: 2)
        v.full.append(UInt8(ascii: " ")); v.full.appendFixed(UInt64(snap.load15), scaleDigits: 2, fractionDigits: 2)
        let cores = UInt64(max(1, snap.coreBusy.count)) * 100
        let l1 = UInt64(snap.load1)
        v.level = l1 >= 2 * cores ? .critical : (l1 >= cores ? .warning : .normal)

    case .uptime:
        v.full.append("up ")
        v.full.appendDuration(seconds: snap.uptimeCentiseconds / 100)

    case .battery:
        let b = snap.battery
        guard b.count > 0 else { v.visible = false; return }
        let pct = UInt64(b.percent)
        v.full.append("bat ")
        v.full.appendPercent(permyriad: pct)
        v.short.append(v.full)
        switch b.state {
        case .charging: v.full.append(" +")
        case .discharging: v.full.append(" -")
        case .full: v.full.append(" =")
        case .notCharging: v.full.append(" ~")
        case .unknown: break
        }
        if (b.state == .charging || b.state == .discharging) && b.minutesRemaining != .max {
            v.full.append(UInt8(ascii: " "))
            v.full.appendDecimal(UInt64(b.minutesRemaining / 60))
            v.full.append(UInt8(ascii: ":"))
            v.full.appendDecimal(UInt64(b.minutesRemaining % 60), minimumDigits: 2)
        }
        if b.state == .discharging {
            v.level = pct <= t.batteryCritical ? .critical : (pct <= t.batteryWarning ? .warning : .normal)
        }
        if snap.urgent.contains(.batteryLow) { v.urgent = true; v.level = .critical }
        v.percentage = wholePercent(min(pct, 10_000))

    case .procs:
        v.full.append("procs ")
        v.full.appendDecimal(UInt64(snap.processCount))
        v.short.append(v.full)
        v.full.append(" (")
        v.full.appendDecimal(UInt64(snap.runningCount))
        v.full.append(" run)")

    case .exited:
        guard let e = snap.exits.first, e.timeMs <= nowMs &+ 5_000,
              nowMs < e.timeMs || nowMs - e.timeMs <= t.exitRecentMs
        else { v.visible = false; return }
        v.full.append("exited ")
        v.full.append(bytes: e.name)
        v.short.append(v.full)
        if e.freedKiB > 0 {
            v.full.append(" freed ")
            v.full.appendSize(kib: e.freedKiB)
        } else {
            v.full.append(" had ")
            v.full.appendSize(kib: e.lastPrivateKiB)
        }

    case .top:
        // The busiest process; the largest when none used CPU in the interval (the first
        // sample, an idle machine). Its name is the friendly one when a bookmark gave one.
        guard let p = topProcess(snap) else { v.visible = false; return }
        v.full.append("top ")
        v.full.append(bytes: p.name)
        v.short.append(v.full)
        v.full.append(UInt8(ascii: " "))
        v.full.appendPercent(permyriad: UInt64(p.cpu))
        v.full.append(UInt8(ascii: " "))
        v.full.appendSize(kib: p.privateKiB)

    case .selfCost:
        v.full.append("self ")
        v.full.appendFixed(saturatingAdd(UInt64(snap.samplerCPU), usage.cpu), scaleDigits: 2, fractionDigits: 1)
        v.full.append(UInt8(ascii: "%"))
        v.short.append(v.full)
        v.full.append(UInt8(ascii: " "))
        v.full.appendSize(kib: UInt64(snap.samplerResidentKiB))
        // The renderer's own RSS, when the program measured it.
        if usage.residentKiB > 0 {
            v.full.append(UInt8(ascii: "+"))
            v.full.appendSize(kib: usage.residentKiB)
        }
    }
}

/// The top block's process: the first of the CPU list, else of the memory list.
func topProcess(_ snap: Snapshot) -> ProcessEntry? {
    snap.topCPU.first ?? snap.topMemory.first
}

/// Appends a bar of `cells` cells for a share: full cells `█`, one partial
/// cell (▏▎▍▌▋▊▉), then light shade `░`.
func appendBar(_ w: inout ByteWriter, permyriad: UInt64, cells: UInt64) {
    let eighths = min(permyriad, 10_000) * cells * 8 / 10_000
    for cell in 0..<cells {
        let filled = eighths >= (cell + 1) * 8 ? 8 : (eighths > cell * 8 ? eighths - cell * 8 : 0)
        if filled == 8 {
            w.append(0xE2); w.append(0x96); w.append(0x88)  // █ U+2588
        } else if filled == 0 {
            w.append(0xE2); w.append(0x96); w.append(0x91)  // ░ U+2591
        } else {
            // U+2589 (7/8) ... U+258F (1/8)
            w.append(0xE2); w.append(0x96); w.append(0x88 + UInt8(8 - filled))
        }
    }
}

/// Byte-wise equality of a slice and a literal.
func bytesEqual(_ a: ArraySlice<UInt8>, _ b: StaticString) -> Bool {
    guard a.count == b.utf8CodeUnitCount else { return false }
    let p = b.utf8Start
    var i = 0
    for x in a {
        if x != p[i] { return false }
        i += 1
    }
    return true
}
