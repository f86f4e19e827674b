import CLibc
import Bookmarks
import ProcFS

/// The bookmark rules the sampler resolves names with, and how it notices they changed.
///
/// The sampler does not link SQLite (docs/history.md): the CLI and `sysstatsd-history`
/// write every rule, built-ins included, to the rules cache `<data-dir>/bookmarks.rules`
/// (the bookmarks file format with `source=`), by a rename. One `stat(2)` per interval
/// (or, under the sampler's loop, only when inotify saw its folder change: ``ChangeWatch``)
/// is the cheap change counter: when the file's identity (device, inode, size, mtime)
/// differs from the last one loaded, the file is read and parsed again (allocation is
/// fine then) and ``generation`` moves on, so the sampler re-resolves every process it
/// knows. A missing cache means the built-in rules; a refused one too, said once on stderr.
final class RulesWatcher {
    /// The rules in force.
    private(set) var resolver: NameResolver
    /// Moves on whenever ``resolver`` changes; never 0 (0 marks an unresolved process).
    private(set) var generation: UInt32 = 1

    /// The cache's path as a C string, built once: a stat per interval must not allocate.
    private let path: [CChar]?
    private let displayPath: String
    /// Whether the built-in rules apply while there is no (good) cache. Parsed when needed,
    /// not kept: with a cache loaded they would be a second copy of the rules on the heap.
    private let builtins: Bool
    /// The loop's inotify watch (nil in tests that sample by hand: a stat every sample).
    var changes: ChangeWatch?
    private var loaded: Identity?
    private var refused: Identity?

    /// What says the file changed: a rename gives a new inode, an edit in place a new mtime or size.
    private struct Identity: Equatable {
        var device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int
    }

    /// - Parameters:
    ///   - path: the rules cache; nil for the built-in rules only.
    ///   - builtins: whether the built-in rules apply while there is no (good) cache.
    init(path: String?, builtins: Bool) {
        self.path = path.map { cPath($0) }  // not utf8CString: ProcFS's CPath.swift
        displayPath = path ?? ""
        self.builtins = builtins
        resolver = NameResolver(rules: builtins ? BuiltinBookmarks.rules : [])
    }

    /// Stats the cache and reloads it if it changed. Returns true when the rules changed.
    @discardableResult
    func refresh() -> Bool {
        guard let path else { return false }
        // With the kernel watching the cache's folder, only after it said something changed.
        if let changes, !changes.takeRulesChange() { return false }
        var info = stat()
        let found = path.withUnsafeBufferPointer { stat($0.baseAddress!, &info) } == 0
        guard found, (info.st_mode & CLIBC_S_IFMT) == CLIBC_S_IFREG else {
            // No cache (yet): the built-in rules, if something else was in force.
            if loaded == nil { return false }
            loaded = nil
            return use(builtinRules)
        }
        let identity = Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                                seconds: info.st_mtim.tv_sec, nanoseconds: info.st_mtim.tv_nsec)
        if identity == loaded || identity == refused { return false }
        switch load(size: Int(info.st_size)) {
        case nil:
            return false
        case .success(let rules)?:
            loaded = identity
            refused = nil
            return use(rules)
        case .failure(let error)?:
            refused = identity
            printError("sysstatsd: \(error.message(file: displayPath)); using the built-in bookmarks")
            let changed = loaded != nil
            loaded = nil
            return changed ? use(builtinRules) : false
        }
    }

    private var builtinRules: [BookmarkRule] { builtins ? BuiltinBookmarks.rules : [] }

    private func use(_ rules: [BookmarkRule]) -> Bool {
        resolver = NameResolver(rules: rules)
        generation = generation == UInt32.max ? 1 : generation + 1
        return true
    }

    /// Reads the cache (never more than one byte over the format's limit) and parses it;
    /// nil when it grew while being read (written in place): the next stat tries again.
    private func load(size: Int) -> Result<[BookmarkRule], BookmarkFileError>? {
        if size > BookmarkFile.maximumSize { return .failure(.tooLarge(size: size)) }
        // Never blocks (a FIFO there), never follows a symlink, regular files only.
        let fd = path!.withUnsafeBufferPointer { clibc_open($0.baseAddress!, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW, 0) }
        if fd < 0 { return .failure(.notBookmarks) }
        defer { close(fd) }
        if FileDescriptor(rawValue: fd).nonRegularKind() != nil { return .failure(.notBookmarks) }
        // As large as stat said (plus one byte, to see a file that grew meanwhile), never the
        // format's maximum: a zero-filled 256 KiB buffer would be resident for nothing.
        let limit = min(size, BookmarkFile.maximumSize) + 1
        var bytes = [UInt8](repeating: 0, count: limit)
        var count = 0
        while count < limit {
            let result = bytes.withUnsafeMutableBytes {
                FileDescriptor(rawValue: fd).readSome(into: UnsafeMutableRawBufferPointer(rebasing: $0[count...]))
            }
            guard case .success(let n) = result, n > 0 else { break }
            count += n
        }
        if count > BookmarkFile.maximumSize { return .failure(.tooLarge(size: count)) }
        if count == limit { return nil }
        bytes.removeSubrange(count...)
        do throws(BookmarkFileError) {
            return .success(try BookmarkFile.parse(bytes).rules)
        } catch {
            return .failure(error)
        }
    }
}
