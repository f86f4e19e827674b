/// An interface's IPv4 or IPv6 address and prefix length, as raw network-order bytes.
///
/// Kept inline (no heap storage), so an ``InterfaceTable`` entry costs a fixed size.
/// ``appendAddress(into:)`` writes its text without Foundation or `inet_ntop`.
public struct InterfaceAddress: Equatable, Sendable {
    public enum Family: UInt8, Sendable {
        case ipv4 = 2   // AF_INET
        case ipv6 = 10  // AF_INET6
    }

    public let family: Family
    /// The address in network byte order; IPv4 uses the first 4 bytes, the rest are 0.
    public let bytes: SIMD16<UInt8>
    /// The prefix length, at most 32 (IPv4) or 128 (IPv6).
    public var prefixLength: UInt8

    /// An address from its raw bytes: exactly 4 for IPv4, 16 for IPv6; nil otherwise.
    /// A prefix length beyond the family's width is clamped to it.
    public init?(family: Family, bytes raw: UnsafeRawBufferPointer, prefixLength: UInt8) {
        let width = family == .ipv4 ? 4 : 16
        guard raw.count == width else { return nil }
        var b = SIMD16<UInt8>()
        for i in 0..<width { b[i] = raw[i] }
        self.family = family
        self.bytes = b
        self.prefixLength = min(prefixLength, UInt8(width * 8))
    }

    /// Appends the address as text: dotted quad (`192.168.1.20`), or IPv6 in RFC 5952's
    /// canonical form (lowercase, no leading zeros, the longest run of two or more zero
    /// groups — the first of equal runs — as `::`, a lone zero group kept as `0`;
    /// IPv4-mapped addresses as `::ffff:192.0.2.1`).
    public func appendAddress(into out: inout [UInt8]) {
        if family == .ipv4 {
            appendDottedQuad(from: 0, into: &out)
        } else {
            appendIPv6(into: &out)
        }
    }

    /// Appends the address and `/prefix`, e.g. `192.168.1.20/24`.
    public func appendAddressWithPrefix(into out: inout [UInt8]) {
        appendAddress(into: &out)
        out.append(UInt8(ascii: "/"))
        appendDecimal(prefixLength, into: &out)
    }

    private func group(_ i: Int) -> UInt16 { UInt16(bytes[2 * i]) << 8 | UInt16(bytes[2 * i + 1]) }

    private func appendDottedQuad(from start: Int, into out: inout [UInt8]) {
        for i in 0..<4 {
            if i > 0 { out.append(UInt8(ascii: ".")) }
            appendDecimal(bytes[start + i], into: &out)
        }
    }

    private func appendIPv6(into out: inout [UInt8]) {
        // ::ffff:a.b.c.d (RFC 5952 section 5).
        if group(0) == 0, group(1) == 0, group(2) == 0, group(3) == 0, group(4) == 0, group(5) == 0xFFFF {
            for c in "::ffff:".utf8 { out.append(c) }
            appendDottedQuad(from: 12, into: &out)
            return
        }
        // The longest run of zero groups, at least two long; the first on a tie.
        var bestStart = -1, bestLength = 1
        var i = 0
        while i < 8 {
            guard group(i) == 0 else { i += 1; continue }
            var j = i
            while j < 8, group(j) == 0 { j += 1 }
            if j - i > bestLength { bestStart = i; bestLength = j - i }
            i = j
        }
        i = 0
        var afterGap = false
        while i < 8 {
            if i == bestStart {
                out.append(UInt8(ascii: ":"))
                out.append(UInt8(ascii: ":"))
                i += bestLength
                afterGap = true
                continue
            }
            if i > 0 && !afterGap { out.append(UInt8(ascii: ":")) }
            afterGap = false
            appendHex(group(i), into: &out)
            i += 1
        }
    }
}

private func appendDecimal(_ value: UInt8, into out: inout [UInt8]) {
    if value >= 100 { out.append(0x30 + value / 100) }
    if value >= 10 { out.append(0x30 + value / 10 % 10) }
    out.append(0x30 + value % 10)
}

private func appendHex(_ value: UInt16, into out: inout [UInt8]) {
    let digits: StaticString = "0123456789abcdef"
    var started = false
    for shift in stride(from: 12, through: 0, by: -4) {
        let nibble = Int(value >> UInt16(shift) & 0xF)
        if nibble != 0 || started || shift == 0 {
            out.append(digits.utf8Start[nibble])
            started = true
        }
    }
}
