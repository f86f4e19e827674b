// Decimal → binary64, correctly rounded (round half to even), without the C library or
// Foundation (the Embedded renderer has neither). Short inputs take Clinger's fast path
// (an exact integer times or over an exact power of ten: one rounding). The others are
// computed exactly with a small big integer: digits × 5^e shifted, or digits divided by
// 5^-e bit by bit, then rounded once. Past 800 significant digits the rest only decide
// "above" or "exactly": a midpoint between two doubles has at most 767 significant digits.

enum DecimalToDouble {
    static let maximumDigits = 800

    /// Exact powers of ten as doubles (10^22 is the last exact one).
    static let powersOfTen: [Double] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22]

    /// `digits` (each 0...9, leading zeros allowed) × 10^`exponent`, nearest double.
    static func convert(_ digits: [UInt8], exponent: Int) -> Double {
        // Significant digits only: no leading zeros; trailing zeros go into the exponent.
        var first = 0
        while first < digits.count && digits[first] == 0 { first += 1 }
        if first == digits.count { return 0 }
        var last = digits.count
        var e = exponent
        while digits[last - 1] == 0 { last -= 1; e += 1 }
        var count = last - first

        // 10^(count+e-1) <= value < 10^(count+e): out of the double range either way.
        if count + e > 310 { return Double.infinity }
        if count + e < -325 { return 0 }

        if count <= 19 {
            var m: UInt64 = 0
            for k in first..<last { m = m * 10 + UInt64(digits[k]) }
            if m <= 1 << 53 && e >= -22 && e <= 22 {
                let d = Double(m)
                return e >= 0 ? d * powersOfTen[e] : d / powersOfTen[-e]
            }
        }

        // The digits as a big integer; beyond the limit, a nonzero rest becomes a final 1
        // (strictly between the kept digits and the next value, which rounds alike).
        var sticky = false
        if count > maximumDigits {
            for k in (first + maximumDigits)..<last where digits[k] != 0 { sticky = true }
            e += count - maximumDigits
            count = maximumDigits
        }
        var n = BigUInt()
        for k in first..<(first + count) { n.multiply(by: 10, adding: UInt32(digits[k])) }
        if sticky {
            n.multiply(by: 10, adding: 1)
            e -= 1
        }

        if e >= 0 {
            // value = n × 5^e × 2^e
            n.multiply(byPowerOfFive: e)
            let (m, shift, rest) = n.top64()
            return makeDouble(m, binaryExponent: shift + e, sticky: rest)
        }
        // value = n / 5^-e × 2^e: a quotient of 63 or 64 bits, then the remainder's stickiness.
        var divisor = BigUInt()
        divisor.multiply(by: 1, adding: 1)
        divisor.multiply(byPowerOfFive: -e)
        let s = 63 + divisor.bitLength - n.bitLength
        if s >= 0 { n.shiftLeft(s) } else { divisor.shiftLeft(-s) }
        divisor.shiftLeft(63)
        var q: UInt64 = 0
        for bit in stride(from: 63, through: 0, by: -1) {
            if n.compare(divisor) >= 0 {
                n.subtract(divisor)
                q |= 1 << UInt64(bit)
            }
            divisor.shiftRightOne()
        }
        return makeDouble(q, binaryExponent: e - s, sticky: !n.isZero)
    }

    /// The nearest double to (`m` + a bit more when `sticky`) × 2^`binaryExponent`.
    static func makeDouble(_ mantissa: UInt64, binaryExponent: Int, sticky: Bool) -> Double {
        guard mantissa != 0 else { return 0 }
        var m = mantissa
        var e = binaryExponent
        let lead = m.leadingZeroBitCount
        m <<= UInt64(lead)
        e -= lead
        // m in [2^63, 2^64): the value's binary exponent is e + 63.
        let top = e + 63
        if top > 1023 { return Double.infinity }
        // Bits dropped: 11 for a normal double, more below 2^-1022 (subnormal).
        let drop = top >= -1022 ? 11 : 11 + (-1022 - top)
        if drop > 64 { return 0 }   // below half the smallest subnormal
        var kept: UInt64
        var roundUp: Bool
        if drop == 64 {
            kept = 0
            roundUp = m > 1 << 63 || (m == 1 << 63 && sticky)
        } else {
            kept = m >> UInt64(drop)
            let rest = m & ((1 << UInt64(drop)) - 1)
            let half: UInt64 = 1 << UInt64(drop - 1)
            roundUp = rest > half || (rest == half && (sticky || kept & 1 == 1))
        }
        if roundUp { kept += 1 }
        if top >= -1022 {
            var biased = UInt64(top + 1023)
            if kept == 1 << 53 {
                kept >>= 1
                biased += 1
            }
            if biased >= 2047 { return Double.infinity }
            return Double(bitPattern: biased << 52 | (kept & ((1 << 52) - 1)))
        }
        // Subnormal: exponent field 0; rounding up to 2^52 makes the smallest normal, as the bits say.
        return Double(bitPattern: kept)
    }
}

