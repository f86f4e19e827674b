import CDirect

/// Little-endian writes into memory the caller owns, for the snapshot encoder.
///
/// Where `[UInt8].append` checks uniqueness and capacity per byte (about half of a
/// sample's encoding instructions in the sampler, callgrind), this stores each integer at
/// once and copies the history series whole. Every store is still checked against the
/// capacity: the section limits bound the output, and a wrong limit traps here instead of
/// writing past the buffer. Copies go through `cdirect_copy`, not memmove: glibc's memmove
/// and its IFUNC stub were pages of their own in each sample.
struct EncodeCursor {
    let base: UnsafeMutableRawPointer
    let capacity: Int
    private(set) var count = 0

    init(_ buffer: UnsafeMutableRawBufferPointer) {
        base = buffer.baseAddress!
        capacity = buffer.count
    }

    @inline(__always)
    private mutating func reserve(_ n: Int) -> Int {
        let at = count
        precondition(n <= capacity &- at, "snapshot encoding past its buffer")
        count = at &+ n
        return at
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        base.storeBytes(of: byte, toByteOffset: reserve(1), as: UInt8.self)
    }

    @inline(__always)
    mutating func appendLE<T: FixedWidthInteger & UnsignedInteger>(_ value: T) {
        base.storeBytes(of: value.littleEndian, toByteOffset: reserve(MemoryLayout<T>.size), as: T.self)
    }

    /// Patches a u32 already reserved at `offset`.
    @inline(__always)
    mutating func storeLE(_ value: UInt32, at offset: Int) {
        precondition(offset >= 0 && offset <= count &- 4)
        base.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt32.self)
    }

    /// `values[range]`, each little-endian: one copy on a little-endian machine.
    @inline(__always)
    mutating func appendLE<T: FixedWidthInteger & UnsignedInteger>(_ values: [T], _ range: Range<Int>) {
        let size = MemoryLayout<T>.size
        let at = reserve(range.count &* size)
        values.withUnsafeBufferPointer { source in
            let slice = UnsafeBufferPointer(rebasing: source[range])
            #if _endian(little)
            if let from = slice.baseAddress { cdirect_copy(base + at, from, slice.count &* size) }
            #else
            for (i, v) in slice.enumerated() { base.storeBytes(of: v.littleEndian, toByteOffset: at &+ i &* size, as: T.self) }
            #endif
        }
    }

    /// `count` bytes of `bytes` from its start.
    @inline(__always)
    mutating func append(_ bytes: [UInt8], count n: Int) {
        let at = reserve(n)
        bytes.withUnsafeBufferPointer { source in
            if n > 0, let from = source.baseAddress { cdirect_copy(base + at, from, n) }
        }
    }

    /// The bytes of `bytes`.
    @inline(__always)
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        let at = reserve(bytes.count)
        if let from = bytes.baseAddress { cdirect_copy(base + at, from, bytes.count) }
    }

    /// `n` zero bytes.
    mutating func appendZeros(_ n: Int) {
        let at = reserve(n)
        (base + at).initializeMemory(as: UInt8.self, repeating: 0, count: n)
    }

    /// The bytes written so far from `offset` on.
    func bytes(from offset: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + offset, count: count - offset)
    }
}

extension EncodeCursor {
    /// Appends one section: its header, then what `body` appends, then patches its length.
    @inline(__always)
    mutating func appendSection(_ tag: SectionTag, version: UInt16 = 1, _ body: (inout EncodeCursor) -> Void) {
        appendLE(tag.rawValue)
        appendLE(version)
        let lengthOffset = count
        appendLE(UInt32(0))
        let start = count
        body(&self)
        storeLE(UInt32(count - start), at: lengthOffset)
    }

    /// A u8 count and the first `maximum` elements of `list`, each written by `entry`.
    @inline(__always)
    mutating func appendList<T>(_ list: [T], maximum: Int, _ entry: (inout EncodeCursor, T) -> Void) {
        let n = Swift.min(list.count, maximum)
        append(UInt8(n))
        for i in 0..<n { entry(&self, list[i]) }
    }

    /// A u8 length and at most `maximum` bytes of `bytes`, cut on a UTF-8 boundary when
    /// longer (a raw name that is not UTF-8 is cut where the boundary rule leaves it).
    mutating func appendShortBytes(_ bytes: [UInt8], maximum: Int) {
        var length = bytes.count
        if length > maximum {
            length = maximum
            // Back off while the first byte left out continues a character.
            while length > 0 && bytes[length] & 0xC0 == 0x80 { length -= 1 }
        }
        append(UInt8(length))
        append(bytes, count: length)
    }
}
