import Bookmarks
import ProcFS
import HistoryRecords
import CLibc

/// The work of `sysstatsd-history --data-dir DIR [--quiet-when-full] < batch`: one history
/// batch (the sampler's encoding, ``HistoryBatch``) applied to DIR/history.sqlite.
///
/// The sampler starts the program once a minute and at its clean stop, so that SQLite stays
/// out of the sampler's memory. Exit 0 when stored; any error is one line and exit 1, except
/// a full file system: exit 75 (``HistoryWriterStatus/noSpace``), silently with
/// `--quiet-when-full` (the sampler says "history paused" once itself). Nothing is written
/// then, and the next batch (a minute later, a new writer) tries again, the creation and
/// migrations of a new database included. It holds the data directory's shared lock while it
/// works (``DataDirectoryLock``: restore waits). It also keeps the bookmarks rules cache
/// (DIR/bookmarks.rules, which the sampler reads) present and in line with this build's
/// built-in bookmarks; a failure there is a warning, not a lost batch.
public enum HistoryWriter {
    /// Why the batch could not be read, one line.
    public struct InputProblem: Error, Equatable {
        public var message: String
        public init(_ message: String) { self.message = message }
    }

    /// Runs the writer: `arguments` without the program name, `input` gives the batch bytes
    /// (or why they could not be read), `report` takes each line for stderr (no newline).
    /// Returns the exit status.
    public static func run(arguments: [String], input: () -> Result<[UInt8], InputProblem>,
                           report: (String) -> Void) -> Int32 {
        var arguments = arguments
        let quietWhenFull = arguments.last == HistoryWriterStatus.quietWhenFullFlag
        if quietWhenFull { arguments.removeLast() }
        guard arguments.count == 2, arguments[0] == "--data-dir", !arguments[1].isEmpty else {
            report("sysstatsd-history: usage: sysstatsd-history --data-dir DIR [\(HistoryWriterStatus.quietWhenFullFlag)] < batch")
            return 1
        }
        let directory = arguments[1]
        let bytes: [UInt8]
        switch input() {
        case .success(let read): bytes = read
        case .failure(let problem): report("sysstatsd-history: \(problem.message)"); return 1
        }
        let batch: HistoryBatch
        do throws(HistoryBatchError) {
            batch = try HistoryBatch.decode(bytes)
        } catch {
            report("sysstatsd-history: \(error)")
            return 1
        }

        // Held until the end: a restore must not replace the file while this writes it.
        let lock: DataDirectoryLock
        switch DataDirectoryLock.shared(directory) {
        case .success(let held): lock = held
        case .failure(let failure):
            report("sysstatsd-history: \(TerminalText.escape(failure.message)); this batch is not written")
            return 1
        }
        defer { withExtendedLifetime(lock) {} }

        do throws(StoreError) {
            let database = try HistoryDatabase(path: HistoryDatabase.databasePath(in: directory))
            defer { database.close() }
            try database.apply(batch)
            if batch.endsCleanly { try database.checkpoint() }
            do throws(StoreError) {
                try writeBootSummary(database, batch: batch, directory: directory)
            } catch {
                report("sysstatsd-history: warning: \(BootSummary.fileName): \(error)")
            }
            let cache = HistoryDatabase.rulesCachePath(in: directory)
            do throws(StoreError) {
                var info = stat()
                let missing = stat(cPath(cache), &info) != 0
                if try database.syncBuiltinBookmarks() || missing { try database.writeRulesCache(to: cache) }
            } catch {
                report("sysstatsd-history: warning: bookmarks rules cache: \(error)")
            }
        } catch let error where error.kind == .full {
            if !quietWhenFull { report("sysstatsd-history: no space left for history: \(error)") }
            return HistoryWriterStatus.noSpace
        } catch {
            report("sysstatsd-history: \(error)")
            return 1
        }
        return 0
    }

    /// Writes `<data-dir>/boots.summary` (``BootSummary``) for the sampler's Prometheus export:
    /// at a start batch (a boot was added) and whenever the file is missing.
    static func writeBootSummary(_ database: HistoryDatabase, batch: HistoryBatch, directory: String) throws(StoreError) {
        let path = Files.join(directory, BootSummary.fileName)
        let isStart = batch.samples.isEmpty && batch.exits.isEmpty && !batch.endsCleanly
        var info = stat()
        guard isStart || stat(cPath(path), &info) != 0 else { return }
        let earlier = try database.boots().filter { $0.id != batch.bootID }.map { $0.cleanEnd }
        try Files.writeAtomically(BootSummary(earlierBootsCleanEnds: earlier).encoded, to: path)
    }

    /// Reads `fd` to its end, refusing more than a batch may hold.
    public static func readBatch(from fd: Int32) -> Result<[UInt8], InputProblem> {
        var input: [UInt8] = []
        input.reserveCapacity(64 * 1024)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let result = chunk.withUnsafeMutableBytes { FileDescriptor(rawValue: fd).readSome(into: $0) }
            guard case .success(let n) = result else {
                if case .failure(let e) = result {
                    return .failure(InputProblem("cannot read the batch from stdin: \(e.description)"))
                }
                continue
            }
            if n == 0 { return .success(input) }
            guard input.count + n <= HistoryBatch.maximumEncodedBytes else {
                return .failure(InputProblem("batch on stdin is over \(HistoryBatch.maximumEncodedBytes) bytes"))
            }
            input.append(contentsOf: chunk[0..<n])
        }
    }
}
