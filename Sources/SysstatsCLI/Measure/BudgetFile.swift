import TOML

// The budgets file (`sysstats-budget.toml`, docs/budgets.md): outside input, checked here
// into ``Budget`` values with one FILE:LINE:COL message for the first problem. No Foundation
// and no Glibc: the budgets-file fuzz target compiles this file with the TOML module alone.

/// One `[[budget]]`: a command, how to run it, and its limits (bytes; growth in bytes per minute).
public struct Budget: Equatable, Sendable {
    /// A running process to follow instead of a command, as `measure --pid` does.
    public enum Attach: Equatable, Sendable {
        case pid(Int32)
        /// A file holding the pid, read once the setup has ended (the setup may start the
        /// process and write it); relative to the budgets file's folder.
        case pidfile(String)
    }

    public var name: String
    /// Run by /bin/sh -c; empty when the budget attaches (``attach``).
    public var command: String
    public var attach: Attach?
    /// Run first, not measured (make a fixture, build something).
    public var setup: String?
    public var warmupMs: UInt64 = 0
    public var durationMs: UInt64?
    public var intervalMs: UInt64 = 10
    /// The share of one core measure's own CPU is held to (`max_overhead`, ``OverheadGovernor``).
    public var maxOverhead = OverheadGovernor.defaultShare
    /// The longest time between samples (`interval`, `--interval`): longer would say nothing
    /// of a peak, and a typo's hours would hold a run that long.
    public static let longestIntervalMs: UInt64 = 60_000
    /// Count only the processes of this name (their comm, as `ps -o comm` shows it): the
    /// program a wrapper script starts, without the script and the helpers it starts.
    public var process: String?
    public var peakRSS: UInt64?
    /// The largest exact peak RSS, wait4's at a process's end.
    public var peakRSSExact: UInt64?
    public var peakPSS: UInt64?
    public var steadyUSS: UInt64?
    public var growthPerMinute: UInt64?
    /// The program's own memory that is not file cache, private or shared (shmem), each
    /// shared page divided among its users (``MemoryFigures/anonKiB``).
    public var peakAnon: UInt64?
    public var steadyAnon: UInt64?
    /// The kernel's exact peak of the tree (its memory cgroup's), where one can be made.
    public var peakCgroup: UInt64?
    /// The line of its `[[budget]]` header.
    public var line: Int
    /// The line of each key it sets: a failed limit's line points there.
    public var keyLines: [String: Int] = [:]
    /// The budgets file it was read from, as given (nil for one not read from a file).
    public var file: String?

    public init(name: String, command: String, line: Int = 0) {
        self.name = name; self.command = command; self.line = line
    }
}

/// Why the budgets file was refused: where, and why (one line).
public struct BudgetFileError: Error, Equatable, Sendable {
    public var line: Int
    public var column: Int
    /// Printable ASCII only: reasons quote the file's text, which may hold terminal controls.
    public var reason: String

    public init(line: Int, column: Int, reason: String) {
        self.line = line
        self.column = column
        self.reason = String(decoding: reason.utf8.map { $0 >= 0x20 && $0 < 0x7F ? $0 : 0x3F }, as: UTF8.self)
    }

    /// `FILE:LINE:COL: reason`.
    public func describe(file: String) -> String { "\(file):\(line):\(column): \(reason)" }
}

/// One key of a `[[budget]]`: what the parser takes and what sysstats-budget(5) and
/// docs/budgets.md say of it (both written from ``BudgetFile/keyTable``).
public struct BudgetKey: Sendable {
    public let name: String
    /// What it takes: "string", "size", "duration".
    public let takes: String
    public let meaning: String
    /// A limit (at least one per budget).
    public let isLimit: Bool

    init(_ name: String, _ takes: String, _ meaning: String, limit: Bool = false) {
        self.name = name; self.takes = takes; self.meaning = meaning; isLimit = limit
    }
}

