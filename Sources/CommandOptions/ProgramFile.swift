import CLibc

/// The file a long-running program was started from, followed through its package's life.
/// An upgrade renames a new file over it (dpkg), a purge or `install.sh --uninstall` removes
/// it, and a process started before runs on from the deleted image (`/proc/PID/exe -> PATH
/// (deleted)`), starting helpers of another release beside it or none at all. The sampler
/// and the bar look at the path at each minute's turn of the wall clock (one `stat`) and act
/// on what stands there: a new program, they start again from it in place; nothing, they say
/// so once (docs/packaging.md, "Upgrades and removal").
///
/// A change is acted on once it has settled: a reinstall from the tarball removes the
/// programs and copies them anew, and a file being copied is one whose change time moves.
/// A different file is taken when its change time is ``defaultSettleMs`` old, or when a look that
/// long after another found it the same; nothing at the path, when two looks that far apart
/// found nothing. Until then each chance to look is taken (``isDue(nowMs:)``).
public struct ProgramFile {
    /// Which file: `st_dev` and `st_ino`.
    public struct Identity: Equatable {
        public var device: UInt64
        public var inode: UInt64
        public init(device: UInt64, inode: UInt64) {
            self.device = device
            self.inode = inode
        }
    }

    /// What a look at the path found.
    public enum Found: Equatable {
        /// Nothing (ENOENT, ENOTDIR).
        case nothing
        /// The path could not be looked at for another reason (EACCES, EIO): nothing is decided.
        case unknown
        /// A file: which, when it last changed (its ctime, ms since the epoch), and whether it
        /// is a regular file this user may run.
        case file(Identity, changedMs: UInt64, runnable: Bool)
    }

    /// What to do after a look.
    public enum Verdict: Equatable {
        /// The running program is still the one at the path, or nothing can be told.
        case unchanged
        /// Something else stands there, or nothing, and has not settled yet: look again at
        /// the next chance.
        case settling
        /// A new program stands there: start again from it.
        case replaced
        /// The program is gone, or what stands there cannot run. Given once; later looks
        /// that find the same give ``unchanged``, a new program (a reinstall) ``replaced``.
        case removed
    }

    /// A change seen before, and since when it has looked the same.
    public struct Sighting: Equatable {
        public var found: Found
        public var sinceMs: UInt64
        /// When the first change of this run of changes was seen: one that never settles (a
        /// file rewritten every second) is taken as it is after ``longestSettleMs``.
        public var firstMs: UInt64
        public init(found: Found, sinceMs: UInt64, firstMs: UInt64) {
            self.found = found
            self.sinceMs = sinceMs
            self.firstMs = firstMs
        }
    }

    /// How long a change must hold before it is acted on.
    public static let defaultSettleMs: UInt64 = 5_000
    /// How long the sampler's history waits at most for a change to settle.
    public static let longestSettleMs: UInt64 = 60_000
    /// Looks at each turn of this period of the wall clock: the minute.
    public static let defaultPeriodMs: UInt64 = 60_000
    /// The environment variable that sets another period in ms, for tests only: an end-to-end
    /// test cannot wait for the minute's turn.
    public static let periodVariable: StaticString = "SYSSTATS_PROGRAM_CHECK_MS"

    /// The path the program was started from (no NUL): `/proc/self/exe`'s target then.
    public let path: [UInt8]
    /// The same, NUL-terminated, for the system calls.
    public let cPath: [CChar]
    /// The file this process runs.
    public let running: Identity
    public let periodMs: UInt64
    let settleMs: UInt64
    @usableFromInline var lastPeriod: UInt64
    /// The change being watched settle; nil while none.
    public private(set) var sighting: Sighting?
    /// What was said removed: found again, it is not said again.
    private var removedAs: Found?

    /// Follows the file at `path` (no NUL), this process running `running`, the first look at
    /// the turn of the period after `nowMs`.
    public init(path: [UInt8], running: Identity, nowMs: UInt64, periodMs: UInt64 = ProgramFile.defaultPeriodMs,
                settleMs: UInt64 = ProgramFile.defaultSettleMs) {
        self.path = path
        var c: [CChar] = []
        c.reserveCapacity(path.count + 1)
        for b in path { c.append(CChar(bitPattern: b)) }
        c.append(0)
        cPath = c
        self.running = running
        self.periodMs = max(periodMs, 1)
        self.settleMs = settleMs
        lastPeriod = nowMs / max(periodMs, 1)
    }

