// Field escaping of the bookmarks format: what a writer must escape, and the reader's
// inverse. A field holds any bytes; the escapes keep each rule on one line and the
// file valid UTF-8, readable in any editor.

enum Escaping {
    static let backslash: UInt8 = 0x5C, tab: UInt8 = 0x09, newline: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D, space: UInt8 = 0x20

    /// Appends `field` escaped: tab `\t`, newline `\n`, carriage return `\r`, backslash
    /// `\\`; other C0 controls, DEL, C1 controls (U+0080...U+009F) and every byte of an
    /// invalid UTF-8 sequence as `\xHH`; a space at either end as `\x20` (editors trim
    /// those). Everything else, valid UTF-8 included, is written as is.
    static func escape(_ field: [UInt8], into out: inout [UInt8]) {
        field.withUnsafeBytes { bytes in
            var i = 0
            while i < bytes.count {
                let byte = bytes[i]
                switch byte {
                case tab: append("\\t", to: &out)
                case newline: append("\\n", to: &out)
                case carriageReturn: append("\\r", to: &out)
                case backslash: append("\\\\", to: &out)
                case space where i == 0 || i == bytes.count - 1: hex(byte, to: &out)
                case 0x20..<0x7F: out.append(byte)
                case 0x00..<0x20, 0x7F: hex(byte, to: &out)
                default:
                    let length = UTF8Bytes.sequenceLength(bytes, at: i)
                    if length == 0 {
                        hex(byte, to: &out)
                    } else if UTF8Bytes.isC1Control(bytes, at: i) {
                        hex(bytes[i], to: &out)
                        hex(bytes[i + 1], to: &out)
                        i += 1
                    } else {
                        for k in 0..<length { out.append(bytes[i + k]) }
                        i += length - 1
                    }
                }
                i += 1
            }
        }
    }

    private static func append(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    static func hex(_ byte: UInt8, to out: inout [UInt8]) {
        let digits: StaticString = "0123456789ABCDEF"
        out.append(backslash)
        out.append(UInt8(ascii: "x"))
        out.append(digits.utf8Start[Int(byte >> 4)])
        out.append(digits.utf8Start[Int(byte & 0x0F)])
    }

    /// The bytes `field` stands for, or why it does not parse.
    static func unescape(_ field: ArraySlice<UInt8>) -> Result<[UInt8], UnescapeError> {
        var out: [UInt8] = []
        out.reserveCapacity(field.count)
        var i = field.startIndex
        while i < field.endIndex {
            let byte = field[i]
            guard byte == backslash else {
                out.append(byte)
                i += 1
                continue
            }
            guard i + 1 < field.endIndex else { return .failure(.danglingBackslash) }
            switch field[i + 1] {
            case UInt8(ascii: "t"): out.append(tab)
            case UInt8(ascii: "n"): out.append(newline)
            case UInt8(ascii: "r"): out.append(carriageReturn)
            case backslash: out.append(backslash)
            case UInt8(ascii: "x"):
                guard i + 3 < field.endIndex, let high = hexValue(field[i + 2]), let low = hexValue(field[i + 3]) else {
                    return .failure(.badHex)
                }
                out.append(high << 4 | low)
                i += 2
            default:
                return .failure(.unknown(field[i + 1]))
            }
            i += 2
        }
        return .success(out)
    }

    enum UnescapeError: Error {
        case danglingBackslash
        case badHex
        case unknown(UInt8)

        var reason: String {
            switch self {
            case .danglingBackslash: "a backslash at the end of a field (write \\\\ for a backslash)"
            case .badHex: "\\x must be followed by two hexadecimal digits"
            case .unknown(let byte): "unknown escape \\\(TerminalText.escape([byte])) (escapes are \\t \\n \\r \\\\ \\xHH)"
            }
        }
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
