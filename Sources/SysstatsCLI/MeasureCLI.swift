// Argument parsing for `sysstats measure` and `sysstats budget`; the work is in Measure/.
#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Bookmarks
import CMeasureSys
import ProcFS

/// `--interval 10ms`, `--warmup 1s`: a duration in milliseconds.
func parseDurationOption(_ text: String) throws -> UInt64 {
    switch DurationText.parse(text) {
    case .success(let ms): return ms
    case .failure(let e): throw ValidationError(e.message)
    }
}

/// `--max-overhead 2%` (or `2`, `0` for none): a share of one core, a fraction.
func parseOverheadShare(_ text: String) throws -> Double {
    switch OverheadGovernor.parseShare(text) {
    case .success(let share): return share
    case .failure(let e): throw ValidationError(e.message)
    }
}

/// `--tolerance 5%` (or `5`): a fraction.
func parseTolerance(_ text: String) throws -> Double {
    let number = text.hasSuffix("%") ? String(text.dropLast()) : text
    guard let percent = Double(number), percent.isFinite, percent >= 0, percent <= 1000 else {
        throw ValidationError("'\(text)' is not a percentage from 0% to 1000%")
    }
    return percent / 100
}

struct MeasureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "measure",
        abstract: "Run a command and report the memory of its whole process tree: peaks, steady state, growth.",
        discussion: """
            Follows every descendant, daemons that double-fork away included (sysstats becomes a \
            child subreaper), reading RSS, PSS, USS and swap from /proc/PID/smaps_rollup every \
            interval. Reports each figure's peak and when, the mean after --warmup, the growth of \
            PSS after it (least squares, with R^2 and whether it is significant), wall and CPU time, \
            and per process the peaks, its peak RSS being the largest of the samples, VmHWM and the \
            kernel's exact figure at its end (wait4, for the processes sysstats reaps: the command \
            is forked from the small helper sysstats-spawn, so the figure is its own). Where a \
            memory cgroup can be made (root, or a delegated subtree) the kernel's exact peak of \
            the tree is shown too.
            The report goes to stderr (or --output FILE), so the command's own output stays as it \
            is; sysstats exits with the command's status (0 when --duration stopped it).
            The budgets file: man sysstats-budget; more in budgets.md in /usr/share/doc/sysstats/docs.
            """)

    @Option(help: ArgumentHelp("Time between samples (default 10ms).", valueName: "duration"), transform: parseDurationOption)
    var interval: UInt64 = 10
    @Option(name: .customLong("max-overhead"),
            help: ArgumentHelp("Hold measure's own CPU to this share of one core: samples wait while it is over (default 2%; 0: never).",
                               valueName: "percent"),
            transform: parseOverheadShare)
    var maxOverhead: Double = OverheadGovernor.defaultShare
    @Option(help: ArgumentHelp("The steady state and growth start after this long (default 0s).", valueName: "duration"),
            transform: parseDurationOption)
    var warmup: UInt64 = 0
    @Option(help: ArgumentHelp("Stop the tree (SIGTERM, then SIGKILL after 1 s) after this long.", valueName: "duration"),
            transform: parseDurationOption)
    var duration: UInt64?
    @Flag(help: "Print the report as one JSON object instead (with the tree's totals per sample).")
    var json = false
    @Option(help: ArgumentHelp("Also write a chart of the tree's PSS by process over time to this PNG file.", valueName: "file"))
    var png: String?
    @Option(help: ArgumentHelp("Write the report to this file instead of stderr.", valueName: "file"))
    var output: String?
    @Flag(name: .customLong("no-cgroup"), help: "Do not try to make a memory cgroup for the kernel's exact peak.")
    var noCgroup = false
    @Option(help: ArgumentHelp("Follow this running process and its descendants instead of a command; it is not stopped: the measurement ends when it does, at --duration or at Ctrl-C.",
                               valueName: "pid"))
    var pid: Int32?
    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("The command and its arguments, after --.", valueName: "command"))
    var command: [String] = []

    func validate() throws {
        // Before `--`, these are sysstats's own (the passthrough argument takes them otherwise).
        switch command.first {
        case "--help", "-h", "-help": throw CleanExit.helpRequest(self)
        case "--version": throw CleanExit.message("sysstats " + sysstatsCLIVersion)
        default: break
        }
        if interval == 0 || interval > Budget.longestIntervalMs { throw ValidationError("--interval is 1ms to 60s") }
        if let duration, warmup >= duration { throw ValidationError("--warmup must end before --duration: nothing would be measured after it") }
        if let pid {
            if !arguments.isEmpty { throw ValidationError("--pid follows a running process: give it or a command, not both") }
            if pid <= 0 { throw ValidationError("--pid is a process id, 1 or more") }
        } else if arguments.isEmpty {
            throw ValidationError("no command: sysstats measure [options] -- COMMAND [ARGS...] (or --pid PID)")
        }
    }

    var arguments: [String] { command.first == "--" ? Array(command.dropFirst()) : command }

    func run() throws {
        // Run with each word as typed (a program or file whose name is not UTF-8 is the one
        // named); the report shows them as the parser gave them.
        var options = MeasureOptions(arguments: ExactArguments.tail(arguments))
        options.intervalMs = interval
        options.maxOverhead = maxOverhead
        options.durationMs = duration
        options.useCgroup = !noCgroup
        options.attachPid = pid
        let recording: Recording
        switch MeasureRun(options).run() {
        case .success(let r): recording = r
        case .failure(let e):
            printError("sysstats: \(TerminalText.escape(e.message))")
            SysstatsCommand.exit(withError: ExitCode(127))
        }
        let summary = MeasureSummary(recording, warmupMs: warmup)
        let report = json ? MeasureReport.encode(MeasureReport.json(summary, command: arguments)) + "\n"
                          : MeasureReport.text(summary, command: arguments).joined(separator: "\n") + "\n"
        var failed = false
        let output = ExactArguments.path(self.output), png = ExactArguments.path(self.png)
        if let output {
            if let problem = writeFileAtomically(Array(report.utf8), to: output, mode: 0o644) {
                printError("sysstats: cannot write \(TerminalText.escape(output)): \(TerminalText.escape(problem.description))")
                failed = true
            }
        } else {
            writeStderr(report)
        }
        if let png, let problem = PNG.writeFile(MeasureChart(summary, command: pid.map { ["pid \($0)"] } ?? arguments).png(), to: png) {
            printError("sysstats: cannot write \(TerminalText.escape(png)): \(problem)")
            failed = true
        }
        // Attached, Ctrl-C is how a measurement of a daemon ends: the report is whole.
        if let signal = recording.stoppedBySignal, recording.attachedPid == nil { SysstatsCommand.exit(withError: ExitCode(128 + signal)) }
        let status = recording.stoppedAtDuration ? 0 : (recording.commandExit?.shellStatus ?? 0)
        if status != 0 { SysstatsCommand.exit(withError: ExitCode(status)) }
        if failed { SysstatsCommand.exit(withError: ExitCode(1)) }
    }
}

