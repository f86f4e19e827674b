import CLibc
import CSamplerSys
import SystemDirs

/// Set by the SIGHUP handler: read the config file's `[sampler]` table again.
nonisolated(unsafe) var reloadRequested: sig_atomic_t = 0

/// What a running sampler does when its config file changed or it was sent SIGHUP: the
/// command line parsed again over the file, as at start (the flags still win). Nothing
/// changed: nothing. A mistake: one line on stderr, and the running settings stay. A
/// change: the sampler starts again in place (`execv` of its own program, same pid, same
/// arguments), after finishing as at a clean stop — the simplest way for every key
/// (interval, history, the textfile export) to take effect; the snapshot's graphs start over,
/// and the history's minute being collected goes on in the new image (``SamplerRun/finish()``,
/// ``MinuteRollup/carried``).
public enum SamplerReload {
    public enum Decision: Equatable {
        case unchanged
        case restart
        case refused(String)
    }

    /// The decision for `arguments` (the command line after the program's name) over the
    /// file as it is now, against the `running` configuration.
    public static func decide(arguments: [[UInt8]], running: SamplerConfiguration) -> Decision {
        switch SamplerOptions.parseWithConfigFile(bytes: arguments) {
        case .failure(let e): return .refused("\(e)")
        case .success(.run(let now)): return sameFileSettings(now, running) ? .unchanged : .restart
        case .success: return .unchanged
        }
    }

    /// Whether the keys a `[sampler]` table sets come to the same settings in both: a key
    /// written out with its default value (`disks = ["/"]`, as `sysstats config example`
    /// writes it) is no change. Paths and names are compared as bytes (see
    /// ``SamplerConfiguration/readsThisMachine``).
    static func sameFileSettings(_ a: SamplerConfiguration, _ b: SamplerConfiguration) -> Bool {
        a.intervalMs == b.intervalMs && a.history == b.history && a.freedThresholdKiB == b.freedThresholdKiB
            && a.textfileIntervalSeconds == b.textfileIntervalSeconds
            && same(a.measuredDisks, b.measuredDisks)
            && same(a.sensors, b.sensors) && same(a.interfaces, b.interfaces)
            && same(a.textfileDirectory.map { [$0] } ?? [], b.textfileDirectory.map { [$0] } ?? [])
    }

    private static func same(_ a: [String], _ b: [String]) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count {
            var x = a[i], y = b[i]
            let equal = x.withUTF8 { p in y.withUTF8 { q in p.count == q.count && (p.count == 0 || memcmp(p.baseAddress!, q.baseAddress!, p.count) == 0) } }
            if !equal { return false }
        }
        return true
    }

    /// The signals the sampler handles. They are blocked across the re-execution: the new
    /// image starts with their default actions (SIGHUP's and SIGIO's end the process), so one
    /// arriving before it has installed its handlers waits, pending, until
    /// ``unblockHandledSignals()``.
    static let handledSignals: [Int32] = [SIGHUP, SIGIO, SIGTERM, SIGINT]

    /// Replaces this process's image with its own program and `arguments` (after the name).
    /// Returns only when that failed, with the reason.
    static func restart(arguments: [[UInt8]]) -> String {
        var storage: [[CChar]] = [Array("sysstatsd".utf8CString)]
        for a in arguments { storage.append(a.map { CChar(bitPattern: $0) } + [0]) }
        let pointers = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: storage.count + 1)
        defer { pointers.deallocate() }
        var owned: [UnsafeMutablePointer<CChar>] = []
        for (i, s) in storage.enumerated() {
            let p = UnsafeMutablePointer<CChar>.allocate(capacity: s.count)
            p.initialize(from: s, count: s.count)
            owned.append(p)
            pointers[i] = p
        }
        pointers[storage.count] = nil
        defer { for p in owned { p.deallocate() } }
        var blocked = sigset_t(), previous = sigset_t()
        sigemptyset(&blocked)
        for signal in handledSignals { sigaddset(&blocked, signal) }
        sigprocmask(SIG_BLOCK, &blocked, &previous)
        // SIGIO only says "look at the watches", which the new image sets up afresh: ignoring
        // it drops one pending and any the old inotify descriptor raises until execve closes it.
        clibc_ignore_signal(SIGIO)
        // The disks' statfs processes share this image's memory: they end before it goes.
        csamplersys_space_workers_stop_all()
        let program = programPath()
        program.withUnsafeBufferPointer { _ = execv($0.baseAddress!, pointers) }
        let why = String(cString: strerror(clibc_errno()))
        sigprocmask(SIG_SETMASK, &previous, nil)
        return why
    }

    /// Lets the handled signals in once the handlers are installed (pending ones arrive now).
    public static func unblockHandledSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in handledSignals { sigaddset(&set, signal) }
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }

    /// The program to start again: the file this process runs, by its path. After a package
    /// upgrade replaced it, /proc/self/exe still names the old, deleted image ("PATH
    /// (deleted)"); the new file at PATH is the one to run. NUL-terminated.
    static func programPath() -> [CChar] {
        let fallback = Array("/proc/self/exe".utf8CString)
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, Int(PATH_MAX))
        guard n > 0 else { return fallback }
        let suffix = Array(" (deleted)".utf8).map { CChar(bitPattern: $0) }
        guard n > suffix.count, Array(buffer[(n - suffix.count)..<n]) == suffix else { return fallback }
        var path = Array(buffer[..<(n - suffix.count)])
        path.append(0)
        var info = stat()
        let usable = path.withUnsafeBufferPointer { stat($0.baseAddress!, &info) == 0 && access($0.baseAddress!, X_OK) == 0 }
        return usable && info.st_mode & CLIBC_S_IFMT == CLIBC_S_IFREG ? path : fallback
    }

    static func installHandler() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in reloadRequested = 1 }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0  // no SA_RESTART: the sleep returns EINTR at once
        sigaction(SIGHUP, &action, nil)
    }
}
