// Argument parsing for the history commands; the work is in HistoryCommands.
#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import HistoryStore
import Bookmarks

/// `--data-dir`, shared by the commands that use the history database.
struct DataDirectoryOption: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: ArgumentHelp(
        "Where history.sqlite is (default $XDG_DATA_HOME/sysstats, else ~/.local/share/sysstats).",
        valueName: "dir"))
    var dataDirectory: String?

    /// The directory (its bytes as typed: ``ExactArguments``), or exits 1 with the reason.
    func resolved() -> String {
        switch HistoryAccess.dataDirectory(option: ExactArguments.path(dataDirectory)) {
        case .success(let directory): return directory
        case .failure(let error): emit(HistoryAccess.failure(error.message)); return ""
        }
    }
}

/// `--since 24h`, parsed to seconds.
func parseSince(_ text: String) throws -> UInt64 {
    switch Since.parse(text) {
    case .success(let seconds): return seconds
    // ArgumentParser already names the option: "The value '5x' is invalid for '--since <duration>': …".
    case .failure(let error): throw ValidationError(String(error.message.dropFirst("--since: ".count)))
    }
}

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show CPU, memory, swap, load, processes and battery over a period.",
        discussion: """
            One row per minute; rows older than 90 days are hourly averages, marked "h".
            --png writes a chart of CPU and memory instead of the table; without --since it \
            spans the samples of the last 24 hours, from the oldest to now. --units lists \
            the apps, services and containers that used the machine instead: each minute's \
            busiest units, kept while a bar showed them or, bar or no bar, with \
            [sampler] unit_history = true; minutes for 7 days, then hours for 90.
            """)

    @OptionGroup var data: DataDirectoryOption
    @Option(help: ArgumentHelp("How far back: 90m, 24h, 7d, 2w … (default 24h; the --png chart then starts at the oldest sample)",
                               valueName: "duration"), transform: parseSince)
    var since: UInt64?
    @Flag(help: "Print the samples as one JSON object instead.")
    var json = false
    @Option(help: ArgumentHelp("Write a chart of CPU and memory over the period to this PNG file.", valueName: "file"))
    var png: String?
    @Flag(help: "List the apps, services and containers that used the machine over the period, busiest first, and the busiest of each hour.")
    var units = false

    func validate() throws {
        if json && png != nil { throw ValidationError("--json and --png cannot be used together") }
        if units && png != nil { throw ValidationError("--units and --png cannot be used together") }
    }

    func run() throws {
        if units { return emit(HistoryCommands.units(directory: data.resolved(), sinceSeconds: since, json: json)) }
        emit(HistoryCommands.history(directory: data.resolved(), sinceSeconds: since, json: json, png: ExactArguments.path(png)))
    }
}

struct RebootsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reboots",
        abstract: "List each boot: when, how long it ran, and whether it shut down cleanly.")

    @OptionGroup var data: DataDirectoryOption
    @Flag(help: "Print the boots as a JSON array instead.")
    var json = false

    func run() throws {
        emit(HistoryCommands.reboots(directory: data.resolved(), json: json))
    }
}

struct ExitedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exited",
        abstract: "List processes that exited and the memory each freed, newest first (as top --exited).",
        discussion: """
            History gets an exit with its minute's row; the exits of the minute not written \
            yet come from the sampler's snapshot (its latest eight), as the bar shows them, \
            each exit listed once. Until its row is written such an exit has the name the \
            bar shows (the friendly name alone when a bookmark gave one). Without a fresh \
            snapshot the list is history's alone.
            """)

    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var runtime: RuntimeDirectoryOption
    @Option(help: ArgumentHelp("How far back: 90m, 24h, 7d …", valueName: "duration"), transform: parseSince)
    var since: UInt64 = 86_400
    @Flag(help: "Print the exits as a JSON array instead.")
    var json = false
    @Flag(help: "List the oldest first, as a log does.")
    var oldestFirst = false

    /// Newest first unless `--oldest-first`, as `top --exited` lists them.
    var newestFirst: Bool { !oldestFirst }

    func run() throws {
        let directory = data.resolved()
        let recent = RecentExits.read(snapshotPath: RuntimePaths.snapshotPath(in: runtime.resolved))
        emit(HistoryCommands.exited(directory: directory, sinceSeconds: since, json: json, newestFirst: newestFirst,
                                    recent: recent))
    }
}

struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the history database to FILE (safe while sysstatsd writes).")

    @OptionGroup var data: DataDirectoryOption
    @Argument(help: ArgumentHelp("The backup file.", valueName: "file"))
    var file: String
    @Flag(help: "Overwrite FILE if it exists.")
    var force = false

    func run() throws {
        emit(HistoryCommands.backup(directory: data.resolved(), to: ExactArguments.path(file), force: force))
    }
}

struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Replace the history database with a backup, after checking it.",
        discussion: """
            Stop sysstatsd first (restore refuses while one holds the data directory). The
            backup is checked (SQLite header, size, integrity_check, application id, schema
            version, the exact schema of that version, value types, lengths, row counts and
            bookmarks) before anything changes; the current database is kept as
            history.sqlite.bak. Any problem leaves it exactly as it was.
            """)

    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var runtime: RuntimeDirectoryOption
    @Argument(help: ArgumentHelp("The backup to restore.", valueName: "file"))
    var file: String
    @Flag(help: "Do not ask before replacing the database.")
    var yes = false

    func run() throws {
        let directory = data.resolved()
        let file = ExactArguments.path(self.file)
        let check = HistoryCommands.checkRestore(candidate: file, directory: directory, runtimeDirectory: runtime.resolved)
        guard check.status == 0 else { return emit(check) }
        emit(check)
        if !yes {
            let databasePath = HistoryDatabase.databasePath(in: directory)
            guard isatty(STDIN_FILENO) == 1 else {
                return emit(HistoryAccess.failure("not restored: give --yes to replace \(TerminalText.escape(databasePath)) without asking"))
            }
            writeStdout("Replace \(TerminalText.escape(databasePath)) with it (the current one is kept as history.sqlite.bak)? [y/N] ")
            let answer = readLine() ?? ""
            guard answer == "y" || answer == "Y" || answer == "yes" else {
                return emit(HistoryAccess.failure("not restored"))
            }
        }
        emit(HistoryCommands.applyRestore(candidate: file, directory: directory))
    }
}
