import SnapshotCodec

/// waybar's custom module with `return-type: json`: one object per line with `text`
/// (the blocks, Pango markup inside a JSON string), `alt` (the key waybar picks an icon of
/// `format-icons` by: the first block's own state where it has one, the battery's
/// `charging`/`discharging`/`full`/`not-charging`/`unknown`, else the class's word),
/// `tooltip` (each block on its own line, then the top processes), `class` (the worst
/// level, or `urgent`) and `percentage`.
struct WaybarOutput {
    private var tooltip: ByteWriter
    private let separator: [UInt8]
    /// The first block's own `alt`, if it has one.
    private var firstAlt: StaticString? = nil

    init(capacity: Int, separator: [UInt8]) {
        tooltip = ByteWriter(capacity: capacity)
        self.separator = separator
    }

    mutating func begin(_ line: inout ByteWriter) {
        line.append("{\"text\":\"")
        tooltip.reset()
        firstAlt = nil
    }

    mutating func block(_ v: BlockValue, first: Bool, _ line: inout ByteWriter) {
        if first { firstAlt = v.alt }
        if !first { line.append(escaped: separator, .pangoJSON); tooltip.append("\\n") }
        // A block whose text is Pango markup (`markup = "pango"`) keeps it; JSON escaping stays.
        line.append(escaped: v.full.bytes, v.pango ? .json : .pangoJSON)
        tooltip.append(escaped: v.full.bytes, .pangoJSON)
    }

    mutating func end(_ snap: Snapshot, _ summary: LineSummary, _ line: inout ByteWriter) {
        for (i, p) in snap.topCPU.enumerated() where i < 3 {
            tooltip.append(i == 0 ? "\\ntop cpu: " : ", ")
            tooltip.append(escaped: p.name, .pangoJSON)
            tooltip.append(UInt8(ascii: " "))
            tooltip.appendFixed(UInt64(p.cpu), scaleDigits: 2, fractionDigits: 1)
            tooltip.append(UInt8(ascii: "%"))
        }
        let w = summary.worst
        let cls: StaticString = summary.urgent ? "urgent" : (w == .critical ? "critical" : (w == .warning ? "warning" : "normal"))
        close(cls, alt: firstAlt ?? cls, percentage: summary.percentage, &line)
    }

    /// Runtime text (a config file's error) as a block.
    mutating func messageBlock(bytes text: [UInt8], first: Bool, _ line: inout ByteWriter) {
        if !first { line.append(escaped: separator, .pangoJSON); tooltip.append("\\n") }
        line.append(escaped: text, .pangoJSON)
        tooltip.append(escaped: text, .pangoJSON)
    }

    /// The message among the clocks, as text and tooltip.
    mutating func messageBlock(_ text: StaticString, first: Bool, _ line: inout ByteWriter) {
        if !first { line.append(escaped: separator, .pangoJSON); tooltip.append("\\n") }
        line.append(escaped: text, .pangoJSON)
        tooltip.append(escaped: text, .pangoJSON)
    }

    /// Closes a line of the message and clocks: class `stale`.
    mutating func endMessage(_ line: inout ByteWriter) {
        close("stale", alt: "stale", percentage: nil, &line)
    }

    /// The message as text and tooltip, class `stale`.
    mutating func message(_ text: StaticString, _ line: inout ByteWriter) {
        line.append(escaped: text, .pangoJSON)
        tooltip.append(escaped: text, .pangoJSON)
        close("stale", alt: "stale", percentage: nil, &line)
    }

    private func close(_ cls: StaticString, alt: StaticString, percentage: UInt64?, _ line: inout ByteWriter) {
        line.append("\",\"alt\":\"")
        line.append(alt)
        line.append("\",\"tooltip\":\"")
        line.append(tooltip)
        line.append("\",\"class\":\"")
        line.append(cls)
        line.append(UInt8(ascii: "\""))
        if let p = percentage {
            line.append(",\"percentage\":")
            line.appendDecimal(p)
        }
        line.append("}\n")
    }
}
