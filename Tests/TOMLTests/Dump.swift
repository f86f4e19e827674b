import TOML

/// Documents written out as text, for the tests' expectations.
enum Dump {
    /// A readable form: `{key=value,...}`, `[value,...]`, strings quoted (`"`, `\` and
    /// controls escaped), integers in decimal, floats as Swift prints them (`1.0`, `5e+22`,
    /// `inf`, `nan`), booleans. Keys are bare when they can be, quoted when not.
    static func readable(_ value: TOMLValue) -> String {
        switch value.kind {
        case .table:
            return "{" + value.table!.map { key($0.key) + "=" + readable($0) }.joined(separator: ",") + "}"
        case .array:
            return "[" + value.array!.map { readable($0) }.joined(separator: ",") + "]"
        case .string:
            return quoted(value.string!)
        case .integer:
            return String(value.integer!)
        case .float:
            let f = value.float!
            return f.isNaN ? "nan" : "\(f)"
        case .boolean:
            return value.bool! ? "true" : "false"
        }
    }

    static func readable(_ document: TOMLDocument) -> String { readable(document.root.value) }

    static func key(_ bytes: ArraySlice<UInt8>) -> String {
        let bare = !bytes.isEmpty && bytes.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x2D
        }
        return bare ? String(decoding: bytes, as: UTF8.self) : quoted(Array(bytes))
    }

    static func quoted(_ bytes: [UInt8]) -> String {
        var s = "\""
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            switch scalar {
            case "\"": s += "\\\""
            case "\\": s += "\\\\"
            case "\n": s += "\\n"
            case "\t": s += "\\t"
            case "\r": s += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    s += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    s.unicodeScalars.append(scalar)
                }
            }
        }
        return s + "\""
    }

    /// The form `scripts/tomllib-dump.py` prints for what Python's tomllib reads:
    /// keys and strings as hex UTF-8, floats as their bit pattern (any NaN as `nan`).
    static func canonical(_ value: TOMLValue) -> String {
        switch value.kind {
        case .table:
            return "{" + value.table!.map { hex($0.key) + ":" + canonical($0) }.joined(separator: ",") + "}"
        case .array:
            return "[" + value.array!.map { canonical($0) }.joined(separator: ",") + "]"
        case .string:
            return "s" + hex(value.string!)
        case .integer:
            return "i" + String(value.integer!)
        case .float:
            let f = value.float!
            return f.isNaN ? "fnan" : "f" + String(f.bitPattern, radix: 16)
        case .boolean:
            return value.bool! ? "btrue" : "bfalse"
        }
    }

    static func hex<S: Sequence<UInt8>>(_ bytes: S) -> String {
        let digits = Array("0123456789abcdef")
        var s = ""
        for b in bytes {
            s.append(digits[Int(b >> 4)])
            s.append(digits[Int(b & 15)])
        }
        return s
    }
}
