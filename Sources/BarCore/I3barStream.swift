// Another program's i3bar stream (`block = "i3bar"`: i3status, i3blocks, a script), read one
// line at a time as it arrives: a header object, the endless array's `[`, then one array
// of blocks per line (`,` before each after the first). Each complete array replaces the
// blocks shown; a line that does not parse is dropped and the last good blocks stay. A
// first line that is no header makes the program a plain-text one, as i3bar itself treats
// it: each line is one block. The child is hostile like any command: every member is
// bounded, nesting is bounded, and only members the outputs understand are kept (colours
// only as `#RRGGBB[AA]`).

/// One block of a wrapped program, as it drew it.
public struct WrappedBlock {
    /// Bytes kept of `name` and `instance` (a click is forwarded with them).
    public static let maximumNameLength = 64

    // Empty until used: a program draws a few short blocks, and each keeps the room its
    // longest text took (no allocation once every block has been drawn once).
    public var name = ByteWriter(capacity: 0)
    public var instance = ByteWriter(capacity: 0)
    public var full = ByteWriter(capacity: 0)
    public var short = ByteWriter(capacity: 0)
    /// `#RRGGBB[AA]` or empty.
    public var color = ByteWriter(capacity: 0)
    public var background = ByteWriter(capacity: 0)
    public var border = ByteWriter(capacity: 0)
    public var urgent = false
    /// `separator: false` (the protocol's default is true).
    public var noSeparator = false
    /// `separator_block_width` in pixels; -1: not given.
    public var separatorBlockWidth: Int32 = -1
    /// `min_width` in pixels (-1: not given), or as a sample text.
    public var minWidth: Int32 = -1
    public var minWidthText = ByteWriter(capacity: 0)
    /// `align`: 0 not given, 1 left, 2 center, 3 right.
    public var align: UInt8 = 0
    /// `markup: "pango"`.
    public var pango = false

    public init() {}

    mutating func reset() {
        name.reset(); instance.reset(); full.reset(); short.reset()
        color.reset(); background.reset(); border.reset(); minWidthText.reset()
        urgent = false; noSeparator = false; separatorBlockWidth = -1; minWidth = -1; align = 0; pango = false
    }
}

/// The state of one wrapped program's output stream.
public struct I3barStream {
    /// Blocks kept of one array (more are dropped).
    public static let maximumBlocks = 24
    /// Bytes of one line read (a longer line is dropped whole by the reader).
    public static let maximumLineLength = 32 * 1024
    /// Objects and arrays nested deeper than this inside a block make the line malformed.
    static let maximumDepth = 8

    enum Phase { case header, body, plain }

    /// The blocks shown: `shown[0..<count]`.
    public private(set) var shown: [WrappedBlock]
    public private(set) var count = 0
    /// The array being read; swapped with ``shown`` when it is complete.
    private var staging: [WrappedBlock]
    private var phase = Phase.header
    private var opened = false
    /// The header asked for click events (`"click_events": true`): clicks are written to its stdin.
    public private(set) var clickEvents = false
    /// Lines dropped as malformed since the program started (shown in no output; for tests).
    public private(set) var malformedLines = 0
    /// A member's key and a short value, while reading (allocated once).
    private var key = ByteWriter(capacity: 32)
    private var text = ByteWriter(capacity: 64)

    public init() {
        shown = []
        staging = []
        shown.reserveCapacity(I3barStream.maximumBlocks)
        staging.reserveCapacity(I3barStream.maximumBlocks)
        for _ in 0..<I3barStream.maximumBlocks {
            shown.append(WrappedBlock())
            staging.append(WrappedBlock())
        }
    }

    /// Past the header and the endless array's `[` (or a program without a header): each line
    /// now stands alone, and a reader may skip to the newest.
    public var isFlowing: Bool { phase == .plain || (phase == .body && opened) }
    /// The program printed no header: its lines are plain text (i3status without
    /// `output_format = "i3bar"` under anything but i3bar).
    public var isPlain: Bool { phase == .plain }

    /// Forgets the program's stream (it was started again): a header comes first.
    public mutating func restart() {
        count = 0
        phase = .header
        opened = false
        clickEvents = false
        malformedLines = 0
    }

    /// The block `name`/`instance` among those shown, if it still is.
    public func index(name: ArraySlice<UInt8>, instance: ArraySlice<UInt8>) -> Int? {
        for i in 0..<count where shown[i].name.bytes.elementsEqual(name) && shown[i].instance.bytes.elementsEqual(instance) {
            return i
        }
        return nil
    }

