// The bar's file calls, in the forms its code wants (a raw descriptor, 0 or -errno), over
// SystemCalls' FileDescriptor, the one layer that makes the system calls and retries EINTR.

import BarCore
import CBarSys
import CLibc
import SystemCalls

/// Writes all of `bytes` to `fd`. Returns 0, or the errno that stopped it.
public func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
    guard bytes.count > 0 else { return 0 }
    return FileDescriptor(rawValue: fd).writeAll(bytes)?.rawValue ?? 0
}

/// Writes `sysstats-bar: ` and a literal to stderr, one line.
public func writeError(_ prefix: StaticString, _ text: StaticString) {
    _ = writeAll(2, UnsafeRawBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount))
    writeError(text)
}

/// Writes a literal to stderr (for messages before exit).
public func writeError(_ text: StaticString) {
    _ = writeAll(2, UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    _ = writeAll(2, UnsafeRawBufferPointer(start: ("\n" as StaticString).utf8Start, count: 1))
}

/// One line on stderr for a failed write: `prefix`, then strerror(`errno`).
public func writeFailed(_ prefix: StaticString, _ errno: Int32) {
    _ = writeAll(2, UnsafeRawBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount))
    writeErrnoText(errno)
}

/// One line on stderr for a failed write of a file: `prefix`, the path (control characters
/// as spaces), `: ` and strerror(`errno`).
public func writeFailed(_ prefix: StaticString, path: [UInt8], _ errno: Int32) {
    var line = ByteWriter(capacity: 64 + path.count)
    line.append(prefix)
    line.append(escaped: path, .plain)
    line.append(": ")
    _ = line.bytes.withUnsafeBytes { writeAll(2, $0) }
    writeErrnoText(errno)
}

/// strerror(`errno`) and a newline on stderr.
func writeErrnoText(_ errno: Int32) {
    if let text = strerror(errno) {
        _ = writeAll(2, UnsafeRawBufferPointer(start: text, count: strlen(text)))
    }
    _ = writeAll(2, UnsafeRawBufferPointer(start: ("\n" as StaticString).utf8Start, count: 1))
}

/// Reads into `buffer` with read(2). Returns bytes read, or -errno.
public func readSome(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
    switch FileDescriptor(rawValue: fd).readSome(into: buffer) {
    case .success(let n): return n
    case .failure(let e): return -Int(e.rawValue)
    }
}

/// `pread(2)` at `offset` into `buffer`: bytes read, or -errno.
public func preadSome(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
    switch FileDescriptor(rawValue: fd).read(into: buffer, at: offset) {
    case .success(let n): return n
    case .failure(let e): return -Int(e.rawValue)
    }
}

/// What ``readFile(_:into:)`` returns for a path that is not a regular file (a FIFO, a
/// device, a directory, a symbolic link): never opened for reading, never waited on.
public let notRegularFile = -1_000_000

/// Reads a whole small regular file at `path` (NUL-terminated) into `buffer`: open without
/// blocking or following a symlink, fstat (regular files only), read until a short read
/// (end of file) or the buffer is full, close. Returns bytes read, -errno, or ``notRegularFile``.
public func readFile(_ path: [UInt8], into buffer: UnsafeMutableRawBufferPointer) -> Int {
    let (n, fd, _) = readFileKeepingOpen(path, into: buffer)
    if fd >= 0 { _ = close(fd) }
    return n
}

/// Which file a descriptor is open on (`st_dev`, `st_ino`).
public struct FileIdentity: Equatable {
    public var device: UInt64
    public var inode: UInt64
}

/// ``readFile(_:into:)``, leaving the file open:
/// bytes read (or -errno, or ``notRegularFile``), the descriptor (-1 when none is open; the
/// caller closes it) and which file it is.
public func readFileKeepingOpen(_ path: [UInt8], into buffer: UnsafeMutableRawBufferPointer) -> (count: Int, fd: Int32, identity: FileIdentity) {
    var identity = FileIdentity(device: 0, inode: 0)
    let fd: Int32 = path.withUnsafeBufferPointer { p in
        p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) {
            cbarsys_open_regular_identity($0, &identity.device, &identity.inode)
        }
    }
    if fd == CBARSYS_NOT_REGULAR { return (notRegularFile, -1, identity) }
    if fd < 0 { return (-Int(cbarsys_errno()), -1, identity) }
    return (readWhole(fd, into: buffer, positioned: false), fd, identity)
}

