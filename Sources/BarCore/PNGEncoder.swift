// The project's one PNG encoder (the renderer's png/genmon outputs and `sysstats
// history --png`): 8-bit RGB, no interlace, filter 0 on every row, the zlib
// stream in fixed-Huffman deflate blocks. No zlib dependency, Embedded Swift
// friendly, and it writes into buffers reserved once for the image's size.
//
// The pictures are flat colour runs and rows that repeat the row above, so the
// matcher tries just two distances at each position: 3 (the previous pixel) and
// one row (the same pixel in the row above, filter byte included), and takes the
// longer match. No hash chains, no dynamic Huffman tables: linear time, a few
// kilobytes of tables. A block that would come out larger compressed than stored
// (noise) is rewritten as stored, so the file never exceeds the stored form by
// more than a few bytes per block and the buffer's worst case is known up front.

import SnapshotCodec

/// Encodes images of one size as PNG into a reused buffer.
public struct PNGEncoder {
    /// The image size this encoder's buffers are for.
    public let width: Int
    public let height: Int
    /// The output buffer, sized for the worst case; the file is its first ``count`` bytes.
    private var storage: [UInt8]
    /// The length of the last encoded file.
    public private(set) var count = 0
    /// The raw (filtered) rows of the block being compressed, after the row before them
    /// (slot 0), so both match distances read from one contiguous buffer.
    private var scratch: [UInt8]
    private let rowsPerBlock: Int
    /// Fixed-Huffman codes, bit-reversed for LSB-first output, as `bits << 24 | code`:
    /// literals 0...255 and end-of-block (256); lengths 3...258 with their extra bits.
    private let literalCodes: [UInt32]
    private let lengthCodes: [UInt32]
    /// The two match distances, coded (code and extra bits); `upDistance` is 0 when a
    /// row is longer than deflate's 32 KiB window.
    private let runDistance: UInt32
    private let upDistance: UInt32

    /// The largest stored deflate block.
    static let maximumStored = 65_535
    /// Raw bytes per deflate block (whole rows, at least one): small enough that a
    /// noisy block falls back to stored without dragging a large neighbourhood along.
    static let blockTarget = 16_384

    /// Allocates the buffers for `width`×`height` images.
    public init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
        let rowBytes = 1 + 3 * self.width
        rowsPerBlock = PNGEncoder.rowsPerBlock(rowBytes: rowBytes, height: self.height)
        // Left uninitialised: only the first `count` bytes are ever read, each written first,
        // and the worst case's pages that a compressed picture never reaches stay unmapped
        // (about 0.77 MB of resident memory at 1024x256).
        let capacity = PNGEncoder.capacity(width: self.width, height: self.height)
        storage = [UInt8](unsafeUninitializedCapacity: capacity) { _, initialized in initialized = capacity }
        scratch = [UInt8](repeating: 0, count: (1 + rowsPerBlock) * rowBytes)

