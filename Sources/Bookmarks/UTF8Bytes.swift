// Byte-level UTF-8 helpers of the bookmarks module, over UTF8Text (the project's one
// decoder). The module links no Foundation and must not need Unicode tables.

import UTF8Text

enum UTF8Bytes {
    /// The length of the well-formed UTF-8 sequence starting at `start` (1...4),
    /// or 0 when the bytes there are not one (bad lead byte, missing continuation,
    /// overlong form, surrogate, above U+10FFFF).
    static func sequenceLength(_ bytes: UnsafeRawBufferPointer, at start: Int) -> Int {
        UTF8Text.sequenceLength(bytes, at: start)
    }

    /// True for the C1 control characters U+0080...U+009F (encoded C2 80...C2 9F).
    static func isC1Control(_ bytes: UnsafeRawBufferPointer, at start: Int) -> Bool {
        bytes[start] == 0xC2 && start + 1 < bytes.count && bytes[start + 1] <= 0x9F
    }

    static func isControl(_ byte: UInt8) -> Bool { UTF8Text.isControl(UInt32(byte)) && byte < 0x80 }
}
