// A strict JSON reader (RFC 8259) for checking what the renderer writes: i3bar and
// waybar parse every line, and one bad byte loses the bar. Stricter than the RFC
// where our output has no business being loose: no duplicate keys, no unpaired
// surrogate escapes, well-formed UTF-8 only. No Foundation, so the fuzzer stays fast.

/// A parsed JSON value; strings are their decoded UTF-8 bytes.
indirect enum JSONValue {
    case null
    case bool(Bool)
    /// The number's text, as written.
    case number([UInt8])
    case string([UInt8])
    case array([JSONValue])
    case object([(key: [UInt8], value: JSONValue)])

    /// The member named `key` of an object; nil for a missing member or a non-object.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        let k = Array(key.utf8)
        return members.first(where: { $0.key == k })?.value
    }

    var stringBytes: [UInt8]? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The member names of an object (empty for anything else).
    var keys: [[UInt8]] {
        guard case .object(let members) = self else { return [] }
        return members.map(\.key)
    }
}

/// Where and why a text is not JSON.
struct JSONError: Error {
    var offset: Int
    var reason: String
}

struct StrictJSON {
    private let b: [UInt8]
    private var i = 0
    private var depth = 0
    static let maximumDepth = 64

    private init(_ bytes: [UInt8]) { b = bytes }

    /// Parses exactly one value (surrounded by optional whitespace) from `bytes`.
    static func parse(_ bytes: [UInt8]) -> Result<JSONValue, JSONError> {
        var p = StrictJSON(bytes)
        do throws(JSONError) {
            p.whitespace()
            let v = try p.value()
            p.whitespace()
            guard p.i == p.b.count else { throw JSONError(offset: p.i, reason: "bytes after the value") }
            return .success(v)
        } catch {
            return .failure(error)
        }
    }

    private func fail(_ reason: String) -> JSONError { JSONError(offset: i, reason: reason) }

    private mutating func whitespace() {
        while i < b.count && (b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D) { i += 1 }
    }

    private mutating func literal(_ word: StaticString) throws(JSONError) {
        let n = word.utf8CodeUnitCount
        guard b.count - i >= n else { throw fail("truncated literal") }
        for k in 0..<n where b[i + k] != word.utf8Start[k] { throw fail("bad literal") }
        i += n
    }

    private mutating func value() throws(JSONError) -> JSONValue {
        guard i < b.count else { throw fail("value expected, end of text") }
        switch b[i] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw fail("unexpected byte")
        }
    }

    private mutating func nest() throws(JSONError) {
        depth += 1
        guard depth <= StrictJSON.maximumDepth else { throw fail("nested too deep") }
    }

    private mutating func object() throws(JSONError) -> JSONValue {
        try nest()
        i += 1
        var members: [(key: [UInt8], value: JSONValue)] = []
        whitespace()
        if i < b.count && b[i] == UInt8(ascii: "}") { i += 1; depth -= 1; return .object(members) }
        while true {
            whitespace()
            guard i < b.count, b[i] == UInt8(ascii: "\"") else { throw fail("member name expected") }
            let key = try string()
            guard !members.contains(where: { $0.key == key }) else { throw fail("duplicate key") }
            whitespace()
            guard i < b.count, b[i] == UInt8(ascii: ":") else { throw fail("':' expected") }
            i += 1
            whitespace()
            members.append((key, try value()))
            whitespace()
            guard i < b.count else { throw fail("unterminated object") }
            if b[i] == UInt8(ascii: ",") { i += 1; continue }
            guard b[i] == UInt8(ascii: "}") else { throw fail("',' or '}' expected") }
            i += 1
            depth -= 1
            return .object(members)
        }
    }

    private mutating func array() throws(JSONError) -> JSONValue {
        try nest()
        i += 1
        var items: [JSONValue] = []
        whitespace()
        if i < b.count && b[i] == UInt8(ascii: "]") { i += 1; depth -= 1; return .array(items) }
        while true {
            whitespace()
            items.append(try value())
            whitespace()
            guard i < b.count else { throw fail("unterminated array") }
            if b[i] == UInt8(ascii: ",") { i += 1; continue }
            guard b[i] == UInt8(ascii: "]") else { throw fail("',' or ']' expected") }
            i += 1
            depth -= 1
            return .array(items)
        }
    }

    private func isDigit(_ k: Int) -> Bool { k < b.count && b[k] >= 0x30 && b[k] <= 0x39 }

    private mutating func number() throws(JSONError) -> [UInt8] {
        let start = i
        if b[i] == UInt8(ascii: "-") { i += 1 }
        guard isDigit(i) else { throw fail("digit expected") }
        if b[i] == UInt8(ascii: "0") {
            i += 1
            guard !isDigit(i) else { throw fail("leading zero") }
        } else {
            while isDigit(i) { i += 1 }
        }
        if i < b.count && b[i] == UInt8(ascii: ".") {
            i += 1
            guard isDigit(i) else { throw fail("digit expected after '.'") }
            while isDigit(i) { i += 1 }
        }
        if i < b.count && (b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E")) {
            i += 1
            if i < b.count && (b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-")) { i += 1 }
            guard isDigit(i) else { throw fail("digit expected in exponent") }
            while isDigit(i) { i += 1 }
        }
        return Array(b[start..<i])
    }

    private mutating func hex4() throws(JSONError) -> UInt32 {
        guard b.count - i >= 4 else { throw fail("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = b[i]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: throw fail("bad hex digit in \\u escape")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    private mutating func string() throws(JSONError) -> [UInt8] {
        i += 1
        var out: [UInt8] = []
        while true {
            guard i < b.count else { throw fail("unterminated string") }
            let c = b[i]
            if c == UInt8(ascii: "\"") { i += 1; return out }
            if c < 0x20 { throw fail("raw control byte in a string") }
            if c == UInt8(ascii: "\\") {
                i += 1
                guard i < b.count else { throw fail("truncated escape") }
                let e = b[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if scalar >= 0xDC00 && scalar <= 0xDFFF { throw fail("unpaired low surrogate") }
                    if scalar >= 0xD800 && scalar <= 0xDBFF {
                        guard b.count - i >= 2, b[i] == 0x5C, b[i + 1] == UInt8(ascii: "u") else {
                            throw fail("unpaired high surrogate")
                        }
                        i += 2
                        let low = try hex4()
                        guard low >= 0xDC00 && low <= 0xDFFF else { throw fail("high surrogate without a low one") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    appendUTF8(scalar, &out)
                default:
                    throw fail("unknown escape")
                }
                continue
            }
            let n = utf8Length(b, i)
            guard n > 0 else { throw fail("ill-formed UTF-8 in a string") }
            out.append(contentsOf: b[i..<(i + n)])
            i += n
        }
    }
}

/// Appends the UTF-8 encoding of a scalar (not a surrogate, at most U+10FFFF).
func appendUTF8(_ v: UInt32, _ out: inout [UInt8]) {
    if v < 0x80 {
        out.append(UInt8(v))
    } else if v < 0x800 {
        out.append(UInt8(0xC0 | v >> 6)); out.append(UInt8(0x80 | v & 0x3F))
    } else if v < 0x10000 {
        out.append(UInt8(0xE0 | v >> 12)); out.append(UInt8(0x80 | v >> 6 & 0x3F)); out.append(UInt8(0x80 | v & 0x3F))
    } else {
        out.append(UInt8(0xF0 | v >> 18)); out.append(UInt8(0x80 | v >> 12 & 0x3F))
        out.append(UInt8(0x80 | v >> 6 & 0x3F)); out.append(UInt8(0x80 | v & 0x3F))
    }
}