extension MeasureCommand {
    /// A `sysstats measure` command line (the root's arguments) cut after the first word that
    /// follows the first `--`: what the parser is given, and the words after it, which it
    /// would take as they are. Any other line, or one with nothing past that word, is
    /// given whole. `validate()` sees that word, so the command is not empty for it.
    static func splitAtCommand(_ arguments: [String]) -> (parsed: [String], rest: ArraySlice<String>) {
        // The parser ends its options at the first `--` wherever it is, as this does.
        guard arguments.first == configuration.commandName, let terminator = arguments.firstIndex(of: "--"),
              terminator + 2 < arguments.count else { return (arguments, []) }
        return (Array(arguments[...(terminator + 1)]), arguments[(terminator + 2)...])
    }
}

struct BudgetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "budget",
        abstract: "Check commands against the memory budgets in a budgets file, or record a baseline.",
        subcommands: [BudgetCheck.self, BudgetRecord.self])
}

struct BudgetFileOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The budgets file (default sysstats-budget.toml).", valueName: "file"))
    var file: String = BudgetRunner.defaultFile
    @Option(help: ArgumentHelp("Run only this budget (repeatable).", valueName: "name"))
    var only: [String] = []

    /// The file, its bytes as typed (``ExactArguments``).
    var path: String { ExactArguments.path(file) }

    /// The budgets to run, or exits 2 with the file's problem.
    func budgets() -> [Budget] {
        switch BudgetRunner.load(path) {
        case .failure(let e):
            printError("sysstats: \(e.message)")
            SysstatsCommand.exit(withError: ExitCode(2))
        case .success(let all):
            let unknown = only.filter { name in !all.contains { $0.name == name } }
            if !unknown.isEmpty {
                printError("sysstats: \(TerminalText.escape(file)) has no budget named \(unknown.map { "'\(TerminalText.escape($0))'" }.joined(separator: ", "))")
                SysstatsCommand.exit(withError: ExitCode(2))
            }
            return only.isEmpty ? all : all.filter { only.contains($0.name) }
        }
    }
}

