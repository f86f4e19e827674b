// Number formats shared by the blocks. All write bytes; none builds a String.

extension ByteWriter {
    /// Appends a KiB figure in binary units: `512K`, `3.4M`, `342M`, `3.2G`, `15.5G`, `120G`, `1.5T`.
    public mutating func appendSize(kib: UInt64) {
        if kib < 1024 {
            appendDecimal(kib); append(UInt8(ascii: "K")); return
        }
        let units: (UInt8, UInt8, UInt8) = (UInt8(ascii: "M"), UInt8(ascii: "G"), UInt8(ascii: "T"))
        var value = kib  // in units of 1024^(u+1) KiB below
        var u = 0
        var divisor: UInt64 = 1024
        while u < 2 && kib / divisor >= 1024 { divisor *= 1024; u += 1 }
        value = kib
        // Tenths of the unit, rounded; split so that no product overflows (a hostile
        // snapshot may say UInt64.max).
        let tenths = value / divisor * 10 + (value % divisor * 10 + divisor / 2) / divisor
        let unit = u == 0 ? units.0 : (u == 1 ? units.1 : units.2)
        let oneDecimal = u == 0 ? tenths < 100 : tenths < 1000
        if oneDecimal {
            appendDecimal(tenths / 10); append(UInt8(ascii: ".")); appendDecimal(tenths % 10)
        } else {
            appendDecimal((tenths + 5) / 10)
        }
        append(unit)
    }

    /// Appends a size in KiB in at most four characters, for the panel's legend: `512K`,
    /// `9.5M`, `977M`, `2.9G`, `15G`, `128G`, `1.0T` (binary units, rounded; 1000 or more
    /// of a unit is shown in the next, e.g. 1010M as `1.0G`). Any UInt64 fits (`15Z` at most).
    public mutating func appendCompactSize(kib: UInt64) {
        let units: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (
            UInt8(ascii: "K"), UInt8(ascii: "M"), UInt8(ascii: "G"), UInt8(ascii: "T"), UInt8(ascii: "P"),
            UInt8(ascii: "E"), UInt8(ascii: "Z"))
        var u = 0
        var divisor: UInt64 = 1
        while true {
            let whole = kib / divisor
            // Tenths of the unit, rounded; `whole` < 1000 here, so nothing overflows.
            let tenths = whole < 1000 ? whole * 10 + (kib % divisor * 10 + divisor / 2) / divisor : .max
            if u == 6 || tenths < 9995 {
                let unit: UInt8
                switch u {
                case 0: unit = units.0
                case 1: unit = units.1
                case 2: unit = units.2
                case 3: unit = units.3
                case 4: unit = units.4
                case 5: unit = units.5
                default: unit = units.6
                }
                if u > 0 && tenths < 100 {
                    appendDecimal(tenths / 10); append(UInt8(ascii: ".")); appendDecimal(tenths % 10)
                } else {
                    appendDecimal(u == 6 ? kib / divisor : (tenths + 5) / 10)
                }
                append(unit)
                return
            }
            divisor *= 1024
            u += 1
        }
    }

    /// Appends a rate in bytes per second: `0B/s`, `512B/s`, `17K/s`, `3.4M/s` (binary units).
    public mutating func appendRate(bytesPerSecond: UInt64) {
        if bytesPerSecond < 1024 {
            appendDecimal(bytesPerSecond); append(UInt8(ascii: "B"))
        } else {
            appendSize(kib: bytesPerSecond / 1024)
        }
        append("/s")
    }

    /// Appends a share in hundredths of a percent as a whole percent, rounded: `42%`.
    public mutating func appendPercent(permyriad: UInt64) {
        appendDecimal(wholePercent(permyriad))
        append(UInt8(ascii: "%"))
    }

    /// Appends a duration in seconds compactly: `45s`, `12m`, `5h 12m`, `3d 4h`.
    public mutating func appendDuration(seconds: UInt64) {
        let d = seconds / 86_400, h = seconds / 3600 % 24, m = seconds / 60 % 60
        if d > 0 {
            appendDecimal(d); append("d "); appendDecimal(h); append(UInt8(ascii: "h"))
        } else if h > 0 {
            appendDecimal(h); append("h "); appendDecimal(m); append(UInt8(ascii: "m"))
        } else if m > 0 {
            appendDecimal(m); append(UInt8(ascii: "m"))
        } else {
            appendDecimal(seconds); append(UInt8(ascii: "s"))
        }
    }

    /// Appends one sparkline character (▁▂▃▄▅▆▇█) for a share in hundredths of a percent.
    public mutating func appendSparkline(permyriad: UInt64) {
        // U+2581...U+2588 are E2 96 81...88.
        let level = min(7, min(permyriad, 10_000) * 8 / 10_000)
        append(0xE2); append(0x96); append(0x81 + UInt8(level))
    }
}

// Arithmetic on figures from a snapshot. A snapshot is hostile input (another local
// user may have written it; a /proc may report anything), so every share, sum and
// rounding below holds for any UInt64, UInt64.max included, and never traps.

/// `part × scale ÷ total` without overflow, `part` clamped to `total` (0 when total is 0).
func proportion(_ part: UInt64, of total: UInt64, scale: UInt64) -> UInt64 {
    guard total > 0 else { return 0 }
    let product = min(part, total).multipliedFullWidth(by: scale)
    return total.dividingFullWidth(product).quotient
}

/// `part` as a share of `total` in hundredths of a percent, 0...10000.
func share(_ part: UInt64, of total: UInt64) -> UInt64 {
    proportion(part, of: total, scale: 10_000)
}

/// A share in hundredths of a percent as a whole percent, rounded half up, for any value.
func wholePercent(_ permyriad: UInt64) -> UInt64 {
    permyriad / 100 + (permyriad % 100 >= 50 ? 1 : 0)
}

/// `a + b`, or UInt64.max when the sum does not fit.
func saturatingAdd(_ a: UInt64, _ b: UInt64) -> UInt64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? .max : sum
}