/// A non-negative big integer in 32-bit limbs, little-endian, without high zero limbs.
struct BigUInt {
    var limbs: [UInt32] = []

    var isZero: Bool { limbs.isEmpty }

    var bitLength: Int {
        guard let top = limbs.last else { return 0 }
        return limbs.count * 32 - top.leadingZeroBitCount
    }

    /// self = self × m + a.
    mutating func multiply(by m: UInt32, adding a: UInt32) {
        var carry = UInt64(a)
        for i in 0..<limbs.count {
            let p = UInt64(limbs[i]) * UInt64(m) + carry
            limbs[i] = UInt32(truncatingIfNeeded: p)
            carry = p >> 32
        }
        if carry != 0 { limbs.append(UInt32(carry)) }
        while limbs.last == 0 { limbs.removeLast() }
    }

    mutating func multiply(byPowerOfFive n: Int) {
        var left = n
        while left >= 13 {
            multiply(by: 1_220_703_125, adding: 0)   // 5^13
            left -= 13
        }
        var p: UInt32 = 1
        for _ in 0..<left { p *= 5 }
        multiply(by: p, adding: 0)
    }

    mutating func shiftLeft(_ bits: Int) {
        guard !limbs.isEmpty, bits > 0 else { return }
        let whole = bits / 32, part = UInt32(bits % 32)
        if part != 0 {
            var carry: UInt32 = 0
            for i in 0..<limbs.count {
                let v = limbs[i]
                limbs[i] = v << part | carry
                carry = v >> (32 - part)
            }
            if carry != 0 { limbs.append(carry) }
        }
        if whole > 0 { limbs.insert(contentsOf: repeatElement(0, count: whole), at: 0) }
    }

    mutating func shiftRightOne() {
        for i in 0..<limbs.count {
            let high: UInt32 = i + 1 < limbs.count ? limbs[i + 1] << 31 : 0
            limbs[i] = limbs[i] >> 1 | high
        }
        while limbs.last == 0 { limbs.removeLast() }
    }

    /// -1, 0 or 1 as self is below, equal to or above `other`.
    func compare(_ other: BigUInt) -> Int {
        if limbs.count != other.limbs.count { return limbs.count < other.limbs.count ? -1 : 1 }
        var i = limbs.count - 1
        while i >= 0 {
            if limbs[i] != other.limbs[i] { return limbs[i] < other.limbs[i] ? -1 : 1 }
            i -= 1
        }
        return 0
    }

    /// self -= other (other ≤ self).
    mutating func subtract(_ other: BigUInt) {
        var borrow: UInt64 = 0
        for i in 0..<limbs.count {
            let o = i < other.limbs.count ? UInt64(other.limbs[i]) : 0
            let (d1, b1) = UInt64(limbs[i]).subtractingReportingOverflow(o)
            let (d2, b2) = d1.subtractingReportingOverflow(borrow)
            limbs[i] = UInt32(truncatingIfNeeded: d2)
            borrow = b1 || b2 ? 1 : 0
        }
        while limbs.last == 0 { limbs.removeLast() }
    }

    /// The top 64 bits (all of them when fewer), how far they were shifted right, and
    /// whether any bit below them is set.
    func top64() -> (UInt64, shift: Int, sticky: Bool) {
        let length = bitLength
        if length <= 64 {
            var v: UInt64 = 0
            for i in stride(from: limbs.count - 1, through: 0, by: -1) { v = v << 32 | UInt64(limbs[i]) }
            return (v, 0, false)
        }
        let shift = length - 64
        var v: UInt64 = 0
        for bit in 0..<64 {
            let b = shift + bit
            if limbs[b / 32] >> UInt32(b % 32) & 1 == 1 { v |= 1 << UInt64(bit) }
        }
        var sticky = false
        for b in 0..<shift where limbs[b / 32] >> UInt32(b % 32) & 1 == 1 {
            sticky = true
            break
        }
        return (v, shift, sticky)
    }
}
