#if canImport(Glibc)
import Glibc
#endif

/// A minimal PNG encoder: 8-bit palette images, zlib with stored (uncompressed) deflate
/// blocks, CRC-32 and Adler-32 computed here. No compression library needed.
public enum PNG {
    /// The PNG file for a `width` × `height` image of palette `indices` (row by row).
    public static func encode(width: Int, height: Int, palette: [(UInt8, UInt8, UInt8)], indices: [UInt8]) -> [UInt8] {
        precondition(indices.count == width * height && !palette.isEmpty && palette.count <= 256)
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        appendBigEndian(&header, UInt32(width))
        appendBigEndian(&header, UInt32(height))
        header += [8, 3, 0, 0, 0]   // bit depth 8, colour type 3 (palette), deflate, filter 0, no interlace
        chunk(&out, "IHDR", header)
        chunk(&out, "PLTE", palette.flatMap { [$0.0, $0.1, $0.2] })
        var raw: [UInt8] = []
        raw.reserveCapacity((width + 1) * height)
        for y in 0..<height {
            raw.append(0)   // filter type None
            raw += indices[(y * width)..<((y + 1) * width)]
        }
        chunk(&out, "IDAT", zlibStored(raw))
        chunk(&out, "IEND", [])
        return out
    }

    /// A zlib stream (RFC 1950) of stored deflate blocks (RFC 1951, BTYPE 00), ≤ 65,535 bytes each.
    public static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]   // deflate, 32 KiB window; 0x7801 is a multiple of 31
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            let last = offset + count == data.count
            out.append(last ? 1 : 0)
            out += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[offset..<(offset + count)]
            offset += count
        } while offset < data.count
        appendBigEndian(&out, adler32(data))
        return out
    }

    /// Adler-32 (RFC 1950).
    public static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        var index = 0
        while index < data.count {
            let end = min(index + 5552, data.count)   // the most bytes before b can overflow
            while index < end { a += UInt32(data[index]); b += a; index += 1 }
            a %= 65_521; b %= 65_521
        }
        return b << 16 | a
    }

    static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// CRC-32 as PNG and zip use it (polynomial 0xEDB88320, reflected).
    public static func crc32<S: Sequence>(_ bytes: S) -> UInt32 where S.Element == UInt8 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    static func chunk(_ out: inout [UInt8], _ type: String, _ data: [UInt8]) {
        appendBigEndian(&out, UInt32(data.count))
        let typed = Array(type.utf8) + data
        out += typed
        appendBigEndian(&out, crc32(typed))
    }

    static func appendBigEndian(_ out: inout [UInt8], _ value: UInt32) {
        out += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// Writes `bytes` to `<path>.tmp-<pid>`, syncs it, then renames it over `path`; nil or the reason.
    public static func writeFile(_ bytes: [UInt8], to path: String) -> String? {
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        if fd < 0 { return "cannot create \(temporary): \(String(cString: strerror(errno)))" }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                close(fd); unlink(temporary)
                return "cannot write \(temporary): \(reason)"
            }
            offset += n
        }
        let synced = fsync(fd) == 0
        let reason = String(cString: strerror(errno))
        close(fd)
        if !synced { unlink(temporary); return "cannot write \(temporary): \(reason)" }
        if rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            return "cannot rename \(temporary) to \(path): \(reason)"
        }
        return nil
    }
}
