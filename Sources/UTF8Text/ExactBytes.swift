// Any bytes carried in valid UTF-8 and given back exactly: a Linux path may hold any byte
// but NUL (a folder named with 0xFF is legal), while the programs keep paths in `String`s,
// which repair invalid UTF-8 into U+FFFD and so name another file. Byte-level, no String.

/// The carriage: valid UTF-8 stays as it is; every other byte `b` (0x80–0xFF: an ASCII byte
/// is always valid) becomes the one scalar U+10FF00 + `b`, the last 128 of plane 16's
/// private use area. A valid sequence of one of those scalars is carried byte by byte too,
/// so that ``decode(_:)`` of ``encode(_:)`` is the input for every byte string, and a path
/// that is valid UTF-8 (almost all of them) is unchanged.
public enum ExactBytes {
    /// The first scalar that stands for a byte (U+10FF80 is 0x80, U+10FFFF is 0xFF).
    public static let firstEscape: UInt32 = 0x10FF80

    /// The byte the scalar `value` stands for, or nil for any other scalar.
    @inlinable
    public static func escapedByte(_ value: UInt32) -> UInt8? {
        value >= firstEscape && value <= 0x10FFFF ? UInt8(truncatingIfNeeded: value - 0x10FF00) : nil
    }

    /// `bytes` as valid UTF-8 that ``decode(_:)`` turns back into them.
    public static func encode(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let s = UTF8Text.decode(bytes, at: i)
            if s.isValid && escapedByte(s.value) == nil {
                var k = 0
                while k < s.length { out.append(bytes[i + k]); k += 1 }
                i += s.length
            } else {
                // One byte at a time: the rest of an invalid or carried sequence is
                // continuation bytes, never a valid start, so each is carried in its turn.
                let b = bytes[i]
                out.append(0xF4)
                out.append(0x8F)
                out.append(0xBC | (b >> 6))
                out.append(0x80 | (b & 0x3F))
                i += 1
            }
        }
        return out
    }

    /// Whether the valid UTF-8 `text` carries a byte (holds one of the escape scalars).
    @inlinable
    public static func hasEscapes(_ text: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        while i + 3 < text.count {
            if text[i] == 0xF4 && text[i + 1] == 0x8F && text[i + 2] >= 0xBE { return true }
            i += 1
        }
        return false
    }

    /// The bytes the valid UTF-8 `text` carries: each escape scalar as its byte, every
    /// other byte as it is.
    public static func decode(_ text: UnsafeRawBufferPointer) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var i = 0
        while i < text.count {
            if i + 3 < text.count && text[i] == 0xF4 && text[i + 1] == 0x8F && text[i + 2] >= 0xBE {
                out.append(((text[i + 2] & 0x03) << 6) | (text[i + 3] & 0x3F))
                i += 4
            } else {
                out.append(text[i])
                i += 1
            }
        }
        return out
    }
}
