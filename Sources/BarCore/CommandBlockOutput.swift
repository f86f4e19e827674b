// What a command block's command printed, turned into a block's values. The conventions are
// i3blocks 1.5's: each line is the next of i3bar's block keys (full text, short text, colour,
// background, border, min_width, align, name, instance, urgent, separator,
// separator_block_width, markup, border_top, border_bottom, border_left, border_right; more
// lines are ignored); exit status 33 sets the urgent flag. With `format = "json"` the first
// line is one JSON object, whose i3bar members are read the same way. Command output is
// hostile: only the first 1 KiB of each line is kept, a colour is kept only when it is
// `#RRGGBB[AA]`, other values are written back escaped (a number or literal only where
// i3bar takes one), and the outputs escape the text like any other.

import UTF8Text

/// Parses command output into block values.
public enum CommandBlockOutput {
    /// A command's block: the renderer runs the command and shows what it printed.
    static let descriptor = BlockDescriptor(
        name: "command", label: "cmd", section: [], source: .command, placeholders: [],
        helpNote: "its command's output (config file only)", render: nil)

    /// Bytes kept of a line (more are dropped).
    public static let maximumLineLength = 1024
    /// Bytes kept of a value other than the texts (a width, an alignment, a colour).
    static let maximumMemberLength = 256

    /// i3bar's block keys in the order i3blocks 1.5 takes a run's lines for them, and
    /// whether i3bar takes each as a string (else a number or `true`/`false`, given as is).
    public static let i3barKeys: [(key: StaticString, string: Bool)] = [
        ("full_text", true), ("short_text", true), ("color", true), ("background", true), ("border", true),
        ("min_width", false), ("align", true), ("name", true), ("instance", true), ("urgent", false),
        ("separator", false), ("separator_block_width", false), ("markup", true),
        ("border_top", false), ("border_bottom", false), ("border_left", false), ("border_right", false),
    ]
    static let fullText = 0, shortText = 1, color = 2, name = 7, instance = 8, urgent = 9, markup = 12

