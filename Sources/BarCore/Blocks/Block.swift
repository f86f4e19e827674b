// Blocks turn a snapshot into values (text, level, urgency). They never see
// the bar protocol: the outputs (Outputs/, one type per protocol) turn values into bytes. One
// file per block in this folder: its built-in text, its placeholders, its levels.

#if hasFeature(Embedded)
import SnapshotCodecEmbedded
#else
import SnapshotCodec
#endif

/// The blocks `--blocks` can name, in the order they are listed.
public enum BlockKind: UInt8, Sendable, CaseIterable {
    case cpu, mem, load, uptime, battery, procs, exited, selfCost, top, swap, cores
    case net, wifi, disk, diskio, temp, freq, time
    /// A command's output (config file only: `block = "command"`).
    case command

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
        case .swap: "swap"
        case .cores: "cores"
        case .net: "net"
        case .wifi: "wifi"
        case .disk: "disk"
        case .diskio: "diskio"
        case .temp: "temp"
        case .freq: "freq"
        case .time: "time"
        case .command: "command"
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
        case .swap: .memory
        case .cores: .cpu
        case .net, .wifi: .network
        case .disk: .disks
        case .diskio: .diskIO
        case .temp: .temperature
        case .freq: .frequency
        // The renderer's own: shown whatever the snapshot (the empty set is always contained).
        case .time, .command: []
        }
    }

    /// The parts of the snapshot a bar of `blocks` shows: what it asks the sampler to
    /// measure every interval (the rest it measures less often; docs/snapshot-format.md,
    /// "What renderers show").
    public static func sectionsShown(by blocks: [BarBlock]) -> SnapshotSections {
        var shown: SnapshotSections = []
        for i in 0..<blocks.count { shown.formUnion(blocks[i].kind.section) }
        return shown
    }

    /// True for the blocks drawn from the snapshot: they give way to a message (`sysstatsd
    /// stopped`) when there is no current one. The clock does not.
    public var needsSnapshot: Bool { self != .time && self != .command }

    /// True for the blocks that take an argument in `--blocks`: a time zone (`time:Europe/Paris`),
    /// an interface (`net:eth0`, `wifi:wlan0`), a mount point (`disk:/home`), a disk
    /// (`diskio:nvme0n1`), a sensor (`temp:coretemp/Package id 0`).
    public var takesArgument: Bool {
        switch self {
        case .time, .net, .wifi, .disk, .diskio, .temp: true
        default: false
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
        case .swap: "swap"
        case .cores: "cores"
        case .net: "net"
        case .wifi: "wifi"
        case .disk: "disk"
        case .diskio: "io"
        case .temp: "temp"
        case .freq: "freq"
        case .time: "time"
        case .command: "cmd"
        }
    }
}

/// One block of the bar: its kind, its argument (`--blocks time:Europe/Paris`, a config
/// file's `timezone`, `interface`, `mount`, `device` or `sensor`), and what the config file
/// gives it of its own: formats and thresholds.
public struct BarBlock: Equatable, Sendable {
    public var kind: BlockKind
    /// Raw bytes as given (checked by the options or config parser); outputs escape them.
    public var argument: [UInt8]
    /// The block's `format` and `format_short` (for time: strftime formats, as given); nil:
    /// the `--format` of its kind, else the built-in text.
    public var format: BlockFormat? = nil
    public var shortFormat: BlockFormat? = nil
    public var timeFormat: [UInt8]? = nil
    public var timeShortFormat: [UInt8]? = nil
    /// The block's `warning` and `critical` thresholds (whole percent, °C for temp); nil:
    /// the built-in ones.
    public var warning: UInt64? = nil
    public var critical: UInt64? = nil
    /// A command block's command and schedule.
    public var command: CommandSpec? = nil
    /// What clicks on the block do (`[[block.click]]`); a button without an entry keeps the
    /// block's own behaviour (mem's forms).
    public var clicks: [ClickAction] = []
    public init(_ kind: BlockKind, argument: [UInt8] = []) { self.kind = kind; self.argument = argument }
}

/// What a click with one button does on a block.
public struct ClickAction: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// Run this by `/bin/sh -c`, detached (its own session; the bar does not wait).
        case run([UInt8])
        /// The block's next form (mem: used/total, breakdown, bar, percent).
        case cycle
        /// Show the short text in place of the full text, or back.
        case toggleFormat
    }
    /// X11 button: 1 left, 2 middle, 3 right, 4 scroll up, 5 scroll down.
    public var button: Int
    public var kind: Kind
    public init(button: Int, _ kind: Kind) { self.button = button; self.kind = kind }
}