struct BudgetCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Run each budget's command and check its limits (exit 1 when one is exceeded).",
        discussion: """
            Prints one line per budget: each limit's value, the limit, the headroom and how the value \
            was obtained (exact, or from how many samples: too few are an error); FAIL: where the \
            limit is set; ERROR: what could not be measured, and what to do. Exits 1 when a limit \
            is exceeded, a command fails, a budget could not be measured, or (with --baseline) a \
            figure grew beyond the tolerance over the baseline; 2 when the file cannot be used. \
            Commands run by /bin/sh from the file's directory, with $SYSSTATS_BUDGET_TMP a fresh \
            temporary directory.
            """)

    @OptionGroup var file: BudgetFileOptions
    @Option(help: ArgumentHelp("Also fail on a regression over this baseline (written by `budget record`).", valueName: "file.json"))
    var baseline: String?
    @Option(help: ArgumentHelp("How much a figure may exceed the baseline, and at least 1 MiB (default 10%).", valueName: "percent"),
            transform: parseTolerance)
    var tolerance: Double = BudgetResult.defaultTolerance
    @Option(help: ArgumentHelp("Write the results as JUnit XML to this file.", valueName: "file"))
    var junit: String?
    @Option(help: ArgumentHelp("Write a chart of each budget's run, its limit drawn, to DIR/NAME.png (made if missing).", valueName: "dir"))
    var png: String?

    func run() throws {
        let budgets = file.budgets()
        var base: BudgetBaseline?
        if let baseline = ExactArguments.path(self.baseline) {
            switch BudgetBaseline.read(path: baseline) {
            case .success(let b): base = b
            case .failure(let e) where e.missing: printError("sysstats: \(e.message); not compared")
            case .failure(let e):
                printError("sysstats: \(e.message)")
                SysstatsCommand.exit(withError: ExitCode(2))
            }
        }
        let results = BudgetRunner.run(budgets, directory: BudgetRunner.directory(of: file.path), baseline: base,
                                       tolerance: tolerance) { writeStdout($0 + "\n") }
        let failed = results.filter { !$0.passed }.count, errors = results.filter(\.isError).count
        writeStdout("\(results.count - failed) of \(results.count) budgets kept" + (errors > 0 ? "; \(errors) could not be measured (ERROR)" : "") + "\n")
        if let junit = ExactArguments.path(self.junit), let problem = writeFileAtomically(Array(JUnitReport.xml(results).utf8), to: junit, mode: 0o644) {
            printError("sysstats: cannot write \(TerminalText.escape(junit)): \(TerminalText.escape(problem.description))")
            SysstatsCommand.exit(withError: ExitCode(1))
        }
        if let png = ExactArguments.path(self.png), let problem = BudgetCharts.write(results, to: png) {
            printError("sysstats: \(TerminalText.escape(problem))")
            SysstatsCommand.exit(withError: ExitCode(1))
        }
        let signal = measure_termination_signal()
        if signal != 0 {
            printError("sysstats: stopped by signal \(signal) after \(results.count) of \(budgets.count) budgets")
            SysstatsCommand.exit(withError: ExitCode(128 + signal))
        }
        if failed > 0 { SysstatsCommand.exit(withError: ExitCode(1)) }
    }
}

struct BudgetRecord: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Run each budget's command and write its figures as the baseline.",
        discussion: "Budgets whose command fails are left out of the baseline, and the status is 1.")

    @OptionGroup var file: BudgetFileOptions
    @Option(help: ArgumentHelp("Where to write it (default sysstats-budget-baseline.json).", valueName: "file.json"))
    var baseline: String = BudgetRunner.defaultBaseline

    func run() throws {
        let baseline = ExactArguments.path(self.baseline)
        let results = BudgetRunner.run(file.budgets(), directory: BudgetRunner.directory(of: file.path), baseline: nil,
                                       tolerance: 0) { writeStdout($0 + "\n") }
        if let problem = writeFileAtomically(Array(BudgetBaseline(results).json.utf8), to: baseline, mode: 0o644) {
            printError("sysstats: cannot write \(TerminalText.escape(baseline)): \(TerminalText.escape(problem.description))")
            SysstatsCommand.exit(withError: ExitCode(1))
        }
        writeStdout("baseline of \(results.filter { $0.failure == nil }.count) budgets written to \(TerminalText.escape(baseline))\n")
        let signal = measure_termination_signal()
        if signal != 0 { SysstatsCommand.exit(withError: ExitCode(128 + signal)) }
        if results.contains(where: { $0.failure != nil }) { SysstatsCommand.exit(withError: ExitCode(1)) }
    }
}
