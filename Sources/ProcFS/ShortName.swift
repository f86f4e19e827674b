/// A short byte string kept inline: an interface name (`IFLA_IFNAME`, at most 15 bytes
/// since IFNAMSIZ is 16 with the NUL) or a link kind (`IFLA_INFO_KIND`: `veth`, `bridge`, …).
///
/// The bytes are the kernel's, not validated as UTF-8; longer input is cut at 15 bytes,
/// and the bytes from the first NUL on are dropped. No heap storage. The bytes are held
/// as a ``FixedName``, the readers' name type, so netlink's names and /proc/net/dev's
/// compare without a copy (``fixed``).
public struct ShortName: Equatable, Hashable, Sendable {
    /// The most bytes a name holds.
    public static let capacity = 15
    /// The same bytes as a ``FixedName``.
    public private(set) var fixed = FixedName()

    /// The empty name.
    public init() {}

    /// The bytes of `raw` up to its first NUL, cut at 15.
    public init(_ raw: UnsafeRawBufferPointer) {
        fixed = FixedName(upToNUL: raw, maximumCount: ShortName.capacity)
    }

    /// The UTF-8 of `text` up to its first NUL, cut at 15 bytes (for tests and configuration).
    public init(_ text: String) {
        var text = text
        fixed = text.withUTF8 { FixedName(upToNUL: UnsafeRawBufferPointer($0), maximumCount: ShortName.capacity) }
    }

    /// The number of bytes, 0...15.
    public var count: Int { fixed.count }
    public var isEmpty: Bool { fixed.isEmpty }

    /// The byte at `i` (0..<count).
    public subscript(i: Int) -> UInt8 { fixed[i] }

    /// Appends the bytes to `out` (the caller escapes them for its output).
    public func append(to out: inout [UInt8]) {
        for i in 0..<count { out.append(fixed[i]) }
    }

    /// Calls `body` with the bytes (for byte parsers such as ``WirelessProcReader/parse(_:interface:)``).
    @inlinable
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        fixed.withUnsafeBytes(body)
    }

    /// Whether the name is exactly the ASCII `literal`.
    public func equals(_ literal: StaticString) -> Bool { fixed.equals(literal) }

    /// Whether the name starts with the ASCII `literal`.
    public func hasPrefix(_ literal: StaticString) -> Bool { fixed.hasPrefix(literal) }

    /// The name as a String (invalid UTF-8 repaired); allocates, for tests and the CLI.
    public var string: String { fixed.description }
}
