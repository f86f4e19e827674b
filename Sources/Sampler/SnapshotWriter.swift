#if canImport(Glibc)
import Glibc
#endif
import ProcFS
import SnapshotCodec

/// Writes snapshots atomically: a temporary file in the same directory, then
/// `rename(2)` over `snapshot`, so a reader never sees half a file and an
/// inotify watch on the directory sees one `IN_MOVED_TO` per snapshot.
public final class SnapshotWriter {
    public let directory: String
    public let path: String
    /// The paths as C strings, made once: passing a String to open(2) converts it on every call.
    private let pathC: [CChar]
    private let temporaryPathC: [CChar]
    /// Reused encoding buffer: steady state allocates nothing.
    private var bytes: [UInt8] = []

    public init(directory: String) {
        self.directory = directory
        self.path = RuntimeDirectory.snapshotPath(in: directory)
        pathC = Array(path.utf8CString)
        temporaryPathC = Array(joinPath(directory, ".snapshot.tmp").utf8CString)
        bytes.reserveCapacity(Snapshot.maximumEncodedSize)
    }

    /// Encodes and writes `snapshot`. Four syscalls: open, write, close, rename.
    public func write(_ snapshot: Snapshot) -> Result<Void, Errno> {
        snapshot.encode(into: &bytes)
        let fd = open(temporaryPathC, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd < 0 { return .failure(.current) }
        let written: Errno? = bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return .current
                }
                offset += n
            }
            return nil
        }
        if let error = written {
            close(fd)
            unlink(temporaryPathC)
            return .failure(error)
        }
        if close(fd) != 0 && errno != EINTR {
            let error = Errno.current
            unlink(temporaryPathC)
            return .failure(error)
        }
        if rename(temporaryPathC, pathC) != 0 {
            let error = Errno.current
            unlink(temporaryPathC)
            return .failure(error)
        }
        return .success(())
    }
}
