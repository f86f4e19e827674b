import CLibc
import CTrustedFile

// Files that another user, or a mistake, may have planted: the snapshot, the rules cache,
// a bookmarks file named on the command line. Opened so that nothing can block (a FIFO
// opens at once with O_NONBLOCK and is then refused) or redirect (O_NOFOLLOW) the
// program, checked with fstat to be a regular file, and read up to a cap.

/// Why a file that should be a small regular file was not read.
public enum RegularFileError: Error, Equatable, CustomStringConvertible {
    /// open(2) or read(2) failed.
    case system(Errno)
    /// Not a regular file: a FIFO, a device, a directory, a socket, or a symbolic link.
    case notRegular(kind: String)
    /// Larger than the cap the caller gave, bytes.
    case tooLarge(limit: Int)
    /// Someone else could have written it (a config file whose commands would run): why.
    case untrusted(reason: String)

    /// True for a file that is not there (ENOENT, or ENOTDIR on the way).
    public var isMissing: Bool {
        if case .system(let e) = self { return e.rawValue == ENOENT || e.rawValue == ENOTDIR }
        return false
    }

    public var description: String {
        switch self {
        case .system(let e): return e.description
        case .notRegular(let kind): return "is \(kind), not a regular file"
        case .tooLarge(let limit): return "is larger than \(limit) bytes"
        case .untrusted(let reason): return reason
        }
    }
}

extension FileDescriptor {
    /// Opens `path` (relative to `directory` when given) read-only for a regular file:
    /// `O_NONBLOCK` (a FIFO never blocks the open), `O_NOFOLLOW` unless
    /// `followSymlinks`, then `fstat(2)` refuses anything but a regular file (with
    /// `nullDevice`, but the null device too: ``isNullDevice()``).
    /// The descriptor is left in non-blocking mode, which regular files ignore.
    public static func openRegular(_ path: String, relativeTo directory: FileDescriptor? = nil,
                                   followSymlinks: Bool = false, nullDevice: Bool = false) -> Result<FileDescriptor, RegularFileError> {
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (followSymlinks ? 0 : O_NOFOLLOW)
        let pathC = cPath(path)   // the bytes a path String carries (CPath.swift), not its scalars
        let fd = retryingInterrupts { directory.map { clibc_openat($0.rawValue, pathC, flags, 0) } ?? clibc_open(pathC, flags, 0) }
        if fd < 0 {
            return .failure(clibc_errno() == ELOOP && !followSymlinks ? .notRegular(kind: "a symbolic link") : .system(.current))
        }
        let descriptor = FileDescriptor(rawValue: fd)
        if let kind = descriptor.nonRegularKind(), !(nullDevice && descriptor.isNullDevice()) {
            descriptor.close()
            return .failure(.notRegular(kind: kind))
        }
        return .success(descriptor)
    }

    /// nil for a regular file; else what it is ("a FIFO", "a directory", …), from fstat(2).
    public func nonRegularKind() -> String? {
        var info = stat()
        guard fstat(rawValue, &info) == 0 else { return "unreadable" }
        return fileKindName(info.st_mode)
    }

    /// Whether this is the null device (fstat(2): a character device 1:3, whatever the name
    /// it was opened by).
    public func isNullDevice() -> Bool {
        var info = stat()
        return fstat(rawValue, &info) == 0 && clibc_is_null_device(&info) != 0
    }

    /// Reads from the current position until end of file, at most `limit` bytes;
    /// `.tooLarge` when there is more.
    public func readAll(limit: Int) -> Result<[UInt8], RegularFileError> {
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var count = 0
        reading: while count <= limit {
            let result = bytes.withUnsafeMutableBytes {
                readSome(into: UnsafeMutableRawBufferPointer(rebasing: $0[count...]))
            }
            switch result {
            case .failure(let e): return .failure(.system(e))
            case .success(0): break reading
            case .success(let n): count += n
            }
        }
        if count > limit { return .failure(.tooLarge(limit: limit)) }
        bytes.removeSubrange(count...)
        return .success(bytes)
    }
}

/// Reads a whole small regular file: ``FileDescriptor/openRegular(_:relativeTo:followSymlinks:)``,
/// then at most `limit` bytes (more is refused with `.tooLarge`).
public func readRegularFile(_ path: String, relativeTo directory: FileDescriptor? = nil, limit: Int,
                            followSymlinks: Bool = false) -> Result<[UInt8], RegularFileError> {
    FileDescriptor.openRegular(path, relativeTo: directory, followSymlinks: followSymlinks).flatMap { fd in
        defer { fd.close() }
        return fd.readAll(limit: limit)
    }
}

