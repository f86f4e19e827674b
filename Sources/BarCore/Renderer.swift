// One output per bar protocol (i3status style): the blocks produce values,
// the renderer writes them as text, i3bar JSON or waybar JSON into one
// preallocated line buffer that the program writes with one write().

#if hasFeature(Embedded)
import SnapshotCodecEmbedded
#else
import SnapshotCodec
#endif

/// The bar protocols `--output` can name.
public enum OutputKind: UInt8, Sendable, CaseIterable {
    /// One plain line per update (lemonbar, tmux, polybar's script module).
    case text
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
    /// The panel image in an X11 dock window (sysstats-bar-x11).
    case x11Window

    /// The name in `--output`.
    public var name: StaticString {
        switch self {
        case .text: "text"
        case .i3bar: "i3bar"
        case .waybar: "waybar"
        case .x11Root: "x11-root"
        case .png: "png"
        case .genmon: "genmon"
        case .x11Window: "x11-window"
        }
    }

    /// True for the outputs that show the panel image rather than a line of text.
    public var isImage: Bool { self == .png || self == .genmon || self == .x11Window }
}

/// The i3bar protocol header, written alone in one write() before anything else:
/// SIGUSR1 (10) stops output while the bar is hidden, SIGUSR2 (12) resumes it.
public let i3barHeader: StaticString = "{\"version\":1,\"click_events\":true,\"stop_signal\":10,\"cont_signal\":12}\n"

/// i3bar colours for ``Level/warning`` and ``Level/critical``.
let warningColor: StaticString = "#E5C07B"
let criticalColor: StaticString = "#E06C75"

/// Turns snapshots into one line of output for a protocol, reusing its buffers.
public struct Renderer {
    /// The protocol written.
    public let output: OutputKind
    /// The blocks shown, in order.
    public var blocks: [BlockKind]
    /// Colour thresholds.
    public var thresholds = Thresholds()
    /// The mem block's current form (clicks change it).
    public var memForm: MemForm = .usedTotal
    /// `--format` per block (parsed once); blocks without one use their built-in text.
    public var formats: BlockFormats
    /// The rendered update: one line (for i3bar, one array, preceded by `[` the first
    /// time and by `,` after that when streaming).
    public private(set) var line = ByteWriter(capacity: 8192)

    private var value = BlockValue()
    private var tooltip = ByteWriter(capacity: 2048)
    private var i3barStreaming: Bool
    private var i3barArrays = 0

    /// Creates a renderer. With `streaming`, i3bar updates are framed for the
    /// protocol's endless array (`[` before the first, `,` before the others);
    /// without it (`--once`), each update is a bare array.
    public init(output: OutputKind, blocks: [BlockKind] = BlockKind.defaults, formats: BlockFormats = BlockFormats(),
                streaming: Bool = false) {
        self.output = output
        self.blocks = blocks
        self.formats = formats
        self.i3barStreaming = streaming
    }

    /// Applies a click: a left click (button 1) on mem shows the next form, a right
    /// click (button 3) the previous one. Returns true when the output changes.
    public mutating func handleClick(_ click: ClickEvent) -> Bool {
        guard click.block == .mem, blocks.contains(.mem) else { return false }
        switch click.button {
        case 1: memForm = memForm.next; return true
        case 3: memForm = memForm.previous; return true
        default: return false
        }
    }

