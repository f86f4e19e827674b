#if canImport(Glibc)
import Glibc
#endif
import Bookmarks
import CMeasureSys
import ProcFS

/// Why the budgets file was not used: one line for stderr.
public struct BudgetLoadError: Error, Equatable {
    public var message: String
}

/// `sysstats budget check` and `budget record`: reads the budgets file, runs each budget's
/// setup and command (by /bin/sh, from the file's directory, stdin and stdout /dev/null),
/// measures it and checks it.
public enum BudgetRunner {
    public static let defaultFile = "sysstats-budget.toml"
    public static let defaultBaseline = "sysstats-budget-baseline.json"

    public struct Options {
        public var file: String
        public var baseline: String?
        public var tolerance = BudgetResult.defaultTolerance
        public var junit: String?
        public var only: [String] = []
        public init(file: String) { self.file = file }
    }

    /// Reads and checks the budgets file: the budgets, or one line for stderr.
    public static func load(_ path: String) -> Result<[Budget], BudgetLoadError> {
        let shown = TerminalText.escape(path)
        switch readRegularFile(path, limit: BudgetFile.maximumSize) {
        case .failure(.tooLarge): return .failure(BudgetLoadError(message: "\(shown): larger than \(BudgetFile.maximumSize) bytes"))
        case .failure(let e): return .failure(BudgetLoadError(message: "\(shown): \(e)"))
        case .success(let bytes):
            do throws(BudgetFileError) {
                var budgets = try BudgetFile.parse(bytes)
                for i in budgets.indices { budgets[i].file = path }
                return .success(budgets)
            } catch {
                return .failure(BudgetLoadError(message: error.describe(file: shown)))
            }
        }
    }

    /// Runs every budget (or those named in `only`), printing each line through `emit` as
    /// it is known; the results.
    public static func run(_ budgets: [Budget], directory: String, baseline: BudgetBaseline?, tolerance: Double,
                           emit: (String) -> Void) -> [BudgetResult] {
        var results: [BudgetResult] = []
        // SIGTERM, SIGHUP or SIGINT (a CI runner's timeout) stops the budget being measured
        // and runs no more: each leaves no tree, cgroup or temporary directory behind.
        measure_signals_install()
        for budget in budgets {
            if measure_termination_signal() != 0 { break }
            var result = runOne(budget, directory: directory)
            if let base = baseline?.budgets[budget.name] { result.compare(with: base, tolerance: tolerance) }
            emit(result.line)
            results.append(result)
        }
        return results
    }

    /// One budget, in a fresh temporary directory named by $SYSSTATS_BUDGET_TMP.
    static func runOne(_ budget: Budget, directory: String) -> BudgetResult {
        var template = cPath(temporaryDirectory() + "/sysstats-budget-XXXXXX")   // $TMPDIR's bytes as set
        guard let made = mkdtemp(&template) else {
            var r = BudgetResult(budget: budget); r.failure = "cannot make a temporary directory: \(Errno.current)"; return r
        }
        let temporary = pathString(UnsafeRawBufferPointer(start: made, count: strlen(made)))
        defer { SystemFiles.removeTree(temporary) }
        setenv("SYSSTATS_BUDGET_TMP", cPath(temporary), 1)
        defer { unsetenv("SYSSTATS_BUDGET_TMP") }
        if let setup = budget.setup {
            if let problem = runSetup(setup, directory: directory) {
                var r = BudgetResult(budget: budget)
                r.failure = "setup \(problem); nothing checked" + (r.location(of: "setup").map { " (setup at \($0))" } ?? "")
                return r
            }
        }
        var options = MeasureOptions(arguments: budget.attach == nil ? ["/bin/sh", "-c", budget.command] : [])
        if let attach = budget.attach {
            switch attachedPid(attach, directory: directory) {
            case .success(let pid): options.attachPid = pid
            case .failure(let why):
                var r = BudgetResult(budget: budget)
                let key = if case .pid = attach { "pid" } else { "pidfile" }
                r.failure = why.message + "; nothing checked" + (r.location(of: key).map { " (\(key) at \($0))" } ?? "")
                return r
            }
        }
        options.intervalMs = budget.intervalMs
        options.maxOverhead = budget.maxOverhead
        options.cpuBeforeNs = OverheadGovernor.processCPUNs()
        options.durationMs = budget.durationMs
        options.quiet = true
        options.workingDirectory = directory
        switch MeasureRun(options).run() {
        case .failure(let e):
            var r = BudgetResult(budget: budget); r.failure = e.message; return r
        case .success(let recording) where recording.stoppedBySignal != nil:
            var r = BudgetResult(budget: budget)
            r.failure = "stopped by signal \(recording.stoppedBySignal!) after \(recording.wallMs) ms; nothing checked"
            return r
        case .success(var recording):
            if let name = budget.process {
                let ran = recording.processes.map(\.name) + (recording.largestUnseen.map { [$0.name] } ?? [])
                recording.processes.removeAll { $0.name != Array(name.utf8) }
                if recording.largestUnseen?.name != Array(name.utf8) { recording.largestUnseen = nil }
                recording.unseenProcesses = recording.largestUnseen == nil ? 0 : 1
                recording.ownExactFiguresOnly = true
                if recording.processes.isEmpty && recording.largestUnseen == nil {
                    // A filter that matched nothing measured nothing: a budget on zero passes for no reason.
                    var names: [String] = []
                    for n in ran where !names.contains(TerminalText.escape(n)) { names.append(TerminalText.escape(n)) }
                    var r = BudgetResult(budget: budget)
                    r.failure = "process = '\(TerminalText.escape(name))' matched none of the processes that ran ("
                        + (names.isEmpty ? "none seen" : names.prefix(8).joined(separator: ", ")) + "); nothing checked"
                        + (r.location(of: "process").map { " (process at \($0))" } ?? "")
                    r.wallMs = recording.wallMs
                    return r
                }
            }
            return BudgetResult(budget: budget, summary: MeasureSummary(recording, warmupMs: budget.warmupMs))
        }
    }