/// Reads `fd` into `buffer` until a short read (end of file) or the buffer is full: from the
/// file offset, or from its start with `pread` (`positioned`, a file kept open). Bytes read, or -errno.
public func readWhole(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, positioned: Bool) -> Int {
    var total = 0
    while total < buffer.count {
        let want = buffer.count - total
        let rest = UnsafeMutableRawBufferPointer(rebasing: buffer[total...])
        let n = positioned ? preadSome(fd, rest, at: total) : readSome(fd, rest)
        if n < 0 { return n }
        total += n
        // A regular file returns less than asked only at its end: no extra read for EOF.
        if n < want { break }
    }
    return total
}

/// What the sampler's check of its runtime directory says, for a reader or a writer.
public enum RuntimeDirState {
    /// A directory of ours alone: safe to read the snapshot from and write into.
    case ours
    /// Not there (yet).
    case missing
    /// Refused, with why: another user could plant a snapshot there, or take what we write.
    case refused(StaticString)
}

/// Checks the runtime directory at `path` (NUL-terminated) by the sampler's own rule
/// (CLibc's `clibc_private_dir_rule`): a directory (not a symbolic link), owned by us, no
/// access for group or others.
public func checkRuntimeDir(_ path: [UInt8]) -> RuntimeDirState {
    var info = stat()
    let found = path.withUnsafeBufferPointer { p in
        p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { lstat($0, &info) }
    }
    if found != 0 {
        let e = clibc_errno()
        return e == ENOENT || e == ENOTDIR ? .missing : .refused("runtime directory cannot be checked")
    }
    switch clibc_private_dir_rule(&info, geteuid()) {
    case Int32(CLIBC_DIR_OK.rawValue): return .ours
    case Int32(CLIBC_DIR_SYMLINK.rawValue): return .refused("runtime directory is a symbolic link: refused")
    case Int32(CLIBC_DIR_NOT_DIRECTORY.rawValue): return .refused("runtime directory is not a directory: refused")
    case Int32(CLIBC_DIR_FOREIGN_OWNER.rawValue): return .refused("runtime directory belongs to another user: refused")
    default: return .refused("runtime directory is open to others: chmod 700 it")
    }
}

/// A C string's bytes (without the NUL).
public func cStringBytes(_ p: UnsafePointer<CChar>) -> [UInt8] {
    let n = strlen(p)
    var out: [UInt8] = []
    out.reserveCapacity(n + 1)
    p.withMemoryRebound(to: UInt8.self, capacity: n) { u in
        for i in 0..<n { out.append(u[i]) }
    }
    return out
}

/// Resident memory of this process, KiB, from the `statm` text in `buffer` (0 when unreadable).
func residentKiB(statm path: [UInt8], buffer: UnsafeMutableRawBufferPointer, pageKiB: UInt64) -> UInt64 {
    let n = readFile(path, into: buffer)
    guard n > 0 else { return 0 }
    // Second field: resident pages.
    var i = 0
    while i < n && buffer[i] != 0x20 { i += 1 }
    i += 1
    var pages: UInt64 = 0
    var digits = 0
    // At most 18 digits, and a saturating product: no read value can trap the renderer.
    while i < n, digits < 18, buffer[i] >= 48, buffer[i] <= 57 { pages = pages * 10 + UInt64(buffer[i] - 48); i += 1; digits += 1 }
    let (kib, overflow) = pages.multipliedReportingOverflow(by: pageKiB)
    return overflow ? .max : kib
}

/// Replaces this process with the program `name` from the directory of this
/// executable (/proc/self/exe), passing the same arguments. Returns only on failure.
public func execSibling(_ name: StaticString) {
    var path = siblingPath(name)
    guard !path.isEmpty, let argv = clibc_argv() else { return }
    path.withUnsafeMutableBufferPointer { p in
        p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { _ = execv($0, argv) }
    }
}

/// True when the session is Wayland (`WAYLAND_DISPLAY` set and not empty): `--output panel`
/// shows a layer-shell surface there, an X11 window elsewhere.
public func sessionIsWayland() -> Bool {
    guard let display = getenv("WAYLAND_DISPLAY") else { return false }
    return display.pointee != 0
}
