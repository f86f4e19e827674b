// Byte-level UTF-8 helpers. The module links no Foundation and must not need
// Unicode tables: names are bytes, checked and cut here by hand.

enum UTF8Bytes {
    /// The length of the well-formed UTF-8 sequence starting at `start` (1...4),
    /// or 0 when the bytes there are not one (bad lead byte, missing continuation,
    /// overlong form, surrogate, above U+10FFFF).
    static func sequenceLength(_ bytes: UnsafeRawBufferPointer, at start: Int) -> Int {
        let lead = bytes[start]
        if lead < 0x80 { return 1 }
        // Continuation count and the allowed range of the first continuation byte:
        // the ranges exclude overlongs, surrogates and values above U+10FFFF.
        let count: Int, low: UInt8, high: UInt8
        switch lead {
        case 0xC2...0xDF: (count, low, high) = (1, 0x80, 0xBF)
        case 0xE0: (count, low, high) = (2, 0xA0, 0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (count, low, high) = (2, 0x80, 0xBF)
        case 0xED: (count, low, high) = (2, 0x80, 0x9F)
        case 0xF0: (count, low, high) = (3, 0x90, 0xBF)
        case 0xF1...0xF3: (count, low, high) = (3, 0x80, 0xBF)
        case 0xF4: (count, low, high) = (3, 0x80, 0x8F)
        default: return 0
        }
        guard start + count < bytes.count else { return 0 }   // cut short at the end
        for n in 1...count {
            let byte = bytes[start + n]
            if n == 1 ? !(low...high).contains(byte) : !(0x80...0xBF).contains(byte) { return 0 }
        }
        return count + 1
    }

    /// True for the C1 control characters U+0080...U+009F (encoded C2 80...C2 9F).
    static func isC1Control(_ bytes: UnsafeRawBufferPointer, at start: Int) -> Bool {
        bytes[start] == 0xC2 && start + 1 < bytes.count && bytes[start + 1] <= 0x9F
    }

    static func isControl(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x7F }
}
