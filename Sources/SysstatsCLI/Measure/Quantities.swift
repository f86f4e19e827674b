// Sizes ("2 MiB", "300K") and durations ("500ms", "1s") as budgets files and options write
// them. No Foundation: the budgets-file fuzz target compiles this file on its own.

/// A size in bytes from text: a number (up to three decimals) and a unit. K, M, G, T and
/// their KiB/MiB/… spellings are powers of 1024 (as `ulimit`, `ps` and GNU `time` count), in
/// any case; kB, MB, GB, TB, written so, are powers of 1000; B or no unit is bytes. Another
/// case of those (`mb`, `KB`) is refused: people mean either.
public enum SizeText {
    /// The size in bytes, or the reason the text is not one.
    public static func parse(_ text: String) -> Result<UInt64, QuantityError> {
        guard let (number, unit) = split(text) else { return .failure(.init("'\(text)' is not a size (e.g. \"2 MiB\", \"300K\")")) }
        let decimal = ["kB", "MB", "GB", "TB"]
        if unit.utf8.count == 2, unit.lowercased().hasSuffix("b"), unit.lowercased() != "ib", !decimal.contains(unit) {
            let prefix = unit.first!.uppercased()
            let si = prefix == "K" ? "kB" : prefix + "B"
            return .failure(.init("'\(text)' is ambiguous: write \(si) (powers of 1000) or \(prefix)iB (powers of 1024)"))
        }
        let multiplier: UInt64
        switch unit.lowercased() {
        case "", "b": multiplier = 1
        case "k", "ki", "kib": multiplier = 1 << 10
        case "m", "mi", "mib": multiplier = 1 << 20
        case "g", "gi", "gib": multiplier = 1 << 30
        case "t", "ti", "tib": multiplier = 1 << 40
        case "kb": multiplier = 1_000
        case "mb": multiplier = 1_000_000
        case "gb": multiplier = 1_000_000_000
        case "tb": multiplier = 1_000_000_000_000
        default: return .failure(.init("'\(text)': unknown size unit '\(unit)' (B, K, KiB, MiB, GiB, kB, MB, GB)"))
        }
        guard let bytes = number.scaled(by: multiplier) else { return .failure(.init("'\(text)' is too large")) }
        return .success(bytes)
    }

    /// `bytes` for people: "812 KiB", "3.41 MiB", "1.20 GiB" (binary units, three figures).
    public static func format(_ bytes: UInt64) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        let units = ["KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes) / 1024, index = 0
        while value >= 1024 && index < units.count - 1 { value /= 1024; index += 1 }
        return fixed(value, decimals: value < 10 ? 2 : value < 100 ? 1 : 0) + " " + units[index]
    }

    /// A figure as whole bytes for ``format(_:)``, for any Double: NaN and below 0 as 0, 2^64
    /// and more as `UInt64.max` (a limit of `UInt64.max` bytes is 2^64 as a Double, on which
    /// `UInt64(_:)` traps).
    public static func bytes(_ figure: Double) -> UInt64 {
        guard figure > 0 else { return 0 }
        return figure >= 18_446_744_073_709_551_616.0 ? .max : UInt64(figure)
    }

    /// A signed size (a growth, a difference): "+1.20 MiB", "-812 KiB", "0 B".
    public static func formatSigned(_ bytes: Double) -> String {
        let magnitude = Self.bytes(bytes.magnitude.rounded())
        if magnitude == 0 { return "0 B" }
        return (bytes < 0 ? "-" : "+") + format(magnitude)
    }
}

