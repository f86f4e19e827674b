// Text in the panel's own bitmap font (assets/font, generated into FontGlyphs.swift).
// Works on UTF-8 bytes: ASCII 0x20...0x7E draws its glyph; anything else (a control
// character, a multi-byte character, an invalid byte) draws the replacement glyph,
// once per character, not once per byte. Drawing clips to the image.

/// The panel's 5×8 bitmap font in a 6×8 cell.
public enum PanelFont {
    /// Advance per character, pixels (at scale 1).
    public static let cellWidth = 6
    /// Line height, pixels (at scale 1).
    public static let cellHeight = 8
    /// Glyph width in pixels; the cell adds one column of space.
    static let glyphWidth = 5
    /// Index of the replacement glyph in ``glyphs``.
    static let replacementIndex = 0x7F - 0x20

    /// The row bits of `row` (0...7) of glyph `index`; bit 4 is the leftmost column.
    @inline(__always)
    static func row(_ index: Int, _ row: Int) -> UInt8 {
        glyphs.utf8Start[index * 8 + row]
    }

    /// Number of characters (glyphs drawn) in UTF-8 `bytes`: a well-formed multi-byte
    /// character counts once, each byte of an ill-formed sequence once.
    public static func characterCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var scanner = GlyphScanner()
        var n = 0
        for b in bytes where scanner.glyph(for: b) != nil { n += 1 }
        return n
    }
}

/// Turns UTF-8 bytes into glyph indices, one per character.
struct GlyphScanner {
    /// Continuation bytes still expected by the current multi-byte character.
    var pending = 0

    /// The glyph to draw for `byte`, or nil when it continues a character already drawn.
    @inline(__always)
    mutating func glyph(for byte: UInt8) -> Int? {
        if byte & 0xC0 == 0x80 && pending > 0 {
            pending -= 1
            return nil
        }
        pending = 0
        if byte >= 0x20 && byte <= 0x7E { return Int(byte) - 0x20 }
        // A lead byte announces its continuation bytes; the character shows as one replacement.
        if byte & 0xE0 == 0xC0 && byte >= 0xC2 { pending = 1 }
        else if byte & 0xF0 == 0xE0 { pending = 2 }
        else if byte & 0xF8 == 0xF0 && byte <= 0xF4 { pending = 3 }
        return PanelFont.replacementIndex
    }
}

extension PanelImage {
    /// Draws UTF-8 `bytes` with the top-left of the first cell at (x, y), each font
    /// pixel as a `scale`×`scale` square. Returns the x after the last character.
    @discardableResult
    public mutating func drawText(_ bytes: UnsafeBufferPointer<UInt8>, x: Int, y: Int, color: PanelColor,
                                  scale: Int = 1) -> Int {
        let s = max(1, scale)
        var scanner = GlyphScanner()
        var cx = x
        for b in bytes {
            guard let index = scanner.glyph(for: b) else { continue }
            // Past the right edge nothing more can show; stop (still a bounded loop).
            if cx >= width { cx += PanelFont.cellWidth * s; continue }
            drawGlyph(index, x: cx, y: y, color: color, scale: s)
            cx += PanelFont.cellWidth * s
        }
        return cx
    }

    /// Draws UTF-8 `bytes` (as the buffer-pointer form does).
    @discardableResult
    public mutating func drawText(_ bytes: [UInt8], x: Int, y: Int, color: PanelColor, scale: Int = 1) -> Int {
        bytes.withUnsafeBufferPointer { drawText($0, x: x, y: y, color: color, scale: scale) }
    }

    /// Draws a literal.
    @discardableResult
    public mutating func drawText(_ text: StaticString, x: Int, y: Int, color: PanelColor, scale: Int = 1) -> Int {
        drawText(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount), x: x, y: y, color: color,
                 scale: scale)
    }

    /// One glyph, clipped to the image.
    mutating func drawGlyph(_ index: Int, x: Int, y: Int, color: PanelColor, scale s: Int) {
        for r in 0..<PanelFont.cellHeight {
            let bits = PanelFont.row(index, r)
            if bits == 0 { continue }
            for c in 0..<PanelFont.glyphWidth where bits & (0x10 >> UInt8(c)) != 0 {
                if s == 1 {
                    set(x: x + c, y: y + r, color)
                } else {
                    fill(PanelRect(x: x + c * s, y: y + r * s, width: s, height: s), color)
                }
            }
        }
    }
}
