// The renderer: the blocks produce values (Blocks/), the output of the chosen bar
// protocol (Outputs/) writes them as text, i3bar JSON or waybar JSON into one
// preallocated line buffer that the program writes with one write().

import SnapshotCodec

/// The bar protocols `--output` can name.
public enum OutputKind: UInt8, Sendable, CaseIterable {
    /// One plain line per update (a terminal, a script, a bar without markup).
    case text
    /// A plain line for tmux's `#()`: every `#` doubled, so no text can be a tmux format
    /// (`#(command)` runs a command, `#[…]` styles).
    case tmux
    /// A plain line for lemonbar: every `%` doubled, so no text can be a `%{…}` command.
    case lemonbar
    /// A plain line for polybar's script module: `%{` broken as `% {` (polybar has no escape).
    case polybar
    /// The i3bar JSON protocol (i3bar, swaybar): header, `[`, one array per update.
    case i3bar
    /// One JSON object per line with `text`, `tooltip`, `class`, `percentage`.
    case waybar
    /// The X11 root window's name (dwm and similar): plain text, no newline.
    case x11Root
    /// The panel image as a PNG file (`--output png:FILE`), replaced atomically per update.
    case png
    /// One-shot for xfce4-genmon-plugin: writes the panel PNG, prints `<img>`, `<txt>`, `<tool>`, `<click>`.
    case genmon
    /// The panel image in an X11 window of its own (sysstats-bar-x11).
    case x11Window
    /// The panel image in a Wayland layer-shell surface (sysstats-bar-wayland).
    case waylandPanel
    /// The panel image in the session's own kind of window: wayland-panel where
    /// `WAYLAND_DISPLAY` is set, else x11-window.
    case panel

    /// The name in `--output`.
    public var name: StaticString {
        switch self {
        case .text: "text"
        case .tmux: "tmux"
        case .lemonbar: "lemonbar"
        case .polybar: "polybar"
        case .i3bar: "i3bar"
        case .waybar: "waybar"
        case .x11Root: "x11-root"
        case .png: "png"
        case .genmon: "genmon"
        case .x11Window: "x11-window"
        case .waylandPanel: "wayland-panel"
        case .panel: "panel"
        }
    }

    /// True for the outputs that print one plain line per update.
    public var isTextLine: Bool { self == .text || self == .tmux || self == .lemonbar || self == .polybar }

    /// True for the outputs that show the panel image rather than a line of text.
    public var isImage: Bool {
        self == .png || self == .genmon || self == .x11Window || self == .waylandPanel || self == .panel
    }
}

/// Turns snapshots into one line of output for a protocol, reusing its buffers.
public struct Renderer {
    /// The protocol written.
    public let output: OutputKind
    /// The blocks shown, in order.
    public let blocks: [BarBlock]

    /// The parts of the snapshot this line shows: its blocks' (``BlockKind/sectionsShown(by:)``,
    /// their formats' too), and for waybar the top processes its tooltip lists. The bar
    /// decodes only these; worked out once, as the blocks are fixed.
    public let partsShown: SnapshotSections
    /// What this line asks of the sampler: ``partsShown`` and what its blocks name.
    public var request: RendererRequest {
        var request = BlockKind.request(of: blocks)
        request.parts = partsShown
        return request
    }

    /// Whether a block names a mount, sensor or interface `snap` does not have: the sampler
    /// measures a name from its first sample after a renderer asked for it (a path that does
    /// not exist is then in the snapshot too, marked missing: `no such mount`).
    public func namesMissing(from snap: Snapshot) -> Bool {
        let asked = BlockKind.request(of: blocks)
        for name in asked.disks where DiskBlock.disk(snap, name) == nil { return true }
        for name in asked.sensors where TempBlock.sensor(snap, name) == nil { return true }
        for name in asked.interfaces where NetBlock.interface(snap, name) == nil { return true }
        return false
    }
    /// The mem block's current form (clicks change it).
    public var memForm: MemForm = .usedTotal
    /// `--format` per block (parsed once); blocks without one use their built-in text.
    public let formats: BlockFormats
    /// Separator, the n/a text, the level colours.
    public let theme: Theme
    /// A problem to show before the blocks, in the critical colour (a config file that no
    /// longer parses: the bar goes on with the last good one); empty: none.
    public var notice: [UInt8] = []
    /// The rendered update: one line (for i3bar, one array, preceded by `[` the first
    /// time and by `,` after that when streaming).
    public internal(set) var line = ByteWriter(capacity: 8192)

