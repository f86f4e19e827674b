import Foundation
import Glibc
import HistoryStore
import SysstatsCLI
import XCTest

final class BackupRestoreCommandsTests: XCTestCase {
    /// Everything the reading commands print for the fixture.
    func readings(_ f: HistoryFixture) -> [CommandOutput] {
        [HistoryCommands.history(directory: f.dataDirectory, sinceSeconds: 86_400, json: true, png: nil,
                                 nowSeconds: HistoryFixture.now, zone: .utc),
         HistoryCommands.reboots(directory: f.dataDirectory, json: true, currentBootID: nil, zone: .utc),
         HistoryCommands.exited(directory: f.dataDirectory, sinceSeconds: 86_400, json: true,
                                nowSeconds: HistoryFixture.now, zone: .utc)]
    }

    func testBackupThenRestoreRoundTripsTheHistory() throws {
        let f = try HistoryFixture()
        let before = readings(f)
        let backup = f.directory.file("backup.sqlite")
        let backedUp = HistoryCommands.backup(directory: f.dataDirectory, to: backup, force: false)
        XCTAssertEqual(backedUp.status, 0, "\(backedUp.stderr)")
        let size = try HistoryFixture.bytes(backup).count
        XCTAssertEqual(backedUp.stdout, ["backed up \(f.databasePath) to \(backup) (\(size) bytes)"])

        // History moves on after the backup …
        let database = try HistoryDatabase(path: f.databasePath)
        try database.append(samples: [MinuteSample(minute: HistoryFixture.now - 60, cpuAverage: 1, cpuMaximum: 2, memoryUsedKiB: 3,
                                                   memoryAvailableKiB: 4, swapUsedKiB: 5, load1: 6, processCount: 7)])
        _ = try database.recordBoot(id: "55555555-5555-4555-8555-555555555555", bootTime: HistoryFixture.now,
                                    uptimeSeconds: 1, nowSeconds: HistoryFixture.now)
        database.close()
        XCTAssertNotEqual(readings(f), before)

        // … and the restore brings back what the backup held.
        let runtime = try TemporaryDirectory()
        let restored = HistoryCommands.restore(candidate: backup, directory: f.dataDirectory, runtimeDirectory: runtime.path)
        XCTAssertEqual(restored, CommandOutput(stdout: [
            "\(backup): a sysstats history database, \(size) bytes, schema version \(HistoryDatabase.schemaVersion); integrity_check, schema and contents ok",
            "restored \(backup) into \(f.databasePath); the previous database is kept as \(f.databasePath).bak",
        ]))
        XCTAssertEqual(readings(f), before)
        XCTAssertTrue(FileManager.default.fileExists(atPath: f.databasePath + ".bak"))
    }

    func testRestoreIntoADataDirectoryWithoutADatabaseCreatesIt() throws {
        let f = try HistoryFixture()
        let backup = f.directory.file("backup.sqlite")
        XCTAssertEqual(HistoryCommands.backup(directory: f.dataDirectory, to: backup, force: false).status, 0)
        let fresh = try TemporaryDirectory()
        let restored = HistoryCommands.restore(candidate: backup, directory: fresh.file("data"),
                                               runtimeDirectory: try TemporaryDirectory().path)
        let path = HistoryDatabase.databasePath(in: fresh.file("data"))
        XCTAssertEqual(restored.status, 0, "\(restored.stderr)")
        XCTAssertEqual(restored.stdout.last, "restored \(backup) into \(path); there was no database before")
        XCTAssertEqual(HistoryCommands.reboots(directory: fresh.file("data"), json: true, currentBootID: nil),
                       HistoryCommands.reboots(directory: f.dataDirectory, json: true, currentBootID: nil))
    }

    func testBackupRefusesToOverwriteAnExistingFileUnlessForced() throws {
        let f = try HistoryFixture()
        let target = f.directory.file("existing")
        try f.directory.write(Array("keep me".utf8), to: "existing")
        let refused = HistoryCommands.backup(directory: f.dataDirectory, to: target, force: false)
        XCTAssertEqual(refused, CommandOutput(stderr: ["sysstats: \(target) already exists; give --force to overwrite it"], status: 1))
        XCTAssertEqual(try HistoryFixture.bytes(target), Array("keep me".utf8))

        let forced = HistoryCommands.backup(directory: f.dataDirectory, to: target, force: true)
        XCTAssertEqual(forced.status, 0, "\(forced.stderr)")
        XCTAssertEqual(try HistoryDatabase.checkRestorable(target), HistoryDatabase.schemaVersion)
    }

    func testBackupOntoTheDatabaseItselfIsRefused() throws {
        let f = try HistoryFixture()
        let before = try HistoryFixture.bytes(f.databasePath)
        let out = HistoryCommands.backup(directory: f.dataDirectory, to: f.databasePath, force: true)
        XCTAssertEqual(out, CommandOutput(stderr: ["sysstats: \(f.databasePath) is the history database itself"], status: 1))
        XCTAssertEqual(try HistoryFixture.bytes(f.databasePath), before)
    }

