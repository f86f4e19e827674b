/// One netlink message: the fields of its `struct nlmsghdr` (<linux/netlink.h>) and the bytes after it.
///
/// Integers are in host byte order, as the kernel writes them. The payload is a view into
/// the receive buffer, valid until the next receive.
public struct NetlinkMessage {
    /// `nlmsg_len`: header plus payload, before alignment padding.
    public var length: UInt32
    /// `nlmsg_type`: `NLMSG_DONE`, `NLMSG_ERROR`, `RTM_NEWLINK`, a generic netlink family id, …
    public var type: UInt16
    /// `nlmsg_flags` (`NLM_F_MULTI`, `NLM_F_DUMP_INTR`, …).
    public var flags: UInt16
    /// `nlmsg_seq`: the sequence number of the request this answers (events carry their sender's).
    public var sequence: UInt32
    /// `nlmsg_pid`: the port the reply is addressed to (our port for replies to our requests).
    public var portID: UInt32
    /// The `length − 16` bytes after the header.
    public var payload: UnsafeRawBufferPointer

    /// `NLMSG_DONE`: the end of a dump.
    public var isDone: Bool { type == Netlink.done }
    /// `NLMSG_ERROR`: an error, or an acknowledgement when ``errorCode`` is 0.
    public var isError: Bool { type == Netlink.error }
    /// Whether `NLM_F_DUMP_INTR` is set: the dump raced a change and may be inconsistent.
    public var isDumpInterrupted: Bool { flags & Netlink.flagDumpInterrupted != 0 }

    /// For `NLMSG_ERROR`, the positive errno (0 for an acknowledgement); nil for other
    /// messages or when the payload is too short to hold the `int error` field.
    public var errorCode: Int32? {
        guard isError, payload.count >= 4 else { return nil }
        let raw = payload.loadUnaligned(as: Int32.self)
        // The kernel sends −errno; a hostile Int32.min has no positive twin, so saturate.
        return raw == .min ? .max : (raw < 0 ? -raw : raw)
    }

