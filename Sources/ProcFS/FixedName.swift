/// A short name (a network interface, a disk, a sensor chip or label) held inline:
/// up to ``capacity`` bytes, no heap storage, so readers can fill arrays of them on
/// every update without allocating.
///
/// The bytes are kept raw, exactly as the kernel printed them (cut at the capacity):
/// whoever shows them escapes them.
public struct FixedName: Hashable, Sendable, CustomStringConvertible {
    /// The most bytes a name keeps; longer names are cut.
    public static let capacity = 31

    // 32 bytes of storage: bytes past `count` are always zero, so equality and
    // hashing can look at the whole storage. Visible to inlined code so that
    // ``withUnsafeBytes(_:)`` is specialized where it is called: run unspecialized from
    // another module, it instantiated metadata through the runtime's demangler.
    @usableFromInline var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    @usableFromInline var length: UInt8 = 0

    /// The empty name.
    public init() {}

    /// The first `min(bytes.count, maximumCount, capacity)` bytes of `bytes`.
    public init(_ bytes: UnsafeRawBufferPointer, maximumCount: Int = FixedName.capacity) {
        let n = max(0, min(bytes.count, maximumCount, FixedName.capacity))
        Swift.withUnsafeMutableBytes(of: &storage) { out in
            var i = 0
            while i < n { out[i] = bytes[i]; i += 1 }
        }
        length = UInt8(n)
    }

    /// The bytes of `bytes` up to its first NUL, cut at `maximumCount` (a netlink name
    /// attribute, which the kernel ends with a NUL).
    init(upToNUL bytes: UnsafeRawBufferPointer, maximumCount: Int) {
        var n = 0
        while n < bytes.count && bytes[n] != 0 { n += 1 }
        self.init(UnsafeRawBufferPointer(rebasing: bytes[0..<n]), maximumCount: maximumCount)
    }

    /// The UTF-8 of `text`, cut like ``init(_:maximumCount:)``.
    public init(_ text: String, maximumCount: Int = FixedName.capacity) {
        var text = text
        self = text.withUTF8 { FixedName(UnsafeRawBufferPointer($0), maximumCount: maximumCount) }
    }

    /// Number of bytes.
    public var count: Int { Int(length) }
    public var isEmpty: Bool { length == 0 }

    /// Calls `body` with the name's bytes (valid only during the call).
    @inlinable
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        Swift.withUnsafeBytes(of: storage) { body(UnsafeRawBufferPointer(rebasing: $0[0..<Int(length)])) }
    }

    /// The byte at `i` (0..<``count``).
    public subscript(i: Int) -> UInt8 {
        Swift.withUnsafeBytes(of: storage) { $0[i] }
    }

    /// Makes `array` hold exactly the name's bytes, writing only when they differ: a
    /// snapshot's name field refreshed every sample allocates nothing in steady state.
    public func store(in array: inout [UInt8]) {
        if array.count == count {
            var same = true
            for i in 0..<count where array[i] != self[i] { same = false; break }
            if same { return }
        }
        array.removeAll(keepingCapacity: true)
        for i in 0..<count { array.append(self[i]) }
    }

    /// Whether the name is exactly `bytes`.
    public func equals(_ bytes: UnsafeRawBufferPointer) -> Bool {
        withUnsafeBytes { mine in
            guard mine.count == bytes.count else { return false }
            var i = 0
            while i < mine.count {
                if mine[i] != bytes[i] { return false }
                i += 1
            }
            return true
        }
    }

    /// Whether the name starts with the ASCII of `prefix`.
    public func hasPrefix(_ prefix: StaticString) -> Bool {
        let n = prefix.utf8CodeUnitCount
        guard n <= count else { return false }
        return withUnsafeBytes { mine in
            let p = prefix.utf8Start
            for i in 0..<n where mine[i] != p[i] { return false }
            return true
        }
    }

    /// Whether the name is exactly the ASCII of `literal`.
    public func equals(_ literal: StaticString) -> Bool {
        literal.utf8CodeUnitCount == count && hasPrefix(literal)
    }

    /// A copy of the bytes (allocates: not for the hot path).
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// The bytes as text, invalid UTF-8 replaced (allocates: for tests and listings).
    public var description: String { withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }

    public static func == (a: FixedName, b: FixedName) -> Bool {
        a.length == b.length && a.storage.0 == b.storage.0 && a.storage.1 == b.storage.1
            && a.storage.2 == b.storage.2 && a.storage.3 == b.storage.3
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(length)
        hasher.combine(storage.0); hasher.combine(storage.1)
        hasher.combine(storage.2); hasher.combine(storage.3)
    }
}
