import CLibc

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
    ///
    /// Eight bytes at a time, in the scanner's own code rather than glibc's memchr: a sample
    /// skips a dozen lines (/proc/stat's interrupt counts among them), and memchr's code, its
    /// IFUNC stub and table were three pages a sample touched cold for them.
    public mutating func skipLine() {
        guard position < bytes.count, let base = bytes.baseAddress else { return }
        let end = bytes.count
        var p = position
        while p &+ 8 <= end {
            // A zero byte of `word` is a newline; the lowest flagged byte is the first one (the
            // borrow of the subtraction may flag bytes above it, never below).
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: p, as: UInt64.self)) ^ 0x0A0A_0A0A_0A0A_0A0A
            let zeros = (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
            if zeros != 0 {
                position = p &+ zeros.trailingZeroBitCount &>> 3 &+ 1
                return
            }
            p &+= 8
        }
        while p < end {
            if base.load(fromByteOffset: p, as: UInt8.self) == 0x0A {
                position = p &+ 1
                return
            }
            p &+= 1
        }
        position = end
    }

    /// The line from the current position, without its newline, and moves past it; nil at
    /// the end.
    public mutating func nextLine() -> UnsafeRawBufferPointer? {
        guard !isAtEnd else { return nil }
        let start = position
        skipLine()
        var end = position
        if end > start, bytes[end - 1] == 0x0A { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
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

    /// Consumes `literal`, of at most 16 bytes, if the bytes at the cursor start with it,
    /// compared as the words `low` (its bytes 0…7, little-endian) and `high` (8…15) written
    /// in the caller's code: ``consume(_:)`` reads the literal from the binary's read-only
    /// data, a page of its own in each sample, for the few words the sampler looks for every
    /// second. The words must spell the literal: debug builds (the tests) check each call;
    /// release builds never touch the literal.
    @inline(__always)
    public mutating func consume(_ literal: StaticString, low: UInt64, high: UInt64 = 0) -> Bool {
        assert(ByteScanner.spells(literal, low, high), "the words do not spell \(literal)")
        let n = literal.utf8CodeUnitCount
        guard n <= 16 else { return consume(literal) }
        guard startsWith(low: low, high: high, count: n) else { return false }
        position &+= n
        return true
    }

    /// Whether the `n` (at most 16) bytes at the cursor are the ones packed in `low` and
    /// `high` as ``words(_:)`` packs them; the cursor does not move. Two word compares where
    /// 16 bytes are left, byte by byte nearer the end.
    @inline(__always)
    public func startsWith(low: UInt64, high: UInt64, count n: Int) -> Bool {
        guard n <= 16, position &+ n <= bytes.count, let base = bytes.baseAddress else { return false }
        if bytes.count &- position >= 16 {
            let mask0: UInt64 = n >= 8 ? ~0 : (1 << (8 &* UInt64(n))) &- 1
            guard UInt64(littleEndian: base.loadUnaligned(fromByteOffset: position, as: UInt64.self)) & mask0 == low else { return false }
            if n > 8 {
                let mask1: UInt64 = n >= 16 ? ~0 : (1 << (8 &* UInt64(n &- 8))) &- 1
                guard UInt64(littleEndian: base.loadUnaligned(fromByteOffset: position &+ 8, as: UInt64.self)) & mask1 == high else { return false }
            }
            return true
        }
        return startsWithNearTheEnd(low: low, high: high, count: n)
    }

    /// ``startsWith(low:high:count:)`` byte by byte, where fewer than 16 bytes are left: one
    /// copy, out of the callers' code (their lines run every sample, this seldom).
    @inline(never)
    private func startsWithNearTheEnd(low: UInt64, high: UInt64, count n: Int) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        for i in 0..<n {
            let expected = UInt8(truncatingIfNeeded: (i < 8 ? low : high) >> (8 &* UInt64(i & 7)))
            if base.load(fromByteOffset: position &+ i, as: UInt8.self) != expected { return false }
        }
        return true
    }

    /// The first 16 bytes of `bytes` (fewer: zeros past them) as two little-endian words:
    /// bytes 0…7, 8…15.
    public static func words(_ bytes: UnsafeRawBufferPointer) -> (low: UInt64, high: UInt64) {
        var words: (low: UInt64, high: UInt64) = (0, 0)
        for i in 0..<Swift.min(bytes.count, 16) {
            let byte = UInt64(bytes[i]) << (8 * UInt64(i & 7))
            if i < 8 { words.low |= byte } else { words.high |= byte }
        }
        return words
    }

    /// Whether `low` and `high` hold the bytes of `literal` (at most 16), little-endian, and
    /// nothing past them.
    static func spells(_ literal: StaticString, _ low: UInt64, _ high: UInt64) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard n <= 16 else { return false }
        let words = words(UnsafeRawBufferPointer(start: literal.utf8Start, count: n))
        return words.low == low && words.high == high
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
