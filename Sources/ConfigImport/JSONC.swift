// waybar's config language: JSON with `//` and `/* */` comments and trailing commas (as
// its JSON reader takes them), each value with the line it starts on.

/// A JSON value and the line it starts on.
struct JSONCNode {
    indirect enum Value {
        case object([(key: String, node: JSONCNode)])
        case array([JSONCNode])
        case string(String)
        case number(String)
        case bool(Bool)
        case null
    }
    var value: Value
    var line: Int

    subscript(key: String) -> JSONCNode? {
        if case .object(let members) = value { return members.last { $0.key == key }?.node }
        return nil
    }
    var string: String? { if case .string(let s) = value { s } else { nil } }
    var array: [JSONCNode]? { if case .array(let a) = value { a } else { nil } }
    var members: [(key: String, node: JSONCNode)]? { if case .object(let m) = value { m } else { nil } }
    /// A number's text, or a string's (waybar takes `"5"` where it takes `5` in places).
    var numberText: String? {
        switch value {
        case .number(let n): n
        case .string(let s): s
        default: nil
        }
    }
    var bool: Bool? { if case .bool(let b) = value { b } else { nil } }

    /// Reads `text`; throws with the line of the first thing JSON (with comments and trailing commas) refuses.
    static func parse(_ text: String) throws(ImportError) -> JSONCNode {
        var reader = JSONCReader(Array(text.utf8))
        let value = try reader.value(depth: 0)
        reader.skip()
        if reader.i < reader.bytes.count { throw ImportError(line: reader.line, "text after the end of the JSON value") }
        return value
    }
}

private struct JSONCReader {
    let bytes: [UInt8]
    var i = 0
    var line = 1
    static let maximumDepth = 64

    init(_ bytes: [UInt8]) { self.bytes = bytes; if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 } }

    mutating func skip() {
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x0A { line += 1; i += 1 }
            else if c == 0x20 || c == 0x09 || c == 0x0D { i += 1 }
            else if c == 0x2F, i + 1 < bytes.count, bytes[i + 1] == 0x2F {
                while i < bytes.count, bytes[i] != 0x0A { i += 1 }
            } else if c == 0x2F, i + 1 < bytes.count, bytes[i + 1] == 0x2A {
                i += 2
                while i < bytes.count, !(bytes[i] == 0x2A && i + 1 < bytes.count && bytes[i + 1] == 0x2F) {
                    if bytes[i] == 0x0A { line += 1 }
                    i += 1
                }
                i = min(i + 2, bytes.count)
            } else { return }
        }
    }

    mutating func value(depth: Int) throws(ImportError) -> JSONCNode {
        skip()
        guard depth < Self.maximumDepth else { throw ImportError(line: line, "nested deeper than \(Self.maximumDepth) levels") }
        guard i < bytes.count else { throw ImportError(line: line, "the file ends where a value should be") }
        let at = line
        switch bytes[i] {
        case UInt8(ascii: "{"): return JSONCNode(value: .object(try object(depth: depth)), line: at)
        case UInt8(ascii: "["): return JSONCNode(value: .array(try array(depth: depth)), line: at)
        case UInt8(ascii: "\""): return JSONCNode(value: .string(try string()), line: at)
        case UInt8(ascii: "t") where word("true"): return JSONCNode(value: .bool(true), line: at)
        case UInt8(ascii: "f") where word("false"): return JSONCNode(value: .bool(false), line: at)
        case UInt8(ascii: "n") where word("null"): return JSONCNode(value: .null, line: at)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = i
            while i < bytes.count, Self.isNumberByte(bytes[i]) { i += 1 }
            return JSONCNode(value: .number(String(decoding: bytes[start..<i], as: UTF8.self)), line: at)
        default: throw ImportError(line: line, "unexpected \(Self.shown(bytes[i])) where a value should be")
        }
    }

    static func isNumberByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x2B || b == 0x2E || b == 0x65 || b == 0x45
    }

    static func shown(_ b: UInt8) -> String { b >= 0x21 && b < 0x7F ? "'\(Character(Unicode.Scalar(b)))'" : "byte \(b)" }

    mutating func word(_ w: StaticString) -> Bool {
        let n = w.utf8CodeUnitCount
        guard i + n <= bytes.count else { return false }
        for k in 0..<n where bytes[i + k] != w.utf8Start[k] { return false }
        i += n
        return true
    }

    mutating func object(depth: Int) throws(ImportError) -> [(key: String, node: JSONCNode)] {
        i += 1
        var members: [(key: String, node: JSONCNode)] = []
        while true {
            skip()
            guard i < bytes.count else { throw ImportError(line: line, "the file ends inside an object") }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return members }
            guard bytes[i] == UInt8(ascii: "\"") else { throw ImportError(line: line, "an object's key must be a string, found \(Self.shown(bytes[i]))") }
            let key = try string()
            skip()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw ImportError(line: line, "\"\(oneLine(key))\" needs a : and its value") }
            i += 1
            members.append((key, try value(depth: depth + 1)))
            skip()
            if i < bytes.count, bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            guard i < bytes.count, bytes[i] == UInt8(ascii: "}") else { throw ImportError(line: line, "expected , or } after \"\(oneLine(key))\"'s value") }
        }
    }

    mutating func array(depth: Int) throws(ImportError) -> [JSONCNode] {
        i += 1
        var items: [JSONCNode] = []
        while true {
            skip()
            guard i < bytes.count else { throw ImportError(line: line, "the file ends inside an array") }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return items }
            items.append(try value(depth: depth + 1))
            skip()
            if i < bytes.count, bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            guard i < bytes.count, bytes[i] == UInt8(ascii: "]") else { throw ImportError(line: line, "expected , or ] in an array") }
        }
    }

    mutating func string() throws(ImportError) -> String {
        let start = line
        i += 1
        var out: [UInt8] = []
        while i < bytes.count {
            let c = bytes[i]
            i += 1
            if c == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
            if c == 0x0A { line += 1 }
            guard c == UInt8(ascii: "\\") else { out.append(c); continue }
            guard i < bytes.count else { break }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"): appendScalar(try hex4(), into: &out)
            default: out.append(e)
            }
        }
        throw ImportError(line: start, "a string has no closing quote")
    }

    private mutating func hex4() throws(ImportError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw ImportError(line: line, "\\u needs four hex digits") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let d: UInt32
            switch b {
            case 0x30...0x39: d = UInt32(b - 0x30)
            case 0x41...0x46: d = UInt32(b - 0x41 + 10)
            case 0x61...0x66: d = UInt32(b - 0x61 + 10)
            default: throw ImportError(line: line, "\\u needs four hex digits")
            }
            v = v << 4 | d
            i += 1
        }
        // A high surrogate followed by \uDC00–\uDFFF is one character.
        if (0xD800...0xDBFF).contains(v), i + 6 <= bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") {
            let save = i
            i += 2
            if let low = try? hex4(), (0xDC00...0xDFFF).contains(low) { return 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00) }
            i = save
        }
        return v
    }

    private func appendScalar(_ v: UInt32, into out: inout [UInt8]) {
        let scalar = Unicode.Scalar(v) ?? "\u{FFFD}"
        out.append(contentsOf: Array(String(scalar).utf8))
    }
}