/// Reads a config file, whose orders the programs follow (the bar runs its commands): as
/// ``readRegularFile(_:relativeTo:limit:followSymlinks:)`` following a symbolic link (dotfiles
/// managers link it), refused with `.untrusted` unless only the user (or root) could have
/// written it and every directory on its way (`trusted_file_check`, shared with the bar).
/// The null device reads as an empty file: `--config /dev/null` is the common way to say "no
/// config at all" (`i3status -c /dev/null`), and no one can have written anything it gives.
public func readConfigFile(_ path: String, limit: Int) -> Result<[UInt8], RegularFileError> {
    FileDescriptor.openRegular(path, followSymlinks: true, nullDevice: true).flatMap { fd in
        defer { fd.close() }
        if fd.isNullDevice() { return .success([]) }
        let code = trusted_file_check(cPath(path), fd.rawValue)
        guard code == Int32(TRUSTED_FILE_OK) else { return .failure(.untrusted(reason: String(cString: trusted_file_reason(code)))) }
        return fd.readAll(limit: limit)
    }
}

/// Whether `path` names the null device, followed if a link (stat(2), not the name): a config
/// file there is no file to watch, since every write to it anywhere would be a change.
public func namesNullDevice(_ path: String) -> Bool {
    var info = stat()
    return stat(cPath(path), &info) == 0 && clibc_is_null_device(&info) != 0
}

/// nil for a regular file's mode; else an English name for the kind of file.
public func fileKindName(_ mode: mode_t) -> String? {
    switch mode & CLIBC_S_IFMT {
    case CLIBC_S_IFREG: return nil
    case CLIBC_S_IFIFO: return "a FIFO"
    case CLIBC_S_IFDIR: return "a directory"
    case CLIBC_S_IFLNK: return "a symbolic link"
    case CLIBC_S_IFSOCK: return "a socket"
    case CLIBC_S_IFCHR, CLIBC_S_IFBLK: return "a device"
    default: return "not a regular file"
    }
}

/// The descriptor that stands for a path naming one of the program's own descriptors,
/// written to as it is: `-` and `/dev/stdout` (1), `/dev/stderr` (2), `/dev/fd/N` and
/// `/proc/self/fd/N` (N, a shell's `>(…)`); nil for any other path or a descriptor not open.
/// (Opened again, they would be links followed to wherever; they are the user's words, not
/// a planted file.)
public func writtenInPlace(_ path: String) -> Int32? {
    switch path {
    case "-", "/dev/stdout": return 1
    case "/dev/stderr": return 2
    default:
        var number: Substring?
        for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) { number = path.dropFirst(prefix.count) }
        guard let digits = number, let fd = Int32(digits), fd >= 0, clibc_fcntl(fd, F_GETFD, 0) >= 0 else { return nil }
        return fd
    }
}

/// A path that is not a regular file nor a link: /dev/null, or the user's own FIFO, written
/// in place; anything else refused with the reason.
private func writeInPlace(_ bytes: [UInt8], to path: String, _ existing: stat) -> AtomicWriteError? {
    let kind = existing.st_mode & CLIBC_S_IFMT
    let devNull = kind == CLIBC_S_IFCHR && path == "/dev/null"
    let ownFIFO = kind == CLIBC_S_IFIFO && existing.st_uid == geteuid()
    guard devNull || ownFIFO else {
        let what = kind == CLIBC_S_IFIFO ? "a FIFO of another user" : fileKindName(existing.st_mode) ?? "not a regular file"
        let errno = kind == CLIBC_S_IFDIR ? EISDIR : kind == CLIBC_S_IFIFO ? EPERM : EINVAL
        return AtomicWriteError(operation: "\(path) is \(what): not written (name a regular file, or - for standard output)",
                                errno: Errno(rawValue: errno))
    }
    let pathC = cPath(path)
    let fd = retryingInterrupts { clibc_open(pathC, O_WRONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0) }
    if fd < 0 {
        let noReader = clibc_errno() == ENXIO
        return AtomicWriteError(operation: noReader ? "cannot open \(path): no process reads the FIFO" : "cannot open \(path)", errno: .current)
    }
    defer { clibc_close(fd) }
    // Opened without blocking; once a reader is there, writes may wait for it.
    let flags = clibc_fcntl(fd, F_GETFL, 0)
    if flags >= 0 { _ = clibc_fcntl(fd, F_SETFL, Int(flags & ~O_NONBLOCK)) }
    var after = stat()
    if fstat(fd, &after) != 0 || after.st_dev != existing.st_dev || after.st_ino != existing.st_ino {
        return AtomicWriteError(operation: "cannot write \(path): it changed while it was opened", errno: Errno(rawValue: EAGAIN))
    }
    if let e = FileDescriptor(rawValue: fd).writeAll(bytes) { return AtomicWriteError(operation: "cannot write \(path)", errno: e) }
    return nil
}

