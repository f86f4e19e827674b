// What every fuzz target shares: how a broken property is reported (a trap, so that
// libFuzzer keeps the input as a crash file) and a strict UTF-8 check. Only the
// standard library and Glibc: the targets link the real modules and nothing else.

#if canImport(Glibc)
import Glibc
#endif

/// Prints what broke (and the offending output, escaped) to stderr, then traps.
func fuzzFail(_ what: String, _ output: [UInt8] = []) -> Never {
    var message = "fuzz property broken: " + what + "\n"
    if !output.isEmpty { message += "  output: " + printable(output) + "\n" }
    fputs(message, stderr)
    fatalError(what)
}

/// Fails with `what` unless `condition` holds.
@inline(__always)
func expect(_ condition: Bool, _ what: @autoclosure () -> String, _ output: @autoclosure () -> [UInt8] = []) {
    if !condition { fuzzFail(what(), output()) }
}

/// `bytes` as printable ASCII, `\xNN` for anything else, cut at 4,000 bytes.
func printable(_ bytes: [UInt8]) -> String {
    var s = ""
    for b in bytes.prefix(4000) {
        if b >= 0x20 && b < 0x7F && b != UInt8(ascii: "\\") {
            s.unicodeScalars.append(Unicode.Scalar(b))
        } else {
            let hex: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
            s += "\\x"
            s.append(hex[Int(b >> 4)])
            s.append(hex[Int(b & 15)])
        }
    }
    if bytes.count > 4000 { s += "... (\(bytes.count) bytes)" }
    return s
}

/// Length of the well-formed UTF-8 sequence at `i` (RFC 3629: no overlong forms, no
/// surrogates, nothing above U+10FFFF), or 0. Written here, not taken from the code
/// under test, so the two can disagree.
func utf8Length<C: RandomAccessCollection<UInt8>>(_ s: C, _ i: C.Index) -> Int {
    let n = s.distance(from: i, to: s.endIndex)
    func at(_ k: Int) -> UInt8 { s[s.index(i, offsetBy: k)] }
    let b0 = at(0)
    if b0 < 0x80 { return 1 }
    func cont(_ k: Int, _ lo: UInt8 = 0x80, _ hi: UInt8 = 0xBF) -> Bool { k < n && at(k) >= lo && at(k) <= hi }
    switch b0 {
    case 0xC2...0xDF: return cont(1) ? 2 : 0
    case 0xE0: return cont(1, 0xA0) && cont(2) ? 3 : 0
    case 0xE1...0xEC, 0xEE, 0xEF: return cont(1) && cont(2) ? 3 : 0
    case 0xED: return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0
    case 0xF0: return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0
    case 0xF1...0xF3: return cont(1) && cont(2) && cont(3) ? 4 : 0
    case 0xF4: return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0
    default: return 0
    }
}

/// Whether all of `s` is well-formed UTF-8.
func isValidUTF8<C: RandomAccessCollection<UInt8>>(_ s: C) -> Bool {
    var i = s.startIndex
    while i != s.endIndex {
        let n = utf8Length(s, i)
        if n == 0 { return false }
        i = s.index(i, offsetBy: n)
    }
    return true
}

/// Reads fixed-width little-endian fields from the fuzz input; past its end every
/// field reads as zero (so every input is a value, none is refused).
struct FieldReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0
    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
    var isAtEnd: Bool { offset >= bytes.count }
    mutating func u8() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }
    mutating func u16() -> UInt16 { UInt16(u8()) | UInt16(u8()) << 8 }
    mutating func u32() -> UInt32 { UInt32(u16()) | UInt32(u16()) << 16 }
    mutating func u64() -> UInt64 { UInt64(u32()) | UInt64(u32()) << 32 }
    /// Up to `count` bytes (fewer at the end of the input).
    mutating func bytes(_ count: Int) -> [UInt8] {
        var out: [UInt8] = []
        while out.count < count && offset < bytes.count { out.append(u8()) }
        return out
    }
}
