import SnapshotCodec

// One type per bar protocol (i3status' output abstraction): it knows the framing, the
// escaping and the colours; the blocks never see the protocol. The renderer hands each
// visible block's values to the output of its `--output`, in order, between a begin
// and an end. One file per protocol in this folder.

/// What the whole line's blocks add up to, for protocols with one class or percentage.
struct LineSummary {
    var worst: Level = .normal
    var urgent = false
    /// The first block's percentage that has one.
    var percentage: UInt64? = nil

    mutating func add(_ v: BlockValue) {
        worst = max(worst, v.level)
        urgent = urgent || v.urgent
        if percentage == nil { percentage = v.percentage }
    }
}

/// The protocol the renderer writes, with that protocol's state. The three outputs are
/// stored side by side and one is used: an enum with payloads would copy the payload out
/// to mutate it, and a copied buffer reallocates on its next write (an update in steady
/// state allocates nothing).
struct LineOutput {
    private enum Framing { case plain, i3bar, waybar }
    private let kind: Framing
    private var plain: PlainOutput
    private var i3bar: I3barOutput
    private var waybar: WaybarOutput

    init(_ output: OutputKind, theme: Theme = Theme(), streaming: Bool) {
        switch output {
        case .i3bar: kind = .i3bar
        case .waybar: kind = .waybar
        default: kind = .plain
        }
        // genmon's <txt> is Pango markup; the X11 root name has no newline; the image
        // outputs render a text line only for genmon's label.
        let escaping: TextEscape
        switch output {
        case .genmon: escaping = .pango
        case .tmux: escaping = .tmux
        case .lemonbar: escaping = .lemonbar
        case .polybar: escaping = .polybar
        default: escaping = .plain
        }
        plain = PlainOutput(escaping: escaping, newline: output.isTextLine, separator: theme.separator)
        i3bar = I3barOutput(streaming: streaming, theme: theme)
        waybar = WaybarOutput(capacity: kind == .waybar ? 2048 : 0, separator: theme.separator)
    }

    mutating func begin(_ line: inout ByteWriter) {
        switch kind {
        case .plain: break
        case .i3bar: i3bar.begin(&line)
        case .waybar: waybar.begin(&line)
        }
    }

    mutating func block(_ block: BarBlock, _ v: BlockValue, first: Bool, _ line: inout ByteWriter) {
        switch kind {
        case .plain: plain.block(v, first: first, &line)
        case .i3bar: i3bar.block(block, v, first: first, &line)
        case .waybar: waybar.block(v, first: first, &line)
        }
    }

    /// A block of a wrapped i3bar program, with the members it gave (i3bar only: the other
    /// outputs show wrapped blocks as values).
    mutating func wrappedBlock(_ blockIndex: Int, _ w: WrappedBlock, first: Bool, _ line: inout ByteWriter) {
        if kind == .i3bar { i3bar.wrappedBlock(blockIndex, w, first: first, &line) }
    }

    /// The message as one block among others (beside the clocks), critical.
    mutating func messageBlock(_ text: StaticString, first: Bool, _ line: inout ByteWriter) {
        switch kind {
        case .plain: plain.messageBlock(text, first: first, &line)
        case .i3bar: i3bar.messageBlock(text, first: first, &line)
        case .waybar: waybar.messageBlock(text, first: first, &line)
        }
    }

    /// Goes on with a stream an earlier output started (i3bar's endless array).
    mutating func continueStream() { if kind == .i3bar { i3bar.continueStream() } }

    /// Runtime text (a config file's error) as a critical block named `sysstats`.
    mutating func messageBlock(bytes text: [UInt8], first: Bool, _ line: inout ByteWriter) {
        switch kind {
        case .plain: plain.messageBlock(bytes: text, first: first, &line)
        case .i3bar: i3bar.messageBlock(bytes: text, first: first, &line)
        case .waybar: waybar.messageBlock(bytes: text, first: first, &line)
        }
    }

    /// Ends a line of ``messageBlock(_:first:_:)`` and clocks.
    mutating func endMessage(_ text: StaticString, shown: Bool, _ line: inout ByteWriter) {
        switch kind {
        case .plain: plain.end(&line)
        case .i3bar: i3bar.end(&line)
        case .waybar: waybar.endMessage(&line)
        }
    }

    mutating func end(_ snap: Snapshot, _ summary: LineSummary, _ line: inout ByteWriter) {
        switch kind {
        case .plain: plain.end(&line)
        case .i3bar: i3bar.end(&line)
        case .waybar: waybar.end(snap, summary, &line)
        }
    }

    mutating func message(_ text: StaticString, _ line: inout ByteWriter) {
        switch kind {
        case .plain: plain.message(text, &line)
        case .i3bar: i3bar.message(text, &line)
        case .waybar: waybar.message(text, &line)
        }
    }
}