    var value = BlockValue()
    /// Per block, the widest text its current form has shown (its `min_width`: the block
    /// keeps its width while the figures change, and takes the next form's when clicked),
    /// and the form it was seen in (mem's form; for a block whose click toggles its short
    /// text, whether the short one); empty for the blocks clicks do not change.
    var widestShown: [ByteWriter] = []
    var widestForm: [MemForm] = []
    var widestShort: [Bool] = []
    /// Per block, the widest short text its current form has shown (blocks with a narrower short text).
    var widestShownShort: [ByteWriter] = []
    /// Each command block's values, filled by ``setCommandOutput(_:_:exitStatus:)``; a block's
    /// entry is `commandSlot[blockIndex]` (-1 for the other blocks).
    var commandValues: [BlockValue] = []
    var commandSlot: [Int] = []
    /// Each `block = "i3bar"` block's stream of another program's blocks; `wrapSlot[blockIndex]`
    /// (-1 for the other blocks). Its `commandValues` entry shows its problems (it ended).
    var wrapped: [I3barStream] = []
    var wrapSlot: [Int] = []
    /// Blocks showing their short text in place of the full one (a `toggle_format` click).
    var showingShort: [Bool] = []
    /// The reading each media and backlight block showed last (nil: none, or another
    /// block), which its clicks control: the player, the backlight and its steps.
    var shownReadings: [PartReading?] = []
    /// What the program found for the file blocks (run_watch, path_exists, read_file) before
    /// this update: it looks, the blocks format (FileBlock.swift).
    public var fileLooks: FileLooks
    var protocolOutput: LineOutput
    private let clocks: Clocks

    /// Creates a renderer. With `streaming`, i3bar updates are framed for the
    /// protocol's endless array (`[` before the first, `,` before the others);
    /// without it (`--once`), each update is a bare array.
    public init(output: OutputKind, blocks: [BarBlock], formats: BlockFormats = BlockFormats(),
                theme: Theme = Theme(), streaming: Bool = false) {
        self.output = output
        let blocks = BarBlock.markingClickCollisions(blocks)
        self.blocks = blocks
        var parts = BlockKind.sectionsShown(by: blocks)
        // A kind's `--format` may show another part too (cpu's {frequency}).
        for i in 0..<blocks.count { if let f = formats[blocks[i].kind] { parts.formUnion(f.alsoShows) } }
        if output == .waybar { parts.insert(.top) }
        partsShown = parts
        self.formats = formats
        self.theme = theme
        protocolOutput = LineOutput(output, theme: theme, streaming: streaming)
        clocks = Clocks(blocks: blocks, format: formats.timeFormat)
        fileLooks = FileLooks(blocks)
        showingShort = Array(repeating: false, count: blocks.count)
        shownReadings = Array(repeating: nil, count: blocks.count)
        for block in blocks {
            let changesForm = block.kind.descriptor.hasForms || block.clicks.contains { $0.kind == .toggleFormat }
            widestShown.append(ByteWriter(capacity: changesForm ? 256 : 0))
            widestShownShort.append(ByteWriter(capacity: changesForm ? 256 : 0))
            widestForm.append(.usedTotal)
            widestShort.append(false)
            if block.kind.runsCommand {
                commandSlot.append(commandValues.count)
                // Until it prints: the config's own text (i3blocks' static full_text), else nothing.
                var waiting = BlockValue()
                if let spec = block.command { Self.applyConfigText(spec, to: &waiting) } else { waiting.visible = false }
                commandValues.append(waiting)
            } else {
                commandSlot.append(-1)
            }
            if block.command?.wrapsI3bar == true {
                wrapSlot.append(wrapped.count)
                wrapped.append(I3barStream())
            } else {
                wrapSlot.append(-1)
            }
        }
    }

