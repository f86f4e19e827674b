/// The id of the current boot, from /proc/sys/kernel/random/boot_id: a random UUID
/// in text, e.g. `1eddd26a-bed7-45c3-88ca-11e106c23142`, fresh at every boot.
///
/// Read once at start (it allocates). Hex digits are kept lowercase.
public struct BootID: Hashable, CustomStringConvertible, Sendable {
    /// The 36 ASCII bytes of the UUID text, dashes at 8, 13, 18 and 23.
    public let bytes: [UInt8]

    /// Validates UUID text: exactly 36 bytes (one trailing newline allowed), hex digits
    /// with dashes at offsets 8, 13, 18 and 23. Nil for anything else.
    public init?(bytes raw: UnsafeRawBufferPointer) {
        var count = raw.count
        if count > 0, raw[count - 1] == 0x0A { count -= 1 }
        guard count == 36 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(36)
        for i in 0..<36 {
            var b = raw[i]
            if i == 8 || i == 13 || i == 18 || i == 23 {
                guard b == 0x2D else { return nil }
            } else {
                if b >= 0x41 && b <= 0x46 { b += 0x20 }  // A-F → a-f
                guard (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x66) else { return nil }
            }
            out.append(b)
        }
        bytes = out
    }

    /// Validates UUID text; see ``init(bytes:)``.
    public init?(_ text: String) {
        var text = text
        guard let parsed = text.withUTF8({ BootID(bytes: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = parsed
    }

    /// Reads `<procRoot>/sys/kernel/random/boot_id`; nil when unreadable or not a UUID.
    public static func read(procRoot: String = "/proc") -> BootID? {
        let buffer = ReadBuffer(capacity: 64, maximumCapacity: 64)
        guard case .success(let bytes) = buffer.fill(path: joinPath(procRoot, "sys/kernel/random/boot_id")) else {
            return nil
        }
        return BootID(bytes: bytes)
    }

    /// The UUID text.
    public var description: String { String(decoding: bytes, as: UTF8.self) }
}
