import CLibc

/// An rtnetlink socket (`NETLINK_ROUTE`) that dumps links, addresses and routes on request
/// and then receives their changes as events; feed what it reads to an ``InterfaceTable``.
///
/// The socket is non-blocking and subscribed to `RTMGRP_LINK`, `RTMGRP_IPV4_IFADDR`,
/// `RTMGRP_IPV6_IFADDR`, `RTMGRP_IPV4_ROUTE` and `RTMGRP_IPV6_ROUTE`. The kernel runs one
/// dump per socket at a time, so requested dumps are queued (links, then addresses, then
/// routes: an address needs its link first) and each is sent when the previous one's
/// `NLMSG_DONE` (or error) has been read by ``drain(into:maximumDatagrams:_:)``.
///
/// Typical use: `requestDump(.all)` once; on every wake-up (poll ``descriptor`` for
/// POLLIN, or once per sample) `drain(into: buffer) { table.apply(messages: $0) }`; when
/// the result says ``DrainResult/eventsLost``, `table.removeAll()`, `requestDump(.all)`
/// and drain again.
public final class RouteNetlinkSocket {
    /// Which dumps to request.
    public struct Dumps: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// `RTM_GETLINK`: every interface.
        public static let links = Dumps(rawValue: 1)
        /// `RTM_GETADDR`: every address.
        public static let addresses = Dumps(rawValue: 2)
        /// `RTM_GETROUTE`: every route (the table keeps the default ones).
        public static let routes = Dumps(rawValue: 4)
        public static let all: Dumps = [.links, .addresses, .routes]
    }

    /// What one ``drain(into:maximumDatagrams:_:)`` read.
    public struct DrainResult: Equatable, Sendable {
        /// Datagrams handed to the body.
        public var datagrams = 0
        /// Events were lost — the receive queue overflowed (`ENOBUFS`), a datagram was longer
        /// than the buffer, or a dump raced a change (`NLM_F_DUMP_INTR`): the caller's view
        /// may be wrong. Re-dump: `table.removeAll()`, then `requestDump(.all)`.
        public var eventsLost = false
        /// An error other than "nothing to read" or `ENOBUFS`; nil normally.
        public var error: Errno?
        /// Whether the drain stopped at `maximumDatagrams` with more possibly waiting.
        public var hitLimit = false
        public init() {}
    }

    private let socket: NetlinkSocket
    private let requestStorage: UnsafeMutableRawBufferPointer
    private var pending: Dumps = []
    private var inFlight: (kind: Dumps, sequence: UInt32)?
    private var idleDrainsWhileDumping = 0
    private var sequence: UInt32 = 0

    /// The socket's descriptor, to poll for POLLIN in an event loop. Do not read from it directly.
    public var descriptor: Int32 { socket.descriptor }
    /// Whether a dump is running or queued.
    public var isDumping: Bool { inFlight != nil || !pending.isEmpty }

    private init(socket: NetlinkSocket) {
        self.socket = socket
        requestStorage = .allocate(byteCount: 64, alignment: 4)
    }

    deinit { requestStorage.deallocate() }

    /// Opens and binds the socket. Fails with the errno of `socket` or `bind`
    /// (e.g. `EAFNOSUPPORT` in a sandbox without netlink).
    public static func open() -> Result<RouteNetlinkSocket, Errno> {
        let groups = Netlink.groupLink | Netlink.groupIPv4Address | Netlink.groupIPv6Address
            | Netlink.groupIPv4Route | Netlink.groupIPv6Route
        return NetlinkSocket.open(protocol: Netlink.routeProtocol, groups: groups).map(RouteNetlinkSocket.init)
    }

    /// Queues `dumps` (`NLM_F_REQUEST | NLM_F_DUMP`, every family) and sends the first now
    /// if no dump is running. Returns nil, or the error of sending.
    @discardableResult
    public func requestDump(_ dumps: Dumps) -> Errno? {
        pending.formUnion(dumps)
        return inFlight == nil ? sendNextDump() : nil
    }

    /// Reads what is readable (`MSG_DONTWAIT`; never waits) into `buffer`'s storage and calls
    /// `body` with each datagram, valid only during the call. Sends the next queued dump when
    /// the running one completes. Stops when nothing is left or after `maximumDatagrams`.
    public func drain(into buffer: ReadBuffer, maximumDatagrams: Int = 64,
                      _ body: (UnsafeRawBufferPointer) -> Void) -> DrainResult {
        var result = DrainResult()
        // A queued dump whose send failed earlier goes now.
        if inFlight == nil && !pending.isEmpty { _ = sendNextDump() }
        while true {
            if result.datagrams >= maximumDatagrams { result.hitLimit = true; break }
            switch socket.receive(into: buffer.storage) {
            case .wouldBlock:
                noteIdle()
                return result
            case .failed(let e):
                if e.rawValue == ENOBUFS { result.eventsLost = true; continue }
                result.error = e
                return result
            case .datagram(let bytes, let truncated):
                result.datagrams += 1
                if truncated { result.eventsLost = true }
                body(bytes)
                if checkDumpProgress(bytes) { result.eventsLost = true }
            }
        }
        return result
    }

    /// Looks for the end of the running dump in a datagram; true if the dump was interrupted.
    private func checkDumpProgress(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let running = inFlight else { return false }
        var interrupted = false
        var finished = false
        for message in NetlinkMessages(bytes)
        where message.sequence == running.sequence && message.portID == socket.portID {
            idleDrainsWhileDumping = 0
            if message.isDumpInterrupted { interrupted = true }
            if message.isDone || message.isError { finished = true }
        }
        if finished {
            inFlight = nil
            _ = sendNextDump()
        }
        return interrupted
    }

    /// A dump whose end never comes (a lost reply) must not block the queue for ever.
    private func noteIdle() {
        guard inFlight != nil else { return }
        idleDrainsWhileDumping += 1
        if idleDrainsWhileDumping >= 3 {
            inFlight = nil
            _ = sendNextDump()
        }
    }

    private func sendNextDump() -> Errno? {
        idleDrainsWhileDumping = 0
        let kind: Dumps, type: UInt16, headerSize: Int
        if pending.contains(.links) {
            (kind, type, headerSize) = (.links, Netlink.getLink, Netlink.ifinfomsgSize)
        } else if pending.contains(.addresses) {
            (kind, type, headerSize) = (.addresses, Netlink.getAddress, Netlink.ifaddrmsgSize)
        } else if pending.contains(.routes) {
            (kind, type, headerSize) = (.routes, Netlink.getRoute, Netlink.rtmsgSize)
        } else {
            return nil
        }
        pending.remove(kind)
        sequence = sequence == .max ? 1 : sequence + 1  // wraps past 0, which events use
        var request = NetlinkRequest(storage: requestStorage)
        request.begin(type: type, flags: Netlink.flagRequest | Netlink.flagDump, sequence: sequence)
        // The family's full header, zeroed: family AF_UNSPEC (every family), no filter.
        request.appendZeros(headerSize)
        guard let bytes = request.finish() else { return Errno(rawValue: EMSGSIZE) }
        if let error = socket.send(bytes) {
            pending.insert(kind)
            return error
        }
        inFlight = (kind, sequence)
        return nil
    }
}