    /// This process's program, from `/proc/self/exe`: the path its link names, without the
    /// kernel's ` (deleted)` (a file replaced between the exec and this look is then seen at
    /// the first look), and the running file (the link opened and `fstat`ed: the image,
    /// deleted or not). Opened rather than `stat`ed: under valgrind the link's name and an
    /// open of it are the program's, a `stat` valgrind's own tool's, which read as a program
    /// replaced at the first look (the sampler then started again and again). nil when
    /// either cannot be read.
    public static func current(nowMs: UInt64) -> ProgramFile? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, Int(PATH_MAX))
        guard n > 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(n)
        for i in 0..<n { bytes.append(UInt8(bitPattern: buffer[i])) }
        let deleted: StaticString = " (deleted)"
        let suffix = deleted.utf8CodeUnitCount
        if bytes.count > suffix {
            var ends = true
            for i in 0..<suffix where bytes[bytes.count - suffix + i] != deleted.utf8Start[i] { ends = false }
            if ends { bytes.removeLast(suffix) }
        }
        var info = stat()
        let image = clibc_open("/proc/self/exe", O_RDONLY | O_CLOEXEC, 0)
        if image >= 0 {
            defer { _ = clibc_close(image) }
            guard fstat(image, &info) == 0 else { return nil }
        } else {
            // An image this user may run but not read (mode 0711): the link's stat.
            guard stat("/proc/self/exe", &info) == 0 else { return nil }
        }
        return ProgramFile(path: bytes, running: Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)),
                           nowMs: nowMs, periodMs: periodFromEnvironment())
    }

    /// ``periodVariable``'s milliseconds (at least 100), else the minute.
    public static func periodFromEnvironment() -> UInt64 {
        let name = periodVariable
        guard let value = name.utf8Start.withMemoryRebound(to: CChar.self, capacity: name.utf8CodeUnitCount + 1, { getenv($0) })
        else { return defaultPeriodMs }
        var ms: UInt64 = 0, i = 0
        while value[i] != 0 {
            let b = UInt8(bitPattern: value[i])
            guard b >= 0x30, b <= 0x39, ms < 1_000_000_000 else { return defaultPeriodMs }
            ms = ms * 10 + UInt64(b - 0x30)
            i += 1
        }
        return i == 0 ? defaultPeriodMs : max(ms, 100)
    }

    /// Whether a look is due at `nowMs` (ms since the epoch): at each turn of the period, and
    /// at every chance while a change settles. No system call; inlined into the sampler's loop,
    /// which asks at each sample.
    @inlinable
    public func isDue(nowMs: UInt64) -> Bool { sighting != nil || nowMs / periodMs != lastPeriod }

    /// Whether a change is settling now (the sampler's history waits for it, at most
    /// ``longestSettleMs``).
    @inlinable
    public var isSettling: Bool { sighting != nil }

    /// Looks at the path (one `stat`, and an `access` when another file stands there) and
    /// says what to do.
    public mutating func look(nowMs: UInt64) -> Verdict {
        lastPeriod = nowMs / periodMs
        return take(ProgramFile.find(cPath, running: running), nowMs: nowMs)
    }

    /// What `found`, a look at `nowMs`, means after the looks before.
    public mutating func take(_ found: Found, nowMs: UInt64) -> Verdict {
        if let removed = removedAs, found == removed {
            sighting = nil
            return .unchanged
        }
        // A clock set back: the wait starts again from now rather than from the future.
        if var s = sighting, nowMs < s.sinceMs || nowMs < s.firstMs {
            s.sinceMs = min(s.sinceMs, nowMs)
            s.firstMs = min(s.firstMs, nowMs)
            sighting = s
        }
        let verdict = ProgramFile.verdict(running: running, found: found, seen: sighting, nowMs: nowMs, settleMs: settleMs)
        switch verdict {
        case .settling:
            if sighting?.found != found {
                sighting = Sighting(found: found, sinceMs: nowMs, firstMs: sighting?.firstMs ?? nowMs)
            }
        case .unchanged, .replaced:
            sighting = nil
        case .removed:
            sighting = nil
            removedAs = found
        }
        return verdict
    }

    /// The verdict on `found`, a look at `nowMs`, for a process running `running`, after the
    /// change `seen` before (nil: none).
    public static func verdict(running: Identity, found: Found, seen: Sighting?, nowMs: UInt64,
                               settleMs: UInt64 = ProgramFile.defaultSettleMs) -> Verdict {
        let held = seen.map { $0.found == found && nowMs >= $0.sinceMs && nowMs - $0.sinceMs >= settleMs } ?? false
        let tooLong = seen.map { nowMs >= $0.firstMs && nowMs - $0.firstMs >= longestSettleMs } ?? false
        switch found {
        case .unknown:
            return .unchanged
        case .file(let identity, _, _) where identity == running:
            return .unchanged
        case .file(_, let changedMs, let runnable):
            let old = changedMs <= nowMs && nowMs - changedMs >= settleMs
            guard old || held || tooLong else { return .settling }
            return runnable ? .replaced : .removed
        case .nothing:
            return held || tooLong ? .removed : .settling
        }
    }

    /// What stands at `path` (NUL-terminated), for a process running `running`.
    public static func find(_ path: [CChar], running: Identity) -> Found {
        var info = stat()
        let status = path.withUnsafeBufferPointer { stat($0.baseAddress!, &info) }
        guard status == 0 else {
            let e = clibc_errno()
            return e == ENOENT || e == ENOTDIR ? .nothing : .unknown
        }
        let seconds = info.st_ctim.tv_sec > 0 ? UInt64(info.st_ctim.tv_sec) : 0
        let changedMs = seconds &* 1000 &+ UInt64(max(0, info.st_ctim.tv_nsec) / 1_000_000)
        let regular = info.st_mode & CLIBC_S_IFMT == CLIBC_S_IFREG
        let identity = Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        // Asked only of a file that is not the running one: the steady state is one stat.
        let runnable = identity == running || regular && path.withUnsafeBufferPointer { access($0.baseAddress!, X_OK) == 0 }
        return .file(identity, changedMs: changedMs, runnable: runnable)
    }
}
