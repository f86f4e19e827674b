/// A JSON value as the command line writes and reads it: what ``JSONWriter`` encodes an
/// `Encodable` into and ``JSONParser`` parses a file into. Numbers keep the text they are
/// written with, so a writer decides how each is spelled once.
public enum JSONValue: Equatable {
    case null
    case bool(Bool)
    /// A number as JSON spells it (`12`, `2.5`, `1e+20`).
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in the order they were written or read; ``serialized`` sorts them.
    case object([(key: String, value: JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)), (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The value on one line, object members sorted by key (as JSONEncoder's `.sortedKeys`:
    /// by the keys' Unicode scalars; of a key written twice, the last), `/` not escaped, other
    /// characters as JSONEncoder writes them: `"` `\` and the C0 controls escaped, everything
    /// else as it is.
    public var serialized: String {
        var out: [UInt8] = []
        write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    func write(to out: inout [UInt8]) {
        switch self {
        case .null: out += "null".utf8
        case .bool(let b): out += (b ? "true" : "false").utf8
        case .number(let text): out += text.utf8
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let items):
            out.append(0x5B)
            for i in items.indices {
                if i > 0 { out.append(0x2C) }
                items[i].write(to: &out)
            }
            out.append(0x5D)
        case .object(let members):
            JSONValue.writeObject(members.count, key: { members[$0].key }, to: &out) { members[$0].value.write(to: &$1) }
        }
    }

    /// An object of `count` members, in the order of their keys (stably: of equal keys the
    /// last is written, as a re-encoded key replaces the first in JSONEncoder).
    static func writeObject(_ count: Int, key: (Int) -> String, to out: inout [UInt8], value: (Int, inout [UInt8]) -> Void) {
        let order = (0..<count).sorted { key($0) < key($1) }
        out.append(0x7B)
        var first = true
        for (n, i) in order.enumerated() {
            if n + 1 < order.count && key(order[n + 1]) == key(i) { continue }
            if !first { out.append(0x2C) }
            first = false
            writeString(key(i), to: &out)
            out.append(0x3A)
            value(i, &out)
        }
        out.append(0x7D)
    }

    static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(0x22)
        var s = s
        s.withUTF8 { bytes in
            var start = 0
            for i in 0..<bytes.count {
                let b = bytes[i]
                guard b < 0x20 || b == 0x22 || b == 0x5C else { continue }
                out += UnsafeBufferPointer(rebasing: bytes[start..<i])
                start = i + 1
                switch b {
                case 0x22: out += #"\""#.utf8
                case 0x5C: out += #"\\"#.utf8
                case 0x08: out += #"\b"#.utf8
                case 0x0C: out += #"\f"#.utf8
                case 0x0A: out += #"\n"#.utf8
                case 0x0D: out += #"\r"#.utf8
                case 0x09: out += #"\t"#.utf8
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    out += #"\u00"#.utf8
                    out.append(hex[Int(b >> 4)])
                    out.append(hex[Int(b & 0xF)])
                }
            }
            out += UnsafeBufferPointer(rebasing: bytes[start..<bytes.count])
        }
        out.append(0x22)
    }

    /// A floating-point number as JSONEncoder spells it: its shortest round-tripping
    /// description, without a trailing `.0` (`2`, `-0`, `2.5`, `1e+20`).
    static func number<T: BinaryFloatingPoint & CustomStringConvertible>(_ value: T) -> JSONValue {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return .number(text)
    }

    /// The member named `key` of an object (the last, where a file repeats it).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// A number's value as a Double (nil for anything else).
    public var double: Double? {
        guard case .number(let text) = self else { return nil }
        return Double(text)
    }
}
