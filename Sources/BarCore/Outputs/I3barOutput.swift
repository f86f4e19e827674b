/// The i3bar protocol header, written alone in one write() before anything else:
/// SIGUSR1 (10) stops output while the bar is hidden, SIGUSR2 (12) resumes it.
public let i3barHeader: StaticString = "{\"version\":1,\"click_events\":true,\"stop_signal\":10,\"cont_signal\":12}\n"


/// How a wrapped program's block's instance starts in our stream: `i3bar:<block index>:`.
public let wrappedInstancePrefix: StaticString = "i3bar:"

/// The i3bar JSON protocol (i3bar, swaybar): one array of blocks per update. Streaming,
/// the arrays are elements of one endless array: `[` before the first, `,` before the others.
struct I3barOutput {
    let streaming: Bool
    private var arrays = 0
    /// The level colours (the theme's; checked `#RRGGBB[AA]` by whoever set them).
    private let warningColor: [UInt8], criticalColor: [UInt8]

    init(streaming: Bool, theme: Theme = Theme()) {
        self.streaming = streaming
        warningColor = theme.warning
        criticalColor = theme.critical
    }

    func begin(_ line: inout ByteWriter) {
        if streaming { line.append(arrays == 0 ? "[\n" : ",") }
        line.append(UInt8(ascii: "["))
    }

    /// `{"name":…,"instance":…,"full_text":…,"short_text":…,"color":…,"urgent":true}`.
    /// The instance is the block's argument (a time zone) when it has one, else its name.
    func block(_ block: BarBlock, _ v: BlockValue, first: Bool, _ line: inout ByteWriter) {
        if !first { line.append(UInt8(ascii: ",")) }
        line.append("{\"name\":\"")
        if let command = block.command {
            // A command block: its own name and instance, as i3blocks names them (clicks come
            // back with them); no instance when it has none, as i3blocks.
            line.append(escaped: command.name, .json)
            if !command.instance.isEmpty {
                line.append("\",\"instance\":\"")
                if command.clickTagged { line.append(commandInstancePrefix) }
                line.append(escaped: command.instance, .json)
            }
        } else {
            line.append(block.kind.name)
            line.append("\",\"instance\":\"")
            if block.argument.isEmpty { line.append(block.kind.name) } else { line.append(escaped: block.argument, .json) }
        }
        line.append("\",\"full_text\":\"")
        line.append(escaped: v.full.bytes, .json)
        line.append(UInt8(ascii: "\""))
        if !v.short.isEmpty || v.gave(CommandBlockOutput.shortText) {
            line.append(",\"short_text\":\"")
            line.append(escaped: v.short.bytes, .json)
            line.append(UInt8(ascii: "\""))
        }
        switch v.level {
        case .normal where !v.color.isEmpty:
            // A command's own colour (checked #RRGGBB[AA]).
            line.append(",\"color\":\""); line.append(v.color); line.append(UInt8(ascii: "\""))
        case .normal: break
        case .warning: line.append(",\"color\":\""); line.append(bytes: warningColor); line.append(UInt8(ascii: "\""))
        case .critical: line.append(",\"color\":\""); line.append(bytes: criticalColor); line.append(UInt8(ascii: "\""))
        }
        if v.urgent { line.append(",\"urgent\":true") } else if v.gave(CommandBlockOutput.urgent) { line.append(",\"urgent\":false") }
        if !v.minWidth.isEmpty {
            line.append(",\"min_width\":\"")
            line.append(escaped: v.minWidth.bytes, .json)
            line.append(UInt8(ascii: "\""))
        }
        // A command block's i3bar keys from its output, then from the config file where the
        // output gave none (both checked JSON).
        line.append(v.members)
        if let members = block.command?.members {
            for member in members {
                if let k = CommandBlockOutput.memberKeyIndex(member), v.gave(k) || (v.urgent && k == CommandBlockOutput.urgent) { continue }
                line.append(UInt8(ascii: ","))
                line.append(bytes: member)
            }
        }
        line.append(UInt8(ascii: "}"))
    }