    /// Reads one line (without its newline). Returns true when the blocks shown changed.
    public mutating func feed(line: UnsafeRawBufferPointer) -> Bool {
        var r = JSONReader(line)
        if phase == .header {
            guard r.peekIs(UInt8(ascii: "{")) else {
                // No header: i3bar shows such a program's lines as text, one block each.
                phase = .plain
                return plainLine(line)
            }
            guard header(&r) else { malformedLines &+= 1; return false }
            phase = .body
        }
        if phase == .plain { return plainLine(line) }
        return body(&r)
    }

    private mutating func plainLine(_ line: UnsafeRawBufferPointer) -> Bool {
        shown[0].reset()
        var end = line.count
        if end > 0 && line[end - 1] == 0x0D { end -= 1 }
        CommandBlockOutput.appendLine(line, 0..<end, to: &shown[0].full)
        count = shown[0].full.isEmpty ? 0 : 1
        return true
    }

    /// `{"version":1,"click_events":true,…}`: only `click_events` matters here.
    private mutating func header(_ r: inout JSONReader) -> Bool {
        guard r.consume(UInt8(ascii: "{")) else { return false }
        if r.consume(UInt8(ascii: "}")) { return true }
        while true {
            key.reset()
            guard r.string(into: &key, limit: 32), r.consume(UInt8(ascii: ":")) else { return false }
            if bytesEqual(key.bytes[...], "click_events") {
                if r.literal("true") { clickEvents = true } else if !r.literal("false") { return false }
            } else if !r.skipValue(depth: I3barStream.maximumDepth) {
                return false
            }
            if r.consume(UInt8(ascii: ",")) { continue }
            return r.consume(UInt8(ascii: "}"))
        }
    }

    /// The rest of a line after the header: the stream's `[`, separating commas, and arrays
    /// of blocks; the last complete array on the line is shown.
    private mutating func body(_ r: inout JSONReader) -> Bool {
        var changed = false
        while true {
            r.skipSpace()
            if r.i >= r.bytes.count { return changed }
            let b = r.bytes[r.i]
            if b == UInt8(ascii: ",") { r.i += 1; continue }
            if b == UInt8(ascii: "]") && opened { r.i += 1; continue }   // the endless array's end
            guard b == UInt8(ascii: "[") else { malformedLines &+= 1; return changed }
            if !opened {
                // The endless array's `[`, unless what follows is already a block.
                var ahead = r
                ahead.i += 1
                if !ahead.peekIs(UInt8(ascii: "{")) && !ahead.peekIs(UInt8(ascii: "]")) {
                    opened = true
                    r.i += 1
                    continue
                }
                opened = true
            }
            guard let n = blocks(&r) else { malformedLines &+= 1; return changed }
            swap(&shown, &staging)
            count = n
            changed = true
        }
    }

    /// One array of block objects into ``staging``; the number kept, or nil when malformed.
    private mutating func blocks(_ r: inout JSONReader) -> Int? {
        guard r.consume(UInt8(ascii: "[")) else { return nil }
        var n = 0
        if r.consume(UInt8(ascii: "]")) { return 0 }
        while true {
            if n < I3barStream.maximumBlocks {
                staging[n].reset()
                guard object(&r, n) else { return nil }
                // A block without text is not drawn by i3bar either.
                if !staging[n].full.isEmpty { n += 1 }
            } else {
                guard r.skipValue(depth: I3barStream.maximumDepth) else { return nil }
            }
            if r.consume(UInt8(ascii: ",")) { continue }
            return r.consume(UInt8(ascii: "]")) ? n : nil
        }
    }

    /// One block object into `staging[n]`; false when malformed.
    private mutating func object(_ r: inout JSONReader, _ n: Int) -> Bool {
        guard r.consume(UInt8(ascii: "{")) else { return false }
        if r.consume(UInt8(ascii: "}")) { return true }
        while true {
            key.reset()
            guard r.string(into: &key, limit: 32), r.consume(UInt8(ascii: ":")) else { return false }
            guard member(&r, n) else { return false }
            if r.consume(UInt8(ascii: ",")) { continue }
            return r.consume(UInt8(ascii: "}"))
        }
    }

