import Foundation

/// sysstatsd's stderr, whose lines each start with the local time and a space
/// (`2026-11-29T07:03:12+01:00 sysstatsd: …`), as the messages the tests compare.
public enum SamplerLog {
    /// The time and its space, at a line's start.
    public static let timePattern = #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2} "#

    /// `text`, one line, without its time; a line without one is marked `<no time> `, so that comparing
    /// it with the message alone fails.
    public static func message(_ text: String) -> String {
        let time = try! NSRegularExpression(pattern: timePattern)
        guard let match = time.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              let range = Range(match.range, in: text) else { return "<no time> " + text }
        return String(text[range.upperBound...])
    }

    /// The messages of `text`'s lines, in order.
    public static func messages(_ text: String) -> [String] {
        text.split(separator: "\n").map { message(String($0)) }
    }

    /// `text` with each line's time left out, its newlines kept ("" stays "").
    public static func withoutTimes(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
        for k in lines.indices where !(k == lines.count - 1 && lines[k].isEmpty) {
            lines[k] = message(lines[k])
        }
        return lines.joined(separator: "\n")
    }
}
