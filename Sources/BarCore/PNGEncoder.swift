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
    /// The image size this encoder's buffer is for.
    public let width: Int
    public let height: Int
    /// The last encoded file.
    public private(set) var bytes: [UInt8]

    /// The largest stored deflate block.
    static let maximumBlock = 65_535

    /// Allocates the buffer for `width`×`height` images (its final size: the file's size is fixed).
    public init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
        bytes = [UInt8](repeating: 0, count: PNGEncoder.encodedSize(width: self.width, height: self.height))
    }

    /// The exact size of the file for a `width`×`height` image.
    public static func encodedSize(width: Int, height: Int) -> Int {
        let raw = height * (1 + 3 * width)
        let blocks = max(1, (raw + maximumBlock - 1) / maximumBlock)
        let zlib = 2 + raw + 5 * blocks + 4
        return 8 + (12 + 13) + (12 + zlib) + 12
    }

    /// Encodes `image` (which must be `width`×`height`; others are cropped or padded
    /// with black) into ``bytes``, overwriting them in place.
    @inline(never)
    public mutating func encode(_ image: PanelImage) {
        let w = width, h = height
        let rowBytes = 1 + 3 * w
        let raw = h * rowBytes
        let imageWidth = image.width, imageHeight = image.height
        bytes.withUnsafeMutableBufferPointer { out in
            var o = 0
            @inline(__always) func put(_ b: UInt8) { out[o] = b; o += 1 }
            @inline(__always) func put32(_ v: UInt32) {
                put(UInt8(truncatingIfNeeded: v >> 24)); put(UInt8(truncatingIfNeeded: v >> 16))
                put(UInt8(truncatingIfNeeded: v >> 8)); put(UInt8(truncatingIfNeeded: v))
            }
            // Signature.
            put(0x89); put(0x50); put(0x4E); put(0x47); put(0x0D); put(0x0A); put(0x1A); put(0x0A)
            // IHDR: size, bit depth 8, colour type 2 (RGB), deflate, filter set 0, no interlace.
            put32(13)
            var typeStart = o
            put32(0x4948_4452)
            put32(UInt32(w)); put32(UInt32(h))
            put(8); put(2); put(0); put(0); put(0)
            put32(CRC32.checksum(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: out[typeStart..<o]))))

            // IDAT: a zlib stream of stored deflate blocks.
            let zlibLength = PNGEncoder.encodedSize(width: w, height: h) - 8 - 25 - 12 - 12
            put32(UInt32(zlibLength))
            typeStart = o
            put32(0x4944_4154)
            put(0x78); put(0x01)  // deflate, 32 KiB window, no preset dictionary, fastest
            var remaining = raw
            var blockLeft = 0
            var a: UInt32 = 1, b: UInt32 = 0
            image.withPixels { p in
                for y in 0..<h {
                    let inImage = y < imageHeight
                    if blockLeft >= rowBytes {
                        // The whole row fits in the current block: no header checks per byte.
                        put(0)   // filter: none
                        b &+= a
                        for x in 0..<w {
                            let c: UInt32 = inImage && x < imageWidth ? p[y * imageWidth + x] : 0
                            let r = UInt8(truncatingIfNeeded: c >> 16), g = UInt8(truncatingIfNeeded: c >> 8)
                            let bl = UInt8(truncatingIfNeeded: c)
                            put(r); put(g); put(bl)
                            a &+= UInt32(r); b &+= a
                            a &+= UInt32(g); b &+= a
                            a &+= UInt32(bl); b &+= a
                        }
                        blockLeft -= rowBytes
                        remaining -= rowBytes
                    } else {
                        // A row that crosses into a new block: byte by byte, a header where one ends.
                        for k in 0..<rowBytes {
                            if blockLeft == 0 {
                                let n = min(remaining, PNGEncoder.maximumBlock)
                                put(remaining == n ? 1 : 0)
                                put(UInt8(truncatingIfNeeded: n)); put(UInt8(truncatingIfNeeded: n >> 8))
                                put(UInt8(truncatingIfNeeded: ~n)); put(UInt8(truncatingIfNeeded: ~n >> 8))
                                blockLeft = n
                            }
                            let byte: UInt8
                            if k == 0 {
                                byte = 0   // filter: none
                            } else {
                                let x = (k - 1) / 3
                                let c: UInt32 = inImage && x < imageWidth ? p[y * imageWidth + x] : 0
                                let channel = k - 1 - 3 * x
                                byte = UInt8(truncatingIfNeeded: channel == 0 ? c >> 16 : (channel == 1 ? c >> 8 : c))
                            }
                            put(byte)
                            a &+= UInt32(byte)
                            b &+= a
                            blockLeft -= 1
                            remaining -= 1
                        }
                    }
                    // Reduced once per row (≤ 3,073 bytes): both sums stay far below 2^32
                    // (zlib reduces every 5,552 bytes).
                    a %= 65_521
                    b %= 65_521
                }
            }
            put32(b << 16 | a)
            put32(CRC32.checksum(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: out[typeStart..<o]))))

            // IEND.
            put32(0)
            typeStart = o
            put32(0x4945_4E44)
            put32(CRC32.checksum(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: out[typeStart..<o]))))
        }
    }
}
