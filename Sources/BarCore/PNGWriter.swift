import SnapshotCodec

/// A PNG file being written into a buffer reserved for its worst case
/// (``PNGEncoder/capacity(width:height:)``): bytes, chunks closed by their CRC, and
/// deflate's bit stream (codes least significant bit first).
struct PNGWriter {
    let out: UnsafeMutableBufferPointer<UInt8>
    /// Bytes written so far.
    private(set) var count = 0
    private var bitBuffer: UInt64 = 0
    private var bitCount = 0

    init(out: UnsafeMutableBufferPointer<UInt8>) {
        self.out = out
    }

    @inline(__always) mutating func put(_ b: UInt8) { out[count] = b; count += 1 }

    /// Big-endian, as PNG's lengths, sizes, types and checksums are.
    @inline(__always) mutating func put32(_ v: UInt32) {
        put(UInt8(truncatingIfNeeded: v >> 24)); put(UInt8(truncatingIfNeeded: v >> 16))
        put(UInt8(truncatingIfNeeded: v >> 8)); put(UInt8(truncatingIfNeeded: v))
    }

    /// Overwrites the four bytes at `offset` (a chunk's length, known at its end).
    mutating func set32(at offset: Int, _ v: UInt32) {
        out[offset] = UInt8(truncatingIfNeeded: v >> 24)
        out[offset + 1] = UInt8(truncatingIfNeeded: v >> 16)
        out[offset + 2] = UInt8(truncatingIfNeeded: v >> 8)
        out[offset + 3] = UInt8(truncatingIfNeeded: v)
    }

    /// Closes the chunk whose type starts at `typeStart` with the CRC of its type and data.
    mutating func endChunk(typeStart: Int) {
        put32(CRC32.checksum(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: out[typeStart..<count]))))
    }

    /// A deflate code given as `bits << 24 | value`.
    @inline(__always) mutating func bits(_ c: UInt32) {
        bitBuffer |= UInt64(c & 0xFF_FFFF) << UInt64(bitCount)
        bitCount += Int(c >> 24)
        if bitCount >= 32 {
            put(UInt8(truncatingIfNeeded: bitBuffer)); put(UInt8(truncatingIfNeeded: bitBuffer >> 8))
            put(UInt8(truncatingIfNeeded: bitBuffer >> 16)); put(UInt8(truncatingIfNeeded: bitBuffer >> 24))
            bitBuffer >>= 32
            bitCount -= 32
        }
    }

    /// Pads the bit stream to a byte boundary and writes out what it holds.
    mutating func flushToByte() {
        while bitCount > 0 { put(UInt8(truncatingIfNeeded: bitBuffer)); bitBuffer >>= 8; bitCount -= 8 }
        bitBuffer = 0
        bitCount = 0
    }

    /// Where the bit stream stands, to go back to when a compressed block comes out larger
    /// than stored (``rewind(to:)``).
    struct Mark {
        let count: Int
        let bitBuffer: UInt64
        let bitCount: Int
    }

    var mark: Mark { Mark(count: count, bitBuffer: bitBuffer, bitCount: bitCount) }

    /// Bits written since `mark`.
    func bitsSince(_ mark: Mark) -> Int { (count - mark.count) * 8 + bitCount - mark.bitCount }

    mutating func rewind(to mark: Mark) {
        count = mark.count; bitBuffer = mark.bitBuffer; bitCount = mark.bitCount
    }

    /// `n` raw bytes from `bytes[start...]` as stored blocks, the last one final when `final`.
    mutating func stored(_ bytes: UnsafeMutableBufferPointer<UInt8>, _ start: Int, _ n: Int, final: Bool) {
        var done = 0
        repeat {
            let m = min(n - done, PNGEncoder.maximumStored)
            bits(3 << 24 | (final && done + m == n ? 1 : 0))
            flushToByte()
            put(UInt8(truncatingIfNeeded: m)); put(UInt8(truncatingIfNeeded: m >> 8))
            put(UInt8(truncatingIfNeeded: ~m)); put(UInt8(truncatingIfNeeded: ~m >> 8))
            for i in 0..<m { put(bytes[start + done + i]) }
            done += m
        } while done < n
    }
}
