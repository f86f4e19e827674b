#if canImport(Glibc)
import Glibc
#endif
import ProcFS

/// `budget check --png DIR`: one chart per budget that ran (``MeasureChart``, its limit
/// drawn), named after the budget.
public enum BudgetCharts {
    /// A budget's name as a file name: letters, digits, `.`, `_` and `-` kept, anything
    /// else `-`, at most 64 bytes, never hidden; `.png` added.
    public static func fileName(_ name: String) -> String {
        var bytes = Array(name.utf8.prefix(64)).map { b -> UInt8 in
            let keep = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2E || b == 0x5F || b == 0x2D
            return keep ? b : 0x2D
        }
        if bytes.first == 0x2E || bytes.isEmpty { bytes.insert(0x2D, at: 0) }
        return String(decoding: bytes, as: UTF8.self) + ".png"
    }

    /// Writes the charts into `directory` (made when missing, checked by ``openDirectory(_:)``);
    /// nil, or what failed. Two names that become the same file name get `-2`, `-3` ….
    public static func write(_ results: [BudgetResult], to directory: String) -> String? {
        let folder: FileDescriptor
        switch openDirectory(directory) {
        case .failure(let refusal): return refusal.message
        case .success(let opened): folder = opened
        }
        defer { folder.close() }
        var used: Set<String> = []
        for r in results {
            guard let summary = r.summary else { continue }
            var name = fileName(r.budget.name), n = 1
            while used.contains(name) { n += 1; name = String(fileName(r.budget.name).dropLast(4)) + "-\(n).png" }
            used.insert(name)
            let chart = MeasureChart(summary, command: [r.budget.name], limit: r.chartLimit.map { ("\($0.key) limit", $0.bytes) })
            if let problem = writeChart(chart.png(), named: name, in: folder) { return "cannot write \(directory)/\(name): \(problem)" }
        }
        return nil
    }

    /// The charts' directory, made (0755) when missing, opened once: a directory, not a
    /// symbolic link, owned by the user or root, that others may not write; else why not, in
    /// one line. (`mkdir`'s EEXIST was taken as
    /// "there": another user's link at DIR was written through, root's charts landing in its
    /// target.) Trailing slashes are dropped first: `link/` would follow the link.
    static func openDirectory(_ path: String) -> Result<FileDescriptor, Refusal> {
        var trimmed = path
        while trimmed.utf8.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        let trimmedC = cPath(trimmed)   // its bytes as given (ProcFS's pathString)
        if mkdir(trimmedC, 0o755) != 0 && errno != EEXIST { return .failure(Refusal("cannot make \(path): \(Errno.current)")) }
        let fd = retryingInterrupts { open(trimmedC, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        if fd < 0 {
            let error = Errno.current
            var info = stat()
            if lstat(trimmedC, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK {
                return .failure(Refusal("\(path) is a symbolic link: no chart is written through it (name the directory itself)"))
            }
            return .failure(Refusal(error.rawValue == ENOTDIR ? "\(path) is not a directory" : "cannot open \(path): \(error)"))
        }
        var info = stat()
        var problem: String?
        if fstat(fd, &info) != 0 || info.st_mode & S_IFMT != S_IFDIR {
            problem = "\(path) is not a directory"
        } else if info.st_uid != geteuid() && info.st_uid != 0 {
            problem = "\(path) is owned by uid \(info.st_uid), not by you or root: no chart is written into it"
        } else if info.st_mode & S_IWOTH != 0 {
            // Others, not the group: under a user-private group (Debian's default, umask 002)
            // the user's own directories are group-writable, and the group is the user.
            problem = "\(path) may be written by others: no chart is written into it (chmod o-w it)"
        }
        if let problem {
            close(fd)
            return .failure(Refusal(problem))
        }
        return .success(FileDescriptor(rawValue: fd))
    }

    /// Why the charts' directory is not written into: one line.
    struct Refusal: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// Writes `bytes` as `name` inside `folder`, as ``writeFileAtomically(_:to:mode:syncDirectory:)``
    /// does beside a path: into a new temporary file (`O_EXCL|O_NOFOLLOW|O_NONBLOCK`: what sits
    /// at its name is removed, never opened), synced, then renamed over `name` (a link there is
    /// replaced, never written through). nil, or why not.
    static func writeChart(_ bytes: [UInt8], named name: String, in folder: FileDescriptor) -> String? {
        let directory = folder.rawValue, temporary = "." + name + ".tmp-" + String(getpid())
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
        var fd = retryingInterrupts { openat(directory, temporary, flags, 0o644) }
        if fd < 0 && errno == EEXIST {
            unlinkat(directory, temporary, 0)
            fd = retryingInterrupts { openat(directory, temporary, flags, 0o644) }
        }
        if fd < 0 { return "cannot create \(temporary): \(Errno.current)" }
        let failed = FileDescriptor(rawValue: fd).writeAll(bytes) ?? (fsync(fd) == 0 ? nil : Errno.current)
        close(fd)
        if let failed {
            unlinkat(directory, temporary, 0)
            return "\(failed)"
        }
        if renameat(directory, temporary, directory, name) != 0 {
            let error = Errno.current
            unlinkat(directory, temporary, 0)
            return "cannot rename \(temporary) to \(name): \(error)"
        }
        return nil
    }
}
