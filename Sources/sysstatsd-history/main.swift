// sysstatsd-history --data-dir DIR: reads one history batch from stdin (the sampler's
// encoding, HistoryBatch) and applies it to DIR/history.sqlite. Started by sysstatsd once
// a minute and at its clean stop, so that SQLite stays out of the sampler's memory.
// Exit 0 when stored; any error is one line on stderr and exit 1, except a full file system:
// exit 75 (HistoryWriterStatus.noSpace), silently with --quiet-when-full (the sampler says
// "history paused" once itself). Nothing is written then, and the next batch (a minute later,
// a new writer) tries again, the creation and migrations of a new database included.
// It holds the data directory's shared lock while it works (DataDirectoryLock: restore waits).
// It also keeps the bookmarks rules cache (DIR/bookmarks.rules, which the sampler reads)
// present and in line with this build's built-in bookmarks; a failure there is a warning,
// not a lost batch.
#if canImport(Glibc)
import Glibc
#endif
import HistoryRecords
import HistoryStore

func fail(_ message: String) -> Never {
    var line = "sysstatsd-history: " + message + "\n"
    line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
let quietWhenFull = arguments.last == HistoryWriterStatus.quietWhenFullFlag
if quietWhenFull { arguments.removeLast() }
guard arguments.count == 2, arguments[0] == "--data-dir", !arguments[1].isEmpty else {
    fail("usage: sysstatsd-history --data-dir DIR [\(HistoryWriterStatus.quietWhenFullFlag)] < batch")
}
let directory = arguments[1]

// Read stdin to its end, refusing more than a batch may hold.
var input: [UInt8] = []
input.reserveCapacity(64 * 1024)
var chunk = [UInt8](repeating: 0, count: 64 * 1024)
while true {
    let n = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
    if n < 0 {
        if errno == EINTR { continue }
        fail("cannot read the batch from stdin: \(String(cString: strerror(errno)))")
    }
    if n == 0 { break }
    guard input.count + n <= HistoryBatch.maximumEncodedBytes else {
        fail("batch on stdin is over \(HistoryBatch.maximumEncodedBytes) bytes")
    }
    input.append(contentsOf: chunk[0..<n])
}

let batch: HistoryBatch
do throws(HistoryBatchError) {
    batch = try HistoryBatch.decode(input)
} catch {
    fail("\(error)")
}

// Held until exit: a restore must not replace the file while this writes it.
let lock: DataDirectoryLock
switch DataDirectoryLock.shared(directory) {
case .success(let held): lock = held
case .failure(let failure): fail("\(failure.message); this batch is not written")
}

do throws(StoreError) {
    let database = try HistoryDatabase(path: HistoryDatabase.databasePath(in: directory))
    try database.apply(batch)
    if batch.endsCleanly { try database.checkpoint() }
    let cache = HistoryDatabase.rulesCachePath(in: directory)
    do throws(StoreError) {
        var info = stat()
        let missing = stat(cache, &info) != 0
        if try database.syncBuiltinBookmarks() || missing { try database.writeRulesCache(to: cache) }
    } catch {
        var line = "sysstatsd-history: warning: bookmarks rules cache: \(error)\n"
        line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
    database.close()
} catch let error where error.kind == .full {
    if !quietWhenFull {
        var line = "sysstatsd-history: no space left for history: \(error)\n"
        line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
    exit(HistoryWriterStatus.noSpace)
} catch {
    fail("\(error)")
}
withExtendedLifetime(lock) {}
exit(0)
