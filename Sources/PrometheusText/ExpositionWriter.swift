// Appends the exposition format's lines to one byte array (PrometheusText.swift).

/// Appends the lines of one exposition. A sample is `begin`, any `label`s, then one value.
///
/// Two entries whose labels come out the same (two hwmon chips both `nvme` with a sensor
/// `Composite`, names that differ only in what escaping or the length limit removed) would
/// make node_exporter refuse the whole file; the second gets `n="2"`, the third `n="3"`.
struct ExpositionWriter {
    enum Kind { case gauge, counter }
    var out: [UInt8]
    private var labels = 0
    /// Where the current family's first sample, the current sample and its labels start.
    private var familyStart = 0
    private var sampleStart = 0
    private var labelsStart = 0

    init(out: [UInt8]) { self.out = out }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// `# HELP` and `# TYPE` (the help texts are constants: no backslash, no newline).
    mutating func family(_ name: StaticString, _ help: StaticString, _ kind: Kind) {
        append("# HELP "); append(name); append(" "); append(help); append("\n# TYPE "); append(name)
        append(kind == .gauge ? " gauge\n" : " counter\n")
        familyStart = out.count
    }

    mutating func begin(_ name: StaticString) {
        sampleStart = out.count
        append(name)
        labelsStart = out.count
        labels = 0
    }

    private mutating func openLabel(_ key: StaticString) {
        out.append(labels == 0 ? UInt8(ascii: "{") : UInt8(ascii: ","))
        labels += 1
        append(key); append("=\"")
    }

    mutating func label(_ key: StaticString, _ value: StaticString) {
        openLabel(key); append(value); out.append(UInt8(ascii: "\""))
    }

    mutating func label(_ key: StaticString, bytes value: [UInt8]) {
        openLabel(key)
        value.withUnsafeBytes { PrometheusText.appendLabelValue($0, to: &out) }
        out.append(UInt8(ascii: "\""))
    }

    /// `key="N"`: a number as a label's value (a GPU's card index).
    mutating func label(_ key: StaticString, decimal n: UInt64) {
        openLabel(key); appendDecimal(n); out.append(UInt8(ascii: "\""))
    }

    mutating func rank(_ n: Int) {
        openLabel("rank"); appendDecimal(UInt64(n)); out.append(UInt8(ascii: "\""))
    }

    private mutating func closeLabels() {
        if labels > 0 {
            let earlier = earlierSamplesWithTheseLabels()
            if earlier > 0 {
                openLabel("n"); appendDecimal(UInt64(earlier + 1)); out.append(UInt8(ascii: "\""))
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: " "))
    }

    /// The family's earlier samples whose labels are the current sample's (with or without
    /// an `n` of their own). The current labels end in a closing quote, so an earlier line
    /// that starts with the same bytes has the same values. At most a few dozen short lines.
    private func earlierSamplesWithTheseLabels() -> Int {
        let nameLength = labelsStart - sampleStart
        let current = out.count - labelsStart
        var count = 0
        var line = familyStart
        while line < sampleStart {
            var end = line
            while out[end] != 0x0A { end += 1 }
            let start = line + nameLength
            if start + current < end {
                var same = true
                var i = 0
                while i < current { if out[start + i] != out[labelsStart + i] { same = false; break }; i += 1 }
                if same {
                    let next = out[start + current]
                    if next == UInt8(ascii: "}") || (next == UInt8(ascii: ",") && out[start + current + 1] == UInt8(ascii: "n")
                                                      && out[start + current + 2] == UInt8(ascii: "=")) {
                        count += 1
                    }
                }
            }
            line = end + 1
        }
        return count
    }

    mutating func value(_ v: UInt64) { closeLabels(); appendDecimal(v); out.append(0x0A) }

    mutating func fixedValue(_ v: UInt64, decimals: Int) { closeLabels(); appendFixed(v, decimals: decimals); out.append(0x0A) }

    mutating func signedFixedValue(_ v: Int64, decimals: Int) {
        closeLabels()
        if v < 0 { out.append(UInt8(ascii: "-")) }
        appendFixed(v.magnitude, decimals: decimals)
        out.append(0x0A)
    }

    mutating func sample(_ name: StaticString, _ v: UInt64) { begin(name); value(v) }
    mutating func sample(_ name: StaticString, fixed v: UInt64, decimals: Int) { begin(name); fixedValue(v, decimals: decimals) }

    mutating func appendDecimal(_ value: UInt64) {
        if value < 10 { out.append(0x30 &+ UInt8(value)); return }
        var divisor: UInt64 = 1
        while value / divisor >= 10 { divisor &*= 10 }
        var rest = value
        while divisor > 0 {
            out.append(0x30 &+ UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// `value / 10^decimals`, trailing zeros of the fraction dropped ("0.25", "3", "12.5").
    mutating func appendFixed(_ value: UInt64, decimals: Int) {
        var scale: UInt64 = 1
        for _ in 0..<decimals { scale &*= 10 }
        appendDecimal(value / scale)
        var fraction = value % scale
        guard fraction > 0 else { return }
        out.append(UInt8(ascii: "."))
        var digits = decimals
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        var divisor: UInt64 = 1
        for _ in 1..<digits { divisor &*= 10 }
        while divisor > 0 {
            out.append(0x30 &+ UInt8(fraction / divisor))
            fraction %= divisor
            divisor /= 10
        }
    }
}
