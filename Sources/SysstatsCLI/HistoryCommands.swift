#if canImport(Glibc)
import Glibc
#endif
import HistoryStore
import ProcFS
import SnapshotCodec
import SystemDirs
import Bookmarks

/// The work of `history`, `reboots`, `exited`, `backup` and `restore`: each returns what to
/// print and the exit status, so tests call them directly. Times are local unless `zone` says.
public enum HistoryCommands {
    /// The period `history` covers when `--since` is not given.
    public static let defaultHistorySeconds: UInt64 = 86_400

    /// `sysstats history`: the table, JSON, or (`png` given) a chart written to that file.
    /// `sinceSeconds` nil (no `--since`): the last 24 hours; the chart then starts at the
    /// oldest sample among them, so that three minutes of data fill the chart instead of its
    /// last pixels.
    public static func history(directory: String, sinceSeconds: UInt64?, json: Bool, png: String?,
                               nowSeconds: UInt64 = UInt64(time(nil)), zone: TimeZoneChoice = .local) -> CommandOutput {
        HistoryAccess.reading(directory: directory) { (database) throws(StoreError) -> CommandOutput in
            let since = sinceSeconds ?? defaultHistorySeconds
            var from = nowSeconds > since ? nowSeconds - since : 0
            let to = nowSeconds + 1
            let samples = try database.samples(from: from, to: to)
            if let png {
                if sinceSeconds == nil, let oldest = samples.map(\.minute).min(), oldest > from { from = oldest }
                let chart = HistoryChart(samples, from: from, to: to, fromLabel: zone.minute(from),
                                         toLabel: zone.minute(nowSeconds))
                if let problem = PNG.writeFile(chart.png(), to: png) { return HistoryAccess.failure(problem) }
                let lines = chart.hasTemperature ? "CPU (blue), memory used (red) and CPU temperature (orange, 0-100 °C)"
                    : "CPU (blue) and memory used (red)"
                return CommandOutput(stdout: ["wrote \(TerminalText.escape(png)): \(lines) from \(zone.minute(from)) "
                                              + "to \(zone.minute(nowSeconds)), \(samples.count) samples"])
            }
            if json { return CommandOutput(stdout: [HistoryTable.json(samples, from: from, to: to)]) }
            var out = CommandOutput(stdout: HistoryTable.lines(samples, zone: zone))
            if samples.isEmpty {
                out.stderr = ["sysstats: no samples since \(zone.minute(from)) in \(TerminalText.escape(database.path))"]
            }
            return out
        }
    }

    /// `sysstats history --units`: the units of the period (default the last 24 hours).
    public static func units(directory: String, sinceSeconds: UInt64?, json: Bool,
                             nowSeconds: UInt64 = UInt64(time(nil)), zone: TimeZoneChoice = .local) -> CommandOutput {
        HistoryAccess.reading(directory: directory) { (database) throws(StoreError) -> CommandOutput in
            let since = sinceSeconds ?? defaultHistorySeconds
            let from = nowSeconds > since ? nowSeconds - since : 0, to = nowSeconds + 1
            let rows = try database.units(from: from, to: to)
            if json { return CommandOutput(stdout: [HistoryUnits.json(rows, from: from, to: to)]) }
            guard !rows.isEmpty else {
                return CommandOutput(stdout: [], stderr: ["sysstats: no units kept since \(zone.minute(from)) in "
                    + "\(TerminalText.escape(database.path)): history keeps them while a bar shows top:units or a unit block, "
                    + "or always with `unit_history = true` in [sampler] (man sysstats-config)"])
            }
            return CommandOutput(stdout: HistoryUnits.lines(rows, from: from, to: nowSeconds, zone: zone))
        }
    }

    /// `sysstats reboots`. `currentBootID` is this boot's id (nil: none is shown as running).
    public static func reboots(directory: String, json: Bool,
                               currentBootID: String? = BootID.read()?.description,
                               zone: TimeZoneChoice = .local) -> CommandOutput {
        HistoryAccess.reading(directory: directory) { (database) throws(StoreError) -> CommandOutput in
            let boots = try database.boots()
            if json { return CommandOutput(stdout: [Reboots.json(boots, currentBootID: currentBootID)]) }
            return CommandOutput(stdout: Reboots.lines(boots, currentBootID: currentBootID, zone: zone))
        }
    }

