// Reads back what PNGEncoder wrote and compares it with the image: the file's
// structure (signature, IHDR for 8-bit RGB, IDAT, IEND, every chunk's CRC-32), the
// zlib stream (header, stored and fixed-Huffman deflate blocks, Adler-32) and every
// pixel. Independent of the encoder's code: its own CRC table and inflater.

let pngCRCTable: [UInt32] = (0..<256).map { n -> UInt32 in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
}

func pngCRC(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for b in bytes { c = pngCRCTable[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
    return c ^ 0xFFFF_FFFF
}

/// nil when `png` is a PNG of exactly `pixels` (`width`×`height`, 0x00RRGGBB), else why not.
func pngProblem(_ png: [UInt8], width: Int, height: Int, pixels: UnsafeBufferPointer<UInt32>) -> String? {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    guard png.count >= 8, Array(png[0..<8]) == signature else { return "no PNG signature" }
    func u32(_ i: Int) -> Int { Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3]) }
    var pos = 8
    var idat: [UInt8] = []
    var chunks: [[UInt8]] = []
    while pos < png.count {
        guard png.count - pos >= 12 else { return "a chunk header runs past the end" }
        let n = u32(pos)
        guard n <= png.count - pos - 12 else { return "a chunk runs past the end" }
        let type = Array(png[(pos + 4)..<(pos + 8)])
        guard pngCRC(png[(pos + 4)..<(pos + 8 + n)]) == UInt32(u32(pos + 8 + n)) else {
            return "CRC-32 of chunk \(printable(type))"
        }
        chunks.append(type)
        let body = png[(pos + 8)..<(pos + 8 + n)]
        switch type {
        case Array("IHDR".utf8):
            guard chunks.count == 1, n == 13 else { return "IHDR not first or not 13 bytes" }
            guard u32(pos + 8) == width, u32(pos + 12) == height else { return "IHDR size \(u32(pos + 8))x\(u32(pos + 12))" }
            guard Array(png[(pos + 16)..<(pos + 21)]) == [8, 2, 0, 0, 0] else { return "IHDR not 8-bit RGB, no interlace" }
        case Array("IDAT".utf8):
            guard chunks.count >= 2 else { return "IDAT before IHDR" }
            idat += body
        case Array("IEND".utf8):
            guard n == 0, pos + 12 == png.count else { return "IEND not empty or not last" }
        default:
            return "unexpected chunk \(printable(type))"
        }
        pos += 12 + n
    }
    guard chunks.first == Array("IHDR".utf8), chunks.last == Array("IEND".utf8),
          chunks.contains(Array("IDAT".utf8)) else { return "chunks IHDR, IDAT..., IEND expected" }
    guard idat.count >= 6 else { return "zlib stream too short" }
    guard idat[0] & 0x0F == 8, idat[0] >> 4 <= 7, (Int(idat[0]) << 8 | Int(idat[1])) % 31 == 0, idat[1] & 0x20 == 0 else {
        return "zlib header"
    }
    let stride = 1 + 3 * width
    var inflater = Inflater(idat[0..<(idat.count - 4)], startBit: 16, limit: stride * height)
    if let problem = inflater.run() { return problem }
    let raw = inflater.out
    var a: UInt32 = 1, b: UInt32 = 0
    for byte in raw { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
    let adler = UInt32(idat[idat.count - 4]) << 24 | UInt32(idat[idat.count - 3]) << 16
        | UInt32(idat[idat.count - 2]) << 8 | UInt32(idat[idat.count - 1])
    guard adler == b << 16 | a else { return "Adler-32" }
    guard raw.count == stride * height else { return "\(raw.count) bytes of image data, \(stride * height) expected" }
    for y in 0..<height {
        guard raw[y * stride] == 0 else { return "row \(y) has filter \(raw[y * stride])" }
        for x in 0..<width {
            let k = y * stride + 1 + 3 * x
            let p = UInt32(raw[k]) << 16 | UInt32(raw[k + 1]) << 8 | UInt32(raw[k + 2])
            guard p == pixels[y * width + x] & 0xFF_FFFF else { return "pixel (\(x), \(y))" }
        }
    }
    return nil
}

/// RFC 1951 for the two block types the encoder writes (stored, fixed Huffman).
struct Inflater {
    let data: [UInt8]
    var bit: Int
    let end: Int
    /// The most output accepted (the image's raw size).
    let limit: Int
    var out: [UInt8] = []
    /// Set when the stream runs out; reads then return 0.
    var overrun = false

    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
                             131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025,
                               1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]

    init(_ bytes: ArraySlice<UInt8>, startBit: Int, limit: Int) {
        data = Array(bytes)
        bit = startBit
        end = data.count * 8
        self.limit = limit
        out.reserveCapacity(limit)
    }

    /// `count` bits, least significant first.
    mutating func take(_ count: Int) -> Int {
        guard bit + count <= end else { overrun = true; return 0 }
        var v = 0
        for k in 0..<count {
            v |= Int(data[bit >> 3] >> UInt8(bit & 7) & 1) << k
            bit += 1
        }
        return v
    }

    /// `count` more bits of a Huffman code, which is packed most significant bit first.
    mutating func code(_ count: Int, after prefix: Int = 0) -> Int {
        var c = prefix
        for _ in 0..<count { c = c << 1 | take(1) }
        return c
    }

    /// nil when the stream inflates cleanly (into ``out``) and ends on its last byte.
    mutating func run() -> String? {
        var final = false
        while !final {
            final = take(1) == 1
            let type = take(2)
            if type == 0 {
                bit = (bit + 7) & ~7
                let len = take(16), nlen = take(16)
                guard len == ~nlen & 0xFFFF else { return "stored block LEN/NLEN" }
                guard bit + 8 * len <= end else { return "stored block runs past the end" }
                guard out.count + len <= limit else { return "more data than the image holds" }
                out += data[(bit >> 3)..<((bit >> 3) + len)]
                bit += 8 * len
            } else if type == 1 {
                while true {
                    // Fixed codes: 7 bits 256-279, 8 bits 0-143 and 280-287, 9 bits 144-255.
                    let symbol: Int
                    let c7 = code(7)
                    if c7 <= 23 {
                        symbol = 256 + c7
                    } else {
                        let c8 = code(1, after: c7)
                        if c8 >= 0x30 && c8 <= 0xBF { symbol = c8 - 0x30 }
                        else if c8 >= 0xC0 && c8 <= 0xC7 { symbol = 280 + c8 - 0xC0 }
                        else { symbol = 144 + code(1, after: c8) - 0x190 }
                    }
                    if overrun { return "deflate stream runs into the Adler-32" }
                    if symbol < 256 {
                        guard out.count < limit else { return "more data than the image holds" }
                        out.append(UInt8(symbol))
                        continue
                    }
                    if symbol == 256 { break }
                    guard symbol <= 285 else { return "length symbol \(symbol)" }
                    let length = Inflater.lengthBase[symbol - 257] + take(Inflater.lengthExtra[symbol - 257])
                    let d = code(5)
                    guard d < 30 else { return "distance symbol \(d)" }
                    let distance = Inflater.distanceBase[d] + take(d < 4 ? 0 : d / 2 - 1)
                    if overrun { return "deflate stream runs into the Adler-32" }
                    guard distance <= out.count else { return "distance \(distance) before the start" }
                    guard out.count + length <= limit else { return "more data than the image holds" }
                    for _ in 0..<length { out.append(out[out.count - distance]) }
                }
            } else {
                return "deflate block type \(type) (the encoder writes stored and fixed only)"
            }
            if overrun { return "deflate stream runs into the Adler-32" }
        }
        bit = (bit + 7) & ~7
        guard bit == end else { return "bytes between the deflate stream and the Adler-32" }
        return nil
    }
}
