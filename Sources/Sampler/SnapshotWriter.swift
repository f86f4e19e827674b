import CLibc
import ProcFS
import SnapshotCodec
import CSamplerSys

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

/// Publishes snapshots atomically: the new bytes go into a second file in the same
/// directory, `.snapshot.tmp`, which is then exchanged with `snapshot` in one
/// `renameat2(RENAME_EXCHANGE)`, so a reader never sees half a file and an inotify watch
/// on the directory sees one `IN_MOVED_TO` of `snapshot` per snapshot.
///
/// Both files stay open and mapped (shared, read-write): the one just replaced becomes the
/// next one written, by a copy into its mapping (its length set with `ftruncate` when the new
/// snapshot's differs). In steady state that is one call per snapshot (renameat2) where
/// `pwrite` + renameat2 was two and create + write + close + rename (the first two writes,
/// and every write on a file system that cannot exchange) freed and allocated an inode each
/// time (docs/performance-history.md). Where a file cannot be mapped it is written with `pwrite`. A
/// file cut short behind the writer's back (a same-user `: > snapshot`) makes the copy fault:
/// the SIGBUS is caught, nothing is published, and the two files are made afresh. A reader
/// would see a file being rewritten only if it held `snapshot` open for a whole interval
/// between its open and its read; the body's checksum catches that and readers read again
/// (``SnapshotCodec`` `badChecksum`). The copy leaves the files' mtime as it was (on tmpfs):
/// readers tell snapshots apart by their sequence, not by mtime.
///
/// Neither file may have been unlinked or renamed over (exchanging would then publish
/// whatever now has the spare's name): under the loop's inotify watch (``ChangeWatch``)
/// both are watched and `fstat`ed only after an event on them; without it, before each
/// exchange.
///
/// It keeps the runtime directory open and works relative to that descriptor, checks
/// (one lstat) that the path still names it — each write, or under the loop's watch when
/// the directory was removed or renamed and every 30 writes — and re-creates and re-locks
/// it when it was removed. A path replaced by anything else is never written through.
public final class SnapshotWriter {
    public private(set) var directory: OpenRuntimeDirectory
    public let path: String
    private let nameC: [CChar]
    private let temporaryNameC: [CChar]
    /// The encoding buffer, allocated once (``SnapshotFormat/maximumV3Size``), and the length
    /// of the snapshot last encoded into it.
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: SnapshotFormat.maximumV3Size, alignment: 8)
    private var length = 0
    private var encoded: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: buffer[..<length]) }
    /// The sections of the parts measured only now and then, as last encoded here.
    private let sections = SectionCache()
    /// Sections copied from the last encoding rather than encoded again (tests).
    public var copiedSections: Int { sections.copies }
    /// The file now named `snapshot` (put there by this writer) and the one now named
    /// `.snapshot.tmp` (written next), with their sizes; -1 when not open.
    private var published: Int32 = -1, publishedSize = 0
    private var spare: Int32 = -1, spareSize = 0
    /// Their mappings (``mappingLength`` bytes each); nil where mmap failed: `pwrite` then.
    private var publishedMapping: UnsafeMutableRawPointer?, spareMapping: UnsafeMutableRawPointer?
    static let mappingLength = SnapshotFormat.maximumV3Size
    /// Snapshots written by a copy into a mapping (tests).
    public private(set) var mappedWrites = 0
    /// Cleared when the file system refused RENAME_EXCHANGE: create + rename from then on.
    private var exchanges = true
    /// The loop's inotify watch: with it, the directory's path is checked only when the
    /// directory was removed or renamed, and every ``pathCheckWrites`` writes regardless.
    var changes: ChangeWatch?
    static let pathCheckWrites: UInt32 = 30
    private var writesSincePathCheck: UInt32 = 0
    private var pathLost = false

    /// A writer into `directory`, opened and locked by ``RuntimeDirectory/openForSampler(_:)``.
    public init(directory: OpenRuntimeDirectory) {
        self.directory = directory
        self.path = RuntimeDirectory.snapshotPath(in: directory.path)
        nameC = cPath(SnapshotLocation.fileName)  // not utf8CString: ProcFS's CPath.swift
        temporaryNameC = cPath(".snapshot.tmp")
    }

    deinit {
        closeFiles()
        buffer.deallocate()
    }

    /// Encodes and publishes `snapshot`. `unchanged`: parts that are as they were at the last
    /// write (the sampler's parts carried over between measurements); their sections are
    /// copied from the last encoding.
    public func write(_ snapshot: Snapshot, unchanged: SnapshotSections = []) -> Result<Void, SnapshotWriteError> {
        var lent = snapshot
        return write(lending: &lent, unchanged: unchanged)
    }

    /// ``write(_:unchanged:)`` of a snapshot lent by address and left as it is: the sampler's,
    /// kept in its object, which a value argument would first copy whole (288 bytes, through
    /// glibc's memmove; ``Snapshot/encode(_:into:cache:unchanged:)``).
    public func write(lending snapshot: inout Snapshot, unchanged: SnapshotSections = []) -> Result<Void, SnapshotWriteError> {
        writesSincePathCheck &+= 1
        let check = changes?.takeRuntimeMove(directory: directory.descriptor.rawValue) ?? true
            || writesSincePathCheck >= SnapshotWriter.pathCheckWrites || pathLost
        if check { writesSincePathCheck = 0 }
        if check && !directory.isStillAtPath() {
            closeFiles()
            // Until the path is ours again, every write looks (no event will say so).
            pathLost = true
            if case .failure(let e) = reopenDirectory() {
                sections.clear()   // not encoded: "unchanged" at the next write is not since this one
                return .failure(e)
            }
            pathLost = false
        }
        length = Snapshot.encode(&snapshot, into: buffer, cache: sections, unchanged: unchanged)
        if spare >= 0 && published >= 0 && exchanges {
            if exchangeIntoPlace() { return .success(()) }
            // A file was removed or replaced behind our back, or the file system cannot
            // exchange: start again from a new file.
            closeFiles()
        }
        let result = createAndRename()
        if case .failure = result, !check {
            // The directory may have gone since the last check (its event not yet read).
            writesSincePathCheck = 0
            if !directory.isStillAtPath() {
                pathLost = true
                if case .failure(let e) = reopenDirectory() { return .failure(e) }
                pathLost = false
                return createAndRename()
            }
        }
        return result
    }

    /// Rewrites the spare file and swaps it with `snapshot`. False (nothing published) if
    /// either step failed.
    private func exchangeIntoPlace() -> Bool {
        // Both still linked: were the spare removed or renamed over, `.snapshot.tmp` would be
        // another file (or none), and exchanging would publish that one; were `snapshot`, the
        // next exchange would.
        if changes?.takeSnapshotFilesChange(spare, published) ?? true {
            var info = stat()
            guard fstat(spare, &info) == 0, info.st_nlink > 0,
                  fstat(published, &info) == 0, info.st_nlink > 0 else { return false }
        }
        if let mapping = spareMapping {
            if spareSize != length && ftruncate(spare, off_t(length)) != 0 { return false }
            spareSize = length
            if csamplersys_copy_into_mapping(mapping, buffer.baseAddress, length) != 0 { return false }
            mappedWrites &+= 1
        } else {
            let written = FileDescriptor(rawValue: spare).writeAll(encoded, atOffset: 0)
            if written != nil { return false }
            if spareSize > length && ftruncate(spare, off_t(length)) != 0 { return false }
            spareSize = length
        }
        let dir = directory.descriptor.rawValue
        if csamplersys_exchange(dir, temporaryNameC, nameC) != 0 {
            if clibc_errno() == EINVAL || clibc_errno() == ENOSYS { exchanges = false }
            return false
        }
        swap(&spare, &published)
        swap(&spareSize, &publishedSize)
        swap(&spareMapping, &publishedMapping)
        return true
    }

    /// Creates `.snapshot.tmp` afresh, writes it and renames it over `snapshot`. The file
    /// stays open as the published one; the one it replaced becomes the spare only through an
    /// exchange, so the next write creates the spare (then exchanges from there on).
    private func createAndRename() -> Result<Void, SnapshotWriteError> {
        let dir = directory.descriptor.rawValue
        // O_EXCL: never opens what is already there (a FIFO would block, a symlink redirect);
        // a leftover from a crash is removed once and created afresh.
        let flags = O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
        var fd = clibc_openat(dir, temporaryNameC, flags, 0o600)
        if fd < 0 && clibc_errno() == EEXIST {
            unlinkat(dir, temporaryNameC, 0)
            fd = clibc_openat(dir, temporaryNameC, flags, 0o600)
        }
        if fd < 0 { return .failure(.file(.current)) }
        if let error = FileDescriptor(rawValue: fd).writeAll(encoded) {
            close(fd)
            unlinkat(dir, temporaryNameC, 0)
            return .failure(.file(error))
        }
        if published >= 0 && exchanges {
            // The second file: from now on the two are exchanged.
            if csamplersys_exchange(dir, temporaryNameC, nameC) == 0 {
                spare = published; spareSize = publishedSize; spareMapping = publishedMapping
                published = fd; publishedSize = length; publishedMapping = Self.map(fd)
                return .success(())
            }
            if clibc_errno() == EINVAL || clibc_errno() == ENOSYS { exchanges = false }
        }
        if renameat(dir, temporaryNameC, dir, nameC) != 0 {
            let error = Errno.current
            close(fd)
            unlinkat(dir, temporaryNameC, 0)
            return .failure(.file(error))
        }
        if published >= 0 { close(published) }
        csamplersys_unmap(publishedMapping, Self.mappingLength)
        published = fd; publishedSize = length
        // Mapped only while exchanging: a file renamed over `snapshot` each time is never rewritten.
        publishedMapping = exchanges ? Self.map(fd) : nil
        return .success(())
    }

    /// A shared mapping of the file open as `fd`, or nil (it is then written with `pwrite`).
    private static func map(_ fd: Int32) -> UnsafeMutableRawPointer? {
        csamplersys_map_shared(fd, mappingLength)
    }

    private func closeFiles() {
        if published >= 0 { close(published) }
        if spare >= 0 { close(spare) }
        csamplersys_unmap(publishedMapping, Self.mappingLength)
        csamplersys_unmap(spareMapping, Self.mappingLength)
        published = -1; spare = -1
        publishedSize = 0; spareSize = 0
        publishedMapping = nil; spareMapping = nil
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
