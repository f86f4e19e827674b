// Argument parsing for `sysstats top` and `sysstats bookmarks …`; the work is in Top and
// BookmarkCommands.
#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Bookmarks
import ProcFS

extension Top.Sort: ExpressibleByArgument {}

extension RuleSource: ExpressibleByArgument {
    public init?(argument: String) {
        guard let found = RuleSource.allCases.first(where: { $0.name.description == argument }) else { return nil }
        self = found
    }
    public static var allValueStrings: [String] { allCases.map { $0.name.description } }
}

/// `--data-dir` when it is optional (`top`: without a database the built-in rules apply).
struct OptionalDataDirectoryOption: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: ArgumentHelp(
        "Where history.sqlite and the bookmarks are (default $XDG_DATA_HOME/sysstats, else ~/.local/share/sysstats).",
        valueName: "dir"))
    var dataDirectory: String?

    /// The directory, its bytes as typed (``ExactArguments``).
    var resolved: String? { try? HistoryAccess.dataDirectory(option: ExactArguments.path(dataDirectory)).get() }
}

struct TopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "top",
        abstract: "List the processes using the most CPU or memory, with their bookmarked names.",
        discussion: """
            Scans /proc twice, --interval-ms apart, for CPU use. PRIV MiB is the private memory \
            --sort memory orders by: resident less shared pages (/proc/PID/statm), roughly the \
            anonymous memory only the process holds, which is what its exit frees. RSS MiB is its \
            whole resident set, as ps's RSS and top's RES: its file pages and shared memory too, \
            which other processes may map as well. Names come from the bookmarks in the history \
            database (the built-in ones when there is none). --gpu lists the processes using a \
            GPU, by their share of its busiest engine and their GPU memory (amdgpu, i915, xe and \
            other drivers from /proc/PID/fdinfo; NVIDIA's memory through NVML). --exited lists the \
            processes that are gone instead, from history and the snapshot's latest exits (as \
            sysstats exited), most recent first. --units lists the units of the cgroup v2 tree \
            instead: each app, service, container and session by the kernel's own counters \
            (cpu.stat, memory.current and memory.stat, io.stat, pids.current, the pressure \
            files), read twice --interval-ms apart, so that a unit's short-lived processes count.
            """)

    @OptionGroup var data: OptionalDataDirectoryOption
    @OptionGroup var runtime: RuntimeDirectoryOption
    @Option(name: .customLong("proc-root"), help: ArgumentHelp("Read /proc from this directory (default /proc).", valueName: "dir"))
    var procRoot: String?
    @Option(help: ArgumentHelp("How many processes to list.", valueName: "n"))
    var count = 15
    @Option(help: "Order by cpu or memory (private memory; default cpu).")
    var sort: Top.Sort?
    @Option(name: .customLong("interval-ms"), help: ArgumentHelp("Time between the two scans (default 500).", valueName: "ms"))
    var intervalMs: Int?
    @Flag(help: "Print JSON instead.")
    var json = false
    @Flag(help: "List processes that exited (from history and the snapshot) instead of running ones.")
    var exited = false
    @Flag(help: "List the processes using a GPU, with their GPU share and memory.")
    var gpu = false
    @Flag(help: "List the units of the cgroup v2 tree (apps, services, containers, sessions) instead of processes.")
    var units = false
    @Option(name: .customLong("sys-root"), help: ArgumentHelp("With --units: read /sys from this directory (default /sys).", valueName: "dir"))
    var sysRoot: String?
    @Option(help: ArgumentHelp("With --exited: how far back (90m, 24h, 7d …; default 24h).", valueName: "duration"),
            transform: parseSince)
    var since: UInt64?

    /// An option the chosen listing would ignore is refused rather than silently dropped.
    func validate() throws {
        guard count > 0 else { throw ValidationError("--count must be at least 1") }
        if let intervalMs, !(0...60_000).contains(intervalMs) {
            throw ValidationError("--interval-ms must be between 0 and 60000")
        }
        if gpu && sort != nil { throw ValidationError("--sort orders the CPU and memory list; --gpu orders by GPU use") }
        if units, let (name, _) = [("--gpu", gpu), ("--exited", exited), ("--proc-root", procRoot != nil)].first(where: { $0.1 }) {
            throw ValidationError("\(name) applies to processes, not to --units")
        }
        if sysRoot != nil && !units { throw ValidationError("--sys-root applies only with --units") }
        if exited {
            let ignored = [("--sort", sort != nil), ("--interval-ms", intervalMs != nil), ("--proc-root", procRoot != nil),
                           ("--gpu", gpu)]
            if let (name, _) = ignored.first(where: { $0.1 }) {
                throw ValidationError("\(name) applies to running processes, not to --exited")
            }
        } else if since != nil {
            throw ValidationError("--since applies only with --exited (running processes are listed as they are now)")
        } else if runtime.runtimeDirectory != nil {
            throw ValidationError("--runtime-dir applies only with --exited (running processes are read from /proc)")
        }
    }

    func run() throws {
        if exited {
            guard let directory = data.resolved else {
                return emit(HistoryAccess.failure("no data directory: give --data-dir DIR"))
            }
            let recent = RecentExits.read(snapshotPath: RuntimePaths.snapshotPath(in: runtime.resolved))
            return emit(HistoryCommands.exited(directory: directory, sinceSeconds: since ?? 86_400, json: json, newestFirst: true,
                                               limit: count, recent: recent))
        }
        if units {
            return emit(TopUnits.run(sysRoot: ExactArguments.path(sysRoot) ?? "/sys", directory: data.resolved, count: count, sort: sort ?? .cpu,
                                     intervalMs: intervalMs ?? 500, json: json))
        }
        emit(Top.run(procRoot: ExactArguments.path(procRoot) ?? "/proc", directory: data.resolved, count: count, sort: sort ?? .cpu,
                     intervalMs: intervalMs ?? 500, json: json, gpu: gpu))
    }
}

