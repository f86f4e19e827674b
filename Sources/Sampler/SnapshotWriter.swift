#if canImport(Glibc)
import Glibc
#endif
import ProcFS
import SnapshotCodec

/// Why a snapshot was not written.
public enum SnapshotWriteError: Error, Equatable, CustomStringConvertible {
    /// The runtime directory cannot be used right now (gone and not re-creatable, replaced by
    /// a symbolic link, someone else's); the next write tries again.
    case directory(RuntimeDirectoryError)
    /// The directory was re-created and another sysstatsd locked it first: this one must stop.
    case takenOver(RuntimeDirectoryError)
    /// Creating, writing or renaming the file failed.
    case file(Errno)

    public var description: String {
        switch self {
        case .directory(let e), .takenOver(let e): return e.description
        case .file(let e): return e.description
        }
    }
}

/// Writes snapshots atomically: a temporary file in the same directory, then
/// `renameat(2)` over `snapshot`, so a reader never sees half a file and an
/// inotify watch on the directory sees one `IN_MOVED_TO` per snapshot.
///
/// It keeps the runtime directory open and works relative to that descriptor, checks
/// once per write (one lstat) that the path still names it, and re-creates and re-locks
/// it when it was removed. A path replaced by anything else is never written through.
public final class SnapshotWriter {
    public private(set) var directory: OpenRuntimeDirectory
    public let path: String
    private let nameC: [CChar]
    private let temporaryNameC: [CChar]
    /// Reused encoding buffer: steady state allocates nothing.
    private var bytes: [UInt8] = []

    /// A writer into `directory`, opened and locked by ``RuntimeDirectory/openForSampler(_:)``.
    public init(directory: OpenRuntimeDirectory) {
        self.directory = directory
        self.path = RuntimeDirectory.snapshotPath(in: directory.path)
        nameC = cPath(SnapshotLocation.fileName)  // not utf8CString: ProcFS's CPath.swift
        temporaryNameC = cPath(".snapshot.tmp")
        bytes.reserveCapacity(Snapshot.maximumEncodedSize)
    }

    /// Encodes and writes `snapshot`. Five syscalls: lstat (the directory is still ours),
    /// openat, write, close, renameat.
    public func write(_ snapshot: Snapshot) -> Result<Void, SnapshotWriteError> {
        if !directory.isStillAtPath() {
            if case .failure(let e) = reopenDirectory() { return .failure(e) }
        }
        snapshot.encode(into: &bytes)
        let dir = directory.descriptor.rawValue
        // O_EXCL: never opens what is already there (a FIFO would block, a symlink redirect);
        // a leftover from a crash is removed once and created afresh.
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
        var fd = openat(dir, temporaryNameC, flags, 0o600)
        if fd < 0 && errno == EEXIST {
            unlinkat(dir, temporaryNameC, 0)
            fd = openat(dir, temporaryNameC, flags, 0o600)
        }
        if fd < 0 { return .failure(.file(.current)) }
        let written = FileDescriptor(rawValue: fd).writeAll(bytes)
        if let error = written {
            close(fd)
            unlinkat(dir, temporaryNameC, 0)
            return .failure(.file(error))
        }
        if close(fd) != 0 && errno != EINTR {
            let error = Errno.current
            unlinkat(dir, temporaryNameC, 0)
            return .failure(.file(error))
        }
        if renameat(dir, temporaryNameC, dir, nameC) != 0 {
            let error = Errno.current
            unlinkat(dir, temporaryNameC, 0)
            return .failure(.file(error))
        }
        return .success(())
    }

    /// The path no longer names our directory: re-create it when it is gone (mode 0700),
    /// refuse anything else, and take the lock on the new directory.
    private func reopenDirectory() -> Result<Void, SnapshotWriteError> {
        let path = directory.path
        if case .failure(let e) = RuntimeDirectory.prepare(path) { return .failure(.directory(e)) }
        switch RuntimeDirectory.open(path) {
        case .failure(let e):
            return .failure(.directory(e))
        case .success(let reopened):
            if case .failure(let e) = reopened.lock() {
                reopened.close()
                return .failure(.takenOver(e))
            }
            directory.close()
            directory = reopened
            return .success(())
        }
    }
}
