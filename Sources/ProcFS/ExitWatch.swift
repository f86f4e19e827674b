import CLibc
import CDirect

/// The exits of the processes a table knows, as the kernel reports them: a pidfd
/// (`pidfd_open(2)`) per process, all in one epoll set. A pidfd turns readable when its
/// process has exited (a zombie, or reaped), so the exits since the last look come from one
/// `epoll_wait`, however many processes there are: no listing of the proc root and no read
/// per process. Opening a pidfd is also the cheapest test of whether a pid is a process now:
/// it fails at once for a free pid (`ESRCH`) or a thread's (`EINVAL`, or `ENOENT` on newer kernels).
final class ExitWatch {
    /// Events taken per `epoll_wait`.
    static let batchSize = 128

    private let epoll: Int32
    private let keys: UnsafeMutablePointer<UInt64>

    /// Nil when no epoll instance can be made.
    init?() {
        let fd = cdirect_epoll_create()
        guard fd >= 0 else { return nil }
        epoll = fd
        keys = .allocate(capacity: ExitWatch.batchSize)
    }

    deinit {
        _ = clibc_close(epoll)
        keys.deallocate()
    }

    /// What ``watch(_:)`` found at a pid.
    enum Watched: Equatable {
        /// A process, now watched through this pidfd (close-on-exec).
        case process(pidfd: Int32)
        /// No process has this pid now: it is free (a short-lived process already gone) or a thread's.
        case noProcess
        /// A process may be there but cannot be watched (no pidfd: descriptors used up, a
        /// kernel before 5.3, a sandbox): its exit must be found some other way.
        case unwatchable
    }

    /// Opens a pidfd for `pid` and adds it to the set.
    func watch(_ pid: Int32) -> Watched {
        let fd = cdirect_pidfd_open(pid)
        // A thread's pid: EINVAL before Linux 6.9, ENOENT since (PIDFD_THREAD would take it).
        if fd < 0 { return fd == -Int(ESRCH) || fd == -Int(EINVAL) || fd == -Int(ENOENT) ? .noProcess : .unwatchable }
        guard cdirect_epoll_add(epoll, Int32(fd), ExitWatch.key(pid: pid, pidfd: Int32(fd))) == 0 else {
            _ = clibc_close(Int32(fd))
            return .unwatchable
        }
        return .process(pidfd: Int32(fd))
    }

    /// Calls `body(pid, pidfd)` for each watched process that has exited. Level-triggered: a
    /// pidfd still open (a zombie the caller keeps) is reported again at the next look; at
    /// most `watched` events are taken, so a look always ends.
    func forEachExit(watched: Int, _ body: (Int32, Int32) -> Void) {
        var left = watched
        while left > 0 {
            let n = cdirect_epoll_ready_keys(epoll, keys, Int32(min(left, ExitWatch.batchSize)))
            guard n > 0 else { return }
            for i in 0..<Int(n) {
                let key = keys[i]
                body(Int32(bitPattern: UInt32(truncatingIfNeeded: key)), Int32(truncatingIfNeeded: key >> 32))
            }
            left -= Int(n)
            if Int(n) < ExitWatch.batchSize { return }
        }
    }

    /// An event's key: the pid and its pidfd (a stale event, for a pidfd since closed and
    /// its number reused, does not match the table's).
    private static func key(pid: Int32, pidfd: Int32) -> UInt64 {
        UInt64(UInt32(bitPattern: pid)) | UInt64(UInt32(bitPattern: pidfd)) << 32
    }
}
