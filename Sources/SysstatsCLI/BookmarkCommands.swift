#if canImport(Glibc)
import Glibc
#endif
import Bookmarks
import HistoryStore
import ProcFS

/// The work of `sysstats bookmarks …`: each returns what to print and the exit status, so
/// tests call them directly. Every change to the rules also rewrites the rules cache
/// (`<data-dir>/bookmarks.rules`), which a running sysstatsd picks up at its next interval.
public enum BookmarkCommands {
    /// The rules cache the sampler reads.
    public static func rulesCachePath(in directory: String) -> String { HistoryDatabase.rulesCachePath(in: directory) }

    // MARK: list

    /// `bookmarks list`: every rule (or one source's), in precedence order.
    public static func list(directory: String, source: RuleSource?, json: Bool) -> CommandOutput {
        let rules: [BookmarkRule]
        switch readRules(directory: directory) {
        case .failure(let error): return HistoryAccess.failure(error.message)
        case .success(let all): rules = all.filter { source == nil || $0.source == source }
        }
        if json { return CommandOutput(stdout: [BookmarkText.json(rules)]) }
        return CommandOutput(stdout: BookmarkText.lines(rules))
    }

    /// The rules in force: the database's, or the built-in ones when there is no database yet.
    public static func readRules(directory: String) -> Result<[BookmarkRule], StoreError> {
        let path = HistoryDatabase.databasePath(in: directory)
        if access(cPath(path), F_OK) != 0 { return .success(NameResolver(rules: BuiltinBookmarks.rules).rules) }
        // A database from before bookmarks (schema 1) is upgraded rather than refused: the
        // migration only adds, and the rules must be readable for `top` and `list`.
        var opened = HistoryAccess.openForReading(directory: directory)
        if case .failure(let error) = opened, error.kind == .olderSchema { opened = openForWriting(directory: directory) }
        switch opened {
        case .failure(let error): return .failure(error)
        case .success(let database):
            defer { database.close() }
            do throws(StoreError) { return .success(try database.cliBookmarks()) } catch { return .failure(error) }
        }
    }

    // MARK: add, remove

    /// `bookmarks add`: a rule of the user's. Refuses rules that would match every process
    /// and sanitizes the name as an import would (through the file parser, the one place
    /// that knows the rules of the format).
    public static func add(directory: String, kind: MatchKind, pattern: String, name: String,
                           strip: SuffixStrip) -> CommandOutput {
        let rule: BookmarkRule
        switch validated(kind: kind, pattern: pattern, name: name, strip: strip) {
        case .failure(let problem): return HistoryAccess.failure(problem.message)
        case .success(let r): rule = r
        }
        return writing(directory: directory) { (database) throws(StoreError) -> CommandOutput in
            let what = BookmarkText.describe(rule)
            switch try database.cliAddBookmark(rule) {
            case .added: return CommandOutput(stdout: ["added " + what])
            case .renamed: return CommandOutput(stdout: ["changed " + what])
            case .unchanged: return CommandOutput(stdout: ["already there: " + what])
            }
        }
    }

    /// `bookmarks remove`: the user's (or an imported) rule with this selector. Built-in rules
    /// cannot be removed: a rule of yours with the same selector overrides one.
    public static func remove(directory: String, kind: MatchKind, pattern: String, strip: SuffixStrip) -> CommandOutput {
        let key = RuleKey(kind: kind, pattern: Array(pattern.utf8), strip: strip)
        return writing(directory: directory) { (database) throws(StoreError) -> CommandOutput in
            let rule = BookmarkRule(kind: kind, pattern: key.pattern, friendlyName: [], strip: strip)
            guard try database.cliRemoveBookmark(key) else {
                return HistoryAccess.failure("no bookmark of yours or imported one is \(BookmarkText.selector(rule)) (see sysstats bookmarks list)")
            }
            return CommandOutput(stdout: ["removed " + BookmarkText.selector(rule)])
        }
    }

