import ProcFS
import Bookmarks
import CLibc

/// The few file operations the store needs, over the C library (no Foundation). Each path
/// goes to its system call through `cPath`: a data directory given or found as bytes that
/// are not UTF-8 is carried in its String (ProcFS's pathString), and a String passed where C
/// wants a `const char *` would hand over the carrying scalars instead of those bytes.
enum Files {
    /// The error for a failed call whose `errno` is still set: `what: strerror`, of kind
    /// ``StoreError/Kind/full`` when the file system is full or over quota, else `.io`.
    static func failure(_ what: String) -> StoreError {
        let error = clibc_errno()
        // The only outside text in `what` is a path: escaped for the terminal it is shown on.
        return StoreError(isNoSpace(error) ? .full : .io, TerminalText.escape(what) + ": " + Errno(rawValue: error).description)
    }

    /// ENOSPC or EDQUOT: the write may succeed once there is room again.
    static func isNoSpace(_ error: Int32) -> Bool { error == ENOSPC || error == EDQUOT }

    /// The folder part of `path` ("." when there is none).
    static func directory(of path: String) -> String {
        let bytes = Array(path.utf8)
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        if slash == 0 { return "/" }
        return String(decoding: bytes[..<slash], as: UTF8.self)
    }

    static func join(_ directory: String, _ name: String) -> String {
        directory.utf8.last == UInt8(ascii: "/") ? directory + name : directory + "/" + name
    }

    /// Creates `path` and its missing parents, each new one with mode 0700.
    static func makeDirectories(_ path: String) throws(StoreError) {
        var info = stat()
        if stat(cPath(path), &info) == 0 {
            guard info.st_mode & CLIBC_S_IFMT == CLIBC_S_IFDIR else { throw StoreError(.io, "\(TerminalText.escape(path)) is not a directory") }
            return
        }
        let parent = directory(of: path)
        if parent != path && parent != "." && parent != "/" { try makeDirectories(parent) }
        if mkdir(cPath(path), 0o700) != 0 && clibc_errno() != EEXIST {
            throw failure("cannot create directory \(path)")
        }
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(cPath(path), &info) == 0
    }

    /// Creates an empty file with mode 0600 if nothing is at `path`, so SQLite never creates it world-readable.
    static func createPrivateFile(_ path: String) throws(StoreError) {
        let fd = clibc_open(cPath(path), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd >= 0 { close(fd); return }
        if clibc_errno() != EEXIST { throw failure("cannot create \(path)") }
    }

    /// Creates an empty file (mode 0600) at `path` unless something is there. Best effort.
    static func createEmptyIfMissing(_ path: String) {
        let fd = clibc_open(cPath(path), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        if fd >= 0 { close(fd) }
    }

    /// Size and the first `count` bytes of a regular file.
    static func sizeAndPrefix(_ path: String, count: Int) throws(StoreError) -> (size: Int, prefix: [UInt8]) {
        let fd = clibc_open(cPath(path), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0)
        guard fd >= 0 else { throw failure("cannot open \(path)") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure("cannot stat \(path)") }
        guard info.st_mode & CLIBC_S_IFMT == CLIBC_S_IFREG else { throw StoreError(.io, "\(TerminalText.escape(path)) is not a regular file") }
        var prefix = [UInt8](repeating: 0, count: count)
        let got = prefix.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, 0) }
        guard got >= 0 else { throw failure("cannot read \(path)") }
        prefix.removeLast(count - got)
        return (Int(info.st_size), prefix)
    }

    /// Copies `source` to a new file `destination` (mode 0600, must not exist) and fsyncs it.
    static func copy(_ source: String, to destination: String) throws(StoreError) {
        let input = clibc_open(cPath(source), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0)
        guard input >= 0 else { throw failure("cannot open \(source)") }
        defer { close(input) }
        let output = clibc_open(cPath(destination), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw failure("cannot create \(destination)") }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let result = buffer.withUnsafeMutableBytes { FileDescriptor(rawValue: input).readSome(into: $0) }
            guard case .success(let n) = result else { throw failure("cannot read \(source)") }
            if n == 0 { break }
            let error = buffer.withUnsafeBytes { FileDescriptor(rawValue: output).writeAll(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
            if let error {
                clibc_set_errno(error.rawValue)
                throw failure("cannot write \(destination)")
            }
        }
        guard fsync(output) == 0 else { throw failure("cannot sync \(destination)") }
    }

    static func fsyncFile(_ path: String) throws(StoreError) {
        let fd = clibc_open(cPath(path), O_RDONLY | O_CLOEXEC, 0)
        guard fd >= 0 else { throw failure("cannot open \(path)") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw failure("cannot sync \(path)") }
    }

    /// fsync on the folder, so a rename in it survives a power loss. Best effort.
    static func syncDirectory(_ path: String) {
        let fd = clibc_open(cPath(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    static func rename(_ from: String, to: String) throws(StoreError) {
        guard clibc_rename(cPath(from), cPath(to)) == 0 else {
            throw failure("cannot rename \(from) to \(to)")
        }
    }

    /// Writes `bytes` to a new temporary file beside `path` (mode 0600), fsyncs it and renames
    /// it over `path` (ProcFS's ``writeFileAtomically(_:to:mode:syncDirectory:)``): a reader
    /// sees the old file or the new one, never half of one.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(StoreError) {
        if let error = writeFileAtomically(bytes, to: path, mode: 0o600, syncDirectory: true) {
            throw StoreError(isNoSpace(error.errno.rawValue) ? .full : .io, TerminalText.escape(error.description))
        }
    }

    /// Removes `path` if present.
    static func remove(_ path: String) { _ = unlink(cPath(path)) }

    /// True when another process has the WAL database whose shared-memory file is `shmPath`
    /// open: every SQLite connection holds a read lock on its "DMS" byte (offset 128) for as
    /// long as it is open. Only asks (`F_GETLK`), never takes or changes a lock or the file.
    static func isOpenInAnotherProcess(shmPath: String) -> Bool {
        let fd = clibc_open(cPath(shmPath), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW, 0)
        guard fd >= 0 else { return false }   // no -shm: no connection in WAL mode
        defer { close(fd) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 128
        lock.l_len = 1
        guard clibc_fcntl_lock(fd, F_GETLK, &lock) == 0 else { return false }
        return lock.l_type != Int16(F_UNLCK)
    }

    /// Decimal text of the process id, for temporary names.
    static var processTag: String { String(getpid()) }
}