struct BookmarksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bookmarks",
        abstract: "Friendly names for processes: list, add, remove, suggest, export and import rules.",
        discussion: """
            Rules apply in order: yours, then imported ones, then the built-in defaults. Every \
            change is picked up by a running sysstatsd at its next interval. The file format \
            is docs/bookmarks-format.md (application/x-sysstats-bookmarks).
            """,
        subcommands: [BookmarksList.self, BookmarksAdd.self, BookmarksRemove.self, BookmarksSuggest.self,
                      BookmarksExport.self, BookmarksImport.self])
}

struct BookmarksList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the rules in the order they apply.")
    @OptionGroup var data: DataDirectoryOption
    @Flag(help: "Print JSON instead.")
    var json = false
    @Option(help: "Only the rules from user, imported or builtin.")
    var source: RuleSource?

    func run() throws { emit(BookmarkCommands.list(directory: data.resolved(), source: source, json: json)) }
}

/// How a rule is selected on the command line: one kind and its pattern, and the strip.
struct RuleSelector: ParsableArguments {
    @Option(help: ArgumentHelp("Match the process name exactly.", valueName: "name"))
    var comm: String?
    @Option(help: ArgumentHelp("Match a full program name whose first 15 bytes the kernel kept.", valueName: "name"))
    var truncated: String?
    @Option(help: ArgumentHelp("Match the executable's basename.", valueName: "name"))
    var exe: String?
    @Option(help: ArgumentHelp("Match a glob over the name, e.g. 'kworker/*'.", valueName: "glob"))
    var glob: String?
    @Option(help: ArgumentHelp("Match a substring of the command line.", valueName: "text"))
    var cmdline: String?
    @Option(name: .customLong("strip-after"), help: ArgumentHelp("Cut the name from this character on (e.g. '~').", valueName: "char"))
    var stripAfter: String?
    @Flag(name: .customLong("strip-version"), help: "Cut a trailing version number off the name.")
    var stripVersion = false

    var chosen: [(MatchKind, String)] {
        [(MatchKind.comm, comm), (.truncated, truncated), (.executable, exe), (.glob, glob), (.commandLine, cmdline)]
            .compactMap { kind, value in value.map { (kind, $0) } }
    }

    func validate() throws {
        guard chosen.count == 1 else { throw ValidationError("give exactly one of --comm, --truncated, --exe, --glob, --cmdline") }
        if stripVersion && stripAfter != nil { throw ValidationError("--strip-after and --strip-version cannot be used together") }
        if let s = stripAfter, s.utf8.count != 1 { throw ValidationError("--strip-after takes one ASCII character, not '\(s)'") }
    }

