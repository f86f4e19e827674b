// UTF-8 at the byte level, for every program of the project: the sampler's name
// sanitiser, the renderer's escaping (compiled twice, as UTF8TextEmbedded for the Embedded
// renderer), the bookmarks' and the CLI's terminal escaping. No String, no Unicode tables,
// no dependency: explicit ranges only.

/// One decoded position in a byte sequence: a scalar and the bytes it took.
public struct UTF8Scalar: Equatable, Sendable {
    /// The scalar, or U+FFFD for an invalid subsequence.
    public var value: UInt32
    /// Bytes consumed: the sequence's length (1...4), or for an invalid subsequence the
    /// length of its maximal subpart (the Unicode standard's practice for replacement).
    public var length: Int
    /// False for an invalid subsequence (bad lead byte, missing or wrong continuation,
    /// overlong form, surrogate, above U+10FFFF).
    public var isValid: Bool

    @inlinable
    public init(value: UInt32, length: Int, isValid: Bool) {
        self.value = value; self.length = length; self.isValid = isValid
    }
}

public enum UTF8Text {
    /// The replacement character.
    public static let replacement: UInt32 = 0xFFFD

    /// Decodes the scalar starting at `start` (which must be inside `bytes`).
    @inlinable
    public static func decode(_ bytes: UnsafeRawBufferPointer, at start: Int) -> UTF8Scalar {
        let lead = bytes[start]
        if lead < 0x80 { return UTF8Scalar(value: UInt32(lead), length: 1, isValid: true) }
        // Continuation count, the allowed range of the first continuation byte (it excludes
        // overlongs, surrogates and values above U+10FFFF), and the lead's bits.
        let count: Int, low: UInt8, high: UInt8, bits: UInt32
        switch lead {
        case 0xC2...0xDF: (count, low, high, bits) = (1, 0x80, 0xBF, UInt32(lead & 0x1F))
        case 0xE0: (count, low, high, bits) = (2, 0xA0, 0xBF, 0)
        case 0xE1...0xEC, 0xEE...0xEF: (count, low, high, bits) = (2, 0x80, 0xBF, UInt32(lead & 0x0F))
        case 0xED: (count, low, high, bits) = (2, 0x80, 0x9F, 0x0D)
        case 0xF0: (count, low, high, bits) = (3, 0x90, 0xBF, 0)
        case 0xF1...0xF3: (count, low, high, bits) = (3, 0x80, 0xBF, UInt32(lead & 0x07))
        case 0xF4: (count, low, high, bits) = (3, 0x80, 0x8F, 0x04)
        default: return UTF8Scalar(value: replacement, length: 1, isValid: false)   // 0x80...0xC1, 0xF5...0xFF
        }
        var value = bits
        var i = start + 1
        for n in 0..<count {
            guard i < bytes.count else { return UTF8Scalar(value: replacement, length: i - start, isValid: false) }
            let byte = bytes[i]
            let ok = n == 0 ? (byte >= low && byte <= high) : (byte >= 0x80 && byte <= 0xBF)
            // Resume at the offending byte: the maximal subpart ends before it.
            guard ok else { return UTF8Scalar(value: replacement, length: i - start, isValid: false) }
            value = value << 6 | UInt32(byte & 0x3F)
            i += 1
        }
        return UTF8Scalar(value: value, length: count + 1, isValid: true)
    }

    /// The length of the well-formed sequence at `start` (1...4), or 0 when there is none.
    @inlinable
    public static func sequenceLength(_ bytes: UnsafeRawBufferPointer, at start: Int) -> Int {
        let s = decode(bytes, at: start)
        return s.isValid ? s.length : 0
    }

    /// The C0 controls, DEL and the C1 controls U+0080...U+009F (U+009B is a one-byte CSI).
    @inlinable
    public static func isControl(_ value: UInt32) -> Bool {
        value < 0x20 || (value >= 0x7F && value <= 0x9F)
    }

    /// Characters that show nothing but can reorder, join or hide the text around them:
    /// bidi embeddings, overrides, isolates and marks (U+202A–U+202E, U+2066–U+2069, U+200E,
    /// U+200F, U+061C), zero-width characters, line and paragraph separators, tag characters
    /// and the other invisible format characters (Unicode Cf). The renderer drops them; the
    /// CLI shows them as `\u{…}`.
    public static func isInvisibleFormat(_ value: UInt32) -> Bool {
        switch value {
        case 0xAD, 0x600...0x605, 0x61C, 0x6DD, 0x70F, 0x890...0x891, 0x8E2, 0x180E,
             0x200B...0x200F, 0x2028...0x202E, 0x2060...0x206F, 0xFEFF, 0xFFF9...0xFFFB,
             0x110BD, 0x110CD, 0x13430...0x1343F, 0x1BCA0...0x1BCA3, 0x1D173...0x1D17A, 0xE0000...0xE007F:
            return true
        default:
            return false
        }
    }

    /// Private-use characters (U+E000–U+F8FF and planes 15–16): they show whatever a font says.
    @inlinable
    public static func isPrivateUse(_ value: UInt32) -> Bool {
        (value >= 0xE000 && value <= 0xF8FF) || value >= 0xF0000
    }

    /// The bytes of `scalar` in UTF-8 (1...4).
    @inlinable
    public static func encodedLength(_ scalar: UInt32) -> Int {
        scalar < 0x80 ? 1 : scalar < 0x800 ? 2 : scalar < 0x1_0000 ? 3 : 4
    }

    /// Appends `scalar` encoded as UTF-8 (a valid scalar: callers pass decoded values).
    @inlinable
    public static func append(_ scalar: UInt32, to out: inout [UInt8]) {
        switch encodedLength(scalar) {
        case 1:
            out.append(UInt8(scalar))
        case 2:
            out.append(UInt8(0xC0 | scalar >> 6))
            out.append(UInt8(0x80 | scalar & 0x3F))
        case 3:
            out.append(UInt8(0xE0 | scalar >> 12))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        default:
            out.append(UInt8(0xF0 | scalar >> 18))
            out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}
