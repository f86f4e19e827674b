import ProcFS
import CLibc

/// The data directory's lock, so that `sysstats restore` never replaces the database under
/// a running sampler, whatever runtime directory that sampler uses.
///
/// The protocol, both halves here: the sampler (while it keeps history) and each
/// `sysstatsd-history` writer hold `flock(LOCK_SH)` on a descriptor of the data directory
/// itself for as long as they run; `restore` takes `flock(LOCK_EX | LOCK_NB)` on it and holds
/// it while it replaces the file. `flock` locks belong to the open file description, so two
/// opens in one process exclude each other too, and the kernel drops a lock when its holder
/// dies (a `kill -9` leaves nothing stale). The descriptor is close-on-exec: a writer the
/// sampler starts takes its own lock.
public final class DataDirectoryLock {
    /// The directory locked.
    public let directory: String
    private let descriptor: Int32

    private init(directory: String, descriptor: Int32) {
        self.directory = directory
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Why the lock could not be had. `message` is one line.
    public enum Failure: Error, Equatable, Sendable {
        /// `restore` holds the directory (a shared lock was asked for).
        case beingRestored(String)
        /// A sampler or writer holds the directory (the exclusive lock was asked for).
        case inUse(String)
        /// The directory could not be created or opened, or `flock` failed.
        case unavailable(String)

        /// The one-line message.
        public var message: String {
            switch self {
            case .beingRestored(let m), .inUse(let m), .unavailable(let m): m
            }
        }
    }

    /// The shared lock of a sampler or writer: creates `directory` (and missing parents, mode
    /// 0700) if needed, then `flock(LOCK_SH | LOCK_NB)`. Fails with ``Failure/beingRestored(_:)``
    /// while a restore holds it.
    public static func shared(_ directory: String) -> Result<DataDirectoryLock, Failure> {
        acquire(directory, exclusive: false, create: true)
    }

    /// The exclusive lock of `restore`: `flock(LOCK_EX | LOCK_NB)` on the existing `directory`.
    /// Fails with ``Failure/inUse(_:)`` (`… is in use by a running sysstatsd (stop it first)`)
    /// while a sampler or writer holds its shared lock.
    public static func exclusive(_ directory: String) -> Result<DataDirectoryLock, Failure> {
        acquire(directory, exclusive: true, create: false)
    }

    private static func acquire(_ directory: String, exclusive: Bool, create: Bool) -> Result<DataDirectoryLock, Failure> {
        if create, let problem = makeDirectories(directory) { return .failure(.unavailable(problem)) }
        // O_NOFOLLOW: the lock must be on the directory every party names, not on wherever a
        // symbolic link planted at that path points today.
        let fd = clibc_open(cPath(directory), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0)
        guard fd >= 0 else {
            let reason = clibc_errno() == ELOOP ? "it is a symbolic link (give the directory it points to)" : Errno.current.description
            return .failure(.unavailable("cannot open the data directory \(directory): \(reason)"))
        }
        if retryingInterrupts({ flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) }) != 0 {
            let error = clibc_errno()
            close(fd)
            if error == EWOULDBLOCK {
                return .failure(exclusive
                    ? .inUse("\(directory) is in use by a running sysstatsd (stop it first)")
                    : .beingRestored("\(directory) is being restored (sysstats restore holds it)"))
            }
            return .failure(.unavailable("cannot lock the data directory \(directory): \(Errno(rawValue: error).description)"))
        }
        return .success(DataDirectoryLock(directory: directory, descriptor: fd))
    }

    /// Creates `path` and its missing parents, each new one with mode 0700; nil when done.
    static func makeDirectories(_ path: String) -> String? {
        // The path as bytes once (CPath.swift: the String conversion is start-up code of its own).
        let pathC = cPath(path)
        var info = stat()
        if stat(pathC, &info) == 0 {
            return info.st_mode & CLIBC_S_IFMT == CLIBC_S_IFDIR ? nil : "\(path) is not a directory"
        }
        var bytes = utf8Bytes(path)
        while bytes.count > 1 && bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        if let slash = bytes.lastIndex(of: UInt8(ascii: "/")), slash > 0 {
            if let problem = makeDirectories(String(decoding: bytes[..<slash], as: UTF8.self)) { return problem }
        }
        if mkdir(pathC, 0o700) != 0 && clibc_errno() != EEXIST {
            return "cannot create the data directory \(path): \(Errno.current.description)"
        }
        return nil
    }

}

/// Exit statuses of `sysstatsd-history` that the sampler treats apart from a plain failure.
public enum HistoryWriterStatus {
    /// The data directory's file system is full (or over quota): nothing was written, the
    /// database is as it was, and the next batch tries again (EX_TEMPFAIL from sysexits.h).
    public static let noSpace: Int32 = 75
    /// The writer's flag that makes it exit with ``noSpace`` without a line on stderr, for a
    /// caller that reports a full disk once itself (the sampler).
    public static let quietWhenFullFlag = "--quiet-when-full"
}
