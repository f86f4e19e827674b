/// Reads little-endian fields in order, checking bounds before every read: what the snapshot
/// decoder and the history batch decoder (HistoryRecords) read their bytes with. A read past
/// the end throws `shortage`, a payload taken past the end `overrun` (each decoder says its own).
public struct ByteReader<Failure: Error> {
    public let bytes: UnsafeRawBufferPointer
    /// Always `0...bytes.count`.
    public var offset = 0
    @usableFromInline let shortage: Failure
    @usableFromInline let overrun: Failure

    public init(_ bytes: UnsafeRawBufferPointer, shortage: Failure, overrun: Failure) {
        self.bytes = bytes
        self.shortage = shortage
        self.overrun = overrun
    }

    public var isAtEnd: Bool { offset == bytes.count }
    public var remaining: Int { bytes.count - offset }

    /// Whether `n` more bytes can be read (no overflow: `offset <= bytes.count`).
    @inline(__always)
    func has(_ n: Int) -> Bool { bytes.count - offset >= n }

    @inline(__always)
    private func peek<T: FixedWidthInteger & UnsignedInteger>(_: T.Type, at position: Int) -> T {
        var value: T = 0
        for i in 0..<(T.bitWidth / 8) {
            value |= T(bytes[position + i]) << (8 * i)
        }
        return value
    }

    // Header fields: the caller has checked that the header is present.
    public func peekU16(at position: Int) -> UInt16 { peek(UInt16.self, at: position) }
    public func peekU32(at position: Int) -> UInt32 { peek(UInt32.self, at: position) }
    public func peekU64(at position: Int) -> UInt64 { peek(UInt64.self, at: position) }

    @inline(__always)
    private mutating func read<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) throws(Failure) -> T {
        let size = T.bitWidth / 8
        guard has(size) else { throw shortage }
        let value = peek(T.self, at: offset)
        offset += size
        return value
    }

    /// The next `count` bytes as a buffer of their own (a section's payload, a name).
    public mutating func take(_ count: Int) throws(Failure) -> UnsafeRawBufferPointer {
        guard count >= 0, has(count) else { throw overrun }
        let part = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
        offset += count
        return part
    }

    public mutating func u8() throws(Failure) -> UInt8 { try read(UInt8.self) }
    public mutating func u16() throws(Failure) -> UInt16 { try read(UInt16.self) }
    public mutating func u32() throws(Failure) -> UInt32 { try read(UInt32.self) }
    public mutating func u64() throws(Failure) -> UInt64 { try read(UInt64.self) }
}