    /// The attributes that follow a fixed family header of `headerSize` bytes
    /// (`ifinfomsg`, `ifaddrmsg`, `rtmsg`, `genlmsghdr`); empty when the payload is shorter.
    public func attributes(after headerSize: Int) -> NetlinkAttributes {
        guard headerSize >= 0, payload.count >= headerSize else { return NetlinkAttributes(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return NetlinkAttributes(UnsafeRawBufferPointer(rebasing: payload[headerSize...]))
    }
}

/// The messages of one netlink datagram, in order; bounds-checked.
///
/// The walk stops (it never traps or loops) at the first header that does not fit:
/// fewer than 16 bytes left, `nlmsg_len` below 16, or `nlmsg_len` past the end. Messages
/// are 4-byte aligned (`NLMSG_ALIGN`); a final message whose padding is missing still counts.
public struct NetlinkMessages: Sequence, IteratorProtocol {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    public init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    public mutating func next() -> NetlinkMessage? {
        let remaining = bytes.count - offset
        guard remaining >= Netlink.headerSize, let base = bytes.baseAddress else { offset = bytes.count; return nil }
        let header = base + offset
        let length = header.loadUnaligned(as: UInt32.self)
        // A length below the header size would not advance; one past the end is a cut message.
        guard length >= UInt32(Netlink.headerSize), UInt64(length) <= UInt64(remaining) else {
            offset = bytes.count
            return nil
        }
        let n = Int(length)
        let message = NetlinkMessage(
            length: length,
            type: header.loadUnaligned(fromByteOffset: 4, as: UInt16.self),
            flags: header.loadUnaligned(fromByteOffset: 6, as: UInt16.self),
            sequence: header.loadUnaligned(fromByteOffset: 8, as: UInt32.self),
            portID: header.loadUnaligned(fromByteOffset: 12, as: UInt32.self),
            payload: UnsafeRawBufferPointer(rebasing: bytes[(offset + Netlink.headerSize)..<(offset + n)]))
        offset = Swift.min(offset + netlinkAligned(n), bytes.count)
        return message
    }
}

/// One route/netlink attribute (`struct rtattr` / `struct nlattr`: len u16, type u16, then the value).
public struct NetlinkAttribute {
    /// The type with `NLA_F_NESTED` and `NLA_F_NET_BYTEORDER` masked off.
    public var type: UInt16
    /// Whether the sender set `NLA_F_NESTED` (not every nest sets it: do not rely on it).
    public var isFlaggedNested: Bool
    /// The value: `len − 4` bytes.
    public var payload: UnsafeRawBufferPointer

    /// The value as a u8; nil unless it holds at least one byte.
    public var uint8: UInt8? { payload.count >= 1 ? payload[0] : nil }
    /// The value as an s8 (signal levels in dBm).
    public var int8: Int8? { uint8.map { Int8(bitPattern: $0) } }
    /// The value as a host-order u16; nil unless it holds at least two bytes.
    public var uint16: UInt16? { payload.count >= 2 ? payload.loadUnaligned(as: UInt16.self) : nil }
    /// The value as a host-order u32; nil unless it holds at least four bytes.
    public var uint32: UInt32? { payload.count >= 4 ? payload.loadUnaligned(as: UInt32.self) : nil }
    /// The value as a host-order s32.
    public var int32: Int32? { uint32.map { Int32(bitPattern: $0) } }
    /// The value as a C string: the bytes before the first NUL (all of them if there is none).
    public var string: UnsafeRawBufferPointer {
        var end = 0
        while end < payload.count, payload[end] != 0 { end += 1 }
        return UnsafeRawBufferPointer(rebasing: payload[0..<end])
    }
    /// The value read as attributes (for nests), bounds-checked like any other walk.
    public var nested: NetlinkAttributes { NetlinkAttributes(payload) }
}

/// The attributes in a byte range, in order; bounds-checked.
///
/// The walk stops at the first attribute whose header does not fit, whose `len` is below
/// 4 (a zero length would never advance), or whose `len` runs past the end. Attributes are
/// 4-byte aligned (`NLA_ALIGN`).
public struct NetlinkAttributes: Sequence, IteratorProtocol {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    public init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    public mutating func next() -> NetlinkAttribute? {
        let remaining = bytes.count - offset
        guard remaining >= Netlink.attributeHeaderSize, let base = bytes.baseAddress else { offset = bytes.count; return nil }
        let length = Int((base + offset).loadUnaligned(as: UInt16.self))
        let rawType = (base + offset).loadUnaligned(fromByteOffset: 2, as: UInt16.self)
        guard length >= Netlink.attributeHeaderSize, length <= remaining else {
            offset = bytes.count
            return nil
        }
        let attribute = NetlinkAttribute(
            type: rawType & Netlink.attributeTypeMask,
            isFlaggedNested: rawType & Netlink.attributeNested != 0,
            payload: UnsafeRawBufferPointer(rebasing: bytes[(offset + Netlink.attributeHeaderSize)..<(offset + length)]))
        offset = Swift.min(offset + netlinkAligned(length), bytes.count)
        return attribute
    }

    /// The first attribute of `type`, or nil.
    public func first(_ type: UInt16) -> NetlinkAttribute? {
        var walk = self
        while let a = walk.next() {
            if a.type == type { return a }
        }
        return nil
    }
}

/// Where a reply to one request stands after a datagram.
public enum NetlinkReplyState: Equatable, Sendable {
    /// More messages are to come (a dump without its `NLMSG_DONE` yet).
    case pending
    /// The reply is complete: `NLMSG_DONE`, an acknowledgement, or a single (non-multipart) reply.
    case done
    /// The kernel answered `NLMSG_ERROR` with this errno (e.g. `ENODEV`: not a wireless interface),
    /// or `NLMSG_OVERRUN` (reported as `EOVERFLOW`).
    case failed(errno: Int32)
}

/// Walks one datagram of a reply: calls `body` with each data message that answers
/// `sequence` (any message when nil), and says whether the reply is complete.
///
/// Messages with other sequence numbers (late replies to an earlier request) are skipped.
public func walkNetlinkReply(_ datagram: UnsafeRawBufferPointer, sequence: UInt32?,
                             _ body: (NetlinkMessage) -> Void) -> NetlinkReplyState {
    var state = NetlinkReplyState.pending
    for message in NetlinkMessages(datagram) {
        if let sequence, message.sequence != sequence { continue }
        switch message.type {
        case Netlink.noop:
            continue
        case Netlink.done:
            return .done
        case Netlink.error:
            let code = message.errorCode ?? 71  // EPROTO: an error message too short to say which
            return code == 0 ? .done : .failed(errno: code)
        case Netlink.overrun:
            return .failed(errno: 75)  // EOVERFLOW
        default:
            guard message.type >= Netlink.minimumType else { continue }
            body(message)
            // A multipart reply ends with NLMSG_DONE; any other reply is a single message.
            if message.flags & Netlink.flagMulti == 0 { state = .done }
        }
    }
    return state
}

/// `NLMSG_ALIGN` / `NLA_ALIGN`: rounds up to a multiple of 4, saturating near Int.max.
@inline(__always)
func netlinkAligned(_ n: Int) -> Int {
    n > Int.max - 3 ? Int.max : (n + 3) & ~3
}

/// A netlink request built in a fixed buffer (nothing allocated per request).
///
/// `begin` writes the header, the `append…` calls add a family header and attributes,
/// `finish` patches `nlmsg_len`. Too much for the buffer makes the request invalid
/// (``bytes`` is nil) instead of writing past it.
struct NetlinkRequest {
    let storage: UnsafeMutableRawBufferPointer
    private(set) var count = 0
    private var overflowed = false

    init(storage: UnsafeMutableRawBufferPointer) { self.storage = storage }

    mutating func begin(type: UInt16, flags: UInt16, sequence: UInt32) {
        count = 0
        overflowed = false
        appendInteger(UInt32(0))  // nlmsg_len, patched by finish
        appendInteger(type)
        appendInteger(flags)
        appendInteger(sequence)
        appendInteger(UInt32(0))  // nlmsg_pid: 0 lets the kernel fill in our port
    }

    mutating func appendZeros(_ n: Int) {
        guard n >= 0, count + n <= storage.count else { overflowed = true; return }
        for i in 0..<n { storage[count + i] = 0 }
        count += n
    }

    mutating func appendInteger<T: FixedWidthInteger>(_ value: T) {
        let size = MemoryLayout<T>.size
        guard count + size <= storage.count else { overflowed = true; return }
        storage.storeBytes(of: value, toByteOffset: count, as: T.self)
        count += size
    }

    /// An attribute holding `value` (padded to 4 bytes).
    mutating func appendAttribute<T: FixedWidthInteger>(_ type: UInt16, _ value: T) {
        appendInteger(UInt16(Netlink.attributeHeaderSize + MemoryLayout<T>.size))
        appendInteger(type)
        appendInteger(value)
        appendZeros(netlinkAligned(count) - count)
    }

    /// An attribute holding `text` and its NUL terminator (padded to 4 bytes).
    mutating func appendAttribute(_ type: UInt16, string text: StaticString) {
        let n = text.utf8CodeUnitCount
        appendInteger(UInt16(clamping: Netlink.attributeHeaderSize + n + 1))
        appendInteger(type)
        guard count + n + 1 <= storage.count else { overflowed = true; return }
        for i in 0..<n { storage[count + i] = text.utf8Start[i] }
        storage[count + n] = 0
        count += n + 1
        appendZeros(netlinkAligned(count) - count)
    }

    /// Patches `nlmsg_len` and returns the request, or nil if it did not fit.
    mutating func finish() -> UnsafeRawBufferPointer? {
        guard !overflowed, count >= Netlink.headerSize else { return nil }
        storage.storeBytes(of: UInt32(count), toByteOffset: 0, as: UInt32.self)
        return UnsafeRawBufferPointer(rebasing: storage[0..<count])
    }
}
