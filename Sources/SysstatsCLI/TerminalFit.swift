/// Fitting a line to a terminal row: how many columns text takes, and cutting it to a
/// width on a character boundary. The text reaching it has no control characters (the
/// report's hostile parts went through TerminalText), so there is no escape sequence to
/// cut into; a character is a grapheme cluster, never split.
public enum TerminalFit {
    /// The widest line `report --watch` draws on a terminal `columns` wide: one column
    /// less, so the cursor never sits past the last column (where some terminals wrap at
    /// once). 79 when the width is unknown (80 columns assumed); at least 1.
    public static func lineWidth(columns: Int?) -> Int {
        max((columns ?? 80) - 1, 1)
    }

    /// `text` when it fits in `columns`; otherwise its first characters and `…`, together at
    /// most `columns` wide.
    public static func cut(_ text: String, toColumns columns: Int) -> String {
        if width(of: text) <= columns { return text }
        guard columns >= 1 else { return "" }
        var out = ""
        var used = 0
        for character in text {
            let w = width(of: character)
            if used + w > columns - 1 { break }   // room for the ellipsis
            out.append(character)
            used += w
        }
        return out + "…"
    }

    /// Columns a terminal gives `text`.
    public static func width(of text: String) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }

    /// Columns of one character: 2 for East Asian wide and fullwidth characters and emoji
    /// shown as emoji, 0 for combining marks and invisible format characters alone, else 1.
    public static func width(of character: Character) -> Int {
        var widest = 0
        for scalar in character.unicodeScalars { widest = max(widest, width(of: scalar)) }
        return widest
    }

    static func width(of scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
        ]
        return wide.contains { $0.contains(v) } ? 2 : 1
    }
}