    /// One rule through the parser: the same checks as a file's rules.
    static func validated(kind: MatchKind, pattern: String, name: String, strip: SuffixStrip) -> Result<BookmarkRule, Problem> {
        let rule = BookmarkRule(kind: kind, pattern: Array(pattern.utf8), friendlyName: Array(name.utf8), strip: strip)
        let bytes = BookmarkFile.encode([rule])
        do throws(BookmarkFileError) {
            let file = try BookmarkFile.parse(bytes)
            guard var parsed = file.rules.first, file.rules.count == 1 else { return .failure(Problem("cannot store this rule")) }
            parsed.source = .user
            return .success(parsed)
        } catch {
            switch error {
            case .matchesEverything: return .failure(Problem("\(BookmarkText.selector(rule)) would match every process; refused"))
            case .syntax(_, let reason): return .failure(Problem(reason))
            default: return .failure(Problem(error.message(file: "rule")))
            }
        }
    }

    // MARK: export

    /// `bookmarks export FILE`: the user's and imported rules (`all`: the built-ins too).
    public static func export(directory: String, to file: String, all: Bool, force: Bool) -> CommandOutput {
        if !force && access(cPath(file), F_OK) == 0 { return HistoryAccess.failure("\(TerminalText.escape(file)) already exists; give --force to overwrite it") }
        let rules: [BookmarkRule]
        switch readRules(directory: directory) {
        case .failure(let error): return HistoryAccess.failure(error.message)
        case .success(let found): rules = found.filter { all || $0.source != .builtin }
        }
        if let problem = FileBytes.writeAtomically(BookmarkFile.encode(rules), to: file, mode: 0o644) {
            return HistoryAccess.failure(problem)
        }
        return CommandOutput(stdout: ["exported \(rules.count) rule\(rules.count == 1 ? "" : "s") to \(TerminalText.escape(file))"])
    }

    // MARK: import

    /// A file read and parsed for import (its rules as imported rules), and what importing
    /// it would do: the store's plan.
    public struct BookmarkImport: Equatable {
        public var file: String
        /// The file as it was read: what `--inbox` keeps, whatever the file holds by then.
        public var bytes: [UInt8]
        public var rules: BookmarkFile
        public var plan: ImportPlan

        /// `FILE: adds N, changes N, skips N[, N names sanitized]`.
        public var summary: String {
            var line = "\(TerminalText.escape(file)): adds \(plan.adds.count), changes \(plan.changes.count), skips \(plan.skips.count)"
            let n = plan.sanitizedNames
            if n > 0 { line += ", \(n) name\(n == 1 ? "" : "s") sanitized" }
            return line
        }
    }

    /// `bookmarks import FILE`, first half: reads at most one byte more than a bookmarks
    /// file may have, parses it, and asks the database what importing it would do.
    /// Changes nothing. The failure is the one line for stderr.
    public static func planImport(directory: String, file: String) -> Result<BookmarkImport, Problem> {
        let bytes: [UInt8]
        switch FileBytes.read(file, limit: BookmarkFile.maximumSize + 1) {
        case .failure(let problem): return .failure(problem)
        case .success(let read): bytes = read
        }
        let parsed: BookmarkFile
        do throws(BookmarkFileError) {
            if bytes.count > BookmarkFile.maximumSize { throw .tooLarge(size: FileBytes.size(file) ?? bytes.count) }
            parsed = try BookmarkFile.parse(bytes)
        } catch {
            return .failure(Problem(error.message(file: file) + "; nothing imported"))
        }
        // Whatever `source=` a shared file claims, what comes in is imported.
        var rules = parsed
        rules.rules = parsed.rules.map { rule -> BookmarkRule in
            var r = rule
            r.source = .imported
            return r
        }
        let plan: ImportPlan
        switch openForWriting(directory: directory) {
        case .failure(let error): return .failure(Problem(error.message))
        case .success(let database):
            defer { database.close() }
            do throws(StoreError) { plan = try database.cliPlanImport(rules) } catch { return .failure(Problem(error.message)) }
        }
        return .success(BookmarkImport(file: file, bytes: bytes, rules: rules, plan: plan))
    }

    /// `bookmarks import FILE`, second half: one transaction, then the rules cache.
    public static func applyImport(directory: String, plan: BookmarkImport) -> CommandOutput {
        writing(directory: directory) { (database) throws(StoreError) -> CommandOutput in
            let done = try database.cliApplyImport(plan.rules)
            return CommandOutput(stdout: ["imported \(TerminalText.escape(plan.file)): added \(done.adds.count), changed \(done.changes.count), skipped \(done.skips.count)"])
        }
    }