/// What a click asks of the renderer's program.
public enum ClickOutcome: Equatable, Sendable {
    case none
    /// The bar changed: draw it again.
    case redraw
    /// Run this command detached.
    case run([UInt8])
}

/// What a command block runs and when (i3blocks' keys).
public struct CommandSpec: Equatable, Sendable {
    /// Run by `/bin/sh -c`.
    public var command: [UInt8]
    /// i3bar's `name` and `instance` of the block, and `BLOCK_NAME`/`BLOCK_INSTANCE` for the command.
    public var name: [UInt8]
    public var instance: [UInt8]
    /// Run every `intervalMs` (0: once at start, then only on a signal or a click).
    public var intervalMs: UInt32
    /// Run again on SIGRTMIN+`signal` (`pkill -RTMIN+n sysstats-bar`); nil: no signal.
    public var signal: Int32?
    /// A long-running command: every line it prints updates the block; restarted with back-off when it ends.
    public var persist: Bool
    /// A run longer than this is killed (its whole process group), ms.
    public var timeoutMs: UInt32
    /// `block = "i3bar"`: a long-running program speaking the i3bar protocol (i3status, i3blocks):
    /// its blocks take this block's place, clicks on them are forwarded to it.
    public var wrapsI3bar = false
    /// For a wrapped program that did not ask for click events: the signal a click on its
    /// blocks sends it (i3status redraws on SIGUSR1); 0: none.
    public var refreshSignal: Int32 = 0
    public init(command: [UInt8], name: [UInt8] = Array("command".utf8), instance: [UInt8] = [], intervalMs: UInt32 = 0,
                signal: Int32? = nil, persist: Bool = false, timeoutMs: UInt32 = 10_000) {
        self.command = command; self.name = name; self.instance = instance; self.intervalMs = intervalMs
        self.signal = signal; self.persist = persist; self.timeoutMs = timeoutMs
    }
}

/// How alarming a value is; outputs map it to a colour or a CSS class.
public enum Level: UInt8, Sendable, Comparable {
    case normal, warning, critical

    public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
}

/// Colour thresholds, in hundredths of a percent unless noted.
public struct Thresholds: Sendable {
    /// CPU busy at or above which the cpu block warns / is critical.
    public var cpuWarning: UInt64 = 7000, cpuCritical: UInt64 = 9000
    /// Memory used (total − available) share thresholds.
    public var memWarning: UInt64 = 8000, memCritical: UInt64 = 9000
    /// Battery charge at or below which a discharging battery warns / is critical.
    public var batteryWarning: UInt64 = 2000, batteryCritical: UInt64 = 1000
    /// Swap and file system used shares.
    public var swapWarning: UInt64 = 5000, swapCritical: UInt64 = 8000
    public var diskWarning: UInt64 = 8000, diskCritical: UInt64 = 9000
    /// Temperature marks, millidegrees; nil: each sensor's own high and critical marks
    /// (else 75 °C and 90 °C).
    public var tempWarning: Int32? = nil, tempCritical: Int32? = nil
    /// How long an exit stays shown, ms.
    public var exitRecentMs: UInt64 = 60_000
    public init() {}

    /// These thresholds with `block`'s own `warning` and `critical` (whole percent; °C for
    /// temp) in place of its kind's.
    public func overriding(_ block: BarBlock) -> Thresholds {
        var t = self
        let w = block.warning, c = block.critical
        func share(_ value: UInt64?, _ field: inout UInt64) { if let value { field = min(value, 100) * 100 } }
        switch block.kind {
        case .cpu, .cores: share(w, &t.cpuWarning); share(c, &t.cpuCritical)
        case .mem: share(w, &t.memWarning); share(c, &t.memCritical)
        case .battery: share(w, &t.batteryWarning); share(c, &t.batteryCritical)
        case .swap: share(w, &t.swapWarning); share(c, &t.swapCritical)
        case .disk: share(w, &t.diskWarning); share(c, &t.diskCritical)
        case .temp:
            if let w { t.tempWarning = Int32(min(w, 1000)) * 1000 }
            if let c { t.tempCritical = Int32(min(c, 1000)) * 1000 }
        default: break
        }
        return t
    }
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
    /// A colour of the block's own (a command's colour line), `#RRGGBB[AA]`; empty: the level's.
    public var color = ByteWriter(capacity: 16)
    /// i3bar's `min_width` as a sample text: the widest of the forms a click switches between,
    /// so that a click neither moves the other blocks nor makes i3bar fall back to short
    /// texts. Empty: none.
    public var minWidth = ByteWriter(capacity: 256)
    /// The block's own state for waybar's `alt` (battery: `charging`, `discharging`, …); nil:
    /// the level's word.
    public var alt: StaticString? = nil

