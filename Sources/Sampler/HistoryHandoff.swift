import Bookmarks
import ProcFS
import HistoryRecords
import CLibc

/// Hands history batches to the writer process, `sysstatsd-history`, so that SQLite never
/// maps into the sampler (docs/performance-history.md, "SQLite stays out of the sampler").
///
/// Each batch starts one writer (posix_spawn, found beside this executable) whose stdin is
/// a pipe; the encoded batch is written and the pipe closed. Writers are reaped with
/// `waitpid(WNOHANG)`; a failed one is reported once on stderr (until one succeeds again).
/// At shutdown ``finish(_:deadlineMs:)`` waits for the last writer up to a deadline.
///
/// It also holds the data directory's shared lock (``DataDirectoryLock``) from the first
/// batch, sent at start-up, on: `sysstats restore` refuses while it is held. If a restore holds
/// the directory then, that is said in one line, batches are dropped, and each next batch (one
/// a minute) tries again; history resumes, said in one line, once the lock is had. A writer
/// that finds the file system full (``HistoryWriterStatus/noSpace``) is said once as "history
/// paused" and, when a later writer succeeds, once as "history resumed".
public final class HistoryHandoff {
    /// The writer's path.
    public let writerPath: String
    /// Its data directory (`--data-dir`).
    public let dataDirectory: String
    private var running: [pid_t] = []
    private var reportedFailure = false
    private var bytes: [UInt8] = []
    private var lock: DataDirectoryLock?
    private var pausedForLock = false
    private var pausedForSpace = false
    /// Where one-line reports go (stderr; tests collect them).
    public var reportLine: (String) -> Void = { printError($0) }

    /// The writer's path: `sysstatsd-history` in the directory of `/proc/self/exe`'s target.
    public static func defaultWriterPath() -> String? { programBesideThisOne("sysstatsd-history") }

    public init(writerPath: String, dataDirectory: String) {
        self.writerPath = writerPath
        self.dataDirectory = dataDirectory
        running.reserveCapacity(8)
    }

    /// True while a writer has not been reaped.
    public var hasRunningWriters: Bool { !running.isEmpty }

    /// Starts a writer for `batch`. Returns its pid, or nil when it could not be started
    /// (reported once on stderr).
    @discardableResult
    public func send(_ batch: HistoryBatch) -> pid_t? {
        reap()
        guard holdsLock() else { return nil }
        bytes.removeAll(keepingCapacity: true)
        batch.encode(into: &bytes)
        var fds: [Int32] = [-1, -1]
        // pipe2 is not visible from Swift's Glibc; the sampler is single-threaded, so
        // pipe + FD_CLOEXEC has no window in which another thread could fork.
        guard pipe(&fds) == 0 else {
            report("sysstatsd: cannot start the history writer: pipe: \(Errno.current.description)")
            return nil
        }
        let readEnd = fds[0], writeEnd = fds[1]
        _ = clibc_fcntl(readEnd, F_SETFD, Int(FD_CLOEXEC))
        _ = clibc_fcntl(writeEnd, F_SETFD, Int(FD_CLOEXEC))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, readEnd, STDIN_FILENO)   // dup2 clears O_CLOEXEC on 0

