// What a command block's command printed, turned into a block's values. The conventions are
// i3blocks': the first line is the full text, the second the short text, the third a colour;
// exit status 33 sets the urgent flag. A first line that is a JSON object is read as one
// instead (`full_text`, `short_text`, `color`, `urgent`), like i3blocks' `format=json` and
// i3bar's own blocks. Command output is hostile: only the first 1 KiB of each line is kept,
// a colour is kept only when it is `#RRGGBB[AA]`, and the outputs escape the text like any other.

#if hasFeature(Embedded)
import UTF8TextEmbedded
#else
import UTF8Text
#endif

/// Parses command output into block values.
public enum CommandBlockOutput {
    /// A command's block: the renderer runs the command and shows what it printed.
    static let descriptor = BlockDescriptor(
        name: "command", label: "cmd", section: [], source: .command, placeholders: [],
        helpNote: "its command's output (config file only)", render: nil)

    /// Bytes kept of a line (more are dropped).
    public static let maximumLineLength = 1024

    /// Fills `v` from `output` (everything the command printed: a whole run, or one line of
    /// a persistent command) and its exit status (0 for a persistent command's line), as
    /// i3blocks reads it: lines (full text, short text, colour), or with `json` one JSON
    /// object. Exit status 33 makes the block urgent; any other is shown as it printed (a
    /// run that printed nothing shows nothing: the block is hidden).
    public static func parse(_ output: UnsafeRawBufferPointer, exitStatus: Int32, json: Bool = false, into v: inout BlockValue) {
        v.reset()
        var lines = LineCursor(output)
        if json {
            while let line = lines.next() {
                guard let start = firstNonSpace(output, line) else { continue }
                parseJSON(UnsafeRawBufferPointer(rebasing: output[start..<line.upperBound]), into: &v)
                break
            }
        } else {
            if let first = lines.next() { appendLine(output, first, to: &v.full) }
            if let second = lines.next() { appendLine(output, second, to: &v.short) }
            if let third = lines.next() { setColor(UnsafeRawBufferPointer(rebasing: output[third]), into: &v) }
        }
        if exitStatus == 33 { v.urgent = true }
        if v.full.isEmpty { v.visible = false }
    }

    /// The ranges of the lines of `bytes`, without their `\n` (and a `\r` before it).
    struct LineCursor {
        let bytes: UnsafeRawBufferPointer
        var position = 0
        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        mutating func next() -> Range<Int>? {
            guard position < bytes.count else { return nil }
            let start = position
            while position < bytes.count && bytes[position] != 0x0A { position += 1 }
            var end = position
            if position < bytes.count { position += 1 }
            if end > start && bytes[end - 1] == 0x0D { end -= 1 }
            return start..<end
        }
    }

    static func appendLine(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, to w: inout ByteWriter) {
        var end = min(range.upperBound, range.lowerBound + maximumLineLength)
        // Cut on a character boundary: never leave half a UTF-8 sequence.
        if end < range.upperBound { while end > range.lowerBound && bytes[end] & 0xC0 == 0x80 { end -= 1 } }
        for i in range.lowerBound..<end { w.append(bytes[i]) }
    }