    public init() {}

    mutating func reset() {
        full.reset(); short.reset(); level = .normal; urgent = false; percentage = nil; visible = true; color.reset()
        minWidth.reset()
        alt = nil
    }
}

/// Fills `v` with `block`'s values for `snap` at `nowMs`. With a format for the block (its
/// own from the config file, else `--format` of its kind), that text replaces the built-in
/// full text (for mem: the used/total form only, so clicks still reach the other forms);
/// with a `format_short`, that replaces the short text. Level, urgency, percentage and
/// visibility stay the block's own, with the block's own thresholds.
func renderBlock(_ block: BarBlock, _ snap: Snapshot, nowMs: UInt64, memForm: MemForm,
                 thresholds t: Thresholds, usage: RendererUsage, formats: BlockFormats, into v: inout BlockValue) {
    let kind = block.kind
    renderBuiltIn(kind, argument: block.argument, snap, nowMs: nowMs, memForm: memForm, thresholds: t.overriding(block),
                  usage: usage, into: &v)
    guard v.visible else { return }
    if kind != .mem || memForm == .usedTotal, let format = block.format ?? formats[kind] {
        v.full.reset()
        format.render(snap, argument: block.argument, nowMs: nowMs, usage: usage, into: &v.full)
    }
    if let short = block.shortFormat {
        v.short.reset()
        short.render(snap, argument: block.argument, nowMs: nowMs, usage: usage, into: &v.short)
    }
}

/// Fills `v` with `kind`'s built-in values for `snap` at `nowMs`: the block's own file says how.
func renderBuiltIn(_ kind: BlockKind, argument: [UInt8] = [], _ snap: Snapshot, nowMs: UInt64, memForm: MemForm,
                   thresholds t: Thresholds, usage: RendererUsage, into v: inout BlockValue) {
    v.reset()
    guard snap.available.contains(kind.section) else {
        // Not measured: say so, never show a stale or zero figure. An exit is an event,
        // not a figure: without the exits part there is simply none to show.
        if kind == .exited { v.visible = false; return }
        v.full.append(kind.label); v.full.append(UInt8(ascii: " "))
        if !argument.isEmpty { v.full.append(bytes: argument); v.full.append(UInt8(ascii: " ")) }
        v.full.appendNotAvailable()
        v.short.append(v.full)
        return
    }
    switch kind {
    case .cpu: CPUBlock.render(snap, thresholds: t, into: &v)
    case .mem: MemBlock.render(snap, form: memForm, thresholds: t, into: &v)
    case .load: LoadBlock.render(snap, into: &v)
    case .uptime: UptimeBlock.render(snap, into: &v)
    case .battery: BatteryBlock.render(snap, thresholds: t, into: &v)
    case .procs: ProcsBlock.render(snap, into: &v)
    case .exited: ExitedBlock.render(snap, nowMs: nowMs, thresholds: t, into: &v)
    case .selfCost: SelfBlock.render(snap, usage: usage, into: &v)
    case .top: TopBlock.render(snap, into: &v)
    case .swap: SwapBlock.render(snap, thresholds: t, into: &v)
    case .cores: CoresBlock.render(snap, thresholds: t, into: &v)
    case .net: NetBlock.render(snap, argument: argument, into: &v)
    case .wifi: WifiBlock.render(snap, argument: argument, into: &v)
    case .disk: DiskBlock.render(snap, argument: argument, thresholds: t, into: &v)
    case .diskio: DiskIOBlock.render(snap, argument: argument, into: &v)
    case .temp: TempBlock.render(snap, argument: argument, thresholds: t, into: &v)
    case .freq: FreqBlock.render(snap, into: &v)
    // Drawn by the renderer, which owns the clocks (TimeBlock.swift) and the commands' output.
    case .time, .command: break
    }
}

