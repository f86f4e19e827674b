import Bookmarks
/// `--since` durations: a positive whole number and a unit, e.g. `90m`, `24h`, `7d`.
public enum Since {
    /// Seconds per unit: s, m or min, h, d, w.
    static let units: [(suffix: String, seconds: UInt64)] = [
        ("min", 60), ("s", 1), ("m", 60), ("h", 3600), ("d", 86_400), ("w", 604_800),
    ]
    /// The longest period accepted: 100 years (history keeps two).
    static let maximumSeconds: UInt64 = 100 * 366 * 86_400

    /// The duration in seconds, or a one-line reason it is not one.
    public static func parse(_ text: String) -> Result<UInt64, SinceError> {
        let bad = SinceError(message: "--since: expected a duration like 90m, 24h or 7d (units s, m, h, d, w), got \"\(TerminalText.escape(text))\"")
        let digits = text.utf8.prefix { $0 >= 0x30 && $0 <= 0x39 }
        guard !digits.isEmpty, digits.count <= 12 else { return .failure(bad) }
        let suffix = String(decoding: text.utf8.dropFirst(digits.count), as: UTF8.self)
        guard let unit = units.first(where: { $0.suffix == suffix }) else { return .failure(bad) }
        let count = digits.reduce(UInt64(0)) { $0 * 10 + UInt64($1 - 0x30) }
        guard count > 0 else {
            return .failure(SinceError(message: "--since: the period must be longer than 0, got \"\(text)\""))
        }
        let (seconds, overflow) = count.multipliedReportingOverflow(by: unit.seconds)
        guard !overflow, seconds <= maximumSeconds else {
            return .failure(SinceError(message: "--since: \(text) is too long (at most 100 years)"))
        }
        return .success(seconds)
    }
}

/// Why a `--since` value was refused.
public struct SinceError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