        var literals = [UInt32](repeating: 0, count: 257)
        for v in 0..<257 {
            literals[v] = v < 144 ? PNGEncoder.code(0x30 + v, bits: 8)
                : v < 256 ? PNGEncoder.code(0x190 + v - 144, bits: 9) : PNGEncoder.code(0, bits: 7)
        }
        literalCodes = literals
        var lengths = [UInt32](repeating: 0, count: 259)
        for length in 3...258 {
            var symbol = 0
            while symbol + 1 < 28 && PNGEncoder.lengthBase[symbol + 1] <= length { symbol += 1 }
            var extraBits = PNGEncoder.lengthExtra[symbol], extra = length - PNGEncoder.lengthBase[symbol]
            var s = 257 + symbol
            if length == 258 { s = 285; extraBits = 0; extra = 0 }   // 258 has its own symbol
            let huffman = s < 280 ? PNGEncoder.code(s - 256, bits: 7) : PNGEncoder.code(0xC0 + s - 280, bits: 8)
            lengths[length] = PNGEncoder.append(huffman, extra, bits: extraBits)
        }
        lengthCodes = lengths
        runDistance = PNGEncoder.distanceCode(3)
        upDistance = rowBytes <= 32_768 ? PNGEncoder.distanceCode(rowBytes) : 0
    }

    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
                             35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
                              3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5]

    /// A Huffman code of `bits` bits, reversed (deflate sends Huffman codes most significant bit first).
    static func code(_ value: Int, bits: Int) -> UInt32 {
        var reversed = 0
        for i in 0..<bits where value >> i & 1 == 1 { reversed |= 1 << (bits - 1 - i) }
        return UInt32(bits) << 24 | UInt32(reversed)
    }

    /// `code` followed by `bits` extra bits of `extra` (sent least significant bit first).
    static func append(_ code: UInt32, _ extra: Int, bits: Int) -> UInt32 {
        let n = code >> 24
        return (n + UInt32(bits)) << 24 | (code & 0xFF_FFFF) | UInt32(extra) << n
    }

    /// The fixed 5-bit distance code and extra bits for `distance` (1...32,768).
    static func distanceCode(_ distance: Int) -> UInt32 {
        var symbol = 0, base = 1
        while true {
            let extraBits = max(0, symbol / 2 - 1)
            if distance < base + (1 << extraBits) {
                return append(code(symbol, bits: 5), distance - base, bits: extraBits)
            }
            base += 1 << extraBits
            symbol += 1
        }
    }

    /// How many bytes from `p` (at most `limit`) equal those `back` bytes earlier: eight
    /// at a time while they can be, the first differing byte found from the XOR.
    @inline(__always)
    static func matchLength(_ p: UnsafeRawPointer, back: Int, limit: Int) -> Int {
        let q = p - back
        var l = 0
        while l + 8 <= limit {
            let x = p.loadUnaligned(fromByteOffset: l, as: UInt64.self)
                ^ q.loadUnaligned(fromByteOffset: l, as: UInt64.self)
            if x != 0 { return l + UInt64(littleEndian: x).trailingZeroBitCount / 8 }
            l += 8
        }
        while l < limit && p.load(fromByteOffset: l, as: UInt8.self) == q.load(fromByteOffset: l, as: UInt8.self) { l += 1 }
        return l
    }

    static func rowsPerBlock(rowBytes: Int, height: Int) -> Int {
        max(1, min(height, blockTarget / rowBytes))
    }

    /// The largest file a `width`×`height` image can encode to (the buffer's size): every
    /// block stored, plus a block's header and padding, plus room for a compressed
    /// attempt to overrun its stored size before it is abandoned.
    public static func capacity(width: Int, height: Int) -> Int {
        let w = max(1, width), h = max(1, height)
        let rowBytes = 1 + 3 * w
        let rows = rowsPerBlock(rowBytes: rowBytes, height: h)
        let blockBytes = rows * rowBytes
        let blocks = (h + rows - 1) / rows
        let chunks = (blockBytes + maximumStored - 1) / maximumStored
        let zlib = 2 + h * rowBytes + blocks * (2 + 6 * chunks) + 4
        return 8 + (12 + 13) + (12 + zlib) + 12 + blockBytes / 8 + 16
    }

    /// Calls `body` with the last encoded file.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        storage.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }

    /// A copy of the last encoded file (allocates: for callers that keep it).
    public var bytes: [UInt8] { Array(storage[0..<count]) }

    /// Encodes `image` (which must be `width`×`height`; others are cropped or padded
    /// with black) into the buffer; ``withBytes(_:)`` then reads the file.
    @inline(never)
    public mutating func encode(_ image: PanelImage) {
        let w = width, h = height
        let rowsPerBlock = self.rowsPerBlock, runDistance = self.runDistance, upDistance = self.upDistance
        let literalCodes = self.literalCodes, lengthCodes = self.lengthCodes
        var written = 0
        storage.withUnsafeMutableBufferPointer { out in
          scratch.withUnsafeMutableBufferPointer { s in
            literalCodes.withUnsafeBufferPointer { lit in
              lengthCodes.withUnsafeBufferPointer { len in
                var file = PNGWriter(out: out)
                // Signature.
                file.put32(0x8950_4E47); file.put32(0x0D0A_1A0A)
                // IHDR: size, bit depth 8, colour type 2 (RGB), deflate, filter set 0, no interlace.
                file.put32(13)
                var typeStart = file.count
                file.put32(0x4948_4452)
                file.put32(UInt32(w)); file.put32(UInt32(h))
                file.put(8); file.put(2); file.put(0); file.put(0); file.put(0)
                file.endChunk(typeStart: typeStart)
                let rows = DeflateRows(width: w, height: h, rowsPerBlock: rowsPerBlock, runDistance: runDistance,
                                       upDistance: upDistance, literals: lit, lengths: len, scratch: s)
                image.withPixels { rows.writeImageData($0, imageWidth: image.width, imageHeight: image.height, into: &file) }
                // IEND.
                file.put32(0)
                typeStart = file.count
                file.put32(0x4945_4E44)
                file.endChunk(typeStart: typeStart)
                written = file.count
              }
            }
          }
        }
        count = written
    }
}

/// The image's rows as PNG's IDAT chunk: filtered (filter 0) into the scratch buffer a block
/// of rows at a time, each block compressed with the fixed Huffman codes (or stored).
struct DeflateRows {
    let width: Int
    let height: Int
    let rowsPerBlock: Int
    let runDistance: UInt32
    let upDistance: UInt32
    let literals: UnsafeBufferPointer<UInt32>
    let lengths: UnsafeBufferPointer<UInt32>
    /// The block's raw rows after slot 0 (the previous block's last row).
    let scratch: UnsafeMutableBufferPointer<UInt8>

