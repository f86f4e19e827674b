#if canImport(Glibc)
import Glibc
#endif
import ProcFS
import SnapshotCodec

/// Where the snapshot lives, and the checks that make it safe to write there.
///
/// The directory must be ours alone: a directory (not a symlink), owned by the
/// effective user, with no access for group or others. Anything else could let
/// another user replace or read the snapshot, so it is refused, not repaired.
public enum RuntimeDirectory {
    /// `$XDG_RUNTIME_DIR/sysstats` when XDG_RUNTIME_DIR is set and absolute,
    /// else `/tmp/sysstats-$UID`.
    public static func defaultPath(environment xdgRuntimeDir: String? = environmentValue("XDG_RUNTIME_DIR"),
                                   uid: UInt32 = geteuid()) -> String {
        SnapshotLocation.runtimeDirectory(xdgRuntimeDir: xdgRuntimeDir, uid: uid)
    }

    /// The snapshot's path in `directory`.
    public static func snapshotPath(in directory: String) -> String {
        SnapshotLocation.snapshotPath(in: directory)
    }

    /// Creates `path` (mode 0700) if it does not exist, then checks it.
    /// Returns a one-line reason when the directory cannot be used.
    public static func prepare(_ path: String) -> Result<Void, RuntimeDirectoryError> {
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            return .failure(RuntimeDirectoryError(path: path, reason: "cannot create it: \(Errno.current)"))
        }
        return check(path)
    }

    /// Checks that `path` is a directory we own, not a symlink, mode 0700 (no group/other bits).
    public static func check(_ path: String, uid: UInt32 = geteuid()) -> Result<Void, RuntimeDirectoryError> {
        var info = stat()
        if lstat(path, &info) != 0 {
            return .failure(RuntimeDirectoryError(path: path, reason: "cannot stat it: \(Errno.current)"))
        }
        let type = info.st_mode & S_IFMT
        if type == S_IFLNK {
            return .failure(RuntimeDirectoryError(path: path, reason: "is a symbolic link; refusing to write through it"))
        }
        if type != S_IFDIR {
            return .failure(RuntimeDirectoryError(path: path, reason: "is not a directory"))
        }
        if info.st_uid != uid {
            return .failure(RuntimeDirectoryError(path: path, reason: "is owned by uid \(info.st_uid), not by you (uid \(uid))"))
        }
        if info.st_mode & 0o077 != 0 {
            let mode = String(info.st_mode & 0o777, radix: 8)
            return .failure(RuntimeDirectoryError(path: path, reason: "has mode 0\(mode); it must be 0700 (chmod 700 \(path))"))
        }
        return .success(())
    }
}

extension RuntimeDirectory {
    /// The lock file's name: one sampler per runtime directory.
    public static let lockName = "sysstatsd.lock"

    /// Takes the directory's sampler lock (`flock`, held until the process exits),
    /// so two samplers never write the same snapshot in turn.
    public static func lock(_ path: String) -> Result<Void, RuntimeDirectoryError> {
        let lockPath = joinPath(path, lockName)
        let fd = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd < 0 {
            return .failure(RuntimeDirectoryError(path: path, reason: "cannot open its lock file: \(Errno.current)"))
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let busy = errno == EWOULDBLOCK
            let error = Errno.current
            close(fd)
            return .failure(RuntimeDirectoryError(path: path, reason: busy
                ? "is in use by another sysstatsd (stop it first, or give this one --runtime-dir)"
                : "cannot lock \(lockPath): \(error)"))
        }
        return .success(())   // the descriptor stays open: the lock lives as long as the process
    }
}

/// Why a runtime directory was refused; `description` is the one-line message.
public struct RuntimeDirectoryError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "runtime directory \(path) \(reason)" }
}

/// `getenv` as an optional String.
///
/// Decoded from its bytes (`strlen`, then UTF-8 with repair), not with `String(cString:)`:
/// at start-up that initialiser was the only code run in a 64 KiB window of the sampler's
/// code pages (docs/performance.md).
public func environmentValue(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    return String(decoding: UnsafeRawBufferPointer(start: value, count: strlen(value)), as: UTF8.self)
}
