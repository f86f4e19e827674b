import CLibc

/// A netlink socket to the kernel: non-blocking, close-on-exec, bound to an automatic port.
///
/// The system-call layer shared by ``RouteNetlinkSocket`` and ``WirelessQuery``. Every
/// receive is `MSG_DONTWAIT`; waiting is only ever a `poll` with a timeout, so a caller
/// cannot block on the kernel. Datagrams not sent by the kernel (port 0) are dropped.
final class NetlinkSocket {
    let descriptor: Int32
    /// The port the kernel gave the socket (`nl_pid`): replies to our requests carry it.
    let portID: UInt32
    /// A reused `sockaddr_nl`, for the sender of each datagram and the kernel's address.
    private let address: UnsafeMutableRawPointer

    enum Receive {
        /// One datagram; `truncated` when it was longer than the buffer (the tail is lost).
        case datagram(UnsafeRawBufferPointer, truncated: Bool)
        /// Nothing to read now.
        case wouldBlock
        case failed(Errno)
    }

    private init(descriptor: Int32, portID: UInt32, address: UnsafeMutableRawPointer) {
        self.descriptor = descriptor
        self.portID = portID
        self.address = address
    }

    deinit {
        _ = clibc_close(descriptor)
        address.deallocate()
    }

    /// Opens a `protocol` socket (NETLINK_ROUTE, NETLINK_GENERIC) subscribed to multicast `groups`.
    static func open(protocol proto: Int32, groups: UInt32) -> Result<NetlinkSocket, Errno> {
        let type = Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let fd = socket(Netlink.addressFamily, type, proto)
        guard fd >= 0 else { return .failure(.current) }
        // sizeof(struct sockaddr) is 16: room for the 12-byte sockaddr_nl with margin.
        let address = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 4)
        fillKernelAddress(address, groups: groups)
        let bound = bind(fd, address.assumingMemoryBound(to: sockaddr.self), socklen_t(Netlink.sockaddrSize))
        var length = socklen_t(Netlink.sockaddrSize)
        guard bound == 0, getsockname(fd, address.assumingMemoryBound(to: sockaddr.self), &length) == 0 else {
            let error = Errno.current
            _ = clibc_close(fd)
            address.deallocate()
            return .failure(error)
        }
        let port = address.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
        return .success(NetlinkSocket(descriptor: fd, portID: port, address: address))
    }

    /// `struct sockaddr_nl { nl_family = AF_NETLINK, nl_pad, nl_pid = 0, nl_groups }`.
    private static func fillKernelAddress(_ address: UnsafeMutableRawPointer, groups: UInt32) {
        address.initializeMemory(as: UInt8.self, repeating: 0, count: 16)
        address.storeBytes(of: UInt16(Netlink.addressFamily), toByteOffset: 0, as: UInt16.self)
        address.storeBytes(of: groups, toByteOffset: 8, as: UInt32.self)
    }

    /// Sends one request to the kernel. Returns nil, or the error.
    func send(_ request: UnsafeRawBufferPointer) -> Errno? {
        NetlinkSocket.fillKernelAddress(address, groups: 0)
        while true {
            let n = sendto(descriptor, request.baseAddress, request.count, Int32(MSG_DONTWAIT),
                           address.assumingMemoryBound(to: sockaddr.self), socklen_t(Netlink.sockaddrSize))
            if n == request.count { return nil }
            if n >= 0 { return Errno(rawValue: EMSGSIZE) }
            if clibc_errno() != EINTR { return .current }
        }
    }

    /// Receives one datagram from the kernel into `storage`, without waiting.
    func receive(into storage: UnsafeMutableRawBufferPointer) -> Receive {
        // A few foreign datagrams are skipped; many mean someone is flooding us: report "nothing".
        for _ in 0..<8 {
            var length = socklen_t(Netlink.sockaddrSize)
            // MSG_TRUNC: the return value is the datagram's real length, so a cut is visible.
            let n = recvfrom(descriptor, storage.baseAddress, storage.count, Int32(MSG_DONTWAIT) | Int32(MSG_TRUNC),
                             address.assumingMemoryBound(to: sockaddr.self), &length)
            if n < 0 {
                switch clibc_errno() {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: return .wouldBlock
                default: return .failed(.current)
                }
            }
            // Only the kernel (port 0) speaks for the kernel; drop anything else.
            guard length >= 8, address.loadUnaligned(fromByteOffset: 4, as: UInt32.self) == 0 else { continue }
            let kept = min(n, storage.count)
            return .datagram(UnsafeRawBufferPointer(rebasing: storage[0..<kept]), truncated: n > storage.count)
        }
        return .wouldBlock
    }

    /// Waits until the socket is readable or `milliseconds` pass; true when readable.
    func waitReadable(milliseconds: Int) -> Bool {
        guard milliseconds > 0 else { return false }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let n = poll(&entry, 1, Int32(clamping: milliseconds))
        return n > 0 && entry.revents & Int16(POLLIN) != 0
    }
}

/// Milliseconds on CLOCK_MONOTONIC, for netlink deadlines.
func monotonicMilliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
}
