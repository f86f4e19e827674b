// The sysstats command-line interface: argument parsing only; the work is in
// Report, Doctor, HistoryCommands and the formatting types beside them.
#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import SnapshotCodec

/// `sysstats`, the root command.
public struct SysstatsCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "sysstats",
        abstract: "Show what the sysstatsd sampler measured and its history, and check the setup.",
        version: "sysstats " + sysstatsCLIVersion,
        subcommands: [ReportCommand.self, DoctorCommand.self, HistoryCommand.self, RebootsCommand.self,
                      ExitedCommand.self, TopCommand.self, BookmarksCommand.self, BackupCommand.self, RestoreCommand.self,
                      ConfigCommand.self, MeasureCommand.self, BudgetCommand.self])

    public init() {}
}

extension SysstatsCommand {
    /// What `main()` does, with the exit statuses of the other programs: a usage error
    /// (unknown option, bad value, refused combination) exits 2, not ArgumentParser's 64
    /// (EX_USAGE); help and version go through ``writeStdout(_:)``, so that a failed write
    /// says so and exits 1.
    public static func runMain(_ arguments: [String]? = nil) -> Never {
        do {
            var command = try parseInLinearTime(arguments ?? Array(CommandLine.arguments.dropFirst()))
            try command.run()
            Glibc.exit(0)
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { writeStdout(message + "\n") }
                Glibc.exit(0)
            }
            if !message.isEmpty { printError(message) }
            Glibc.exit(usageStatus(code.rawValue))
        }
    }

    /// `arguments` parsed as ``parseAsRoot(_:)`` parses them, in time linear in their number.
    /// The parser's is quadratic: `measure -- true` with 20,000 arguments (a link line, a list
    /// of files) took 7.6 s before the command started, 100,000 almost four minutes. So it
    /// gets a `measure` command line only up to the command's first word after `--`
    /// (``MeasureCommand/splitAtCommand(_:)``), and the words after that join the parsed
    /// command as they are: after `--` the parser takes every word as it is, so the result,
    /// the help and every error are the same as from the whole line.
    static func parseInLinearTime(_ arguments: [String]) throws -> ParsableCommand {
        let (parsed, rest) = MeasureCommand.splitAtCommand(arguments)
        var command = try parseAsRoot(parsed)
        if !rest.isEmpty, var measure = command as? MeasureCommand {
            measure.command.append(contentsOf: rest)
            command = measure
        }
        return command
    }

    /// ArgumentParser's status for an error, with EX_USAGE (64) made 2.
    public static func usageStatus(_ status: Int32) -> Int32 {
        status == ExitCode.validationFailure.rawValue ? 2 : status
    }
}

/// The version `sysstats --version` prints (kept equal to sysstatsd's).
public let sysstatsCLIVersion = sysstatsVersion.description

/// Options shared by the commands that read the snapshot.
struct RuntimeDirectoryOption: ParsableArguments {
    @Option(name: .customLong("runtime-dir"), help: ArgumentHelp(
        "Where the snapshot is (default $XDG_RUNTIME_DIR/sysstats, else /tmp/sysstats-$UID).",
        valueName: "dir"))
    var runtimeDirectory: String?

    /// The directory, its bytes as typed (``ExactArguments``).
    var resolved: String { RuntimePaths.runtimeDirectory(option: ExactArguments.path(runtimeDirectory)) }
}

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Print one status line from the latest snapshot.",
        discussion: """
            Exits 1 when there is no snapshot or it does not decode. A stale snapshot
            (older than 3 sampler intervals, at least 5 s) is still printed, with a
            warning on stderr.
            """)

    @OptionGroup var runtime: RuntimeDirectoryOption
    @Flag(help: "Print the data as a JSON object instead.")
    var json = false
    @Flag(help: "Print again whenever the snapshot changes, until Ctrl-C.")
    var watch = false

    func run() throws {
        let path = RuntimePaths.snapshotPath(in: runtime.resolved)
        if watch { Report.watch(path: path, json: json) }
        let output = Report.run(path: path, json: json)
        emit(output)
    }
}

struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the runtime directory, the snapshot and what it lacks, the config file, the kernel's features and the batteries.",
        discussion: "Prints one line per check (ok, warn or fail); exits 1 when a check fails.")

    @OptionGroup var runtime: RuntimeDirectoryOption
    @Option(name: .customLong("proc-root"), help: ArgumentHelp("Read /proc from this directory.", valueName: "dir"))
    var procRoot = "/proc"
    @Option(name: .customLong("sys-root"), help: ArgumentHelp("Read /sys from this directory.", valueName: "dir"))
    var sysRoot = "/sys"
    @Option(name: .customLong("config"), help: ArgumentHelp("The config file to check (default $XDG_CONFIG_HOME/sysstats/config.toml, else ~/.config/sysstats/config.toml).", valueName: "file"))
    var configPath: String?

    func run() throws {
        let checks = Doctor.run(runtimeDirectory: runtime.resolved, procRoot: ExactArguments.path(procRoot),
                                sysRoot: ExactArguments.path(sysRoot), configPath: ExactArguments.path(configPath))
        emit(CommandOutput(stdout: checks.map(\.line), stderr: [], status: Doctor.exitStatus(checks)))
    }
}

/// Prints a command's output and exits with its status.
func emit(_ output: CommandOutput) {
    for line in output.stdout { writeStdout(line + "\n") }
    for line in output.stderr { printError(line) }
    if output.status != 0 { SysstatsCommand.exit(withError: ExitCode(output.status)) }
}