public enum BudgetFile {
    /// The largest budgets file read: the TOML parser's own cap.
    public static let maximumSize = TOMLDocument.maximumSize
    public static let maximumBudgets = 256
    /// The longest `process` name: a comm, as the kernel keeps it.
    public static let maximumProcessName = 15
    /// The largest pid file read: a number and a line feed, with room for blanks.
    public static let maximumPidfileSize = 64
    /// Every key of a `[[budget]]`, in the order the manual gives them.
    public static let keyTable: [BudgetKey] = [
        BudgetKey("name", "string", "shown in the lines and the JUnit file; unique in the file (required)"),
        BudgetKey("command", "string", "run by /bin/sh -c from the budgets file's folder, stdin and stdout on /dev/null (required, unless pid or pidfile is given); write exec before a single program, or the shell is measured too"),
        BudgetKey("pid", "integer", "instead of a command: follow this running process and its descendants, as measure --pid does (nothing is started, stopped or reaped; no wait4 or cgroup figure); the measurement ends when it ends or at duration"),
        BudgetKey("pidfile", "string", "instead of a command: the file holding the pid to follow, as pid (read after the setup, which may start the process; relative to the budgets file's folder; a regular file of at most \(maximumPidfileSize) bytes)"),
        BudgetKey("setup", "string", "run first, to its end, not measured (a fixture, a build); a failure is an error of the budget, nothing checked"),
        BudgetKey("warmup", "duration", "the steady state and the growth are computed over the samples after this (default none; shorter than duration)"),
        BudgetKey("duration", "duration", "stop the command after this long: SIGTERM, then SIGKILL after a second (for programs that do not end by themselves)"),
        BudgetKey("interval", "duration", "time between samples, 1ms to \(Budget.longestIntervalMs / 1000)s (default 10ms)"),
        BudgetKey("max_overhead", "string", "hold measure's own CPU to this share of one core, as \"2%\" (the default; \"0%\": never): while it is over, samples wait, at most \(OverheadGovernor.longestDeferIntervals) intervals (a storm of short processes is sampled less often; the exact figures miss nothing)"),
        BudgetKey("process", "string", "count only the processes with this name (their comm, as ps -o comm shows it, at most \(maximumProcessName) bytes; a program started by sh -c \"exec prog\" without the shell's image before it); one that matched no process is an error of the budget, naming those that ran"),
        BudgetKey("peak_rss", "size", "the largest RSS of the tree (the sampled sum, or one process's kernel peak where higher); sampled: fewer than \(FigureQuality.minimumSamples) samples judge only a figure already over the limit, else the budget is an error", limit: true),
        BudgetKey("peak_rss_exact", "size", "the largest peak RSS the kernel gave at a process's end (wait4's, GNU time's figure: the largest of its images before each exec and of the children it reaped), of the processes measure reaped: exact, a spike between samples or a process shorter than an interval is in it; with process, only a figure that is the program's own counts; processes reaped by their own parent have none, and where no counted process has one the budget is an error, saying why and what to do", limit: true),
        BudgetKey("peak_pss", "size", "the largest PSS of the tree (shared pages divided among their users); sampled: fewer than \(FigureQuality.minimumSamples) samples judge only a figure already over the limit, else the budget is an error", limit: true),
        BudgetKey("steady_uss", "size", "the mean USS (private memory) after the warm-up; sampled: fewer than \(FigureQuality.minimumSamples) samples after it are an error", limit: true),
        BudgetKey("peak_anon", "size", "the largest anonymous memory of the tree: the program's own memory that is not file cache, private (heap, stacks, anonymous maps) or shared (MAP_SHARED anonymous maps, memfd, shared memory segments), each shared page divided among its users, its swap too; sampled, as peak_pss", limit: true),
        BudgetKey("steady_anon", "size", "the mean anonymous memory after the warm-up; sampled, as steady_uss", limit: true),
        BudgetKey("peak_cgroup", "size", "the kernel's exact peak of the tree's memory (its memory cgroup's memory.peak, which no sample can miss; page cache and kernel memory counted too); where no cgroup can be made (root, or a delegated cgroup: systemd-run --user --scope -p Delegate=yes sysstats budget check) the budget is an error, saying why", limit: true),
        BudgetKey("growth_per_minute", "size", "a significant PSS growth per minute above this fails (\"1 MiB\" or \"1 MiB/min\"); a slope that is not significant passes; fewer than \(FigureQuality.minimumFitSamples) samples over \(FigureQuality.minimumFitSpanMs / 1000) s after the warm-up are an error", limit: true),
    ]
    static let keys: Set<String> = Set(keyTable.map(\.name))

