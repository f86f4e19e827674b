// The project's one PNG encoder (the renderer's png/genmon outputs and `sysstats
// history --png`): 8-bit RGB, no interlace, filter 0 on every row, the zlib
// stream in stored (uncompressed) deflate blocks. No zlib dependency, Embedded
// Swift friendly, and it writes into a buffer reserved once for the image's size.

#if hasFeature(Embedded)
import SnapshotCodecEmbedded
#else
import SnapshotCodec
#endif

/// Encodes images of one size as PNG into a reused buffer.
public struct PNGEncoder {
    public let width: Int
    public let height: Int
    /// The last encoded file.
    public private(set) var bytes: [UInt8]

    /// The largest stored deflate block.
    static let maximumBlock = 65_535

    /// Reserves the buffer for `width`×`height` images.
    public init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
        bytes = []
        bytes.reserveCapacity(PNGEncoder.encodedSize(width: self.width, height: self.height))
    }

    /// The exact size of the file for a `width`×`height` image.
    public static func encodedSize(width: Int, height: Int) -> Int {
        let raw = height * (1 + 3 * width)
        let blocks = max(1, (raw + maximumBlock - 1) / maximumBlock)
        let zlib = 2 + raw + 5 * blocks + 4
        return 8 + (12 + 13) + (12 + zlib) + 12
    }

    /// Encodes `image` (which must be `width`×`height`; others are cropped or padded
    /// with black) into ``bytes``.
    public mutating func encode(_ image: PanelImage) {
        bytes.removeAll(keepingCapacity: true)
        let w = width, h = height
        appendBytes(0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A)
        // IHDR: size, bit depth 8, colour type 2 (RGB), deflate, filter set 0, no interlace.
        var start = beginChunk(0x4948_4452)
        appendUInt32(UInt32(w)); appendUInt32(UInt32(h))
        appendBytes(8, 2, 0, 0, 0)
        endChunk(start)

        start = beginChunk(0x4944_4154)  // IDAT
        appendBytes(0x78, 0x01)  // zlib: deflate, 32 KiB window, no preset dictionary, fastest
        let rowBytes = 1 + 3 * w
        let raw = h * rowBytes
        var remaining = raw
        var blockLeft = 0
        var a: UInt32 = 1, b: UInt32 = 0
        image.withPixels { p in
            for y in 0..<h {
                // Each row (≤ 3,073 bytes) is written in runs that stop at block boundaries.
                var column = 0   // byte index within the row: 0 is the filter byte
                while column < rowBytes {
                    if blockLeft == 0 {
                        let n = min(remaining, PNGEncoder.maximumBlock)
                        let final: UInt8 = remaining == n ? 1 : 0
                        appendBytes(final, UInt8(truncatingIfNeeded: n), UInt8(truncatingIfNeeded: n >> 8),
                                    UInt8(truncatingIfNeeded: ~n), UInt8(truncatingIfNeeded: ~n >> 8))
                        blockLeft = n
                    }
                    let run = min(blockLeft, rowBytes - column)
                    for k in column..<(column + run) {
                        let byte: UInt8
                        if k == 0 {
                            byte = 0   // filter: none
                        } else {
                            let x = (k - 1) / 3
                            let c: UInt32 = y < image.height && x < image.width ? p[y * image.width + x] : 0
                            byte = UInt8(truncatingIfNeeded: c >> (16 - 8 * UInt32((k - 1) % 3)))
                        }
                        bytes.append(byte)
                        a &+= UInt32(byte)
                        b &+= a
                    }
                    // A run is at most one row (3,073 bytes): reducing once per run keeps both sums
                    // far below 2^32 (zlib reduces every 5,552 bytes).
                    a %= 65_521
                    b %= 65_521
                    column += run
                    blockLeft -= run
                    remaining -= run
                }
            }
        }
        appendUInt32(b << 16 | a)
        endChunk(start)

        start = beginChunk(0x4945_4E44)  // IEND
        endChunk(start)
    }

    /// Writes the length placeholder and type; returns where the type starts.
    private mutating func beginChunk(_ type: UInt32) -> Int {
        appendUInt32(0)
        let start = bytes.count
        appendUInt32(type)
        return start
    }

    /// Fills in the length and appends the CRC over type and data.
    private mutating func endChunk(_ typeStart: Int) {
        let length = bytes.count - typeStart - 4
        bytes[typeStart - 4] = UInt8(truncatingIfNeeded: length >> 24)
        bytes[typeStart - 3] = UInt8(truncatingIfNeeded: length >> 16)
        bytes[typeStart - 2] = UInt8(truncatingIfNeeded: length >> 8)
        bytes[typeStart - 1] = UInt8(truncatingIfNeeded: length)
        let crc = bytes.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[typeStart...])) }
        appendUInt32(crc)
    }

    private mutating func appendUInt32(_ v: UInt32) {
        appendBytes(UInt8(truncatingIfNeeded: v >> 24), UInt8(truncatingIfNeeded: v >> 16),
                    UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v))
    }

    private mutating func appendBytes(_ a: UInt8, _ b: UInt8) { bytes.append(a); bytes.append(b) }
    private mutating func appendBytes(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8, _ e: UInt8) {
        bytes.append(a); bytes.append(b); bytes.append(c); bytes.append(d); bytes.append(e)
    }
    private mutating func appendBytes(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
        bytes.append(a); bytes.append(b); bytes.append(c); bytes.append(d)
    }
    private mutating func appendBytes(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8,
                                      _ e: UInt8, _ f: UInt8, _ g: UInt8, _ h: UInt8) {
        appendBytes(a, b, c, d); appendBytes(e, f, g, h)
    }
}
