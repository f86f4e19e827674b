// Text from outside (process names, file names, bookmark patterns and names, paths
// from arguments) made safe to print on a terminal: the one escaping every message of
// the CLI, and of the sampler's stderr, goes through. Byte-level, explicit lists, no
// Unicode tables: this module is linked by the sampler.

import UTF8Text

/// Escaping for terminal output.
public enum TerminalText {
    /// `bytes` as text a terminal shows as it is: printable ASCII and valid UTF-8 stay;
    /// `\` becomes `\\`, newline `\n`, tab `\t`; other C0 controls, DEL and every byte of
    /// invalid UTF-8 `\xNN`; C1 controls (U+0080–U+009F, e.g. U+009B, the one-byte CSI),
    /// line and paragraph separators, private-use characters and the invisible format
    /// characters that can reorder or hide text (bidi embeddings, overrides and isolates
    /// U+202A–U+202E, U+2066–U+2069, marks U+200E, U+200F, U+061C, zero-width characters,
    /// tag characters, every other Unicode Cf) `\u{NNNN}`; a byte a String carries for a path
    /// (``ExactBytes``, U+10FF80–U+10FFFF) `\xNN`. At most `limit` input bytes, then `...`.
    public static func escape<Bytes: Collection<UInt8>>(_ bytes: Bytes, limit: Int = Int.max) -> String {
        let input = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity(input.count)
        var i = 0
        while i < input.count {
            if i >= limit {
                out.append(contentsOf: [0x2E, 0x2E, 0x2E])
                break
            }
            let byte = input[i]
            if byte < 0x80 {
                switch byte {
                case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
                case 0x09: out.append(contentsOf: [0x5C, 0x74])
                case 0x20..<0x7F: out.append(byte)
                default: hex(byte, into: &out)
                }
                i += 1
                continue
            }
            guard let (value, length) = scalar(input, at: i) else {
                hex(byte, into: &out)
                i += 1
                continue
            }
            if let carried = ExactBytes.escapedByte(value) {
                // A path's byte that is not UTF-8, carried in a String (ExactBytes): shown
                // as the byte it stands for, as the same byte read raw would be.
                hex(carried, into: &out)
            } else if hides(value) {
                out.append(contentsOf: [0x5C, 0x75, 0x7B])   // \u{
                out.append(contentsOf: Array(String(value, radix: 16).utf8))
                out.append(0x7D)
            } else {
                out.append(contentsOf: input[i..<(i + length)])
            }
            i += length
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The same for a string (a path or an argument, which may hold any character).
    public static func escape(_ text: String) -> String { escape(text.utf8) }

    /// Whether ``escape(_:limit:)`` would show the character `value` as `\u{…}`.
    public static func hides(_ value: UInt32) -> Bool {
        (value >= 0x80 && value <= 0x9F) || UTF8Text.isInvisibleFormat(value) || UTF8Text.isPrivateUse(value)
    }

    /// One well-formed UTF-8 sequence (no overlongs, no surrogates) at `index`: its value and length.
    public static func scalar(_ bytes: [UInt8], at index: Int) -> (UInt32, Int)? {
        let decoded = bytes.withUnsafeBytes { UTF8Text.decode($0, at: index) }
        return decoded.isValid ? (decoded.value, decoded.length) : nil
    }

    static func hex(_ byte: UInt8, into out: inout [UInt8]) {
        let digits: StaticString = "0123456789abcdef"
        out.append(0x5C)
        out.append(0x78)
        out.append(digits.utf8Start[Int(byte >> 4)])
        out.append(digits.utf8Start[Int(byte & 0x0F)])
    }
}
