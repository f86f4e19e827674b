import Foundation
@testable import HistoryStore
import TestSupport
import XCTest

final class BackupRestoreTests: XCTestCase {
    /// A current database with a day of history, and a backup of a different one, in one folder.
    private func currentAndBackup() throws -> (Scratch, String) {
        let scratch = try Scratch()
        try makePopulatedDatabase(scratch.databasePath, start: 1_750_000_020, minutes: 300, exits: 10)
        let other = scratch.file("other.sqlite")
        try makePopulatedDatabase(other, start: 1_760_000_040, minutes: 1440, exits: 200)
        let backup = scratch.file("backup.sqlite")
        try HistoryDatabase(path: other).backup(to: backup)
        return (scratch, backup)
    }

    /// Restoring `candidate` is refused with `kind`, and the current database and its folder are unchanged.
    private func assertRefused(_ candidate: String, _ kind: StoreError.Kind, _ messagePart: String, in scratch: Scratch,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try bytes(scratch.databasePath)
        let candidateBefore = try bytes(candidate)
        let listing = try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path).sorted()
        XCTAssertThrowsError(try HistoryDatabase.restore(from: candidate, into: scratch.databasePath), file: file, line: line) { error in
            let error = error as! StoreError
            XCTAssertEqual(error.kind, kind, error.message, file: file, line: line)
            XCTAssertTrue(error.message.contains(messagePart), error.message, file: file, line: line)
            XCTAssertFalse(error.message.contains("\n"), error.message, file: file, line: line)
        }
        XCTAssertEqual(try bytes(scratch.databasePath), before, "current database changed", file: file, line: line)
        XCTAssertEqual(try bytes(candidate), candidateBefore, "candidate changed", file: file, line: line)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path).sorted(), listing,
                       "files appeared or vanished", file: file, line: line)
    }

    func testRestoreRefusesATruncatedCopy() throws {
        let (scratch, backup) = try currentAndBackup()
        let whole = try bytes(backup)
        try writeBytes(Array(whole[..<(whole.count / 2)]), backup)
        try assertRefused(backup, .truncated, "is truncated: its header says", in: scratch)
    }

    func testRestoreRefusesACopyCutInsideAPage() throws {
        let (scratch, backup) = try currentAndBackup()
        let whole = try bytes(backup)
        try writeBytes(Array(whole[..<(whole.count - 1000)]), backup)
        try assertRefused(backup, .truncated, "is truncated", in: scratch)
    }

    func testRestoreRefusesRandomBytes() throws {
        let scratch = try Scratch()
        try makePopulatedDatabase(scratch.databasePath)
        var generator = SystemRandomNumberGenerator()
        try writeBytes((0..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) }, scratch.file("random"))
        try assertRefused(scratch.file("random"), .notSQLite, "is not an SQLite database", in: scratch)
    }

    func testRestoreRefusesAnEmptyFile() throws {
        let scratch = try Scratch()
        try makePopulatedDatabase(scratch.databasePath)
        try writeBytes([], scratch.file("empty"))
        try assertRefused(scratch.file("empty"), .empty, "is empty (0 bytes)", in: scratch)
    }

    func testRestoreRefusesAnotherApplicationsSQLiteFile() throws {
        let scratch = try Scratch()
        try makePopulatedDatabase(scratch.databasePath)
        let foreign = try rawConnection(scratch.file("foreign.sqlite"))
        try foreign.execute("PRAGMA application_id = 1196444237; CREATE TABLE t (x); INSERT INTO t VALUES (1);")
        foreign.close()
        try assertRefused(scratch.file("foreign.sqlite"), .foreignApplication, "is not a sysstats history database (application_id 0x47504a4d", in: scratch)
    }

    func testRestoreRefusesAnSQLiteFileWithoutAnyApplicationID() throws {
        let scratch = try Scratch()
        try makePopulatedDatabase(scratch.databasePath)
        let foreign = try rawConnection(scratch.file("plain.sqlite"))
        try foreign.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
        foreign.close()
        try assertRefused(scratch.file("plain.sqlite"), .foreignApplication, "is not a sysstats history database", in: scratch)
    }

    func testRestoreRefusesABackupWithCorruptedPages() throws {
        let (scratch, backup) = try currentAndBackup()
        var content = try bytes(backup)
        let pageSize = 4096, pages = content.count / pageSize
        XCTAssertGreaterThan(pages, 8)
        // Garbage over the middle of every page from the third on (page 1 keeps the header, ids intact).
        for page in 2..<pages {
            for offset in (page * pageSize + 1024)..<(page * pageSize + 3072) { content[offset] = 0xA5 }
        }
        try writeBytes(content, backup)
        try assertRefused(backup, .corrupt, "is damaged", in: scratch)
    }

    func testRestoreRefusesABackupWithOnePageOverwrittenInItsMiddle() throws {
        let (scratch, backup) = try currentAndBackup()
        var content = try bytes(backup)
        let pageSize = 4096, page = content.count / pageSize / 2
        for offset in (page * pageSize + 1024)..<(page * pageSize + 3072) { content[offset] = 0xA5 }
        try writeBytes(content, backup)
        try assertRefused(backup, .corrupt, "is damaged: integrity_check says: ", in: scratch)
    }

    func testRestoreIsRefusedWhileAnotherProcessHasTheDatabaseOpen() throws {
        let (scratch, backup) = try currentAndBackup()
        // Another process (python3's sqlite3 module) opens the database in WAL mode and stays open.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = ["python3", "-c", """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            c.execute("SELECT count(*) FROM samples").fetchall()
            print("open", flush=True)
            sys.stdin.read()
            """, scratch.databasePath]
        let input = Pipe(), output = Pipe()
        holder.standardInput = input
        holder.standardOutput = output
        do { try holder.run() } catch { throw XCTSkip("python3 is not available: \(error)") }
        defer { try? input.fileHandleForWriting.close(); holder.waitUntilExit() }
        let line = output.fileHandleForReading.availableData
        guard String(decoding: line, as: UTF8.self).hasPrefix("open") else { throw XCTSkip("python3 could not open the database") }

        try assertRefused(backup, .busy, "is open in another process (stop sysstatsd first", in: scratch)
        try input.fileHandleForWriting.close()
        holder.waitUntilExit()
        try HistoryDatabase.restore(from: backup, into: scratch.databasePath)
    }

    func testRestoreRefusesABackupFromANewerSchema() throws {
        let (scratch, backup) = try currentAndBackup()
        let raw = try rawConnection(backup)
        try raw.execute("PRAGMA user_version = 7")
        raw.close()
        try assertRefused(backup, .newerSchema, "is from a newer sysstats (schema version 7; this build knows up to \(HistoryDatabase.schemaVersion))", in: scratch)
    }

    func testCheckingACandidateNeverWritesBesideIt() throws {
        let (scratch, backup) = try currentAndBackup()
        let before = try bytes(backup)
        XCTAssertEqual(try HistoryDatabase.checkRestorable(backup), HistoryDatabase.schemaVersion)
        XCTAssertEqual(try bytes(backup), before)
        XCTAssertFalse(fileExists(backup + "-wal"))
        XCTAssertFalse(fileExists(backup + "-shm"))
        XCTAssertFalse(fileExists(backup + "-journal"))
        _ = scratch
    }

    func testAPlainCopyOfAClosedWALDatabaseIsRestorable() throws {
        let scratch = try Scratch()
        try makePopulatedDatabase(scratch.databasePath)
        XCTAssertEqual(try bytes(scratch.databasePath)[18...19], [2, 2])   // WAL mode in the header
        try FileManager.default.copyItem(atPath: scratch.databasePath, toPath: scratch.file("copy.sqlite"))
        XCTAssertEqual(try HistoryDatabase.checkRestorable(scratch.file("copy.sqlite")), HistoryDatabase.schemaVersion)
        XCTAssertFalse(fileExists(scratch.file("copy.sqlite-shm")))
    }

    func testABackupIsPrivateAndAPathWithURICharactersIsCheckedAsItself() throws {
        let scratch = try Scratch()
        try makePopulatedDatabase(scratch.databasePath)
        let odd = scratch.file("we?ird #name %41&mode=rw.sqlite")
        try scratch.open(readOnly: true).backup(to: odd)
        let attributes = try FileManager.default.attributesOfItem(atPath: odd)
        XCTAssertEqual(attributes[.posixPermissions] as? Int, 0o600)
        XCTAssertEqual(try HistoryDatabase.checkRestorable(odd), HistoryDatabase.schemaVersion)
        XCTAssertFalse(fileExists(scratch.file("we")))
    }

    func testAGoodBackupRestoresReadsBackEqualAndKeepsTheOldDatabaseAsBak() throws {
        let (scratch, backup) = try currentAndBackup()
        let other = try HistoryDatabase(path: scratch.file("other.sqlite"), readOnly: true)
        let current = try scratch.open(readOnly: true)
        let (oldSamples, oldExits, oldBoots) = (try current.samples(from: 0, to: .max), try current.exits(sinceMs: 0), try current.boots())
        current.close()

        try HistoryDatabase.restore(from: backup, into: scratch.databasePath)

        let restored = try scratch.open()
        XCTAssertEqual(try restored.samples(from: 0, to: .max), try other.samples(from: 0, to: .max))
        XCTAssertEqual(try restored.exits(sinceMs: 0), try other.exits(sinceMs: 0))
        XCTAssertEqual(try restored.boots(), try other.boots())
        XCTAssertEqual(try restored.samples(from: 0, to: .max).count, 1440)
        XCTAssertNil(try restored.integrityProblem())

        let kept = try HistoryDatabase(path: scratch.databasePath + ".bak", readOnly: true)
        XCTAssertEqual(try kept.samples(from: 0, to: .max), oldSamples)
        XCTAssertEqual(try kept.exits(sinceMs: 0), oldExits)
        XCTAssertEqual(try kept.boots(), oldBoots)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path).filter { $0.contains(".restore-") || $0.contains(".tmp-") }
        XCTAssertEqual(leftovers, [])
    }

    func testRestoreKeepsCommittedRowsThatWereOnlyInTheCurrentWALInTheBak() throws {
        let (scratch, backup) = try currentAndBackup()
        // A writer that never checkpointed (as after kill -9): rows only in history.sqlite-wal.
        let writer = try scratch.open()
        try writer.connection.execute("PRAGMA wal_autocheckpoint = 0")
        try writer.append(samples: [sample(9_000_000_000)])
        XCTAssertTrue(fileExists(scratch.databasePath + "-wal"))
        try HistoryDatabase.restore(from: backup, into: scratch.databasePath)
        writer.close()
        let kept = try HistoryDatabase(path: scratch.databasePath + ".bak", readOnly: true)
        XCTAssertEqual(try kept.samples(from: 9_000_000_000, to: .max), [sample(9_000_000_000)])
        let restored = try scratch.open(readOnly: true)
        XCTAssertEqual(try restored.samples(from: 9_000_000_000, to: .max), [])
    }

    func testRestoreIntoAFolderWithoutADatabaseCreatesIt() throws {
        let (scratch, backup) = try currentAndBackup()
        let fresh = scratch.file("fresh/history.sqlite")
        try HistoryDatabase.restore(from: backup, into: fresh)
        XCTAssertEqual(try HistoryDatabase(path: fresh, readOnly: true).samples(from: 0, to: .max).count, 1440)
        XCTAssertFalse(fileExists(fresh + ".bak"))
    }

    func testBackupWhileAnotherConnectionWritesPassesIntegrityCheckAndReadsBackEqual() throws {
        let scratch = try Scratch()
        try scratch.open().close()
        let path = scratch.databasePath
        let stop = Atomic(false)
        let writerError = Atomic<String?>(nil)
        let writer = Thread {
            do {
                let db = try HistoryDatabase(path: path)
                var minute: UInt64 = 60
                while !stop.value {
                    try db.append(samples: [sample(minute)])
                    try db.append(exits: [exitRecord(minute * 1000)])
                    minute += 60
                }
            } catch { writerError.value = "\(error)" }
        }
        writer.start()
        let source = try scratch.open(readOnly: true)
        var backups: [[MinuteSample]] = []
        for index in 0..<5 {
            Thread.sleep(forTimeInterval: 0.05)
            let target = scratch.file("backup-\(index).sqlite")
            try source.backup(to: target)
            XCTAssertEqual(try HistoryDatabase.checkRestorable(target), HistoryDatabase.schemaVersion)
            let copy = try HistoryDatabase(path: target, readOnly: true)
            XCTAssertNil(try copy.integrityProblem())
            backups.append(try copy.samples(from: 0, to: .max))
            // A sample and its exit are two transactions: the copy may fall between them.
            let exits = try copy.exits(sinceMs: 0).count, samples = backups.last!.count
            XCTAssertTrue(exits == samples || exits == samples - 1, "\(exits) exits, \(samples) samples")
        }
        stop.value = true
        while writer.isExecuting || !writer.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertNil(writerError.value)
        let final = try source.samples(from: 0, to: .max)
        XCTAssertGreaterThan(backups.last!.count, 0)
        for copy in backups {   // each backup is the database as it was at one moment: a prefix
            XCTAssertEqual(copy, Array(final.prefix(copy.count)))
        }
        try source.backup(to: scratch.file("quiet.sqlite"))
        XCTAssertEqual(try HistoryDatabase(path: scratch.file("quiet.sqlite"), readOnly: true).samples(from: 0, to: .max), final)
    }

    func testAReaderReadingWhileAWriterWritesNeverSeesDatabaseIsLocked() throws {
        let scratch = try Scratch()
        try scratch.open().close()
        let path = scratch.databasePath
        let done = Atomic(false)
        let writerError = Atomic<String?>(nil)
        let writer = Thread {
            do {
                let db = try HistoryDatabase(path: path)
                for minute in 1...200 {
                    try db.append(samples: [sample(UInt64(minute) * 60)])
                    if minute % 50 == 0 { try db.checkpoint() }
                    if minute % 100 == 0 { try db.applyRetention(nowSeconds: UInt64(minute) * 60) }
                }
            } catch { writerError.value = "\(error)" }
            done.value = true
        }
        writer.start()
        let reader = try HistoryDatabase(path: path, readOnly: true)
        var reads = 0, lastCount = 0
        while !done.value {
            let rows = try reader.samples(from: 0, to: .max)
            XCTAssertGreaterThanOrEqual(rows.count, lastCount)
            lastCount = rows.count
            _ = try reader.boots()
            reads += 1
        }
        XCTAssertNil(writerError.value)
        XCTAssertEqual(try reader.samples(from: 0, to: .max).count, 200)
        XCTAssertGreaterThan(reads, 1)
    }
}

/// A lock-protected value shared between the test thread and a worker thread.
final class Atomic<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}
