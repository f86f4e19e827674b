import JSONCoding
import UTF8Text

/// The command line's JSON: one line, keys sorted, and terminal-safe like its text. Names come
/// from processes and files (anything a process calls itself): the bidi controls and other
/// invisible format characters (U+202E, U+2066…U+2069, …) and C1 controls are valid in a JSON
/// string, but a terminal that shows the JSON (or `jq -r` of it) would act on them; they are
/// written as `\uXXXX` escapes instead, so the parsed strings keep every character.
public enum JSONText {
    /// `value` encoded on one line, keys sorted, slashes as they are, terminal-safe.
    public static func encode<T: Encodable>(_ value: T) -> String {
        // Encoding plain numbers, strings, arrays and objects cannot fail.
        terminalSafe(try! JSONWriter().encode(value))
    }

    /// Bytes as lowercase hex, two digits each: a `name_hex` member, a name's exact bytes.
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// `json` with every invisible format character and C1 control as a `\uXXXX` escape (a
    /// surrogate pair above U+FFFF). They can stand only inside strings, where the escape means
    /// the same character.
    public static func terminalSafe(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: needsEscape) else { return json }
        var out = ""
        out.reserveCapacity(json.utf8.count + 16)
        for scalar in json.unicodeScalars {
            guard needsEscape(scalar) else { out.unicodeScalars.append(scalar); continue }
            for unit in String(scalar).utf16 { out += "\\u" + hex4(unit) }
        }
        return out
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return (v >= 0x80 && v < 0xA0) || UTF8Text.isInvisibleFormat(v)
    }

    private static func hex4(_ unit: UInt16) -> String {
        let digits = String(unit, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
