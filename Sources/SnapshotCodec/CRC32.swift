// CRC-32 as zlib's crc32() computes it (IEEE 802.3, reflected polynomial
// 0xEDB88320, initial value and final xor 0xFFFFFFFF). crc32("123456789") == 0xCBF43926.

public enum CRC32 {
    /// The checksum of `bytes`.
    public static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        update(0, bytes)
    }

    /// Continues `crc` (a previous result, or 0 to start) over `bytes`, as zlib's `crc32(crc, buf, len)`.
    public static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var c = ~crc
        for byte in bytes {
            c ^= UInt32(byte)
            c = (c >> 4) ^ nibbleTable(c & 0xF)
            c = (c >> 4) ^ nibbleTable(c & 0xF)
        }
        return ~c
    }

    // Four bits at a time from a 16-entry table held in code, not in a global
    // array: nothing is allocated or lazily initialised (Embedded-friendly).
    @inline(__always)
    private static func nibbleTable(_ index: UInt32) -> UInt32 {
        switch index {
        case 0: 0x0000_0000
        case 1: 0x1DB7_1064
        case 2: 0x3B6E_20C8
        case 3: 0x26D9_30AC
        case 4: 0x76DC_4190
        case 5: 0x6B6B_51F4
        case 6: 0x4DB2_6158
        case 7: 0x5005_713C
        case 8: 0xEDB8_8320
        case 9: 0xF00F_9344
        case 10: 0xD6D6_A3E8
        case 11: 0xCB61_B38C
        case 12: 0x9B64_C2B0
        case 13: 0x86D3_D2D4
        case 14: 0xA00A_E278
        default: 0xBDBD_F21C
        }
    }
}
