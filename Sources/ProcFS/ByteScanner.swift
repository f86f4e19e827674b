#if canImport(Glibc)
import Glibc
#endif

/// A cursor over bytes for parsing /proc text without creating strings.
///
/// Every method either consumes what it parsed and returns it, or returns nil
/// and leaves the cursor where it was. Numbers are parsed by hand: no
/// allocation, no locale, overflow saturates instead of trapping.
public struct ByteScanner {
    public let bytes: UnsafeRawBufferPointer
    public var position: Int

    public init(_ bytes: UnsafeRawBufferPointer, position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    public var isAtEnd: Bool { position >= bytes.count }
    public var current: UInt8? { isAtEnd ? nil : bytes[position] }

    /// Skips spaces and tabs (not newlines).
    public mutating func skipBlanks() {
        guard let base = bytes.baseAddress else { return }
        var p = position
        let end = bytes.count
        // Eight spaces at a time: /proc pads its columns with runs of them (meminfo's figures
        // are right-aligned in eight places).
        while p &+ 8 <= end && base.loadUnaligned(fromByteOffset: p, as: UInt64.self) == 0x2020_2020_2020_2020 { p &+= 8 }
        while p < end {
            let b = base.load(fromByteOffset: p, as: UInt8.self)
            if b != 0x20 && b != 0x09 { break }
            p &+= 1
        }
        position = p
    }

    /// Skips to just after the next newline (or to the end).
    public mutating func skipLine() {
        guard position < bytes.count, let base = bytes.baseAddress else { return }
        // memchr: the lines skipped whole (most of meminfo's, /proc/stat's interrupt counts).
        if let newline = memchr(base + position, 0x0A, bytes.count - position) {
            position = base.distance(to: UnsafeRawPointer(newline)) + 1
        } else {
            position = bytes.count
        }
    }

    /// Skips blanks, then parses an unsigned decimal number.
    public mutating func unsigned() -> UInt64? {
        skipBlanks()
        guard let base = bytes.baseAddress else { return nil }
        let end = bytes.count
        var p = position
        var value: UInt64 = 0
        // Nineteen digits always fit in a UInt64: no overflow check until then.
        let unchecked = Swift.min(end, p &+ 19)
        while p < unchecked {
            let digit = base.load(fromByteOffset: p, as: UInt8.self) &- 0x30
            if digit > 9 { break }
            value = value &* 10 &+ UInt64(digit)
            p &+= 1
        }
        if p == position { return nil }
        while p < end {
            let digit = base.load(fromByteOffset: p, as: UInt8.self) &- 0x30
            if digit > 9 { break }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(UInt64(digit))
            value = (o1 || o2) ? UInt64.max : a
            p &+= 1
        }
        position = p
        return value
    }

    /// Skips blanks, then parses a signed decimal number (a leading `-`).
    public mutating func signed() -> Int64? {
        skipBlanks()
        let start = position
        var negative = false
        if current == 0x2D { negative = true; position += 1 }
        guard let magnitude = unsigned() else { position = start; return nil }
        let clamped = Int64(clamping: magnitude)
        return negative ? -clamped : clamped
    }

    /// Skips blanks, then parses a decimal with an optional fraction, scaled by
    /// 10^`scale` and rounded down: `"0.25"` with scale 2 gives 25.
    @inline(never)  // one copy for its callers (loadavg's three, pressure's): code a sample runs cold
    public mutating func fixedPoint(scale: Int) -> UInt64? {
        let start = position
        guard var whole = unsigned() else { return nil }
        for _ in 0..<scale { whole = whole.multipliedReportingOverflow(by: 10).overflow ? .max : whole * 10 }
        var fraction: UInt64 = 0
        if current == 0x2E {
            position += 1
            var digits = 0
            var divisor: UInt64 = 1
            for _ in 0..<scale { divisor *= 10 }
            while let b = current, b >= 0x30, b <= 0x39 {
                if digits < scale {
                    divisor /= 10
                    fraction += UInt64(b - 0x30) * divisor
                }
                digits += 1
                position += 1
            }
            if digits == 0 { position = start; return nil }
        }
        let (sum, overflow) = whole.addingReportingOverflow(fraction)
        return overflow ? .max : sum
    }

    /// Skips blanks, then consumes a word (bytes up to a blank, newline or end).
    public mutating func word() -> UnsafeRawBufferPointer? {
        skipBlanks()
        let start = position
        while position < bytes.count {
            let b = bytes[position]
            if b == 0x20 || b == 0x09 || b == 0x0A { break }
            position += 1
        }
        if position == start { return nil }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<position])
    }

    /// Consumes `literal` if the bytes at the cursor start with it.
    @inline(never)  // one copy for the literals a parse tries, not one each
    public mutating func consume(_ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard position + n <= bytes.count else { return false }
        let lit = literal.utf8Start
        for i in 0..<n where bytes[position + i] != lit[i] { return false }
        position += n
        return true
    }
}

/// Whether `bytes` equal the ASCII of `literal`.
public func bytesEqual(_ bytes: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
    let n = literal.utf8CodeUnitCount
    guard bytes.count == n else { return false }
    let lit = literal.utf8Start
    for i in 0..<n where bytes[i] != lit[i] { return false }
    return true
}

/// `a × b`, or UInt64.max when the product does not fit: figures read from /proc and
/// /sys are outside input, so arithmetic on them saturates rather than traps or wraps.
@inline(__always)
public func saturatingProduct(_ a: UInt64, _ b: UInt64) -> UInt64 {
    let (product, overflow) = a.multipliedReportingOverflow(by: b)
    return overflow ? .max : product
}