    /// A renderer for blocks without arguments (each time block in the local zone); without
    /// blocks, the default bar (``BarBlock/defaults``).
    public init(output: OutputKind, blocks: [BlockKind]? = nil, formats: BlockFormats = BlockFormats(),
                theme: Theme = Theme(), streaming: Bool = false) {
        self.init(output: output, blocks: blocks.map { $0.map { BarBlock($0) } } ?? BarBlock.defaults, formats: formats,
                  theme: theme, streaming: streaming)
    }

    /// Continues the stream of a renderer this one replaces (a configuration reloaded): for
    /// i3bar, its first array follows a `,`, not a second `[`.
    public mutating func continueStream() { protocolOutput.continueStream() }

    /// Shows what command block `blockIndex`'s command printed (``CommandBlockOutput``).
    /// `errorLine`: the last line the run wrote to stderr; at exit status 127 with nothing to
    /// show, the command the shell said it did not find is named (a script's missing tool,
    /// not the script).
    public mutating func setCommandOutput(_ blockIndex: Int, _ output: UnsafeRawBufferPointer, exitStatus: Int32,
                                          errorLine: [UInt8] = []) {
        let slot = commandSlot[blockIndex]
        guard slot >= 0 else { return }
        let spec = blocks[blockIndex].command
        CommandBlockOutput.parse(output, exitStatus: exitStatus, json: spec?.json ?? false, into: &commandValues[slot])
        if let spec { Self.applyConfigText(spec, to: &commandValues[slot]) }
        guard !commandValues[slot].visible && (exitStatus == 126 || exitStatus == 127) else { return }
        if exitStatus == 127, let missing = CommandBlockOutput.commandNotFound(errorLine) {
            setCommandProblem(blockIndex, "")
            commandValues[slot].full.append(bytes: Array(missing))
            commandValues[slot].full.append(": command not found")
            return
        }
        setCommandProblem(blockIndex, exitStatus == 127 ? "command not found" : "command not executable")
    }

    /// The config's `full_text`, `short_text`, `color` and `markup` where the output gave
    /// none, then the `label` before the full text (i3blocks' order: an empty first line
    /// shows the label alone); hidden when neither gave a full text.
    static func applyConfigText(_ spec: CommandSpec, to v: inout BlockValue) {
        if !v.gave(CommandBlockOutput.fullText) { v.full.reset(); v.full.append(bytes: spec.fullText) }
        if !v.gave(CommandBlockOutput.shortText) { v.short.reset(); v.short.append(bytes: spec.shortText) }
        if !v.gave(CommandBlockOutput.color) { v.color.reset(); v.color.append(bytes: spec.color) }
        v.visible = v.gave(CommandBlockOutput.fullText) || !spec.fullText.isEmpty
        if !v.gave(CommandBlockOutput.markup) { v.pango = spec.pango }
        guard v.visible, !spec.label.isEmpty else { return }
        var text = spec.label
        text.append(contentsOf: v.full.bytes)
        v.full.reset()
        v.full.append(bytes: text)
    }

    /// Shows a problem of command block `blockIndex` itself (it could not start, it was killed
    /// after its timeout) as its text, critical. A wrapped program's blocks give way to it.
    public mutating func setCommandProblem(_ blockIndex: Int, _ text: StaticString) {
        let slot = commandSlot[blockIndex]
        guard slot >= 0 else { return }
        commandValues[slot].reset()
        if let spec = blocks[blockIndex].command, spec.wrapsI3bar {
            commandValues[slot].full.append(bytes: spec.name)
            commandValues[slot].full.append(": ")
            wrapped[wrapSlot[blockIndex]].restart()
        }
        commandValues[slot].full.append(text)
        commandValues[slot].level = .critical
    }

    /// When a time block's text next changes (realtime ms): the renderer must draw again
    /// then, snapshot or not. nil without a time block.
    public func nextClockTick(after nowMs: UInt64) -> UInt64? { clocks.nextTick(after: nowMs) }