    /// The value of member ``key`` of `staging[n]`: kept when the outputs understand it.
    private mutating func member(_ r: inout JSONReader, _ n: Int) -> Bool {
        let k = key.bytes[...]
        if bytesEqual(k, "full_text") {
            staging[n].full.reset()
            return r.string(into: &staging[n].full, limit: CommandBlockOutput.maximumLineLength)
        }
        if bytesEqual(k, "short_text") {
            staging[n].short.reset()
            return r.string(into: &staging[n].short, limit: 256)
        }
        if bytesEqual(k, "name") {
            staging[n].name.reset()
            return r.string(into: &staging[n].name, limit: WrappedBlock.maximumNameLength)
        }
        if bytesEqual(k, "instance") {
            staging[n].instance.reset()
            return r.string(into: &staging[n].instance, limit: WrappedBlock.maximumNameLength)
        }
        if bytesEqual(k, "color") || bytesEqual(k, "background") || bytesEqual(k, "border") {
            text.reset()
            guard r.string(into: &text, limit: 16) else { return false }
            guard text.bytes.withUnsafeBytes({ Theme.isColor($0) }) else { return true }
            if bytesEqual(k, "color") { staging[n].color.reset(); staging[n].color.append(text) }
            else if bytesEqual(k, "background") { staging[n].background.reset(); staging[n].background.append(text) }
            else { staging[n].border.reset(); staging[n].border.append(text) }
            return true
        }
        if bytesEqual(k, "urgent") || bytesEqual(k, "separator") {
            let value: Bool
            if r.literal("true") { value = true } else if r.literal("false") { value = false } else { return false }
            if bytesEqual(k, "urgent") { staging[n].urgent = value } else { staging[n].noSeparator = !value }
            return true
        }
        if bytesEqual(k, "separator_block_width") {
            guard let width = r.integer() else { return false }
            staging[n].separatorBlockWidth = max(0, width)
            return true
        }
        if bytesEqual(k, "min_width") {
            if r.peekIs(UInt8(ascii: "\"")) {
                staging[n].minWidthText.reset()
                return r.string(into: &staging[n].minWidthText, limit: 64)
            }
            guard let width = r.integer() else { return false }
            staging[n].minWidth = max(0, width)
            return true
        }
        if bytesEqual(k, "align") || bytesEqual(k, "markup") {
            text.reset()
            guard r.string(into: &text, limit: 16) else { return false }
            let t = text.bytes[...]
            if bytesEqual(k, "markup") { staging[n].pango = bytesEqual(t, "pango") }
            else if bytesEqual(t, "left") { staging[n].align = 1 }
            else if bytesEqual(t, "center") { staging[n].align = 2 }
            else if bytesEqual(t, "right") { staging[n].align = 3 }
            return true
        }
        return r.skipValue(depth: I3barStream.maximumDepth)
    }
}

extension JSONReader {
    /// Skips one JSON value of any kind, nested at most `depth` deep; false when malformed.
    mutating func skipValue(depth: Int) -> Bool {
        if peekIs(UInt8(ascii: "\"")) {
            var sink = ByteWriter(capacity: 0)
            return string(into: &sink, limit: 0)
        }
        if peekIs(UInt8(ascii: "[")) || peekIs(UInt8(ascii: "{")) {
            guard depth > 0 else { return false }
            let object = bytes[i] == UInt8(ascii: "{")
            let close = object ? UInt8(ascii: "}") : UInt8(ascii: "]")
            i += 1
            if consume(close) { return true }
            while true {
                if object {
                    var sink = ByteWriter(capacity: 0)
                    guard string(into: &sink, limit: 0), consume(UInt8(ascii: ":")) else { return false }
                }
                guard skipValue(depth: depth - 1) else { return false }
                if consume(UInt8(ascii: ",")) { continue }
                return consume(close)
            }
        }
        return literal("true") || literal("false") || literal("null") || number()
    }

    /// A whole number within ±2^31 (larger ones saturate); nil when none is here.
    mutating func integer() -> Int32? {
        skipSpace()
        var negative = false
        if i < bytes.count && bytes[i] == UInt8(ascii: "-") { negative = true; i += 1 }
        var value: Int64 = 0, digits = 0
        while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 {
            value = min(value * 10 + Int64(bytes[i] - 48), Int64(Int32.max))
            digits += 1
            i += 1
        }
        guard digits > 0 else { return nil }
        // A fraction or exponent: the whole part is kept.
        _ = number()
        return Int32(negative ? -value : value)
    }
}