    func testRestoreOfRandomBytesIsRefusedAndLeavesTheDatabaseByteForByteUnchanged() throws {
        let f = try HistoryFixture()
        let before = try HistoryFixture.bytes(f.databasePath), listing = try f.listing()
        var generator = SystemRandomNumberGenerator()
        try f.directory.write((0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) }, to: "random.bin")
        let candidate = f.directory.file("random.bin")
        let runtime = try TemporaryDirectory()
        let out = HistoryCommands.restore(candidate: candidate, directory: f.dataDirectory, runtimeDirectory: runtime.path)
        XCTAssertEqual(out, CommandOutput(stderr: [
            "sysstats: \(candidate) is not an SQLite database (it does not start with the SQLite header)"], status: 1))
        XCTAssertEqual(try HistoryFixture.bytes(f.databasePath), before)
        XCTAssertEqual(try f.listing(), listing)
    }

    func testRestoreOfAnEmptyFileSaysSo() throws {
        let f = try HistoryFixture()
        try f.directory.write([], to: "empty")
        let out = HistoryCommands.restore(candidate: f.directory.file("empty"), directory: f.dataDirectory,
                                          runtimeDirectory: try TemporaryDirectory().path)
        XCTAssertEqual(out.stderr, ["sysstats: \(f.directory.file("empty")) is empty (0 bytes): not a sysstats backup"])
        XCTAssertEqual(out.status, 1)
    }

    func testRestoreIsRefusedWhileTheSamplerHoldsItsLock() throws {
        let f = try HistoryFixture()
        let backup = f.directory.file("backup.sqlite")
        XCTAssertEqual(HistoryCommands.backup(directory: f.dataDirectory, to: backup, force: false).status, 0)
        let before = try HistoryFixture.bytes(f.databasePath), listing = try f.listing()

        let runtime = try TemporaryDirectory()
        // The sampler's lock is an exclusive flock on the runtime directory itself.
        let fd = open(runtime.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(flock(fd, LOCK_EX | LOCK_NB), 0)
        XCTAssertTrue(HistoryCommands.samplerIsRunning(runtimeDirectory: runtime.path))
        let out = HistoryCommands.restore(candidate: backup, directory: f.dataDirectory, runtimeDirectory: runtime.path)
        XCTAssertEqual(out, CommandOutput(stderr: [
            "sysstats: sysstatsd is running (it holds the lock of \(runtime.path)): stop it first, then restore"], status: 1))
        XCTAssertEqual(try HistoryFixture.bytes(f.databasePath), before)
        XCTAssertEqual(try f.listing(), listing)

        close(fd)   // the sampler stopped: nobody holds the lock
        XCTAssertFalse(HistoryCommands.samplerIsRunning(runtimeDirectory: runtime.path))
        XCTAssertEqual(HistoryCommands.restore(candidate: backup, directory: f.dataDirectory, runtimeDirectory: runtime.path).status, 0)
    }

    func testReadingWhileAnotherConnectionWritesNeverSaysDatabaseIsLocked() throws {
        let f = try HistoryFixture()
        let path = f.databasePath
        let failures = Failures()
        let writerDone = DispatchSemaphore(value: 0)
        // At least a second of reads beside the writer, and at least eleven of them (a busy
        // machine may take longer for those), at most twenty seconds.
        let minimumEnd = Date().addingTimeInterval(1.0), cap = Date().addingTimeInterval(20)
        final class Stop: @unchecked Sendable { var requested = false }
        let stop = Stop()
        Thread.detachNewThread {
            defer { writerDone.signal() }
            do {
                let database = try HistoryDatabase(path: path)
                defer { database.close() }
                var minute = HistoryFixture.now
                while !stop.requested {
                    try database.append(samples: [MinuteSample(minute: minute, cpuAverage: 100, cpuMaximum: 200, memoryUsedKiB: 1,
                                                               memoryAvailableKiB: 2, swapUsedKiB: 0, load1: 3, processCount: 4)])
                    try database.append(exits: [ExitRecord(timeMs: minute * 1000, pid: 9, name: [0x78], lastPrivateKiB: 1, freedKiB: 1)])
                    minute += 60
                }
            } catch {
                failures.add("writer: \(error)")
            }
        }
        var reads = 0
        while Date() < minimumEnd || (reads <= 10 && Date() < cap) {
            for out in [HistoryCommands.history(directory: f.dataDirectory, sinceSeconds: 86_400 * 365, json: true, png: nil,
                                                nowSeconds: HistoryFixture.now + 86_400 * 300),
                        HistoryCommands.exited(directory: f.dataDirectory, sinceSeconds: 3600, json: false,
                                               nowSeconds: HistoryFixture.now + 86_400 * 300)] where out.status != 0 {
                failures.add("reader: \(out.stderr)")
            }
            reads += 1
        }
        stop.requested = true
        writerDone.wait()
        XCTAssertEqual(failures.all, [])
        XCTAssertGreaterThan(reads, 10)
        let written = HistoryCommands.history(directory: f.dataDirectory, sinceSeconds: 86_400 * 365, json: false, png: nil,
                                              nowSeconds: HistoryFixture.now + 86_400 * 300)
        XCTAssertGreaterThan(written.stdout.count, 10, "the writer wrote nothing")
    }
}

/// Messages collected from two threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []
    func add(_ message: String) { lock.lock(); messages.append(message); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return messages }
}