    /// Renders `snap` as seen at `nowMs` (realtime ms) into ``line``.
    public mutating func render(_ snap: Snapshot, nowMs: UInt64, usage: RendererUsage = RendererUsage()) {
        currentNotAvailable = theme.notAvailable
        line.reset()
        protocolOutput.begin(&line)
        var summary = LineSummary()
        var first = true
        if !notice.isEmpty {
            protocolOutput.messageBlock(bytes: notice, first: true, &line)
            summary.worst = .critical
            first = false
        }
        for (index, block) in blocks.enumerated() {
            if wrapSlot[index] >= 0 {
                renderWrapped(index, first: &first, &summary)
                continue
            }
            if block.kind.runsCommand {
                let slot = commandSlot[index]
                // An empty full text is an empty block in i3bar (i3blocks shows one), nothing elsewhere.
                guard commandValues[slot].visible, output == .i3bar || !commandValues[slot].full.isEmpty else { continue }
                summary.add(commandValues[slot])
                protocolOutput.block(block, commandValues[slot], first: first, &line)
                first = false
                continue
            }
            if block.kind.isClock {
                clocks.render(index, nowMs: nowMs, into: &value)
            } else {
                renderBlock(block, snap, nowMs: nowMs, memForm: memForm, usage: usage,
                            formats: formats, look: fileLooks.byBlock[index], into: &value)
                noteReading(index, block, snap, nowMs: nowMs)
            }
            guard value.visible else { continue }
            // The block's own colour while it is normal (the warning and critical colours win).
            if value.level == .normal && !block.color.isEmpty { value.color.reset(); value.color.append(bytes: block.color) }
            if showingShort[index] && !value.short.isEmpty {
                value.full.reset()
                value.full.append(value.short)
            }
            if output == .i3bar { sizeForClicks(index, block) }
            summary.add(value)
            protocolOutput.block(block, value, first: first, &line)
            first = false
        }
        protocolOutput.end(snap, summary, &line)
    }

    /// Keeps the reading a media or backlight block `index` shows (written only when it
    /// changed: a steady bar allocates nothing).
    private mutating func noteReading(_ index: Int, _ block: BarBlock, _ snap: Snapshot, nowMs: UInt64) {
        let d = block.kind.descriptor
        guard d.media != nil || d.setsBrightness, let reading = d.reading else { return }
        let shown = reading(snap, BlockContext(block, nowMs: nowMs, memForm: memForm, usage: RendererUsage()))
        if shownReadings[index] != shown { shownReadings[index] = shown }
    }

    /// Renders a message (e.g. `sysstatsd stopped`), shown as critical, in place of the blocks
    /// drawn from the snapshot; the clocks go on showing the time at `nowMs` beside it.
    public mutating func renderMessage(_ message: StaticString, nowMs: UInt64 = 0) {
        line.reset()
        protocolOutput.begin(&line)
        guard clocks.tickMs != 0 || !notice.isEmpty || !commandValues.isEmpty else {
            protocolOutput.message(message, &line)
            return
        }
        var first = true
        if !notice.isEmpty {
            protocolOutput.messageBlock(bytes: notice, first: true, &line)
            first = false
        }
        var messageShown = false
        var summary = LineSummary()
        for (index, block) in blocks.enumerated() {
            if wrapSlot[index] >= 0 {
                renderWrapped(index, first: &first, &summary)
                continue
            }
            if block.kind.needsSnapshot {
                if messageShown { continue }
                messageShown = true
                protocolOutput.messageBlock(message, first: first, &line)
            } else if block.kind.runsCommand {
                let slot = commandSlot[index]
                // An empty full text is an empty block in i3bar (i3blocks shows one), nothing elsewhere.
                guard commandValues[slot].visible, output == .i3bar || !commandValues[slot].full.isEmpty else { continue }
                protocolOutput.block(block, commandValues[slot], first: first, &line)
            } else {
                clocks.render(index, nowMs: nowMs, into: &value)
                protocolOutput.block(block, value, first: first, &line)
            }
            first = false
        }
        protocolOutput.endMessage(message, shown: messageShown, &line)
    }
}

/// The longest prefix of `bytes` of at most `maximum` bytes that does not cut a
/// UTF-8 character (dwm copies at most 255 bytes of WM_NAME).
public func utf8PrefixLength(_ bytes: [UInt8], maximum: Int) -> Int {
    guard bytes.count > maximum else { return bytes.count }
    var n = maximum
    // Back off while the first byte left out is a continuation byte.
    while n > 0 && bytes[n] & 0xC0 == 0x80 { n -= 1 }
    return n
}

/// A kind's name as bytes (its i3bar instance when it has no argument).