    /// Both halves, without asking (`--yes`).
    public static func importFile(directory: String, file: String) -> CommandOutput {
        switch planImport(directory: directory, file: file) {
        case .failure(let problem): return HistoryAccess.failure(problem.message)
        case .success(let plan):
            var out = applyImport(directory: directory, plan: plan)
            out.stdout.insert(plan.summary, at: 0)
            return out
        }
    }

    /// `--inbox`: copies `file` into `<directory>/Inbox/` (0700; a name already there gets
    /// `-1`, `-2`, … before its extension) and returns the copy's path. A file too large
    /// for a bookmarks file is refused before anything is copied.
    public static func copyToInbox(directory: String, file: String) -> Result<String, Problem> {
        let bytes: [UInt8]
        switch FileBytes.read(file, limit: BookmarkFile.maximumSize + 1) {
        case .failure(let problem): return .failure(problem)
        case .success(let read): bytes = read
        }
        if bytes.count > BookmarkFile.maximumSize {
            let error = BookmarkFileError.tooLarge(size: FileBytes.size(file) ?? bytes.count)
            return .failure(Problem(error.message(file: file) + "; nothing imported"))
        }
        return copyToInbox(directory: directory, name: file, bytes: bytes)
    }

    /// `import --inbox` once the import goes ahead (`--yes`, or the user said yes): keeps the
    /// bytes that were planned (not the file again, which may have changed) in the Inbox,
    /// under `file`'s name. Nothing is copied for an import that is refused or declined.
    public static func keepInInbox(directory: String, plan: BookmarkImport) -> Result<String, Problem> {
        copyToInbox(directory: directory, name: plan.file, bytes: plan.bytes)
    }