    /// A wrapped program's block: its own name, and an instance that says whose it is
    /// (`i3bar:<block index>:<its instance>`), so that a click on it can be forwarded.
    func wrappedBlock(_ blockIndex: Int, _ w: WrappedBlock, first: Bool, _ line: inout ByteWriter) {
        if !first { line.append(UInt8(ascii: ",")) }
        line.append("{\"name\":\"")
        line.append(escaped: w.name.bytes, .json)
        line.append("\",\"instance\":\"")
        line.append(wrappedInstancePrefix)
        line.appendDecimal(blockIndex)
        line.append(UInt8(ascii: ":"))
        line.append(escaped: w.instance.bytes, .json)
        line.append("\",\"full_text\":\"")
        line.append(escaped: w.full.bytes, .json)
        line.append(UInt8(ascii: "\""))
        if !w.short.isEmpty {
            line.append(",\"short_text\":\"")
            line.append(escaped: w.short.bytes, .json)
            line.append(UInt8(ascii: "\""))
        }
        // Colours were checked #RRGGBB[AA] when read.
        if !w.color.isEmpty { line.append(",\"color\":\""); line.append(w.color); line.append(UInt8(ascii: "\"")) }
        if !w.background.isEmpty { line.append(",\"background\":\""); line.append(w.background); line.append(UInt8(ascii: "\"")) }
        if !w.border.isEmpty { line.append(",\"border\":\""); line.append(w.border); line.append(UInt8(ascii: "\"")) }
        if w.urgent { line.append(",\"urgent\":true") }
        if w.noSeparator { line.append(",\"separator\":false") }
        if w.separatorBlockWidth >= 0 { line.append(",\"separator_block_width\":"); line.appendDecimal(Int(w.separatorBlockWidth)) }
        if w.minWidth >= 0 {
            line.append(",\"min_width\":"); line.appendDecimal(Int(w.minWidth))
        } else if !w.minWidthText.isEmpty {
            line.append(",\"min_width\":\""); line.append(escaped: w.minWidthText.bytes, .json); line.append(UInt8(ascii: "\""))
        }
        switch w.align {
        case 1: line.append(",\"align\":\"left\"")
        case 2: line.append(",\"align\":\"center\"")
        case 3: line.append(",\"align\":\"right\"")
        default: break
        }
        if w.pango { line.append(",\"markup\":\"pango\"") }
        line.append(UInt8(ascii: "}"))
    }

    mutating func end(_ line: inout ByteWriter) {
        line.append("]\n")
        arrays += 1
    }

    /// The stream's `[` was written by an earlier output (a configuration reloaded): go on with `,`.
    mutating func continueStream() { arrays = max(arrays, 1) }

    /// One block named `sysstats` in the critical colour.
    mutating func message(_ text: StaticString, _ line: inout ByteWriter) {
        messageBlock(text, first: true, &line)
        end(&line)
    }

    /// The `sysstats` message block among others.
    func messageBlock(_ text: StaticString, first: Bool, _ line: inout ByteWriter) {
        if !first { line.append(UInt8(ascii: ",")) }
        line.append("{\"name\":\"sysstats\",\"full_text\":\"")
        line.append(escaped: text, .json)
        closeMessage(&line)
    }

    /// A message of runtime text (a config file's error): escaped like any text.
    func messageBlock(bytes text: [UInt8], first: Bool, _ line: inout ByteWriter) {
        if !first { line.append(UInt8(ascii: ",")) }
        line.append("{\"name\":\"sysstats\",\"full_text\":\"")
        line.append(escaped: text, .json)
        closeMessage(&line)
    }

    private func closeMessage(_ line: inout ByteWriter) {
        line.append("\",\"color\":\"")
        line.append(bytes: criticalColor)
        line.append("\"}")
    }
}
