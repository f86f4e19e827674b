// Escaping of hostile text for each output. Process names reach the bar: a
// name may hold quotes, backslashes, control characters, markup or invalid
// UTF-8 (the sampler sanitizes names, but the renderer does not rely on it).

/// How text is escaped on its way into an output.
public enum TextEscape: Sendable {
    /// Plain text: valid UTF-8 kept, control characters become spaces.
    case plain
    /// Inside a JSON string: `"`, `\` and every control character escaped.
    case json
    /// Pango markup inside a JSON string (waybar parses `text` as markup):
    /// `&`, `<`, `>`, `'`, `"` become entities, then JSON escaping.
    case pangoJSON
    /// Pango markup on its own (xfce4-genmon-plugin's `<txt>` and `<tool>`): `&`, `<`,
    /// `>`, `'`, `"` become entities, control characters become spaces.
    case pango
}

/// Length of the valid UTF-8 sequence starting at `i`, or 0 when the byte there
/// does not start one (overlong forms, surrogates and values above U+10FFFF are invalid).
@inline(__always)
func utf8SequenceLength(_ s: [UInt8], _ i: Int) -> Int {
    let b0 = s[i]
    if b0 < 0x80 { return 1 }
    let n = s.count - i
    @inline(__always) func cont(_ k: Int) -> Bool { k < n && s[i + k] & 0xC0 == 0x80 }
    switch b0 {
    case 0xC2...0xDF:
        return cont(1) ? 2 : 0
    case 0xE0:
        return n > 2 && (0xA0...0xBF).contains(s[i + 1]) && cont(2) ? 3 : 0
    case 0xE1...0xEC, 0xEE...0xEF:
        return cont(1) && cont(2) ? 3 : 0
    case 0xED:
        return n > 2 && (0x80...0x9F).contains(s[i + 1]) && cont(2) ? 3 : 0
    case 0xF0:
        return n > 3 && (0x90...0xBF).contains(s[i + 1]) && cont(2) && cont(3) ? 4 : 0
    case 0xF1...0xF3:
        return cont(1) && cont(2) && cont(3) ? 4 : 0
    case 0xF4:
        return n > 3 && (0x80...0x8F).contains(s[i + 1]) && cont(2) && cont(3) ? 4 : 0
    default:
        return 0
    }
}

/// The value of the valid `len`-byte UTF-8 sequence at `i`.
@inline(__always)
func utf8Value(_ s: [UInt8], _ i: Int, _ len: Int) -> UInt32 {
    var value = UInt32(s[i] & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07))
    for k in 1..<len { value = value << 6 | UInt32(s[i + k] & 0x3F) }
    return value
}

/// Characters that show nothing but can reorder, join or hide the text around them:
/// bidi embeddings, overrides, isolates and marks (U+202A–U+202E, U+2066–U+2069,
/// U+200E, U+200F, U+061C), zero-width characters, line and paragraph separators, tag
/// characters and the other invisible format characters. Every output drops them: a
/// process could otherwise turn a bar's text or a tooltip around. (The CLI's TerminalText
/// shows the same characters as `\u{…}`; this module cannot import it.)
func isInvisibleFormat(_ value: UInt32) -> Bool {
    switch value {
    case 0xAD, 0x600...0x605, 0x61C, 0x6DD, 0x70F, 0x890...0x891, 0x8E2, 0x180E,
         0x200B...0x200F, 0x2028...0x202E, 0x2060...0x206F, 0xFEFF, 0xFFF9...0xFFFB,
         0x110BD, 0x110CD, 0x13430...0x1343F, 0x1BCA0...0x1BCA3, 0x1D173...0x1D17A, 0xE0000...0xE007F:
        return true
    default:
        return false
    }
}

extension ByteWriter {
    /// Appends `text` escaped for `mode`; each byte that is not part of valid
    /// UTF-8 becomes U+FFFD, a C1 control is a control character, and invisible format
    /// characters (``isInvisibleFormat(_:)``) are dropped.
    public mutating func append(escaped text: [UInt8], _ mode: TextEscape) {
        var i = 0
        while i < text.count {
            let len = utf8SequenceLength(text, i)
            if len == 0 {
                append(0xEF); append(0xBF); append(0xBD)
                i += 1
                continue
            }
            if len > 1 {
                let value = utf8Value(text, i, len)
                if value < 0xA0 {   // a C1 control (U+0080–U+009F, e.g. the one-byte CSI) is a control character
                    if mode == .plain || mode == .pango {
                        append(0x20)
                    } else {
                        append("\\u00")
                        append(hexDigit(UInt8(value >> 4)))
                        append(hexDigit(UInt8(value & 0xF)))
                    }
                } else if !isInvisibleFormat(value) {
                    for k in 0..<len { append(text[i + k]) }
                }
                i += len
                continue
            }
            appendEscapedASCII(text[i], mode)
            i += 1
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
        let isControl = b < 0x20 || b == 0x7F
        if mode == .plain || mode == .pango {
            append(isControl ? 0x20 : b)
            return
        }
        switch b {
        case UInt8(ascii: "\""): append("\\\"")
        case UInt8(ascii: "\\"): append("\\\\")
        case 0x0A: append("\\n")
        case 0x0D: append("\\r")
        case 0x09: append("\\t")
        case 0x08: append("\\b")
        case 0x0C: append("\\f")
        default:
            if isControl {
                append("\\u00")
                append(hexDigit(b >> 4))
                append(hexDigit(b & 0xF))
            } else {
                append(b)
            }
        }
    }
}

@inline(__always)
func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? 48 + v : 87 + v }
