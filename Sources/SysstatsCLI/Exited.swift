import Foundation
import HistoryStore

/// `sysstats exited`: processes that exited and what each freed (formatting only).
public enum Exited {
    static let header = Columns.left("time", 20) + Columns.right("pid", 8) + Columns.right("freed MiB", 11)
        + Columns.right("last MiB", 10) + "  name"

    /// The header and one line per exit, oldest first.
    public static func lines(_ exits: [ExitRecord], zone: TimeZoneChoice) -> [String] {
        [header] + exits.map { e in
            Columns.left(zone.second(e.timeMs / 1000), 20) + Columns.right("\(e.pid)", 8)
                + Columns.right(Columns.mib(e.freedKiB), 11) + Columns.right(Columns.mib(e.lastPrivateKiB), 10)
                + "  " + displayName(e)
        }
    }

    /// The sanitized name, with the bookmark's friendly name after it when there is one.
    static func displayName(_ e: ExitRecord) -> String {
        let name = sanitize(e.name)
        guard let friendly = e.friendlyName else { return name }
        return name + " (" + sanitize(Array(friendly.utf8)) + ")"
    }

    /// Process names are whatever bytes the kernel was given: this makes them safe for a
    /// terminal. Printable ASCII stays (a backslash is doubled); control bytes become `\n`,
    /// `\t` or `\xNN`; bytes that are not valid UTF-8 become `\xNN`; Unicode control, format
    /// (e.g. bidi overrides) and line/paragraph separator characters become `\u{NNNN}`.
    public static func sanitize(_ bytes: [UInt8]) -> String {
        var out = ""
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                switch byte {
                case 0x5C: out += "\\\\"
                case 0x0A: out += "\\n"
                case 0x09: out += "\\t"
                case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(byte))
                default: out += hexByte(byte)
                }
                index += 1
                continue
            }
            guard let (scalar, length) = decodeScalar(bytes, at: index) else {
                out += hexByte(byte)
                index += 1
                continue
            }
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            default:
                out.unicodeScalars.append(scalar)
            }
            index += length
        }
        return out
    }

    static func hexByte(_ byte: UInt8) -> String {
        "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
    }

    /// One well-formed UTF-8 sequence (no overlongs, no surrogates) starting at `index`.
    static func decodeScalar(_ bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[index]
        let (length, minimum, initial): (Int, UInt32, UInt32)
        switch lead {
        case 0xC2...0xDF: (length, minimum, initial) = (2, 0x80, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (length, minimum, initial) = (3, 0x800, UInt32(lead & 0x0F))
        case 0xF0...0xF4: (length, minimum, initial) = (4, 0x10000, UInt32(lead & 0x07))
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        var value = initial
        for k in 1..<length {
            let b = bytes[index + k]
            guard b & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(b & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }

    /// `--json`: an array, oldest first; `name` is the sanitized text, `name_hex` the exact bytes.
    public static func json(_ exits: [ExitRecord]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try! encoder.encode(exits.map(Row.init)), as: UTF8.self)
    }

    struct Row: Encodable {
        var timeMs: UInt64, pid: UInt32, name: String, nameHex: String, friendlyName: String?
        var lastPrivateMiB: Double, freedMiB: Double

        enum CodingKeys: String, CodingKey {
            case timeMs = "time_ms", pid, name, nameHex = "name_hex", friendlyName = "friendly_name"
            case lastPrivateMiB = "last_private_mib", freedMiB = "freed_mib"
        }

        init(_ e: ExitRecord) {
            timeMs = e.timeMs; pid = e.pid; name = Exited.sanitize(e.name)
            nameHex = e.name.map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }.joined()
            friendlyName = e.friendlyName.map { Exited.sanitize(Array($0.utf8)) }
            lastPrivateMiB = ReportJSON.mib(e.lastPrivateKiB); freedMiB = ReportJSON.mib(e.freedKiB)
        }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(timeMs, forKey: .timeMs); try c.encode(pid, forKey: .pid)
            try c.encode(name, forKey: .name); try c.encode(nameHex, forKey: .nameHex)
            if let friendlyName { try c.encode(friendlyName, forKey: .friendlyName) } else { try c.encodeNil(forKey: .friendlyName) }
            try c.encode(lastPrivateMiB, forKey: .lastPrivateMiB); try c.encode(freedMiB, forKey: .freedMiB)
        }
    }
}
