/// A short byte string kept inline: an interface name (`IFLA_IFNAME`, at most 15 bytes
/// since IFNAMSIZ is 16 with the NUL) or a link kind (`IFLA_INFO_KIND`: `veth`, `bridge`, …).
///
/// The bytes are the kernel's, not validated as UTF-8; longer input is cut at 15 bytes,
/// and the bytes from the first NUL on are dropped. No heap storage.
public struct ShortName: Equatable, Hashable, Sendable {
    /// The most bytes a name holds.
    public static let capacity = 15
    /// The bytes; positions at and after ``count`` are 0, so `==` compares names.
    public private(set) var storage = SIMD16<UInt8>()
    /// The number of bytes, 0...15.
    public private(set) var count = 0

    /// The empty name.
    public init() {}

    /// The bytes of `raw` up to its first NUL, cut at 15.
    public init(_ raw: UnsafeRawBufferPointer) {
        for byte in raw {
            if byte == 0 || count == ShortName.capacity { break }
            storage[count] = byte
            count += 1
        }
    }

    /// The UTF-8 of `text` up to its first NUL, cut at 15 bytes (for tests and configuration).
    public init(_ text: String) {
        for byte in text.utf8 {
            if byte == 0 || count == ShortName.capacity { break }
            storage[count] = byte
            count += 1
        }
    }

    public var isEmpty: Bool { count == 0 }

    /// The byte at `i` (0..<count).
    public subscript(i: Int) -> UInt8 { storage[i] }

    /// Appends the bytes to `out` (the caller escapes them for its output).
    public func append(to out: inout [UInt8]) {
        for i in 0..<count { out.append(storage[i]) }
    }

    /// Calls `body` with the bytes (for byte parsers such as ``WirelessProcReader/parse(_:interface:)``).
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        var copy = storage
        let n = count
        return withUnsafeBytes(of: &copy) { body(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
    }

    /// Whether the name is exactly the ASCII `literal`.
    public func equals(_ literal: StaticString) -> Bool {
        literal.utf8CodeUnitCount == count && hasPrefix(literal)
    }

    /// Whether the name starts with the ASCII `literal`.
    public func hasPrefix(_ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard n <= count else { return false }
        for i in 0..<n where storage[i] != literal.utf8Start[i] { return false }
        return true
    }

    /// The name as a String (invalid UTF-8 repaired); allocates, for tests and the CLI.
    public var string: String {
        var bytes: [UInt8] = []
        append(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
