// Escaping of hostile text for each output. Process names reach the bar: a
// name may hold quotes, backslashes, control characters, markup or invalid
// UTF-8 (the sampler sanitizes names, but the renderer does not rely on it).
// The UTF-8 decoding and the table of invisible characters are UTF8Text's, shared with
// the sampler and the CLI.

import UTF8Text

/// How text is escaped on its way into an output. In every mode a control character (C0,
/// DEL, C1) becomes a space and an invisible format character is dropped, whatever the
/// text's source (a process name, a command's output, a wrapped program's JSON, the
/// theme's separator): a NUL that reached i3bar or waybar, even as `\u0000`, would end the
/// string for Pango and hide every block after it.
public enum TextEscape: Sendable {
    /// Plain text: valid UTF-8 kept, control characters become spaces.
    case plain
    /// Inside a JSON string: `"` and `\` escaped.
    case json
    /// Pango markup inside a JSON string (waybar parses `text` as markup):
    /// `&`, `<`, `>`, `'`, `"` become entities, then JSON escaping.
    case pangoJSON
    /// Pango markup on its own (xfce4-genmon-plugin's `<txt>` and `<tool>`): `&`, `<`,
    /// `>`, `'`, `"` become entities, control characters become spaces.
    case pango
    /// Plain text for tmux's `#()`: `#` doubled (tmux expands formats in a command's output).
    case tmux
    /// Plain text for lemonbar: `%` doubled (`%{…}` is a lemonbar command).
    case lemonbar
    /// Plain text for polybar: a `{` after a `%` preceded by a space (polybar has no escape).
    case polybar

    /// Outside a JSON string.
    var isPlainText: Bool { self != .json && self != .pangoJSON }
}

extension ByteWriter {
    /// Appends `text` escaped for `mode`; each byte that is not part of valid
    /// UTF-8 becomes U+FFFD, a C1 control is a control character, and invisible format
    /// characters (`UTF8Text.isInvisibleFormat`) are dropped.
    public mutating func append(escaped text: [UInt8], _ mode: TextEscape) {
        text.withUnsafeBytes { append(escaped: $0, mode) }
    }

    /// The same over raw bytes.
    public mutating func append(escaped text: UnsafeRawBufferPointer, _ mode: TextEscape) {
        guard let base = text.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        var i = 0
        while i < text.count {
            // A run of printable ASCII that no mode changes is copied at once (most text is).
            var end = i
            while end < text.count && Self.passesEveryMode(base[end]) { end += 1 }
            if end > i {
                append(run: UnsafeBufferPointer(start: base + i, count: end - i))
                i = end
                if i == text.count { break }
            }
            let decoded = UTF8Text.decode(text, at: i)
            if !decoded.isValid {
                append(0xEF); append(0xBF); append(0xBD)
                i += 1
                continue
            }
            let len = decoded.length
            if len > 1 {
                let value = decoded.value
                if value < 0xA0 {   // a C1 control (U+0080–U+009F, e.g. the one-byte CSI) is a control character
                    append(0x20)
                } else if !UTF8Text.isInvisibleFormat(value) {
                    for k in 0..<len { append(text[i + k]) }
                }
                i += len
                continue
            }
            appendEscapedASCII(text[i], mode)
            i += 1
        }
    }

    /// Printable ASCII that every mode writes as it is: not a control, and none of the
    /// characters some mode escapes (`"` `\` for JSON, `&` `<` `>` `'` for Pango, `#` for
    /// tmux, `%` for lemonbar, `{` for polybar); those take the byte-at-a-time path.
    @inline(__always)
    static func passesEveryMode(_ b: UInt8) -> Bool {
        guard b >= 0x20 && b < 0x7F else { return false }
        switch b {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"),
             UInt8(ascii: "'"), UInt8(ascii: "#"), UInt8(ascii: "%"), UInt8(ascii: "{"):
            return false
        default:
            return true
        }
    }

    /// Appends one of the program's own messages escaped for `mode`: they are valid UTF-8,
    /// but a decoder's message may hold a quote (`expected "SYSSTATS"`), which must not end
    /// a JSON string, and a path-like text may hold `<` or `&` for Pango.
    public mutating func append(escaped message: StaticString, _ mode: TextEscape) {
        let p = message.utf8Start
        for i in 0..<message.utf8CodeUnitCount {
            let b = p[i]
            if b < 0x80 { appendEscapedASCII(b, mode) } else { append(b) }
        }
    }

    /// Appends one ASCII byte escaped for `mode`.
    @inline(__always)
    mutating func appendEscapedASCII(_ b: UInt8, _ mode: TextEscape) {
        if mode == .pangoJSON || mode == .pango {
            switch b {
            case UInt8(ascii: "&"): append("&amp;"); return
            case UInt8(ascii: "<"): append("&lt;"); return
            case UInt8(ascii: ">"): append("&gt;"); return
            case UInt8(ascii: "'"): append("&#39;"); return
            case UInt8(ascii: "\""): append("&quot;"); return
            default: break
            }
        }
        if b < 0x20 || b == 0x7F { append(0x20); return }
        if mode.isPlainText {
            switch mode {
            case .tmux where b == UInt8(ascii: "#"): append(b)
            case .lemonbar where b == UInt8(ascii: "%"): append(b)
            case .polybar where b == UInt8(ascii: "{") && bytes.last == UInt8(ascii: "%"): append(0x20)
            default: break
            }
            append(b)
            return
        }
        switch b {
        case UInt8(ascii: "\""): append("\\\"")
        case UInt8(ascii: "\\"): append("\\\\")
        default: append(b)
        }
    }
}
