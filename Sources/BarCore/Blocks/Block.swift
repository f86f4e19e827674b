// Blocks turn a snapshot into values (text, level, urgency). They never see
// the bar protocol: the outputs (Outputs/, one type per protocol) turn values into bytes. One
// file per block in this folder, whose `descriptor` (BlockDescriptor.swift) says all there is
// to know about it: its name, its built-in text, its placeholders, its levels.

import SnapshotCodec

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
    /// `hide_missing`: hidden, not `n/a`, when what it shows is not on this machine (no
    /// sensor, no such disk or interface) or was not measured.
    public var hideMissing = false
    /// `min_freed` of `exited`: an exit that freed less is not shown, KiB.
    public var minimumFreedKiB: UInt64 = 0
    /// A file block's `title` (run_watch's `DHCP`) and its text while down: `format_down`
    /// (read_file: `format_bad`); nil: i3status's (``FileBlock``).
    public var title: [UInt8] = []
    public var downFormat: BlockFormat? = nil
    /// `color`: its i3bar colour while normal (`#RRGGBB[AA]`; empty: the bar's own).
    public var color: [UInt8] = []
    /// Its states' texts (`format_down`, `format_charging`), in its descriptor's `states` order.
    public var stateFormats: [BlockFormat?] = []
    /// A sound or backlight block's wheel step, and the highest volume a sound block's wheel
    /// sets, whole percents (i3status-rust's `step_width` and `max_vol`; `step` and `max` in
    /// the config).
    public var wheelStep: UInt32 = 5
    public var soundMaximum: UInt32 = 100
    public init(_ kind: BlockKind, argument: [UInt8] = []) { self.kind = kind; self.argument = argument }

    /// The exit the default bar thinks notable: one that freed this much.
    public static let notableExitKiB: UInt64 = 100 * 1024

    /// The default bar: ``BlockKind/defaults``, the hardware's blocks hidden where it is
    /// absent, exits shown only when notable.
    public static var defaults: [BarBlock] {
        BlockKind.defaults.map { kind in
            var block = BarBlock(kind)
            block.hideMissing = kind.descriptor.hiddenWhenMissingByDefault
            if kind.descriptor.filtersByFreedMemory { block.minimumFreedKiB = notableExitKiB }
            return block
        }
    }
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

/// What a command block runs and when (i3blocks' keys).
public struct CommandSpec: Equatable, Sendable {
    /// Run by `/bin/sh -c`.
    public var command: [UInt8]
    /// i3bar's `name` and `instance` of the block, and `BLOCK_NAME`/`BLOCK_INSTANCE` for the command.
    public var name: [UInt8]
    public var instance: [UInt8]
    /// Run every `intervalMs` from each start (0: no timer, see ``runsAtStart``).
    public var intervalMs: UInt32
    /// Run again on SIGRTMIN+`signal` (`pkill -RTMIN+n sysstats-bar`); nil: no signal.
    public var signal: Int32?
    /// A long-running command: every line it prints updates the block; restarted with back-off when it ends.
    public var persist: Bool
    /// A run longer than this is killed (its whole process group), ms; 0: never (i3blocks).
    public var timeoutMs: UInt32
    /// `block = "i3bar"`: a long-running program speaking the i3bar protocol (i3status, i3blocks):
    /// its blocks take this block's place, clicks on them are forwarded to it.
    public var wrapsI3bar = false
    /// For a wrapped program that did not ask for click events: the signal a click on its
    /// blocks sends it (i3status redraws on SIGUSR1); 0: none.
    public var refreshSignal: Int32 = 0
    /// Runs when the bar starts (an interval, `once`, `repeat`, `persist`); false: only on a
    /// click or its signal (i3blocks' block without an interval, or `interval = 0`).
    public var runsAtStart = true
    /// `interval = "repeat"`: runs again as soon as a run ends.
    public var repeats = false
    /// `format = "json"`: each run (a persistent command's each line) prints one JSON object.
    public var json = false
    /// `label`: put before the full text.
    public var label: [UInt8] = []
    /// Its name and instance are a built-in block's of the same bar (an i3blocks `[cpu]`
    /// with `instance=cpu` beside the cpu block): i3bar's clicks could not tell them apart,
    /// so its instance goes out behind ``commandInstancePrefix`` (``BarBlock/markingClickCollisions(_:)``).
    public var clickTagged = false
    /// `markup = "pango"`: the command writes Pango markup, passed through for this block.
    public var pango = false
    /// The config's `full_text`, `short_text` and `color`: shown where the output gives none.
    public var fullText: [UInt8] = [], shortText: [UInt8] = [], color: [UInt8] = []
    /// The other i3bar members the config gives (`"background":"#101010"`, JSON already
    /// checked), written to i3bar after the block's own.
    public var members: [[UInt8]] = []
    /// Every key of the block as `KEY=value`: the command's environment (i3blocks 1.5 passes a
    /// section's keys to its command, `LABEL`, `WARN_PERCENT`, …).
    public var environment: [[UInt8]] = []
    /// True when `key` can name an environment variable the shell passes on: letters, digits
    /// and `_`, not starting with a digit, at most 64 bytes.
    public static func isEnvironmentName(_ key: ArraySlice<UInt8>) -> Bool {
        guard !key.isEmpty, key.count <= 64 else { return false }
        for (i, b) in key.enumerated() {
            let letter = (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == UInt8(ascii: "_")
            if !(letter || (i > 0 && b >= 48 && b <= 57)) { return false }
        }
        return true
    }

    public init(command: [UInt8], name: [UInt8] = Array("command".utf8), instance: [UInt8] = [], intervalMs: UInt32 = 0,
                signal: Int32? = nil, persist: Bool = false, timeoutMs: UInt32 = 0) {
        self.command = command; self.name = name; self.instance = instance; self.intervalMs = intervalMs
        self.signal = signal; self.persist = persist; self.timeoutMs = timeoutMs
    }
}

/// How alarming a value is; outputs map it to a colour or a CSS class.
public enum Level: UInt8, Sendable, Comparable {
    case normal, warning, critical