    /// `bytes` into `<directory>/Inbox/` under the last component of `name`.
    static func copyToInbox(directory: String, name file: String, bytes: [UInt8]) -> Result<String, Problem> {
        let inbox = joinPath(directory, "Inbox")
        for dir in [directory, inbox] where mkdir(cPath(dir), 0o700) != 0 && errno != EEXIST {
            return .failure(Problem("cannot create \(TerminalText.escape(dir)): \(Errno.current.description)"))
        }
        _ = chmod(cPath(inbox), 0o700)
        let base = baseName(file)
        let (stem, ext) = splitExtension(base.isEmpty ? "bookmarks.sysstats-bookmarks" : base)
        for n in 0..<1000 {
            let candidate = joinPath(inbox, n == 0 ? stem + ext : "\(stem)-\(n)\(ext)")
            let fd = open(cPath(candidate), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            if fd < 0 {
                if errno == EEXIST { continue }
                return .failure(Problem("cannot create \(TerminalText.escape(candidate)): \(Errno.current.description)"))
            }
            let ok = FileBytes.writeAll(fd, bytes)
            close(fd)
            if !ok {
                unlink(cPath(candidate))
                return .failure(Problem("cannot write \(TerminalText.escape(candidate))"))
            }
            return .success(candidate)
        }
        return .failure(Problem("\(TerminalText.escape(inbox)) holds too many copies of \(TerminalText.escape(base))"))
    }

    static func baseName(_ path: String) -> String {
        String(path.split(separator: "/", omittingEmptySubsequences: true).last ?? "")
    }

    /// `a.sysstats-bookmarks` → (`a`, `.sysstats-bookmarks`); no dot (or only a leading one): no extension.
    static func splitExtension(_ name: String) -> (String, String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        return (String(name[..<dot]), String(name[dot...]))
    }

    // MARK: suggest

    /// `bookmarks suggest`: running programs no rule names, the largest by memory and the
    /// busiest by CPU, each with a ready-to-run `sysstats bookmarks add` line. Processes the
    /// same rule would name (four `bash`, a browser's twenty helpers) are one suggestion,
    /// with their memory and CPU added up.
    public static func suggest(directory: String, procRoot: String, count: Int, intervalMs: Int) -> CommandOutput {
        let resolver: NameResolver
        switch readRules(directory: directory) {
        case .failure(let error): return HistoryAccess.failure(error.message)
        case .success(let rules): resolver = NameResolver(rules: rules)
        }
        var problems: [String] = []
        let rows = Top.sample(procRoot: procRoot, intervalMs: intervalMs, resolver: resolver, problems: &problems)
            .filter { $0.friendlyName == nil && !$0.isKernelThread }
        if rows.isEmpty { return CommandOutput(stdout: ["every running process has a bookmark"]) }
        let groups = Suggestion.group(rows)
        var out: [String] = []
        for (title, byMemory) in [("by memory", true), ("by CPU", false)] {
            let ranked = groups.filter { byMemory ? $0.privateKiB > 0 : $0.cpuPermyriad > 0 }.sorted {
                let (a, b) = byMemory ? ($0.privateKiB, $1.privateKiB) : ($0.cpuPermyriad, $1.cpuPermyriad)
                return a != b ? a > b : $0.command < $1.command
            }
            if ranked.isEmpty { continue }
            out.append("Unbookmarked programs \(title):")
            for group in ranked.prefix(count) {
                let processes = group.processes == 1 ? "pid \(group.firstPid)" : "\(group.processes) processes"
                out.append("  " + Columns.left(TerminalText.escape(group.name), 22) + "  " + Columns.left(processes, 13)
                           + Columns.right(Columns.mib(group.privateKiB), 9) + " MiB"
                           + Columns.right(Columns.percentOneDecimal(group.cpuPermyriad), 7) + " %")
                out.append("    " + group.command)
            }
        }
        return CommandOutput(stdout: out)
    }

    /// One suggested rule and the running processes it would name.
    struct Suggestion: Equatable {
        var command: String
        var name: [UInt8]
        var firstPid: Int32
        var processes = 1
        var privateKiB: UInt64
        var cpuPermyriad: UInt64

        /// Groups rows by the `bookmarks add` line they would get, in first-seen order.
        static func group(_ rows: [Top.Row]) -> [Suggestion] {
            var groups: [Suggestion] = []
            var index: [String: Int] = [:]
            for row in rows {
                let command = suggestion(row)
                if let i = index[command] {
                    groups[i].processes += 1
                    groups[i].privateKiB += row.privateKiB
                    groups[i].cpuPermyriad += row.cpuPermyriad
                } else {
                    index[command] = groups.count
                    groups.append(Suggestion(command: command, name: row.name, firstPid: row.pid,
                                             privateKiB: row.privateKiB, cpuPermyriad: row.cpuPermyriad))
                }
            }
            return groups
        }
    }

    /// The `sysstats bookmarks add` line for a process: `--truncated` when its comm was cut
    /// and a longer name is known, else `--exe`, else `--comm`.
    static func suggestion(_ row: Top.Row) -> String {
        let (flag, pattern): (String, [UInt8])
        if row.comm.count == 15 && row.name.count > row.comm.count { (flag, pattern) = ("--truncated", row.name) }
        else if !row.executable.isEmpty { (flag, pattern) = ("--exe", row.executable) }
        else { (flag, pattern) = ("--comm", row.comm) }
        guard let text = ShellQuote.quote(pattern) else {
            return "(its name is not valid UTF-8: no ready-made command; a --glob rule with ? for each odd byte names it)"
        }
        return "sysstats bookmarks add \(flag) \(text) --name \(text)"
    }

    // MARK: helpers

    static func openForWriting(directory: String) -> Result<HistoryDatabase, StoreError> {
        do throws(StoreError) {
            return .success(try HistoryDatabase(path: HistoryDatabase.databasePath(in: directory)))
        } catch {
            return .failure(error)
        }
    }

    /// Runs a change on the database opened read-write, then rewrites the rules cache.
    static func writing(directory: String, _ body: (HistoryDatabase) throws(StoreError) -> CommandOutput) -> CommandOutput {
        switch openForWriting(directory: directory) {
        case .failure(let error): return HistoryAccess.failure(error.message)
        case .success(let database):
            defer { database.close() }
            do throws(StoreError) {
                let out = try body(database)
                if out.status == 0 { try database.cliWriteRulesCache(directory: directory) }
                return out
            } catch {
                return HistoryAccess.failure(error.message)
            }
        }
    }
}