    var kind: MatchKind { chosen[0].0 }
    var pattern: String { chosen[0].1 }
    var strip: SuffixStrip {
        if stripVersion { return .version }
        if let s = stripAfter, let byte = s.utf8.first { return .after(byte) }
        return .none
    }
}

struct BookmarksAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a rule of yours (or give an existing one another name).")
    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var selector: RuleSelector
    @Option(help: ArgumentHelp("The friendly name (empty: the process's own name, suffix stripped).", valueName: "name"))
    var name: String

    func run() throws {
        emit(BookmarkCommands.add(directory: data.resolved(), kind: selector.kind, pattern: selector.pattern,
                                  name: name, strip: selector.strip))
    }
}

struct BookmarksRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a rule of yours.")
    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var selector: RuleSelector

    func run() throws {
        emit(BookmarkCommands.remove(directory: data.resolved(), kind: selector.kind, pattern: selector.pattern,
                                     strip: selector.strip))
    }
}

struct BookmarksSuggest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggest",
        abstract: "Show the running processes no rule names that use the most memory or CPU, with an add command each.")
    @OptionGroup var data: DataDirectoryOption
    @Option(name: .customLong("proc-root"), help: ArgumentHelp("Read /proc from this directory.", valueName: "dir"))
    var procRoot = "/proc"
    @Option(help: ArgumentHelp("How many processes per list.", valueName: "n"))
    var count = 5
    @Option(name: .customLong("interval-ms"), help: ArgumentHelp("Time between the two scans.", valueName: "ms"))
    var intervalMs = 500

    func run() throws {
        emit(BookmarkCommands.suggest(directory: data.resolved(), procRoot: ExactArguments.path(procRoot), count: max(count, 1),
                                      intervalMs: min(max(intervalMs, 0), 60_000)))
    }
}

struct BookmarksExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write your and the imported rules to FILE (a .sysstats-bookmarks file).")
    @OptionGroup var data: DataDirectoryOption
    @Argument(help: ArgumentHelp("The file to write.", valueName: "file"))
    var file: String
    @Flag(help: "Include the built-in rules.")
    var all = false
    @Flag(help: "Overwrite FILE if it exists.")
    var force = false

    func run() throws { emit(BookmarkCommands.export(directory: data.resolved(), to: ExactArguments.path(file), all: all, force: force)) }
}

struct BookmarksImport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import the rules of a bookmarks file, after showing what would change.",
        discussion: """
            Shows "FILE: adds N, changes N, skips N" and asks before importing (give --yes when \
            not on a terminal). A file that is refused changes nothing. --inbox (what opening \
            the file from a file manager runs) keeps a copy of an imported file in \
            $XDG_DATA_HOME/sysstats/Inbox/; a file refused or not imported is not copied.
            """)
    @OptionGroup var data: DataDirectoryOption
    @Argument(help: ArgumentHelp("The bookmarks file.", valueName: "file"))
    var file: String
    @Flag(help: "Import without asking.")
    var yes = false
    @Flag(help: "Keep a copy of the imported file in the data directory's Inbox.")
    var inbox = false

    func run() throws {
        let directory = data.resolved()
        let file = ExactArguments.path(self.file)
        let plan: BookmarkCommands.BookmarkImport
        switch BookmarkCommands.planImport(directory: directory, file: file) {
        case .failure(let problem): return emit(HistoryAccess.failure(problem.message))
        case .success(let p): plan = p
        }
        writeStdout(plan.summary + "\n")
        if !yes {
            guard isatty(STDIN_FILENO) == 1 else {
                return emit(HistoryAccess.failure("not imported: give --yes to import without asking"))
            }
            writeStdout("Import? [y/N] ")
            let answer = readLine() ?? ""
            guard answer == "y" || answer == "Y" || answer == "yes" else {
                return emit(HistoryAccess.failure("not imported"))
            }
        }
        // The Inbox keeps what was imported, not every file that was tried.
        var copy: String?
        if inbox {
            switch BookmarkCommands.keepInInbox(directory: directory, plan: plan) {
            case .failure(let problem): return emit(HistoryAccess.failure(problem.message + "; nothing imported"))
            case .success(let path):
                copy = path
                writeStdout("copied \(TerminalText.escape(file)) to \(TerminalText.escape(path))\n")
            }
        }
        let result = BookmarkCommands.applyImport(directory: directory, plan: plan)
        if result.status != 0, let copy { unlink(cPath(copy)) }
        emit(result)
    }
}