    /// The process a budget follows: its `pid`, or the number its `pidfile` holds (one line,
    /// blanks around it allowed), read now, after the setup; or why there is none.
    static func attachedPid(_ attach: Budget.Attach, directory: String) -> Result<Int32, BudgetLoadError> {
        switch attach {
        case .pid(let pid): return .success(pid)
        case .pidfile(let given):
            let path = given.hasPrefix("/") ? given : directory + "/" + given
            let shown = TerminalText.escape(given)
            switch readRegularFile(path, limit: BudgetFile.maximumPidfileSize) {
            case .failure(.tooLarge): return .failure(BudgetLoadError(message: "pidfile \(shown): larger than \(BudgetFile.maximumPidfileSize) bytes: not a pid file"))
            case .failure(let e): return .failure(BudgetLoadError(message: "pidfile \(shown): \(e)"))
            case .success(let bytes):
                let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
                let digits = bytes.drop(while: blank).reversed().drop(while: blank).reversed()
                guard !digits.isEmpty, digits.count <= 7, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                      let pid = Int32(String(decoding: digits, as: UTF8.self)), pid >= 1 else {
                    return .failure(BudgetLoadError(message: "pidfile \(shown) holds no process id (one number, 1 or more)"))
                }
                return .success(pid)
            }
        }
    }

    /// Runs the setup command to its end; nil, or how it failed.
    static func runSetup(_ command: String, directory: String) -> String? {
        let arguments: [String] = ["/bin/sh", "-c", command]
        var cStrings = arguments.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        cStrings.append(nil)
        let pid = withOptionalPath(directory) { measure_spawn(cStrings, 1, 1, $0, nil) }   // the file's folder as its bytes
        guard pid > 0 else { return "could not start: \(Errno(rawValue: -pid))" }
        var status: Int32 = 0
        var stopping: UInt64?
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid || (reaped < 0 && errno != EINTR) { break }
            if measure_termination_signal() != 0 {
                // Stopped as a measured tree is: SIGTERM, then SIGKILL a second later.
                if stopping == nil { stopping = monotonicMs() }
                kill(pid, monotonicMs() &- stopping! >= 1_000 ? SIGKILL : SIGTERM)
            }
            _ = measure_sleep_until(monotonicMs() &+ (stopping == nil ? 1_000 : 100))
        }
        if let signal = Optional(measure_termination_signal()), signal != 0 { return "stopped by signal \(signal)" }
        if status == 0 { return nil }
        return (status & 0x7F) == 0 ? "exited \((status >> 8) & 0xFF)" : "ended by signal \(status & 0x7F)"
    }

    /// The absolute directory holding `file` (the budgets' commands start there).
    public static func directory(of file: String) -> String {
        let path = SystemFiles.standardized(file)
        let slash = path.lastIndex(of: "/")!
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