    /// Renders `snap` as seen at `nowMs` (realtime ms) into ``line``.
    public mutating func render(_ snap: Snapshot, nowMs: UInt64, usage: RendererUsage = RendererUsage()) {
        beginLine()
        var shown = 0
        var worst: Level = .normal
        var urgent = false
        var percentage: UInt64? = nil
        tooltip.reset()
        for kind in blocks {
            renderBlock(kind, snap, nowMs: nowMs, memForm: memForm, thresholds: thresholds, usage: usage,
                        formats: formats, into: &value)
            guard value.visible else { continue }
            worst = max(worst, value.level)
            urgent = urgent || value.urgent
            if percentage == nil { percentage = value.percentage }
            switch output {
            case .text, .x11Root, .png, .genmon, .x11Window:
                if shown > 0 { line.append(" | ") }
                // genmon's <txt> is Pango markup.
                line.append(escaped: value.full.bytes, output == .genmon ? .pango : .plain)
            case .i3bar:
                if shown > 0 { line.append(UInt8(ascii: ",")) }
                appendI3barBlock(kind.name, value)
            case .waybar:
                if shown > 0 { line.append(" | "); tooltip.append("\\n") }
                line.append(escaped: value.full.bytes, .pangoJSON)
                tooltip.append(escaped: value.full.bytes, .pangoJSON)
            }
            shown += 1
        }
        if output == .waybar {
            for (i, p) in snap.topCPU.enumerated() where i < 3 {
                tooltip.append(i == 0 ? "\\ntop cpu: " : ", ")
                tooltip.append(escaped: p.name, .pangoJSON)
                tooltip.append(UInt8(ascii: " "))
                tooltip.appendFixed(UInt64(p.cpu), scaleDigits: 2, fractionDigits: 1)
                tooltip.append(UInt8(ascii: "%"))
            }
            let cls: StaticString = urgent ? "urgent" : (worst == .critical ? "critical" : (worst == .warning ? "warning" : "normal"))
            endWaybar(cls, percentage: percentage)
        }
        endLine()
    }

    /// Renders a message instead of the blocks (e.g. `sysstatsd stopped`), shown as critical.
    public mutating func renderMessage(_ message: StaticString) {
        beginLine()
        switch output {
        case .text, .x11Root, .png, .genmon, .x11Window:
            line.append(message)
        case .i3bar:
            line.append("{\"name\":\"sysstats\",\"full_text\":\"")
            line.append(message)
            line.append("\",\"color\":\"")
            line.append(criticalColor)
            line.append("\"}")
        case .waybar:
            line.append(message)
            tooltip.reset()
            tooltip.append(message)
            endWaybar("stale", percentage: nil)
        }
        endLine()
    }

    private mutating func beginLine() {
        line.reset()
        switch output {
        case .text, .x11Root, .png, .genmon, .x11Window: break
        case .i3bar:
            if i3barStreaming { line.append(i3barArrays == 0 ? "[\n" : ",") }
            line.append(UInt8(ascii: "["))
        case .waybar:
            line.append("{\"text\":\"")
        }
    }

    private mutating func endLine() {
        if output == .i3bar {
            line.append(UInt8(ascii: "]"))
            i3barArrays += 1
        }
        if output != .x11Root && !output.isImage { line.append(UInt8(ascii: "\n")) }
    }

    private mutating func endWaybar(_ cls: StaticString, percentage: UInt64?) {
        line.append("\",\"tooltip\":\"")
        line.append(tooltip)
        line.append("\",\"class\":\"")
        line.append(cls)
        line.append(UInt8(ascii: "\""))
        if let p = percentage {
            line.append(",\"percentage\":")
            line.appendDecimal(p)
        }
        line.append(UInt8(ascii: "}"))
    }

    private mutating func appendI3barBlock(_ name: StaticString, _ v: BlockValue) {
        line.append("{\"name\":\"")
        line.append(name)
        line.append("\",\"instance\":\"")
        line.append(name)
        line.append("\",\"full_text\":\"")
        line.append(escaped: v.full.bytes, .json)
        line.append(UInt8(ascii: "\""))
        if !v.short.isEmpty {
            line.append(",\"short_text\":\"")
            line.append(escaped: v.short.bytes, .json)
            line.append(UInt8(ascii: "\""))
        }
        switch v.level {
        case .normal: break
        case .warning: line.append(",\"color\":\""); line.append(warningColor); line.append(UInt8(ascii: "\""))
        case .critical: line.append(",\"color\":\""); line.append(criticalColor); line.append(UInt8(ascii: "\""))
        }
        if v.urgent { line.append(",\"urgent\":true") }
        line.append(UInt8(ascii: "}"))
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