    static func firstNonSpace(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int? {
        var i = range.lowerBound
        while i < range.upperBound && (bytes[i] == 0x20 || bytes[i] == 0x09) { i += 1 }
        return i < range.upperBound ? i : nil
    }

    static func setColor(_ text: UnsafeRawBufferPointer, into v: inout BlockValue) {
        guard Theme.isColor(text) else { return }
        v.color.reset()
        for b in text { v.color.append(b) }
    }

    /// A flat JSON object: the known members are read, others skipped; anything malformed
    /// stops the reading (what was read stays).
    static func parseJSON(_ bytes: UnsafeRawBufferPointer, into v: inout BlockValue) {
        forEachMember(bytes) { key, value, isString in
            if isString && bytesEqual(key, "full_text") { v.full.reset(); for b in value { v.full.append(b) } }
            else if isString && bytesEqual(key, "short_text") { v.short.reset(); for b in value { v.short.append(b) } }
            else if isString && bytesEqual(key, "color") { value.withUnsafeBytes { setColor($0, into: &v) } }
            else if bytesEqual(key, "urgent") && bytesEqual(value, "true") { v.urgent = true }
        }
    }

    /// Calls `body` with each member of a flat JSON object, in order: its key, its value's
    /// text (a string's decoded bytes, a number's or a literal's own text) and whether it was
    /// a string. Stops at anything malformed or nested; keys over 64 bytes and values over
    /// ``maximumLineLength`` end it too.
    public static func forEachMember(_ bytes: UnsafeRawBufferPointer,
                                     _ body: (ArraySlice<UInt8>, ArraySlice<UInt8>, Bool) -> Void) {
        var r = JSONReader(bytes)
        guard r.consume(UInt8(ascii: "{")) else { return }
        var key = ByteWriter(capacity: 64)
        var value = ByteWriter(capacity: maximumLineLength)
        if r.consume(UInt8(ascii: "}")) { return }
        while true {
            key.reset()
            value.reset()
            guard r.string(into: &key, limit: 64), r.consume(UInt8(ascii: ":")) else { return }
            var isString = false
            if r.peekIs(UInt8(ascii: "\"")) {
                guard r.string(into: &value, limit: maximumLineLength) else { return }
                isString = true
            } else {
                r.skipSpace()
                let start = r.i
                guard r.literal("true") || r.literal("false") || r.literal("null") || r.number() else { return }
                for k in start..<r.i { value.append(bytes[k]) }
            }
            body(key.bytes[...], value.bytes[...], isString)
            if r.consume(UInt8(ascii: ",")) { continue }
            return
        }
    }
}

/// Reads JSON tokens from bytes, bounded: never past the end, never more than the limits.
struct JSONReader {
    let bytes: UnsafeRawBufferPointer
    var i = 0
    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    mutating func skipSpace() {
        while i < bytes.count && (bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D) { i += 1 }
    }

    mutating func peekIs(_ b: UInt8) -> Bool { skipSpace(); return i < bytes.count && bytes[i] == b }

    mutating func consume(_ b: UInt8) -> Bool {
        guard peekIs(b) else { return false }
        i += 1
        return true
    }

    mutating func literal(_ word: StaticString) -> Bool {
        skipSpace()
        let n = word.utf8CodeUnitCount
        guard bytes.count - i >= n else { return false }
        for k in 0..<n where bytes[i + k] != word.utf8Start[k] { return false }
        i += n
        return true
    }

    mutating func number() -> Bool {
        skipSpace()
        let start = i
        while i < bytes.count, "+-0123456789.eE".utf8.contains(bytes[i]) { i += 1 }
        return i > start
    }

    /// A string into `out` (its escapes decoded, at most `limit` bytes kept); false when malformed.
    mutating func string(into out: inout ByteWriter, limit: Int) -> Bool {
        guard consume(UInt8(ascii: "\"")) else { return false }
        // Once the bound refuses a byte nothing more is kept, and a character it cut is dropped.
        var full = false
        while i < bytes.count {
            let b = bytes[i]
            i += 1
            if b == UInt8(ascii: "\"") {
                if full { out.dropIncompleteCharacter() }
                return true
            }
            if b != UInt8(ascii: "\\") {
                if full || out.count >= limit { full = true } else { out.append(b) }
                continue
            }
            guard i < bytes.count else { return false }
            let e = bytes[i]
            i += 1
            var scalar: UInt32
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalar = UInt32(e)
            case UInt8(ascii: "b"): scalar = 8
            case UInt8(ascii: "f"): scalar = 12
            case UInt8(ascii: "n"): scalar = 10
            case UInt8(ascii: "r"): scalar = 13
            case UInt8(ascii: "t"): scalar = 9
            case UInt8(ascii: "u"):
                guard let high = hex4() else { return false }
                scalar = high
                if high >= 0xD800 && high <= 0xDBFF {
                    // A surrogate pair, or U+FFFD for a lone half.
                    if bytes.count - i >= 6, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") {
                        i += 2
                        guard let low = hex4() else { return false }
                        scalar = low >= 0xDC00 && low <= 0xDFFF ? 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00) : 0xFFFD
                    } else {
                        scalar = 0xFFFD
                    }
                } else if high >= 0xDC00 && high <= 0xDFFF {
                    scalar = 0xFFFD
                }
            default: return false
            }
            if !full { appendScalar(scalar, to: &out, limit: limit) }
        }
        return false
    }

    mutating func hex4() -> UInt32? {
        guard bytes.count - i >= 4 else { return nil }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let d: UInt32
            switch b {
            case 48...57: d = UInt32(b - 48)
            case 65...70: d = UInt32(b - 55)
            case 97...102: d = UInt32(b - 87)
            default: return nil
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    func appendScalar(_ s: UInt32, to out: inout ByteWriter, limit: Int) {
        guard out.count + UTF8Text.encodedLength(s) <= limit else { return }
        out.append(scalar: s)
    }
}