        // argv as a buffer of C strings: an [UnsafeMutablePointer<CChar>?] made its
        // metadata through the runtime's demangler (Optional's code pages, for one call).
        let cArgs = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: 5)
        // The paths as bytes (ProcFS's CPath.swift): a String passed for a `const char *`
        // is converted with `utf8CString`, start-up code of its own.
        let writerPathC = cPath(writerPath)
        cArgs[0] = strdup(writerPathC)
        cArgs[1] = strdup("--data-dir")
        cArgs[2] = strdup(cPath(dataDirectory))
        cArgs[3] = strdup(cPath(HistoryWriterStatus.quietWhenFullFlag))
        cArgs[4] = nil
        defer {
            for i in 0..<4 { free(cArgs[i]) }
            cArgs.deallocate()
        }
        var pid: pid_t = 0
        // The writer links libsqlite3: its loader must not look in a folder LD_LIBRARY_PATH names relatively.
        let status = ChildEnvironment.withFiltered { posix_spawn(&pid, writerPathC, &actions, nil, cArgs, $0) }
        close(readEnd)
        guard status == 0 else {
            close(writeEnd)
            report("sysstatsd: cannot start the history writer \(writerPath): \(Errno(rawValue: status).description)")
            return nil
        }
        running.append(pid)
        if let error = FileDescriptor(rawValue: writeEnd).writeAll(bytes) {
            report("sysstatsd: cannot hand the history batch to the writer: \(error.description)")
        }
        close(writeEnd)
        return pid
    }

    /// Reaps writers that have exited, without waiting; reports a failed one.
    public func reap() {
        var i = 0
        while i < running.count {
            var status: Int32 = 0
            let r = waitpid(running[i], &status, WNOHANG)
            if r == 0 { i += 1; continue }
            running.remove(at: i)
            if r > 0 { note(status: status) }
        }
    }

    /// Hands off the last batch and waits for every writer, at most `deadlineMs`. Past it,
    /// kills the last writer and returns one line saying what was dropped; nil when stored.
    public func finish(_ batch: HistoryBatch, deadlineMs: UInt32) -> String? {
        let start = Clock.monotonicNs()
        let dropped = "dropped \(batch.samples.count) minute row(s) and \(batch.exits.count) exit(s), and the boot is not marked clean"
        guard let last = send(batch) else { return "sysstatsd: history not written: \(dropped)" }
        let deadline = start &+ UInt64(deadlineMs) &* 1_000_000
        var lastStatus: Int32?
        while true {
            var i = 0
            while i < running.count {
                var status: Int32 = 0
                let r = waitpid(running[i], &status, WNOHANG)
                if r == 0 { i += 1; continue }
                if r > 0 { if running[i] == last { lastStatus = status } else { note(status: status) } }
                running.remove(at: i)
            }
            if running.isEmpty { break }
            if Clock.monotonicNs() >= deadline {
                // Bounded (ChildStop): a writer stuck in the kernel (a hung file system) is left
                // to init rather than waited on by a sampler on its way out.
                for pid in running { _ = ChildStop.stop(pid, graceMs: 0) }
                running.removeAll()
                return "sysstatsd: the history writer did not finish within \(deadlineMs) ms: \(dropped)"
            }
            var ts = timespec(tv_sec: 0, tv_nsec: 10_000_000)
            nanosleep(&ts, nil)
        }
        if let s = lastStatus {
            if HistoryHandoff.succeeded(s) {
                note(status: s)
            } else if HistoryHandoff.exitStatus(s) == HistoryWriterStatus.noSpace {
                return "sysstatsd: history not written (no space left in \(TerminalText.escape(dataDirectory))): \(dropped)"
            } else {
                return "sysstatsd: the history writer failed (\(HistoryHandoff.describe(s))): \(dropped)"
            }
        }
        return nil
    }

    /// Takes the data directory's shared lock unless held (the first call, at start-up, also
    /// creates the directory). False while it cannot be had: said once, until it can.
    private func holdsLock() -> Bool {
        if lock != nil { return true }
        switch DataDirectoryLock.shared(dataDirectory) {
        case .success(let held):
            lock = held
            if pausedForLock {
                pausedForLock = false
                reportLine("sysstatsd: history resumed in \(TerminalText.escape(dataDirectory))")
            }
            return true
        case .failure(let failure):
            if !pausedForLock {
                pausedForLock = true
                reportLine("sysstatsd: \(TerminalText.escape(failure.message)): history paused, trying again each minute")
            }
            return false
        }
    }

    static func succeeded(_ status: Int32) -> Bool { status & 0x7F == 0 && (status >> 8) & 0xFF == 0 }

    /// The exit status of a writer that exited, -1 for one killed by a signal.
    static func exitStatus(_ status: Int32) -> Int32 { status & 0x7F == 0 ? (status >> 8) & 0xFF : -1 }

    static func describe(_ status: Int32) -> String {
        status & 0x7F == 0 ? "exit status \((status >> 8) & 0xFF)" : "signal \(status & 0x7F)"
    }

    private func note(status: Int32) {
        if HistoryHandoff.succeeded(status) {
            reportedFailure = false
            if pausedForSpace {
                pausedForSpace = false
                reportLine("sysstatsd: history resumed: \(TerminalText.escape(dataDirectory)) has room again")
            }
        } else if HistoryHandoff.exitStatus(status) == HistoryWriterStatus.noSpace {
            if !pausedForSpace {
                pausedForSpace = true
                reportLine("sysstatsd: history paused: no space left in \(TerminalText.escape(dataDirectory)); "
                           + "its minutes are lost until there is room (tried again each minute)")
            }
        } else {
            report("sysstatsd: the history writer failed (\(HistoryHandoff.describe(status))); its rows are lost")
        }
    }

    /// Prints a failure once, until a writer succeeds again.
    private func report(_ message: String) {
        guard !reportedFailure else { return }
        reportedFailure = true
        reportLine(message)
    }
}