/// Why ``writeFileAtomically(_:to:mode:syncDirectory:)`` failed: what it was doing, to
/// which path, and the errno (so a caller can tell a full disk from other failures).
public struct AtomicWriteError: Error, Equatable, CustomStringConvertible {
    /// `cannot create PATH`, `cannot write PATH`, `cannot rename PATH to PATH`.
    public let operation: String
    public let errno: Errno
    public var description: String { "\(operation): \(errno)" }
}

/// Writes `bytes` to a new temporary file beside `path`, syncs it and renames it over
/// `path`: a reader sees the old file or the whole new one. The temporary file is created
/// with O_EXCL|O_NOFOLLOW|O_NONBLOCK, so whatever sits at its name (a FIFO, a symlink, a
/// leftover) is never opened: a leftover is removed once and created afresh. With
/// `syncDirectory`, the directory is synced too, so the rename survives a power loss.
/// The one atomic writer of the programs that link Glibc — the CLI's files, the history
/// store's rules cache (the sampler's snapshot writer works relative to its kept directory
/// descriptor; the Embedded renderer has its own over the C shim).
///
/// Nothing is written through a symbolic link: a link at `path` is replaced by the new file
/// (in a sticky folder such as /tmp another user's link cannot be, and the rename fails).
/// Something other than a regular file at `path` is written to in place only when the user
/// named exactly that (``writtenInPlace(_:)``: /dev/stdout, /dev/stderr, /dev/null) or it is
/// their own FIFO, opened non-blocking (no reader: an error, not a hang); another user's
/// FIFO, a device, a socket or a directory is refused. Renaming a file over /dev/null, as
/// root, broke the machine; writing through a planted link overwrote a block device.
public func writeFileAtomically(_ bytes: [UInt8], to path: String, mode: mode_t,
                                syncDirectory: Bool = false) -> AtomicWriteError? {
    if let standard = writtenInPlace(path) {
        if let e = FileDescriptor(rawValue: standard).writeAll(bytes) { return AtomicWriteError(operation: "cannot write \(path)", errno: e) }
        return nil
    }
    var existing = stat()
    if lstat(cPath(path), &existing) == 0, existing.st_mode & CLIBC_S_IFMT != CLIBC_S_IFREG, existing.st_mode & CLIBC_S_IFMT != CLIBC_S_IFLNK {
        return writeInPlace(bytes, to: path, existing)
    }
    let temporary = path + ".tmp-" + String(getpid())
    let temporaryC = cPath(temporary)
    let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
    var fd = clibc_open(temporaryC, flags, mode)
    if fd < 0 && clibc_errno() == EEXIST {
        unlink(temporaryC)
        fd = clibc_open(temporaryC, flags, mode)
    }
    if fd < 0 { return AtomicWriteError(operation: "cannot create \(temporary)", errno: .current) }
    func fail(_ operation: String) -> AtomicWriteError {
        let error = AtomicWriteError(operation: operation, errno: .current)
        unlink(temporaryC)
        return error
    }
    if let e = FileDescriptor(rawValue: fd).writeAll(bytes) {
        clibc_set_errno(e.rawValue)
        let error = fail("cannot write \(temporary)")
        clibc_close(fd)
        return error
    }
    if fsync(fd) != 0 {
        let error = fail("cannot write \(temporary)")
        clibc_close(fd)
        return error
    }
    clibc_close(fd)
    if rename(temporaryC, cPath(path)) != 0 { return fail("cannot rename \(temporary) to \(path)") }
    if syncDirectory {
        var end = path.utf8.count
        let bytes = Array(path.utf8)
        while end > 0 && bytes[end - 1] != UInt8(ascii: "/") { end -= 1 }
        let directory = end <= 1 ? (end == 1 ? "/" : ".") : String(decoding: bytes[..<(end - 1)], as: UTF8.self)
        let dfd = clibc_open(cPath(directory), O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        if dfd >= 0 { _ = fsync(dfd); clibc_close(dfd) }
    }
    return nil
}