    /// `sysstats exited`: exits in the last `sinceSeconds`, oldest first (`newestFirst`:
    /// the other way round, as `sysstats top --exited` lists them; `limit`: only that many newest).
    /// `recent`: the snapshot's exits (``RecentExits/read(snapshotPath:nowMs:)``), those of
    /// the minute history has not written yet joining history's, each exit once.
    public static func exited(directory: String, sinceSeconds: UInt64, json: Bool, newestFirst: Bool = false,
                              limit: Int? = nil, recent: [ExitEntry] = [],
                              nowSeconds: UInt64 = UInt64(time(nil)), zone: TimeZoneChoice = .local) -> CommandOutput {
        HistoryAccess.reading(directory: directory) { (database) throws(StoreError) -> CommandOutput in
            let sinceMs = (nowSeconds > sinceSeconds ? nowSeconds - sinceSeconds : 0) * 1000
            var exits = RecentExits.merged(history: try database.exits(sinceMs: sinceMs), recent: recent, sinceMs: sinceMs)
            if let limit, exits.count > limit { exits.removeFirst(exits.count - limit) }
            if newestFirst { exits.reverse() }
            return CommandOutput(stdout: json ? [Exited.json(exits)] : Exited.lines(exits, zone: zone))
        }
    }

    /// `sysstats backup FILE`: the online backup API, safe while the sampler writes.
    /// An existing `file` is kept unless `force`.
    public static func backup(directory: String, to file: String, force: Bool) -> CommandOutput {
        let databasePath = HistoryDatabase.databasePath(in: directory)
        if access(cPath(file), F_OK) == 0 {
            if !force { return HistoryAccess.failure("\(TerminalText.escape(file)) already exists; give --force to overwrite it") }
            if sameFile(file, databasePath) { return HistoryAccess.failure("\(TerminalText.escape(file)) is the history database itself") }
        }
        return HistoryAccess.reading(directory: directory) { (database) throws(StoreError) -> CommandOutput in
            try database.backup(to: file)
            var info = stat()
            let size = stat(cPath(file), &info) == 0 ? " (\(info.st_size) bytes)" : ""
            return CommandOutput(stdout: ["backed up \(TerminalText.escape(databasePath)) to \(TerminalText.escape(file))\(size)"])
        }
    }

    /// True when a sysstatsd holds the runtime directory's lock (a non-blocking shared
    /// `flock` test on the directory, released at once; nothing is created).
    public static func samplerIsRunning(runtimeDirectory: String) -> Bool {
        RuntimeDirectory.isLockedBySampler(runtimeDirectory)
    }

    /// `sysstats restore FILE`, first half: refuses while a sampler runs (one that holds the
    /// data directory's lock, or the runtime directory's), then checks the candidate without
    /// touching anything and says what it found. ``applyRestore(candidate:directory:)`` takes
    /// the data directory's lock again and holds it while it replaces the file.
    public static func checkRestore(candidate: String, directory: String, runtimeDirectory: String) -> CommandOutput {
        if samplerIsRunning(runtimeDirectory: runtimeDirectory) {
            return HistoryAccess.failure("sysstatsd is running (it holds the lock of \(TerminalText.escape(runtimeDirectory))): "
                                         + "stop it first, then restore")
        }
        if access(cPath(directory), F_OK) == 0 {
            // Asked now, so that nobody is asked to confirm a restore that cannot happen.
            do throws(StoreError) { _ = try HistoryDatabase.lockDataDirectory(directory) } catch {
                return HistoryAccess.failure(error.message)
            }
        }
        let version: Int32
        do throws(StoreError) { version = try HistoryDatabase.checkRestorable(candidate) } catch {
            return HistoryAccess.failure(error.message)
        }
        var info = stat()
        let size = stat(cPath(candidate), &info) == 0 ? "\(info.st_size) bytes, " : ""
        let current = HistoryDatabase.schemaVersion
        let upgrade = version < current ? " (older: it will be upgraded to \(current) on a copy)" : ""
        return CommandOutput(stdout: ["\(TerminalText.escape(candidate)): a sysstats history database, \(size)schema version \(version)\(upgrade); integrity_check, schema and contents ok"])
    }

    /// `sysstats restore FILE`, second half: replaces the database, keeping the old one as `.bak`.
    public static func applyRestore(candidate: String, directory: String) -> CommandOutput {
        let databasePath = HistoryDatabase.databasePath(in: directory)
        let hadDatabase = access(cPath(databasePath), F_OK) == 0
        do throws(StoreError) { try HistoryDatabase.restore(from: candidate, into: databasePath) } catch {
            return HistoryAccess.failure(error.message)
        }
        let kept = hadDatabase ? "the previous database is kept as \(TerminalText.escape(databasePath)).bak" : "there was no database before"
        return CommandOutput(stdout: ["restored \(TerminalText.escape(candidate)) into \(TerminalText.escape(databasePath)); \(kept)"])
    }

    /// Both halves, without asking (`--yes`).
    public static func restore(candidate: String, directory: String, runtimeDirectory: String) -> CommandOutput {
        var out = checkRestore(candidate: candidate, directory: directory, runtimeDirectory: runtimeDirectory)
        guard out.status == 0 else { return out }
        let applied = applyRestore(candidate: candidate, directory: directory)
        out.stdout += applied.stdout; out.stderr += applied.stderr; out.status = applied.status
        return out
    }

    static func sameFile(_ a: String, _ b: String) -> Bool {
        var x = stat(), y = stat()
        return stat(cPath(a), &x) == 0 && stat(cPath(b), &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }
}