/// A duration in milliseconds from text: a number (up to three decimals) and one of ms, s,
/// m (or min), h. A unit is required: "10" could mean either.
public enum DurationText {
    public static func parse(_ text: String) -> Result<UInt64, QuantityError> {
        guard let (number, unit) = split(text), !unit.isEmpty else {
            return .failure(.init("'\(text)' is not a duration (e.g. \"500ms\", \"1s\", \"2m\")"))
        }
        let multiplier: UInt64
        switch unit.lowercased() {
        case "ms": multiplier = 1
        case "s": multiplier = 1_000
        case "m", "min": multiplier = 60_000
        case "h": multiplier = 3_600_000
        default: return .failure(.init("'\(text)': unknown duration unit '\(unit)' (ms, s, m, h)"))
        }
        guard let ms = number.scaled(by: multiplier) else { return .failure(.init("'\(text)' is too long")) }
        return .success(ms)
    }

    /// `ms` for people: "850 ms", "2.50 s", "3 min 20 s".
    public static func format(ms: UInt64) -> String {
        if ms < 1_000 { return "\(ms) ms" }
        if ms < 60_000 { return fixed(Double(ms) / 1000, decimals: 2) + " s" }
        return "\(ms / 60_000) min \((ms % 60_000) / 1000) s"
    }
}

/// Why a size or duration was refused: one line, naming the text.
public struct QuantityError: Error, Equatable, Sendable {
    public var message: String
    init(_ message: String) { self.message = message }
}

/// A decimal number with at most three decimals, as thousandths.
struct Thousandths {
    var value: UInt64

    /// value × multiplier ÷ 1000, rounded down; nil when it does not fit in 64 bits.
    func scaled(by multiplier: UInt64) -> UInt64? {
        let (high, low) = value.multipliedFullWidth(by: multiplier)
        // The quotient fits in 64 bits exactly when the high half is below the divisor.
        guard high < 1000 else { return nil }
        return (1000 as UInt64).dividingFullWidth((high, low)).quotient
    }
}

/// Splits "1.5 MiB" into 1500 thousandths and "MiB"; nil when there is no number first,
/// more than three decimals, or the number does not fit.
func split(_ text: String) -> (Thousandths, String)? {
    let bytes = Array(text.utf8)
    var i = 0
    while i < bytes.count && bytes[i] == 0x20 { i += 1 }
    var whole: UInt64 = 0, fraction: UInt64 = 0, digits = 0, decimals = 0
    while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
        let (times, o1) = whole.multipliedReportingOverflow(by: 10)
        let (sum, o2) = times.addingReportingOverflow(UInt64(bytes[i] - 0x30))
        guard !o1, !o2 else { return nil }
        whole = sum; digits += 1; i += 1
    }
    guard digits > 0 else { return nil }
    if i < bytes.count && bytes[i] == 0x2E {
        i += 1
        while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
            guard decimals < 3 else { return nil }
            fraction = fraction * 10 + UInt64(bytes[i] - 0x30); decimals += 1; i += 1
        }
        guard decimals > 0 else { return nil }
    }
    for _ in decimals..<3 { fraction *= 10 }
    let (thousands, overflow) = whole.multipliedReportingOverflow(by: 1000)
    guard !overflow, thousands <= UInt64.max - fraction else { return nil }
    while i < bytes.count && bytes[i] == 0x20 { i += 1 }
    var end = bytes.count
    while end > i && bytes[end - 1] == 0x20 { end -= 1 }
    let unit = bytes[i..<end]
    // A unit is letters only: "2 MiB x" or "1s5" is refused, not half read.
    guard unit.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }) else { return nil }
    return (Thousandths(value: thousands + fraction), String(decoding: unit, as: UTF8.self))
}

/// `value` with `decimals` digits after the point, without Foundation's String(format:).
func fixed(_ value: Double, decimals: Int) -> String {
    guard value.isFinite else { return "n/a" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (value.magnitude * scale).rounded()
    guard scaled < 9.0e18 else { return value < 0 ? "-huge" : "huge" }
    let units = UInt64(scaled), factor = UInt64(scale)
    var text = (value < 0 && units > 0 ? "-" : "") + String(units / factor)
    if decimals > 0 {
        let fraction = String(units % factor)
        text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
    return text
}
