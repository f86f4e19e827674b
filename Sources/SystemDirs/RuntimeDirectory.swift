import CLibc
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
        // Paths as bytes for the system calls here: passing a String converts it with
        // `utf8CString`, start-up code of its own (ProcFS's CPath.swift).
        if mkdir(cPath(path), 0o700) != 0 && clibc_errno() != EEXIST {
            return .failure(RuntimeDirectoryError(path: path, reason: "cannot create it: \(Errno.current)"))
        }
        return check(path)
    }

    /// Checks that `path` is a directory we own, not a symlink, mode 0700 (no group/other bits).
    public static func check(_ path: String, uid: UInt32 = geteuid()) -> Result<Void, RuntimeDirectoryError> {
        var info = stat()
        if lstat(cPath(path), &info) != 0 {
            return .failure(RuntimeDirectoryError(path: path, reason: "cannot stat it: \(Errno.current)"))
        }
        return check(info, path: path, uid: uid)
    }

    /// The same check on `info` (from lstat(2) of `path` or fstat(2) of its descriptor).
    /// The rule is CLibc's `clibc_private_dir_rule`, the bars' too; this says why in full.
    static func check(_ info: stat, path: String, uid: UInt32) -> Result<Void, RuntimeDirectoryError> {
        var info = info
        switch clibc_private_dir_rule(&info, uid) {
        case Int32(CLIBC_DIR_OK.rawValue):
            return .success(())
        case Int32(CLIBC_DIR_SYMLINK.rawValue):
            return .failure(RuntimeDirectoryError(path: path, reason: "is a symbolic link; refusing to use it"))
        case Int32(CLIBC_DIR_NOT_DIRECTORY.rawValue):
            return .failure(RuntimeDirectoryError(path: path, reason: "is not a directory"))
        case Int32(CLIBC_DIR_FOREIGN_OWNER.rawValue):
            return .failure(RuntimeDirectoryError(path: path, reason: "is owned by uid \(info.st_uid), not by you (uid \(uid))"))
        default:
            let mode = String(info.st_mode & 0o777, radix: 8)
            return .failure(RuntimeDirectoryError(path: path, reason: "has mode 0\(mode); it must be 0700 (chmod 700 \(path))"))
        }
    }

    /// Opens `path` as a directory after ``check(_:uid:)``, and checks the opened descriptor
    /// again (fstat, same device and inode as the path's lstat): the path cannot be swapped
    /// between the check and the open. Readers (the CLI) and the sampler use it alike.
    public static func open(_ path: String, uid: UInt32 = geteuid()) -> Result<OpenRuntimeDirectory, RuntimeDirectoryError> {
        let pathC = cPath(path)
        var named = stat()
        if lstat(pathC, &named) != 0 {
            return .failure(RuntimeDirectoryError(path: path, reason: "cannot stat it: \(Errno.current)"))
        }
        if case .failure(let e) = check(named, path: path, uid: uid) { return .failure(e) }
        let fd = retryingInterrupts { clibc_open(pathC, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0) }
        if fd < 0 { return .failure(RuntimeDirectoryError(path: path, reason: "cannot open it: \(Errno.current)")) }
        var opened = stat()
        guard fstat(fd, &opened) == 0, opened.st_dev == named.st_dev, opened.st_ino == named.st_ino else {
            clibc_close(fd)
            return .failure(RuntimeDirectoryError(path: path, reason: "changed while it was opened; refusing to use it"))
        }
        if case .failure(let e) = check(opened, path: path, uid: uid) { clibc_close(fd); return .failure(e) }
        return .success(OpenRuntimeDirectory(path: path, descriptor: FileDescriptor(rawValue: fd),
                                             device: opened.st_dev, inode: opened.st_ino))
    }
}

/// A runtime directory held open: files in it are opened with openat(2) and renamed with
/// renameat(2) relative to the descriptor, so a path swapped for a symbolic link later is
/// never written through.
public struct OpenRuntimeDirectory {
    public let path: String
    public let descriptor: FileDescriptor
    let device: dev_t
    let inode: ino_t
    /// `path` as a C string, made once: passing a String to lstat(2) converts it on every call.
    private let pathC: [CChar]

    init(path: String, descriptor: FileDescriptor, device: dev_t, inode: ino_t) {
        self.path = path; self.descriptor = descriptor; self.device = device; self.inode = inode
        pathC = cPath(path)
    }

    /// True when `path` still names this directory (one lstat(2)).
    public func isStillAtPath() -> Bool {
        var info = stat()
        return lstat(pathC, &info) == 0 && info.st_dev == device && info.st_ino == inode
    }

    /// Takes the sampler lock: an exclusive, non-blocking flock(2) on the directory itself,
    /// held while the descriptor is open. Unlike a lock file, it cannot be deleted away.
    public func lock() -> Result<Void, RuntimeDirectoryError> {
        if flock(descriptor.rawValue, LOCK_EX | LOCK_NB) == 0 { return .success(()) }
        if clibc_errno() == EWOULDBLOCK {
            return .failure(RuntimeDirectoryError(path: path, reason: RuntimeDirectory.inUseReason))
        }
        return .failure(RuntimeDirectoryError(path: path, reason: "cannot lock it: \(Errno.current)"))
    }

    /// True when a sampler holds this directory's lock (a shared, non-blocking flock(2)
    /// test, released at once).
    public func isLockedBySampler() -> Bool {
        if flock(descriptor.rawValue, LOCK_SH | LOCK_NB) == 0 {
            _ = flock(descriptor.rawValue, LOCK_UN)
            return false
        }
        return clibc_errno() == EWOULDBLOCK
    }

    public func close() { descriptor.close() }
}

extension RuntimeDirectory {
    static let inUseReason = "is in use by another sysstatsd (stop it first, or give this one --runtime-dir)"

    /// Creates (``prepare(_:)``), opens and locks the sampler's runtime directory.
    public static func openForSampler(_ path: String) -> Result<OpenRuntimeDirectory, RuntimeDirectoryError> {
        prepare(path).flatMap { open(path) }.flatMap { dir in
            switch dir.lock() {
            case .success: return .success(dir)
            case .failure(let e): dir.close(); return .failure(e)
            }
        }
    }

    /// True when a sysstatsd holds the lock of the runtime directory at `path`.
    public static func isLockedBySampler(_ path: String) -> Bool {
        guard case .success(let dir) = open(path) else { return false }
        defer { dir.close() }
        return dir.isLockedBySampler()
    }
}

/// Why a runtime directory was refused; `description` is the one-line message.
public struct RuntimeDirectoryError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "runtime directory \(path) \(reason)" }
}

/// `getenv` as an optional String, every byte kept (``pathString(_:)``): the variables read
/// are paths (HOME, XDG_RUNTIME_DIR, XDG_CONFIG_HOME, XDG_DATA_HOME), and one that is not
/// UTF-8 must name its own folder; repaired, HOME=/home/jos\xe9 filled /home/jos\u{FFFD}.
///
/// Not with `String(cString:)`: at start-up that initialiser was the only code run in a
/// 64 KiB window of the sampler's code pages (docs/performance-history.md).
public func environmentValue(_ name: String) -> String? {
    guard let value = getenv(cPath(name)) else { return nil }
    return pathString(UnsafeRawBufferPointer(start: value, count: strlen(value)))
}
