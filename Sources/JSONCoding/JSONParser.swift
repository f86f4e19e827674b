/// Parses JSON text (RFC 8259) into a ``JSONValue``: what `budget check --baseline` reads.
/// The file is outside input: strict grammar, at most ``maximumDepth`` nested arrays and
/// objects, no trailing bytes; a failure is nil, never a trap.
public enum JSONParser {
    /// The deepest nesting accepted.
    public static let maximumDepth = 64

    public static func parse(_ bytes: [UInt8]) -> JSONValue? {
        var cursor = Cursor(bytes: bytes)
        guard let value = cursor.value(depth: 0) else { return nil }
        cursor.skipSpace()
        return cursor.index == bytes.count ? value : nil
    }

    struct Cursor {
        let bytes: [UInt8]
        var index = 0

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while let b = peek, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { index += 1 }
        }

        mutating func take(_ literal: StaticString) -> Bool {
            let n = literal.utf8CodeUnitCount
            guard bytes.count - index >= n else { return false }
            for i in 0..<n where bytes[index + i] != literal.utf8Start[i] { return false }
            index += n
            return true
        }

        mutating func value(depth: Int) -> JSONValue? {
            skipSpace()
            guard let b = peek else { return nil }
            switch b {
            case 0x7B: return depth < JSONParser.maximumDepth ? object(depth: depth + 1) : nil
            case 0x5B: return depth < JSONParser.maximumDepth ? array(depth: depth + 1) : nil
            case 0x22: return string().map { .string($0) }
            case 0x74: return take("true") ? .bool(true) : nil
            case 0x66: return take("false") ? .bool(false) : nil
            case 0x6E: return take("null") ? .null : nil
            default: return number()
            }
        }

        mutating func object(depth: Int) -> JSONValue? {
            index += 1
            var members: [(key: String, value: JSONValue)] = []
            skipSpace()
            if peek == 0x7D { index += 1; return .object(members) }
            while true {
                skipSpace()
                guard peek == 0x22, let key = string() else { return nil }
                skipSpace()
                guard peek == 0x3A else { return nil }
                index += 1
                guard let value = value(depth: depth) else { return nil }
                members.append((key: key, value: value))
                skipSpace()
                switch peek {
                case 0x2C: index += 1
                case 0x7D: index += 1; return .object(members)
                default: return nil
                }
            }
        }

        mutating func array(depth: Int) -> JSONValue? {
            index += 1
            var items: [JSONValue] = []
            skipSpace()
            if peek == 0x5D { index += 1; return .array(items) }
            while true {
                guard let item = value(depth: depth) else { return nil }
                items.append(item)
                skipSpace()
                switch peek {
                case 0x2C: index += 1
                case 0x5D: index += 1; return .array(items)
                default: return nil
                }
            }
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
        mutating func number() -> JSONValue? {
            let start = index
            if peek == 0x2D { index += 1 }
            guard let first = peek, isDigit(first) else { return nil }
            index += 1
            if first != 0x30 { while let b = peek, isDigit(b) { index += 1 } }
            if peek == 0x2E {
                index += 1
                guard digits() else { return nil }
            }
            if peek == 0x65 || peek == 0x45 {
                index += 1
                if peek == 0x2B || peek == 0x2D { index += 1 }
                guard digits() else { return nil }
            }
            return .number(String(decoding: bytes[start..<index], as: UTF8.self))
        }

        mutating func digits() -> Bool {
            let start = index
            while let b = peek, isDigit(b) { index += 1 }
            return index > start
        }

        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

        /// A string's contents: escapes decoded (a lone surrogate is refused), control
        /// characters and invalid UTF-8 refused.
        mutating func string() -> String? {
            index += 1
            var scalars = String.UnicodeScalarView()
            var runStart = index
            while let b = peek {
                if b == 0x22 || b == 0x5C {
                    guard let run = String(validating: bytes[runStart..<index], as: UTF8.self) else { return nil }
                    scalars.append(contentsOf: run.unicodeScalars)
                    index += 1
                    if b == 0x22 { return String(scalars) }
                    guard let scalar = escape() else { return nil }
                    scalars.append(scalar)
                    runStart = index
                } else if b < 0x20 {
                    return nil
                } else {
                    index += 1
                }
            }
            return nil
        }

        mutating func escape() -> Unicode.Scalar? {
            guard let b = peek else { return nil }
            index += 1
            switch b {
            case 0x22, 0x5C, 0x2F: return Unicode.Scalar(b)
            case 0x62: return "\u{08}"
            case 0x66: return "\u{0C}"
            case 0x6E: return "\n"
            case 0x72: return "\r"
            case 0x74: return "\t"
            case 0x75:
                guard let high = hex4() else { return nil }
                if high < 0xD800 || high > 0xDFFF { return Unicode.Scalar(high) }
                guard high < 0xDC00, take("\\u"), let low = hex4(), low >= 0xDC00, low <= 0xDFFF else { return nil }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            default: return nil
            }
        }

        mutating func hex4() -> UInt32? {
            guard bytes.count - index >= 4 else { return nil }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let b = bytes[index]
                let digit: UInt8
                switch b {
                case 0x30...0x39: digit = b - 0x30
                case 0x61...0x66: digit = b - 0x61 + 10
                case 0x41...0x46: digit = b - 0x41 + 10
                default: return nil
                }
                v = v << 4 | UInt32(digit)
                index += 1
            }
            return v
        }
    }
}