    /// Fills `v` from `output` (everything the command printed: a whole run, or one line of
    /// a persistent command) and its exit status (0 for a persistent command's line), as
    /// i3blocks 1.5 reads it: lines, or with `json` one JSON object. ``BlockValue/given``
    /// says which keys the output gave (an empty line gives an empty value: an empty full
    /// text is a block still shown, as i3blocks shows it). Exit status 33 makes the block
    /// urgent; any other is shown as it printed. A run that printed no full text is hidden
    /// (unless its config gives one).
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
            var k = 0
            while k < i3barKeys.count, let line = lines.next() {
                set(k, UnsafeRawBufferPointer(rebasing: output[line]), into: &v)
                k += 1
            }
        }
        if exitStatus == 33 { v.urgent = true }
        v.visible = v.gave(fullText)
    }

    /// The index in ``i3barKeys`` of `key`; nil for another key.
    static func keyIndex<Bytes: Collection>(_ key: Bytes) -> Int? where Bytes.Element == UInt8 {
        for (k, entry) in i3barKeys.enumerated() where bytesEqual(key, entry.key) { return k }
        return nil
    }

    /// The index in ``i3barKeys`` of the key of `member` (`"key":value`); nil for another key.
    public static func memberKeyIndex(_ member: [UInt8]) -> Int? {
        guard member.first == UInt8(ascii: "\""), let close = member.dropFirst().firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return keyIndex(member[1..<close])
    }

    /// Sets key `k` of ``i3barKeys`` to `value` (a line, or a JSON member's decoded value).
    /// The block's own name and instance stay (clicks come back with them).
    static func set(_ k: Int, _ value: UnsafeRawBufferPointer, into v: inout BlockValue) {
        switch k {
        case fullText:
            v.full.reset(); appendLine(value, 0..<value.count, to: &v.full)
        case shortText:
            v.short.reset(); appendLine(value, 0..<value.count, to: &v.short)
        case color, 3, 4:
            guard Theme.isColor(value) else { return }
            if k == color { v.color.reset(); for b in value { v.color.append(b) } } else { appendMember(k, value, into: &v) }
        case name, instance:
            return
        case urgent:
            v.urgent = bytesEqual(value, "true")
        default:
            if k == markup { v.pango = bytesEqual(value, "pango") }
            appendMember(k, value, into: &v)
        }
        v.given |= 1 << UInt32(k)
    }

    /// `,"key":value` into ``BlockValue/members``: a string key's value as a JSON string;
    /// another's as it is when it is a JSON number or literal, else as a string (i3blocks 1.5).
    static func appendMember(_ k: Int, _ value: UnsafeRawBufferPointer, into v: inout BlockValue) {
        let kept = UnsafeRawBufferPointer(rebasing: value[0..<min(value.count, maximumMemberLength)])
        v.members.append(",\"")
        v.members.append(i3barKeys[k].key)
        v.members.append("\":")
        if !i3barKeys[k].string && isJSONScalar(kept) {
            for b in kept { v.members.append(b) }
        } else {
            v.members.append(UInt8(ascii: "\""))
            v.members.append(escaped: kept, .json)
            v.members.append(UInt8(ascii: "\""))
        }
    }

    /// Whether `text` is a JSON number (RFC 8259: `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`),
    /// `true`, `false` or `null`, whole.
    static func isJSONScalar(_ text: UnsafeRawBufferPointer) -> Bool {
        if bytesEqual(text, "true") || bytesEqual(text, "false") || bytesEqual(text, "null") { return true }
        var i = 0
        func digits() -> Int {
            let start = i
            while i < text.count && text[i] >= 0x30 && text[i] <= 0x39 { i += 1 }
            return i - start
        }
        if i < text.count && text[i] == UInt8(ascii: "-") { i += 1 }
        let whole = i
        guard digits() > 0, !(text[whole] == 0x30 && i - whole > 1) else { return false }
        if i < text.count && text[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { return false }
        }
        if i < text.count && (text[i] == UInt8(ascii: "e") || text[i] == UInt8(ascii: "E")) {
            i += 1
            if i < text.count && (text[i] == UInt8(ascii: "+") || text[i] == UInt8(ascii: "-")) { i += 1 }
            guard digits() > 0 else { return false }
        }
        return i == text.count
    }

    /// The command a shell's message says it did not find: `sh: 1: jq: not found` (dash),
    /// `./cpu: line 3: jq: command not found` (bash), `zsh:1: command not found: jq`; nil
    /// for another message. Only a short printable name (at most 64 bytes) is taken.
    public static func commandNotFound(_ line: [UInt8]) -> ArraySlice<UInt8>? {
        var name: ArraySlice<UInt8>
        if let end = suffixStart(line, ": command not found") ?? suffixStart(line, ": not found") {
            var start = end
            while start > 1 && !(line[start - 2] == UInt8(ascii: ":") && line[start - 1] == 0x20) { start -= 1 }
            name = line[(start > 1 ? start : 0)..<end]
        } else if let marker = firstRange(line, "command not found: ") {
            name = line[marker.upperBound...]
        } else {
            return nil
        }
        guard !name.isEmpty, name.count <= 64, name.allSatisfy({ $0 >= 0x20 && $0 != 0x7F }) else { return nil }
        return name
    }

    static func suffixStart(_ line: [UInt8], _ suffix: StaticString) -> Int? {
        let n = suffix.utf8CodeUnitCount
        guard line.count > n, bytesEqual(line[(line.count - n)...], suffix) else { return nil }
        return line.count - n
    }

    static func firstRange(_ line: [UInt8], _ word: StaticString) -> Range<Int>? {
        let n = word.utf8CodeUnitCount
        guard line.count >= n else { return nil }
        for start in 0...(line.count - n) where bytesEqual(line[start..<(start + n)], word) { return start..<(start + n) }
        return nil
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

    /// A flat JSON object: its i3bar members are read (``set(_:_:into:)``), others skipped
    /// (they come back to the next run); anything malformed stops the reading (what was
    /// read stays). waybar's and i3status-rust's scripts write their text as `text`: it is
    /// the full text where no `full_text` is given.
    static func parseJSON(_ bytes: UnsafeRawBufferPointer, into v: inout BlockValue) {
        var fullTextGiven = false
        forEachMember(bytes) { key, value, _ in
            if let k = keyIndex(key) {
                if k == fullText { fullTextGiven = true }
                value.withUnsafeBytes { set(k, $0, into: &v) }
            } else if bytesEqual(key, "text"), !fullTextGiven {
                value.withUnsafeBytes { set(fullText, $0, into: &v) }
            }
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
