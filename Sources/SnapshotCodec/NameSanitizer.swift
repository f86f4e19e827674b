// Turns a raw process name (from /proc/PID/comm or cmdline: any bytes at all)
// into a display-ready one. Works on UTF-8 bytes only: no String, no
// grapheme breaking, nothing allocated once `out` has capacity.

public enum NameSanitizer {
    /// Replaces the contents of `out` with a display-ready version of `raw`:
    ///
    /// - valid UTF-8: each maximal invalid subsequence (bad lead byte, missing
    ///   continuation, overlong form, surrogate, above U+10FFFF) becomes U+FFFD,
    ///   as Swift's and the Unicode standard's "maximal subpart" practice;
    /// - tab, newline and carriage return become a space; other C0 controls,
    ///   DEL and the C1 controls U+0080...U+009F become `?`;
    /// - leading and trailing spaces are trimmed;
    /// - at most ``Snapshot/maximumNameLength`` bytes, cut on a character boundary;
    /// - an empty result becomes `?`.
    ///
    /// Quotes, backslashes and markup are kept: escaping is each renderer's job.
    public static func sanitize<Bytes: Collection<UInt8>>(_ raw: Bytes, into out: inout [UInt8]) {
        let done: Void? = raw.withContiguousStorageIfAvailable { sanitize(UnsafeRawBufferPointer($0), into: &out) }
        if done == nil {
            let copy = Array(raw)
            copy.withUnsafeBytes { sanitize($0, into: &out) }
        }
    }

    /// The same over raw bytes. Not generic, so it allocates nothing once `out`
    /// has capacity, whether or not the caller's build specializes generics.
    public static func sanitize(_ raw: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        let limit = Snapshot.maximumNameLength
        var i = raw.startIndex
        while i != raw.endIndex {
            let (scalar, next) = decodeScalar(raw, at: i)
            i = next
            let mapped: UInt32
            switch scalar {
            case 0x09, 0x0A, 0x0D: mapped = 0x20
            case 0x00..<0x20, 0x7F, 0x80...0x9F: mapped = 0x3F   // "?"
            default: mapped = scalar
            }
            if mapped == 0x20 && out.isEmpty { continue }       // leading space
            let length = mapped < 0x80 ? 1 : mapped < 0x800 ? 2 : mapped < 0x1_0000 ? 3 : 4
            if out.count + length > limit { break }
            appendUTF8(mapped, length: length, to: &out)
        }
        // Indexing, not `out.last`: the generic `last` allocates in unoptimized builds.
        while !out.isEmpty && out[out.count - 1] == 0x20 { out.removeLast() }
        if out.isEmpty { out.append(0x3F) }
    }

    /// A scalar value (U+FFFD for an invalid subsequence) and the index after it.
    private static func decodeScalar(_ raw: UnsafeRawBufferPointer, at start: Int) -> (UInt32, Int) {
        let replacement: UInt32 = 0xFFFD
        let lead = raw[start]
        var i = raw.index(after: start)
        if lead < 0x80 { return (UInt32(lead), i) }

        // Number of continuation bytes, the allowed range of the first one
        // (excludes overlongs, surrogates and values above U+10FFFF), and the lead's bits.
        let count: Int, low: UInt8, high: UInt8, bits: UInt32
        switch lead {
        case 0xC2...0xDF: (count, low, high, bits) = (1, 0x80, 0xBF, UInt32(lead & 0x1F))
        case 0xE0: (count, low, high, bits) = (2, 0xA0, 0xBF, 0)
        case 0xE1...0xEC, 0xEE...0xEF: (count, low, high, bits) = (2, 0x80, 0xBF, UInt32(lead & 0x0F))
        case 0xED: (count, low, high, bits) = (2, 0x80, 0x9F, 0x0D)
        case 0xF0: (count, low, high, bits) = (3, 0x90, 0xBF, 0)
        case 0xF1...0xF3: (count, low, high, bits) = (3, 0x80, 0xBF, UInt32(lead & 0x07))
        case 0xF4: (count, low, high, bits) = (3, 0x80, 0x8F, 0x04)
        default: return (replacement, i)   // 0x80...0xC1, 0xF5...0xFF
        }

        var value = bits
        for n in 0..<count {
            guard i != raw.endIndex else { return (replacement, i) }
            let byte = raw[i]
            let ok = n == 0 ? (low...high).contains(byte) : (0x80...0xBF).contains(byte)
            guard ok else { return (replacement, i) }   // resume at the offending byte
            value = value << 6 | UInt32(byte & 0x3F)
            i = raw.index(after: i)
        }
        return (value, i)
    }

    private static func appendUTF8(_ scalar: UInt32, length: Int, to out: inout [UInt8]) {
        switch length {
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