    /// The budgets in file order.
    public static func parse(_ bytes: [UInt8]) throws(BudgetFileError) -> [Budget] {
        let document: TOMLDocument
        do throws(TOMLError) {
            document = try TOMLDocument.parse(bytes)
        } catch {
            var message: [UInt8] = []
            error.reason.message.withUTF8Buffer { message.append(contentsOf: $0) }
            throw BudgetFileError(line: error.line, column: error.column, reason: String(decoding: message, as: UTF8.self))
        }
        for entry in document.root where text(entry.key) != "budget" {
            throw BudgetFileError(line: entry.keyLine, column: entry.keyColumn,
                                  reason: "unknown key '\(shown(entry.key))' (the file holds [[budget]] tables)")
        }
        guard let list = document.root["budget"] else {
            throw BudgetFileError(line: 1, column: 1, reason: "no [[budget]] table")
        }
        guard let array = list.array, array.isArrayOfTables else {
            throw BudgetFileError(line: list.keyLine, column: list.keyColumn, reason: "'budget' must be written [[budget]]")
        }
        guard array.count <= maximumBudgets else {
            throw BudgetFileError(line: list.keyLine, column: list.keyColumn, reason: "more than \(maximumBudgets) budgets")
        }
        var budgets: [Budget] = [], names: Set<String> = []
        for element in array {
            guard let table = element.table else { continue }
            let budget = try parseBudget(table, header: element)
            guard names.insert(budget.name).inserted else {
                let at = table["name"]!
                throw BudgetFileError(line: at.line, column: at.column, reason: "a second budget named '\(budget.name)'")
            }
            budgets.append(budget)
        }
        return budgets
    }