    var rowBytes: Int { 1 + 3 * width }

    /// The IDAT chunk: the zlib stream of every row, its Adler-32, the chunk's length and CRC.
    func writeImageData(_ pixels: UnsafeBufferPointer<UInt32>, imageWidth: Int, imageHeight: Int,
                        into file: inout PNGWriter) {
        let lengthAt = file.count
        file.put32(0)   // known at the end
        let typeStart = file.count
        file.put32(0x4944_4154)
        file.put(0x78); file.put(0x01)  // deflate, 32 KiB window, no preset dictionary, fastest
        var a: UInt32 = 1, b: UInt32 = 0
        var y = 0
        while y < height {
            let rows = min(rowsPerBlock, height - y)
            fill(rows: rows, from: y, pixels, imageWidth: imageWidth, imageHeight: imageHeight, a: &a, b: &b)
            // Matches may reach back into slot 0 only when it holds a real row.
            compress(rows * rowBytes, low: y == 0 ? rowBytes : 0, final: y + rows == height, into: &file)
            // The block's last row is the next block's slot 0.
            let last = rows * rowBytes
            for k in 0..<rowBytes { scratch[k] = scratch[last + k] }
            y += rows
        }
        file.flushToByte()
        file.put32(b << 16 | a)
        file.set32(at: lengthAt, UInt32(file.count - typeStart - 4))
        file.endChunk(typeStart: typeStart)
    }

    /// Rows `y..<y + rows` into the scratch buffer after slot 0, each after its filter byte,
    /// and into the running Adler-32 (`a`, `b`); past the image's own size, black.
    func fill(rows: Int, from y: Int, _ p: UnsafeBufferPointer<UInt32>, imageWidth: Int, imageHeight: Int,
              a: inout UInt32, b: inout UInt32) {
        let s = scratch
        for r in 0..<rows {
            let yy = y + r
            let inImage = yy < imageHeight
            var i = (1 + r) * rowBytes
            s[i] = 0   // filter: none
            i += 1
            b &+= a
            var x = 0
            while x < width {
                // Reduced every 1,800 pixels (5,400 bytes; zlib reduces every 5,552): both
                // sums stay below 2^32.
                let chunkEnd = min(width, x + 1_800)
                while x < chunkEnd {
                    let c: UInt32 = inImage && x < imageWidth ? p[yy * imageWidth + x] : 0
                    let red = UInt8(truncatingIfNeeded: c >> 16), green = UInt8(truncatingIfNeeded: c >> 8)
                    let blue = UInt8(truncatingIfNeeded: c)
                    s[i] = red; s[i + 1] = green; s[i + 2] = blue
                    a &+= UInt32(red); b &+= a
                    a &+= UInt32(green); b &+= a
                    a &+= UInt32(blue); b &+= a
                    i += 3
                    x += 1
                }
                a %= 65_521
                b %= 65_521
            }
        }
    }

    /// The `n` bytes after slot 0 as one fixed-Huffman block, matches reaching back no
    /// further than `low`; stored instead when that comes out larger (noise).
    func compress(_ n: Int, low: Int, final: Bool, into file: inout PNGWriter) {
        let start = rowBytes
        let mark = file.mark
        file.bits(3 << 24 | 2 | (final ? 1 : 0))   // BFINAL, BTYPE 01: fixed Huffman
        var i = start
        let end = start + n
        let base = UnsafeRawPointer(scratch.baseAddress!)
        while i < end {
            let limit = min(258, end - i)
            var best = 0, distance: UInt32 = 0
            if limit >= 3 {
                // The run first: on a tie its distance is the shorter code (5 bits, not 15).
                if i - 3 >= low {
                    let l = PNGEncoder.matchLength(base + i, back: 3, limit: limit)
                    if l >= 3 { best = l; distance = runDistance }
                }
                if best < limit && upDistance != 0 && i - rowBytes >= low {
                    let l = PNGEncoder.matchLength(base + i, back: rowBytes, limit: limit)
                    if l > best && l >= 3 { best = l; distance = upDistance }
                }
            }
            if best >= 3 {
                file.bits(lengths[best])
                file.bits(distance)
                i += best
            } else {
                file.bits(literals[Int(scratch[i])])
                i += 1
            }
        }
        file.bits(literals[256])   // end of block
        let chunks = (n + PNGEncoder.maximumStored - 1) / PNGEncoder.maximumStored
        if file.bitsSince(mark) > chunks * (3 + 7 + 32) + 8 * n {
            file.rewind(to: mark)
            file.stored(scratch, start, n, final: final)
        }
    }
}