/// One placeholder of a block's `--format`: its name between the braces and what it shows
/// (the tables in each block's file make `--help`, the error for an unknown name, and
/// docs/renderer.md's list, which a test compares with them).
public struct PlaceholderSpec: Sendable {
    public let name: StaticString
    public let help: StaticString
    /// A figure of the renderer itself, not of the snapshot: shown even when the block's part is not.
    let measuredByRenderer: Bool

    init(_ name: StaticString, _ help: StaticString, measuredByRenderer: Bool = false) {
        self.name = name; self.help = help; self.measuredByRenderer = measuredByRenderer
    }
}

extension BlockKind {
    /// The block's placeholders, in the order `--help` lists them.
    public var placeholders: [PlaceholderSpec] {
        switch self {
        case .cpu: CPUBlock.placeholders
        case .mem: MemBlock.placeholders
        case .load: LoadBlock.placeholders
        case .uptime: UptimeBlock.placeholders
        case .battery: BatteryBlock.placeholders
        case .procs: ProcsBlock.placeholders
        case .exited: ExitedBlock.placeholders
        case .selfCost: SelfBlock.placeholders
        case .top: TopBlock.placeholders
        case .swap: SwapBlock.placeholders
        case .cores: CoresBlock.placeholders
        case .net: NetBlock.placeholders
        case .wifi: WifiBlock.placeholders
        case .disk: DiskBlock.placeholders
        case .diskio: DiskIOBlock.placeholders
        case .temp: TempBlock.placeholders
        case .freq: FreqBlock.placeholders
        case .time: TimeBlock.placeholders
        case .command: []
        }
    }
}

/// A value a block can show in its `--format`: the block and the index in its table.
public struct Placeholder: Equatable, Sendable {
    public let block: BlockKind
    let index: UInt8

    /// The placeholder of `block` named `bytes`, or nil.
    public init?(block: BlockKind, name bytes: ArraySlice<UInt8>) {
        let table = block.placeholders
        for i in 0..<table.count where bytesEqual(bytes, table[i].name) {
            self.block = block
            self.index = UInt8(i)
            return
        }
        return nil
    }

    /// The name between the braces.
    public var name: StaticString { block.placeholders[Int(index)].name }

    /// Appends its value: shares are whole percents without `%`, sizes in the blocks'
    /// binary units (`3.2G`), loads with two decimals; `n/a` when its part was not measured.
    func append(_ snap: Snapshot, argument: [UInt8] = [], nowMs: UInt64, usage: RendererUsage, into w: inout ByteWriter) {
        let i = Int(index)
        if !snap.available.contains(block.section) && !block.placeholders[i].measuredByRenderer {
            w.appendNotAvailable()
            return
        }
        switch block {
        case .cpu: CPUBlock.append(i, snap, into: &w)
        case .mem: MemBlock.append(i, snap, into: &w)
        case .load: LoadBlock.append(i, snap, into: &w)
        case .uptime: UptimeBlock.append(i, snap, into: &w)
        case .battery: BatteryBlock.append(i, snap, into: &w)
        case .procs: ProcsBlock.append(i, snap, into: &w)
        case .exited: ExitedBlock.append(i, snap, nowMs: nowMs, into: &w)
        case .selfCost: SelfBlock.append(i, snap, usage: usage, into: &w)
        case .top: TopBlock.append(i, snap, into: &w)
        case .swap: SwapBlock.append(i, snap, into: &w)
        case .cores: CoresBlock.append(i, snap, into: &w)
        case .net: NetBlock.append(i, snap, argument: argument, into: &w)
        case .wifi: WifiBlock.append(i, snap, argument: argument, into: &w)
        case .disk: DiskBlock.append(i, snap, argument: argument, into: &w)
        case .diskio: DiskIOBlock.append(i, snap, argument: argument, into: &w)
        case .temp: TempBlock.append(i, snap, argument: argument, into: &w)
        case .freq: FreqBlock.append(i, snap, into: &w)
        case .time, .command: break
        }
    }
}

/// A share in hundredths of a percent as a whole number, rounded, without `%`.
func appendWholePercent(_ w: inout ByteWriter, _ permyriad: UInt64) {
    w.appendDecimal(wholePercent(permyriad))
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