    public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
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
    /// The text is Pango markup the outputs pass through (a command block's `markup = "pango"`).
    public var pango = false
    /// A command's own i3bar members beyond its texts, colour and urgency (`,"key":value`
    /// each, checked JSON) for the i3bar output; empty for the other blocks.
    public var members = ByteWriter(capacity: 0)
    /// Which of ``CommandBlockOutput/i3barKeys`` a command's output gave (bit k: key k).
    public var given: UInt32 = 0

    public init() {}

    mutating func reset() {
        full.reset(); short.reset(); level = .normal; urgent = false; percentage = nil; visible = true; color.reset()
        minWidth.reset()
        alt = nil
        pango = false
        members.reset()
        given = 0
    }

    /// Whether a command's output gave key `k` of ``CommandBlockOutput/i3barKeys``.
    func gave(_ k: Int) -> Bool { given & (1 << UInt32(k)) != 0 }
}

/// Fills `v` with `block`'s values for `snap` at `nowMs`. With a format for the block (its
/// own from the config file, else `--format` of its kind), that text replaces the built-in
/// full text (for mem: the used/total form only, so clicks still reach the other forms);
/// with a `format_short`, that replaces the short text. Level, urgency, percentage and
/// visibility stay the block's own, with the block's own marks. A file block (`look`, what the
/// program found) takes its text while down as i3status does (``FileBlock/format(_:_:_:)``).
func renderBlock(_ block: BarBlock, _ snap: Snapshot, nowMs: UInt64, memForm: MemForm, usage: RendererUsage,
                 formats: BlockFormats, look: FileLook? = nil, into v: inout BlockValue) {
    let kind = block.kind
    var context = BlockContext(block, nowMs: nowMs, memForm: memForm, usage: usage)
    context.look = look
    if block.hideMissing && !kind.descriptor.isPresent(snap, context) {
        v.reset()
        v.visible = false
        return
    }
    renderBuiltIn(kind, snap, context, into: &v)
    guard v.visible else { return }
    // Measured and not on this machine (no battery, no such sensor, no default sink): the
    // block's own `n/a` text, not a format whose figures would read 0. A file block's down
    // state has formats of its own (format_down); a part not measured keeps the format, its
    // placeholders `n/a` and the renderer's own figures shown.
    // A state with a text of its own (a net block's format_down) takes it, present or not, as i3status's.
    let state = activeState(block, snap, context)
    if let state {
        v.full.reset()
        block.stateFormats[state].map { $0.render(snap, context, into: &v.full) }
        if let level = kind.descriptor.states[state].level { v.level = level }
    } else {
        if look == nil, snap.available.contains(kind.section), let present = kind.descriptor.present, !present(snap, context) { return }
        if !kind.descriptor.hasForms || memForm == .usedTotal, let format = FileBlock.format(block, context, formats, snap) {
            v.full.reset()
            format.render(snap, context, into: &v.full)
        }
    }
    // A file block, or a state's text, with nothing to say is left out, as i3bar leaves out i3status's (`format_down = ""`).
    if (look != nil || state != nil) && v.full.isEmpty { v.visible = false; return }
    if let short = block.shortFormat {
        v.short.reset()
        short.render(snap, context, into: &v.short)
    }
}

/// The first of the block's states it is in and has a text for (its index in the
/// descriptor's `states`); nil: none.
func activeState(_ block: BarBlock, _ snap: Snapshot, _ context: BlockContext) -> Int? {
    let states = block.kind.descriptor.states
    guard !block.stateFormats.isEmpty, snap.available.contains(block.kind.section) else { return nil }
    for i in 0..<min(states.count, block.stateFormats.count) where block.stateFormats[i] != nil {
        if states[i].isActive(snap, context) { return i }
    }
    return nil
}

/// Fills `v` with `kind`'s built-in values for `snap`: the block's own file says how.
func renderBuiltIn(_ kind: BlockKind, _ snap: Snapshot, _ context: BlockContext, into v: inout BlockValue) {
    v.reset()
    let d = kind.descriptor
    guard let render = d.render else { return }
    guard snap.available.contains(d.section) else {
        // Not measured: say so, never show a stale or zero figure. An exit is an event,
        // not a figure: without the exits part there is simply none to show.
        if d.showsEvents { v.visible = false; return }
        v.full.append(d.label); v.full.append(UInt8(ascii: " "))
        if !context.argument.isEmpty { v.full.append(bytes: context.argument); v.full.append(UInt8(ascii: " ")) }
        v.full.appendNotAvailable()
        v.short.append(v.full)
        return
    }
    render(snap, context, &v)
}

extension BlockContext {
    /// The context of `block`: its argument, and its own marks, else its kind's.
    init(_ block: BarBlock, nowMs: UInt64, memForm: MemForm = .usedTotal, usage: RendererUsage = RendererUsage()) {
        self.init(argument: block.argument, nowMs: nowMs, memForm: memForm, usage: usage,
                  minimumFreedKiB: block.minimumFreedKiB, title: block.title)
        if let marks = block.kind.descriptor.marks {
            warning = marks.resolve(block.warning, default: marks.warning)
            critical = marks.resolve(block.critical, default: marks.critical)
        }
    }
}

extension BlockKind {
    /// The block's placeholders, in the order `--help` lists them.
    public var placeholders: [PlaceholderSpec] { descriptor.placeholders }
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
    func append(_ snap: Snapshot, _ context: BlockContext, into w: inout ByteWriter) {
        let d = block.descriptor
        let spec = d.placeholders[Int(index)]
        if (!snap.available.contains(d.section) && !spec.measuredByRenderer) || !snap.available.contains(spec.alsoShows) {
            w.appendNotAvailable()
            return
        }
        spec.append(snap, context, &w)
    }
}

/// A share in hundredths of a percent as a whole number, rounded, without `%`.
func appendWholePercent(_ w: inout ByteWriter, _ permyriad: UInt64) {
    w.appendDecimal(wholePercent(permyriad))
}

/// Appends a bar of `cells` cells for a share: full cells `█`, one partial
/// cell (▏▎▍▌▋▊▉), then light shade `░`.
func appendBar(_ w: inout ByteWriter, permyriad: UInt64, cells: UInt64) {
    // Any share above nothing shows at least an eighth of a cell: a bar never reads empty
    // while something is used.
    let eighths = max(min(permyriad, 10_000) * cells * 8 / 10_000, permyriad > 0 ? 1 : 0)
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

/// Byte-wise equality of bytes and a literal.
func bytesEqual<Bytes: Collection>(_ a: Bytes, _ b: StaticString) -> Bool where Bytes.Element == UInt8 {
    guard a.count == b.utf8CodeUnitCount else { return false }
    let p = b.utf8Start
    var i = 0
    for x in a {
        if x != p[i] { return false }
        i += 1
    }
    return true
}

/// How a command block's instance starts in the i3bar stream when its name and instance are
/// a built-in block's (``CommandSpec/clickTagged``); the click comes back with it, and the
/// command sees its own instance.
public let commandInstancePrefix: StaticString = "command:"

extension BarBlock {
    /// `blocks` with each command block that would answer to a built-in block's clicks
    /// marked ``CommandSpec/clickTagged``: same name as a built-in kind present in the bar,
    /// and the instance that block goes out with (its argument, else its kind's name).
    public static func markingClickCollisions(_ blocks: [BarBlock]) -> [BarBlock] {
        var marked = blocks
        for i in marked.indices {
            guard var spec = marked[i].command, !spec.wrapsI3bar else { continue }
            let collides = blocks.contains { b in
                b.command == nil && bytes(b.kind.name) == spec.name
                    && (b.argument.isEmpty ? bytes(b.kind.name) : b.argument) == spec.instance
            }
            if collides {
                spec.clickTagged = true
                marked[i].command = spec
            }
        }
        return marked
    }
}
