/// A generic netlink socket (`NETLINK_GENERIC`): request/reply exchanges with a bounded wait.
///
/// Generic netlink families (nl80211, …) have ids the kernel assigns at load time, so a
/// family is first resolved by name (``resolveFamily(_:buffer:timeoutMilliseconds:)``).
/// Every exchange is bounded twice: by a deadline (the socket is non-blocking; waiting is a
/// `poll` of at most the time left) and by a number of datagrams. Replies to an earlier,
/// timed-out request are told apart by their sequence number and skipped.
public final class GenericNetlinkSocket {
    /// The most datagrams one exchange reads before giving up.
    public static let maximumDatagrams = 32

    private let socket: NetlinkSocket
    private let requestStorage: UnsafeMutableRawBufferPointer
    private var sequence: UInt32 = 0

    private init(socket: NetlinkSocket) {
        self.socket = socket
        requestStorage = .allocate(byteCount: 128, alignment: 4)
    }

    deinit { requestStorage.deallocate() }

    /// Opens and binds the socket (no multicast groups). Fails with the errno of `socket` or `bind`.
    public static func open() -> Result<GenericNetlinkSocket, Errno> {
        NetlinkSocket.open(protocol: Netlink.genericProtocol, groups: 0).map(GenericNetlinkSocket.init)
    }

    /// The id of the family named `name` (`CTRL_CMD_GETFAMILY`); nil when the kernel has
    /// no such family (`ENOENT`: e.g. no cfg80211 module), or no answer came in time.
    public func resolveFamily(_ name: StaticString, buffer: ReadBuffer, timeoutMilliseconds: Int) -> UInt16? {
        var id: UInt16?
        let deadline = monotonicMilliseconds() + Int64(clamping: timeoutMilliseconds)
        let state = exchange(buffer: buffer, deadline: deadline, build: { request, sequence in
            request.begin(type: Netlink.controlFamily, flags: Netlink.flagRequest, sequence: sequence)
            request.appendInteger(Netlink.controlGetFamily)  // genlmsghdr.cmd
            request.appendInteger(UInt8(1))                   // genlmsghdr.version
            request.appendInteger(UInt16(0))                  // genlmsghdr.reserved
            request.appendAttribute(Netlink.controlFamilyName, string: name)
        }, handle: { message in
            if id == nil { id = GenericNetlinkSocket.familyID(in: message, name: name) }
        })
        return state == .done ? id : nil
    }

    /// The family id in a datagram answering `CTRL_CMD_GETFAMILY` for `name`; nil when no
    /// message of the datagram is a `CTRL_CMD_NEWFAMILY` for that name with a non-zero id.
    public static func parseFamilyID(_ datagram: UnsafeRawBufferPointer, name: StaticString) -> UInt16? {
        for message in NetlinkMessages(datagram) {
            if let id = familyID(in: message, name: name) { return id }
        }
        return nil
    }

    /// `CTRL_ATTR_FAMILY_ID` of one `CTRL_CMD_NEWFAMILY` message whose `CTRL_ATTR_FAMILY_NAME` is `name`.
    static func familyID(in message: NetlinkMessage, name: StaticString) -> UInt16? {
        guard message.type == Netlink.controlFamily, message.payload.count >= Netlink.genericHeaderSize,
              message.payload[0] == Netlink.controlNewFamily else { return nil }
        var id: UInt16?
        var nameMatches = false
        for a in message.attributes(after: Netlink.genericHeaderSize) {
            switch a.type {
            case Netlink.controlFamilyID: id = a.uint16
            case Netlink.controlFamilyName: nameMatches = bytesEqual(a.string, name)
            default: continue
            }
        }
        guard nameMatches, let id, id != 0 else { return nil }
        return id
    }

    /// Sends the request `build` writes (given the sequence number to use) and reads the
    /// reply until it completes, `deadline` (CLOCK_MONOTONIC ms) passes, or
    /// ``maximumDatagrams`` were read. `handle` sees each data message of the reply.
    /// - Returns: `.done` or `.failed`; nil on timeout, a send or receive error, or a cut datagram.
    func exchange(buffer: ReadBuffer, deadline: Int64,
                  build: (inout NetlinkRequest, UInt32) -> Void,
                  handle: (NetlinkMessage) -> Void) -> NetlinkReplyState? {
        discardStaleReplies(buffer)
        sequence = sequence == .max ? 1 : sequence + 1
        var request = NetlinkRequest(storage: requestStorage)
        build(&request, sequence)
        guard let bytes = request.finish(), socket.send(bytes) == nil else { return nil }
        var datagrams = 0
        while datagrams < GenericNetlinkSocket.maximumDatagrams {
            switch socket.receive(into: buffer.storage) {
            case .datagram(let bytes, let truncated):
                datagrams += 1
                if truncated { return nil }
                let state = walkNetlinkReply(bytes, sequence: sequence) { message in
                    if message.portID == socket.portID { handle(message) }
                }
                if state != .pending { return state }
            case .wouldBlock:
                let left = deadline - monotonicMilliseconds()
                guard left > 0, socket.waitReadable(milliseconds: Int(clamping: left)) else { return nil }
            case .failed:
                return nil
            }
        }
        return nil
    }

    /// Drops what an earlier, abandoned exchange left queued (bounded, without waiting).
    private func discardStaleReplies(_ buffer: ReadBuffer) {
        for _ in 0..<GenericNetlinkSocket.maximumDatagrams {
            guard case .datagram = socket.receive(into: buffer.storage) else { return }
        }
    }
}