    static func parseBudget(_ table: TOMLTable, header: TOMLValue) throws(BudgetFileError) -> Budget {
        for entry in table where !keys.contains(text(entry.key)) {
            throw BudgetFileError(line: entry.keyLine, column: entry.keyColumn,
                                  reason: "unknown key '\(shown(entry.key))' (known: \(keys.sorted().joined(separator: ", ")))")
        }
        guard let name = try string(table, "name") else {
            throw BudgetFileError(line: header.keyLine, column: header.keyColumn, reason: "a [[budget]] needs a name")
        }
        guard !name.isEmpty, name.utf8.count <= 128, name.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
            let at = table["name"]!
            throw BudgetFileError(line: at.line, column: at.column, reason: "a name is 1 to 128 printable characters")
        }
        let command = try string(table, "command")
        let attach = try attachment(table)
        let given = [table["command"], table["pid"], table["pidfile"]].compactMap { $0 }
        if given.count > 1 {
            let second = given.sorted { ($0.line, $0.column) < ($1.line, $1.column) }[1]
            throw BudgetFileError(line: second.keyLine, column: second.keyColumn,
                                  reason: "budget '\(name)' gives more than one of command, pid and pidfile: it runs a command or follows a process")
        }
        guard command.map({ !$0.isEmpty }) ?? (attach != nil) else {
            throw BudgetFileError(line: header.keyLine, column: header.keyColumn, reason: "budget '\(name)' needs a command (or a pid or pidfile to follow)")
        }
        var budget = Budget(name: name, command: command ?? "", line: header.keyLine)
        budget.attach = attach
        for entry in table { budget.keyLines[text(entry.key)] = entry.keyLine }
        budget.setup = try string(table, "setup")
        budget.warmupMs = try duration(table, "warmup") ?? 0
        budget.durationMs = try duration(table, "duration")
        budget.intervalMs = try duration(table, "interval") ?? 10
        if budget.intervalMs == 0 || budget.intervalMs > Budget.longestIntervalMs {
            let at = table["interval"]!
            throw BudgetFileError(line: at.line, column: at.column, reason: "interval is 1ms to 60s")
        }
        if let value = table["max_overhead"] {
            guard let bytes = value.string else {
                throw BudgetFileError(line: value.line, column: value.column, reason: "max_overhead must be a share such as \"2%\", not \(value.kind.name)")
            }
            switch OverheadGovernor.parseShare(String(decoding: bytes, as: UTF8.self)) {
            case .success(let share): budget.maxOverhead = share
            case .failure(let e): throw BudgetFileError(line: value.line, column: value.column, reason: "max_overhead: \(e.message)")
            }
        }
        if let duration = budget.durationMs, budget.warmupMs >= duration {
            // No warm-up given (0) and a duration of 0: the duration is the mistake.
            let at = table["warmup"] ?? table["duration"]!
            throw BudgetFileError(line: at.line, column: at.column, reason: table["warmup"] == nil
                                  ? "duration must be longer than 0: nothing would be measured"
                                  : "warmup must end before the duration: nothing would be measured after it")
        }
        budget.process = try string(table, "process")
        if let process = budget.process, process.isEmpty || process.utf8.count > maximumProcessName {
            let at = table["process"]!
            throw BudgetFileError(line: at.line, column: at.column, reason: "process is a command name of 1 to \(maximumProcessName) bytes (as ps -o comm shows it)")
        }
        budget.peakRSS = try size(table, "peak_rss")
        budget.peakRSSExact = try size(table, "peak_rss_exact")
        budget.peakPSS = try size(table, "peak_pss")
        budget.steadyUSS = try size(table, "steady_uss")
        budget.growthPerMinute = try size(table, "growth_per_minute", perMinute: true)
        budget.peakCgroup = try size(table, "peak_cgroup")
        budget.peakAnon = try size(table, "peak_anon")
        budget.steadyAnon = try size(table, "steady_anon")
        if budget.peakRSS == nil && budget.peakRSSExact == nil && budget.peakPSS == nil && budget.steadyUSS == nil && budget.growthPerMinute == nil
            && budget.peakCgroup == nil && budget.peakAnon == nil && budget.steadyAnon == nil {
            let limits = keyTable.filter(\.isLimit).map(\.name).joined(separator: ", ")
            throw BudgetFileError(line: header.keyLine, column: header.keyColumn, reason: "budget '\(name)' sets no limit (\(limits))")
        }
        return budget
    }

    /// The `pid` or `pidfile` key: a pid of 1 to 2^22 (the kernel's largest pid_max), a path.
    static func attachment(_ table: TOMLTable) throws(BudgetFileError) -> Budget.Attach? {
        if let value = table["pid"] {
            guard let n = value.integer, n >= 1, n <= 4_194_304 else {
                throw BudgetFileError(line: value.line, column: value.column, reason: "pid is a process id, a whole number from 1 to 4194304")
            }
            return .pid(Int32(n))
        }
        guard let path = try string(table, "pidfile") else { return nil }
        guard !path.isEmpty, path.utf8.count <= 4096 else {
            let at = table["pidfile"]!
            throw BudgetFileError(line: at.line, column: at.column, reason: "pidfile is a path of 1 to 4096 bytes")
        }
        return .pidfile(path)
    }

    static func string(_ table: TOMLTable, _ key: StaticString) throws(BudgetFileError) -> String? {
        guard let value = table[key] else { return nil }
        guard let bytes = value.string else {
            throw BudgetFileError(line: value.line, column: value.column, reason: "\(key) must be a string, not \(value.kind.name)")
        }
        guard let text = String(validating: bytes, as: UTF8.self), !text.utf8.contains(0) else {
            throw BudgetFileError(line: value.line, column: value.column, reason: "\(key) holds a NUL byte")
        }
        return text
    }

    /// A size: a string such as "2 MiB", or a whole number of bytes; `perMinute`: a growth,
    /// written with `/min` as the report prints it, or without.
    static func size(_ table: TOMLTable, _ key: StaticString, perMinute: Bool = false) throws(BudgetFileError) -> UInt64? {
        guard let value = table[key] else { return nil }
        if let n = value.integer {
            guard n >= 0 else { throw BudgetFileError(line: value.line, column: value.column, reason: "\(key) cannot be negative") }
            return UInt64(n)
        }
        guard let bytes = value.string else {
            throw BudgetFileError(line: value.line, column: value.column, reason: "\(key) must be a size such as \"2 MiB\", not \(value.kind.name)")
        }
        var text = String(decoding: bytes, as: UTF8.self)
        if perMinute, text.hasSuffix("/min") { text.removeLast(4) }
        switch SizeText.parse(text) {
        case .success(let n): return n
        case .failure(let e): throw BudgetFileError(line: value.line, column: value.column, reason: "\(key): \(e.message)")
        }
    }

    static func duration(_ table: TOMLTable, _ key: StaticString) throws(BudgetFileError) -> UInt64? {
        guard let value = table[key] else { return nil }
        guard let bytes = value.string else {
            throw BudgetFileError(line: value.line, column: value.column, reason: "\(key) must be a duration such as \"500ms\", not \(value.kind.name)")
        }
        switch DurationText.parse(String(decoding: bytes, as: UTF8.self)) {
        case .success(let n): return n
        case .failure(let e): throw BudgetFileError(line: value.line, column: value.column, reason: "\(key): \(e.message)")
        }
    }

    static func text(_ key: ArraySlice<UInt8>) -> String { String(decoding: key, as: UTF8.self) }

    /// A key from the file for a message: printable ASCII kept, anything else as '?', at most 64.
    static func shown(_ key: ArraySlice<UInt8>) -> String {
        String(decoding: key.prefix(64).map { $0 >= 0x20 && $0 < 0x7F ? $0 : 0x3F }, as: UTF8.self)
    }
}
