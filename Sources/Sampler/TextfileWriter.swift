import CLibc
import Bookmarks
import HistoryRecords
import ProcFS
import SnapshotCodec
import PrometheusText

/// Why `--textfile-dir` cannot be used.
public enum TextfileDirectoryError: Error, Equatable, CustomStringConvertible {
    case cannotOpen(path: String, Errno)
    case symbolicLink(path: String)
    case notDirectory(path: String)
    /// Owned by another user (not us, not root): they could replace what node_exporter serves.
    case foreignOwner(path: String)
    /// Group or others may write it: they could put their own `sysstats.prom` in its place, or
    /// a file in the way that stops the export for good (a sticky bit does not prevent that).
    case writableByOthers(path: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let e): return "cannot open the textfile directory \(TerminalText.escape(path)): \(e)"
        case .symbolicLink(let path): return "the textfile directory \(TerminalText.escape(path)) is a symbolic link; give the directory itself"
        case .notDirectory(let path): return "the textfile directory \(TerminalText.escape(path)) is not a directory"
        case .foreignOwner(let path):
            return "the textfile directory \(TerminalText.escape(path)) belongs to another user; give a directory of yours (docs/fleet.md)"
        case .writableByOthers(let path):
            return "the textfile directory \(TerminalText.escape(path)) is writable by group or others, who could replace what node_exporter serves; give a directory only you may write (docs/fleet.md)"
        }
    }
}

/// Writes `sysstats.prom` for node_exporter's textfile collector (docs/fleet.md): the
/// snapshot in Prometheus's text format, written to a temporary file created in the same
/// directory (O_EXCL, never through what is already there), made mode 0644 whatever the
/// umask, and renamed over the old file, so the collector never reads half a file.
///
/// The directory is opened once (O_NOFOLLOW, fstat: a directory, not a symbolic link) and
/// kept: every write works relative to that descriptor. The encoding buffer is sized once
/// to the longest file (``PrometheusText/maximumSize``): a write allocates nothing.
public final class TextfileWriter {
    /// The directory as given.
    public let directoryPath: String
    /// The file's path, for messages (made when asked: string building at start would keep
    /// its standard-library code pages resident, docs/performance-history.md).
    public var path: String { directoryPath + "/" + PrometheusText.fileName }
    private let directory: FileDescriptor
    private let nameC: [CChar]
    private let temporaryNameC: [CChar]
    private var bytes: [UInt8] = []

    private init(path: String, directory: FileDescriptor) {
        directoryPath = path
        self.directory = directory
        nameC = cPath(PrometheusText.fileName)
        // Not `*.prom`: the collector reads only those, so it never sees the partial file.
        temporaryNameC = cPath(".sysstats.prom.tmp")
        bytes.reserveCapacity(PrometheusText.maximumSize)
    }

    deinit { directory.close() }

    /// Opens `path` as the textfile directory: it must be a directory, not a symbolic link,
    /// owned by us or root and writable by nobody else.
    public static func open(_ path: String) -> Result<TextfileWriter, TextfileDirectoryError> {
        // cPath, not the String's implicit C string (ProcFS's CPath.swift says why).
        let fd = cPath(path).withUnsafeBufferPointer { clibc_open($0.baseAddress!, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0) }
        if fd < 0 {
            let e = Errno.current
            if e.rawValue == ELOOP { return .failure(.symbolicLink(path: path)) }
            if e.rawValue == ENOTDIR {
                // ENOTDIR is also O_NOFOLLOW's answer to a symbolic link to a non-directory.
                var info = stat()
                if lstat(cPath(path), &info) == 0 && info.st_mode & CLIBC_S_IFMT == CLIBC_S_IFLNK { return .failure(.symbolicLink(path: path)) }
                return .failure(.notDirectory(path: path))
            }
            return .failure(.cannotOpen(path: path, e))
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & CLIBC_S_IFMT == CLIBC_S_IFDIR else {
            clibc_close(fd)
            return .failure(.notDirectory(path: path))
        }
        if info.st_uid != geteuid() && info.st_uid != 0 {
            clibc_close(fd)
            return .failure(.foreignOwner(path: path))
        }
        if info.st_mode & (CLIBC_S_IWGRP | CLIBC_S_IWOTH) != 0 {
            clibc_close(fd)
            return .failure(.writableByOthers(path: path))
        }
        return .success(TextfileWriter(path: path, directory: FileDescriptor(rawValue: fd)))
    }

    /// Formats and writes the file. Six syscalls: openat, fchmod, write, close, renameat
    /// (and an unlinkat when a leftover temporary file is in the way).
    public func write(_ snapshot: Snapshot, counters: PrometheusCounters) -> Result<Void, Errno> {
        PrometheusText.format(snapshot, counters: counters, into: &bytes)
        let dir = directory.rawValue
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
        var fd = clibc_openat(dir, temporaryNameC, flags, 0o644)
        if fd < 0 && clibc_errno() == EEXIST {
            unlinkat(dir, temporaryNameC, 0)
            fd = clibc_openat(dir, temporaryNameC, flags, 0o644)
        }
        if fd < 0 { return .failure(.current) }
        // The umask may have taken read rights away: node_exporter runs as another user.
        if fchmod(fd, 0o644) != 0 {
            let error = Errno.current
            close(fd)
            unlinkat(dir, temporaryNameC, 0)
            return .failure(error)
        }
        if let error = FileDescriptor(rawValue: fd).writeAll(bytes) {
            close(fd)
            unlinkat(dir, temporaryNameC, 0)
            return .failure(error)
        }
        if close(fd) != 0 && clibc_errno() != EINTR {
            let error = Errno.current
            unlinkat(dir, temporaryNameC, 0)
            return .failure(error)
        }
        if renameat(dir, temporaryNameC, dir, nameC) != 0 {
            let error = Errno.current
            unlinkat(dir, temporaryNameC, 0)
            return .failure(error)
        }
        return .success(())
    }
}

/// Reads `<data-dir>/boots.summary` (``BootSummary``, written by `sysstatsd-history`) for the
/// export's boot figures: one open, read and close into a stack buffer, nothing allocated.
/// A missing or malformed file gives nil: the boot figures are left out.
public struct BootSummaryReader {
    private let pathC: [CChar]

    public init(dataDirectory: String) {
        pathC = cPath(DataDirectory.join(dataDirectory, BootSummary.fileName))
    }

    public func read() -> PrometheusCounters.Boots? {
        let fd = clibc_open(pathC, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0)
        if fd < 0 { return nil }
        defer { close(fd) }
        return withUnsafeTemporaryAllocation(byteCount: BootSummary.maximumSize + 1, alignment: 1) { buffer in
            var count = 0
            while count < buffer.count {
                guard case .success(let n) = FileDescriptor(rawValue: fd).readSome(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...])),
                      n > 0 else { break }
                count += n
            }
            guard let summary = BootSummary.parse(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) else { return nil }
            return PrometheusCounters.Boots(clean: summary.clean, unclean: summary.unclean, previousClean: summary.previousClean)
        }
    }
}
