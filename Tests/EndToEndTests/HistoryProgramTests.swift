import Bookmarks
import Foundation
import HistoryStore
import SnapshotCodec
import TestSupport
import XCTest

/// History written by the release sampler through `sysstatsd-history`.
final class HistoryProgramTests: XCTestCase {
    var directory: TemporaryDirectory!
    var runtime: URL { directory.url.appendingPathComponent("run") }
    var data: URL { directory.url.appendingPathComponent("data") }
    var databasePath: String { data.appendingPathComponent("history.sqlite").path }
    let tree = Fixtures.root.appendingPathComponent("sampler-desktop/2")
    override func setUpWithError() throws { directory = try TemporaryDirectory("history-e2e") }
    override func tearDownWithError() throws { directory = nil }

    func startSampler() throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Programs.path("sysstatsd"))
        process.arguments = ["--interval", "0.05", "--runtime-dir", runtime.path, "--data-dir", data.path,
                             "--proc-root", tree.appendingPathComponent("proc").path,
                             "--sys-root", tree.appendingPathComponent("sys").path]
        let err = Pipe()
        process.standardError = err
        try process.run()
        return (process, err)
    }

    func sequence() -> UInt64 {
        guard let data = try? Data(contentsOf: runtime.appendingPathComponent("snapshot")),
              let s = try? [UInt8](data).withUnsafeBytes({ try Snapshot.decode($0) }) else { return 0 }
        return s.sequence
    }

    /// Waits until the writer has recorded the boot (the sampler's start batch).
    func waitForBoot(timeout: TimeInterval = 10) -> [BootRecord] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let db = try? HistoryDatabase(path: databasePath, readOnly: true), let boots = try? db.boots(), !boots.isEmpty {
                return boots
            }
            usleep(20_000)
        }
        return []
    }

    func testSIGTERMStoresThePartialMinuteAndMarksTheBootClean() throws {
        let (process, err) = try startSampler()
        let deadline = Date().addingTimeInterval(10)
        while sequence() < 5, Date() < deadline { usleep(20_000) }
        XCTAssertEqual(waitForBoot().map(\.cleanEnd), [false], "running: recorded at start, not clean yet")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "")

        let database = try HistoryDatabase(path: databasePath, readOnly: true)
        let boots = try database.boots()
        XCTAssertEqual(boots.count, 1)
        XCTAssertEqual(boots.first?.id, "0f8c1a52-6d1e-4b7a-9c33-2e5f7d9a4b10")
        XCTAssertEqual(boots.first?.cleanEnd, true)
        XCTAssertGreaterThanOrEqual(try database.samples(from: 0, to: .max).count, 1)
        XCTAssertNil(try database.integrityProblem())
    }

    func testKill9LeavesAnIntactDatabaseWhoseBootIsNotMarkedClean() throws {
        let (process, _) = try startSampler()
        let deadline = Date().addingTimeInterval(10)
        while sequence() < 5, Date() < deadline { usleep(20_000) }
        XCTAssertEqual(waitForBoot().count, 1)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)

        let database = try HistoryDatabase(path: databasePath)
        XCTAssertNil(try database.integrityProblem())
        XCTAssertEqual(try database.boots().map(\.cleanEnd), [false])
    }

    func testWithoutAWriterTheSamplerRunsAndSaysOnceWhatItDroppedAtTheEnd() throws {
        let (lines, _) = try runCopyOfSampler(writer: nil, samples: 5)
        let bin = directory.url.appendingPathComponent("bin").path
        XCTAssertEqual(lines.count, 2, "\(lines)")
        XCTAssertEqual(lines.first, "sysstatsd: cannot start the history writer \(bin)/sysstatsd-history: No such file or directory")
        XCTAssertTrue(lines.last?.hasPrefix("sysstatsd: history not written: dropped 1 minute row(s) and 0 exit(s), and the boot is not marked clean") ?? false, "\(lines)")
    }

    /// Runs a copy of sysstatsd in a folder of its own, beside a fake `sysstatsd-history`
    /// script (or none), and stops it with SIGTERM after `samples` samples. Returns the
    /// stderr lines' messages (without their times) and how long the stop took.
    func runCopyOfSampler(writer script: String?, samples: UInt64 = 10) throws -> (lines: [String], stopSeconds: TimeInterval) {
        let bin = directory.url.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let copy = bin.appendingPathComponent("sysstatsd")
        try FileManager.default.copyItem(atPath: try Programs.path("sysstatsd"), toPath: copy.path)
        if let script {
            let fake = bin.appendingPathComponent("sysstatsd-history")
            try Data(("#!/bin/sh\n" + script + "\n").utf8).write(to: fake)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        }
        let process = Process()
        process.executableURL = copy
        process.arguments = ["--interval", "0.05", "--runtime-dir", runtime.path, "--data-dir", data.path,
                             "--proc-root", tree.appendingPathComponent("proc").path,
                             "--sys-root", tree.appendingPathComponent("sys").path]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while sequence() < samples, Date() < deadline { usleep(20_000) }
        let stop = Date()
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let took = Date().timeIntervalSince(stop)
        XCTAssertEqual(process.terminationStatus, 0)
        let lines = SamplerLog.messages(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        return (lines, took)
    }

    func testAWriterPastTheDeadlineIsKilledAndTheDropIsSaidInOneLine() throws {
        let (lines, took) = try runCopyOfSampler(writer: "cat > /dev/null; exec sleep 30")
        XCTAssertEqual(lines.count, 1, "\(lines)")
        XCTAssertTrue(lines.first?.hasPrefix("sysstatsd: the history writer did not finish within 2000 ms: dropped 1 minute row(s) and 0 exit(s), and the boot is not marked clean") ?? false, "\(lines)")
        XCTAssertGreaterThanOrEqual(took, 1.9)
        XCTAssertLessThan(took, 5)
    }

    func testAFailingWriterIsReportedOnceWithItsStatus() throws {
        let (lines, _) = try runCopyOfSampler(writer: "cat > /dev/null; exit 3")
        XCTAssertEqual(lines, ["sysstatsd: the history writer failed (exit status 3); its rows are lost",
                               "sysstatsd: the history writer failed (exit status 3): dropped 1 minute row(s) and 0 exit(s), and the boot is not marked clean"])
    }

    func testTheWriterRefusesGarbageWithOneLineAndStatus1() throws {
        let garbage = directory.url.appendingPathComponent("garbage")
        try Data("not a batch at all".utf8).write(to: garbage)
        let result = try Programs.run("/bin/sh", ["-c", "exec \"$0\" --data-dir \"$1\" < \"$2\"",
                                                  try Programs.path("sysstatsd-history"), data.path, garbage.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "sysstatsd-history: not a history batch (bad magic)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: databasePath), "nothing written for a refused batch")
    }

    /// The writer's own peak RSS for one batch of a day's minutes and 1,000 exits (for docs/performance.md).
    func testTheWriterStoresABigBatchAndReportsItsPeakRSS() throws {
        let batch = HistoryBatch(
            bootID: "boot-x", bootTime: 1, uptimeSeconds: 2, nowSeconds: 1_763_712_000,
            samples: (0..<1440).map { MinuteSample(minute: 1_763_625_600 + UInt64($0) * 60, cpuAverage: 1, cpuMaximum: 2,
                                                   memoryUsedKiB: 3, memoryAvailableKiB: 4, swapUsedKiB: 5, load1: 6, processCount: 7) },
            exits: (0..<1000).map { ExitRecord(timeMs: 1_763_700_000_000 + UInt64($0), pid: UInt32($0), name: Array("proc-\($0)".utf8), lastPrivateKiB: 1, freedKiB: 2) },
            endsCleanly: true)
        let file = directory.url.appendingPathComponent("batch")
        try Data(batch.encoded).write(to: file)
        let result = try Programs.run("/bin/sh", ["-c", "exec /usr/bin/time -f 'maxrss %M' \"$0\" --data-dir \"$1\" < \"$2\"",
                                                  try Programs.path("sysstatsd-history"), data.path, file.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        if let line = result.stderr.split(separator: "\n").last(where: { $0.hasPrefix("maxrss ") }) {
            print("sysstatsd-history peak RSS for 1440 minutes + 1000 exits on a new database: \(line.dropFirst(7)) KiB")
        }
        let database = try HistoryDatabase(path: databasePath, readOnly: true)
        XCTAssertEqual(try database.samples(from: 0, to: .max).count, 1440)
        XCTAssertEqual(try database.exits(sinceMs: 0).count, 1000)
        XCTAssertEqual(try database.boots().map(\.cleanEnd), [true])
    }

    func testTheWriterOnAFullDiskExits75QuietlyWhenAskedAndCreatesTheDatabaseOnceThereIsRoom() throws {
        let disk: SmallFileSystem
        do { disk = try SmallFileSystem(kilobytes: 1024) } catch let error as SmallFileSystem.Unavailable {
            throw XCTSkip("\(error)")
        }
        let batch = HistoryBatch(bootID: "boot-x", bootTime: 1, uptimeSeconds: 2, nowSeconds: 1_763_712_000,
                                 samples: [], exits: [], endsCleanly: false)
        let file = directory.url.appendingPathComponent("batch")
        try Data(batch.encoded).write(to: file)
        let data = disk.file("data")
        func runWriter(_ flags: [String]) throws -> Programs.Output {
            try Programs.run("/bin/sh", ["-c", "exec \"$0\" --data-dir \"$1\" $2 < \"$3\"",
                                         try Programs.path("sysstatsd-history"), data, flags.joined(separator: " "), file.path])
        }
        disk.fill()
        let quiet = try runWriter(["--quiet-when-full"])
        XCTAssertEqual(quiet.status, 75)
        XCTAssertEqual(quiet.stderr, "", "the sampler says it once itself")
        let told = try runWriter([])
        XCTAssertEqual(told.status, 75)
        XCTAssertTrue(told.stderr.hasPrefix("sysstatsd-history: no space left for history: "), told.stderr)
        XCTAssertEqual(told.stderr.filter { $0 == "\n" }.count, 1, told.stderr)

        disk.free()
        let stored = try runWriter(["--quiet-when-full"])
        XCTAssertEqual(stored.status, 0, stored.stderr)
        let database = try HistoryDatabase(path: HistoryDatabase.databasePath(in: data), readOnly: true)
        XCTAssertEqual(try database.boots().map(\.id), ["boot-x"])
    }

    func testTheWriterWritesTheBookmarksRulesCacheWhenMissingAndLeavesAPresentOneAlone() throws {
        let batch = HistoryBatch(bootID: "boot-x", bootTime: 1, uptimeSeconds: 2, nowSeconds: 1_763_712_000,
                                 samples: [], exits: [], endsCleanly: false)
        let file = directory.url.appendingPathComponent("batch")
        try Data(batch.encoded).write(to: file)
        func runWriter() throws {
            let result = try Programs.run("/bin/sh", ["-c", "exec \"$0\" --data-dir \"$1\" < \"$2\"",
                                                      try Programs.path("sysstatsd-history"), data.path, file.path])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stderr, "")
        }
        let cache = data.appendingPathComponent(HistoryDatabase.rulesCacheFileName)
        try runWriter()
        let written = try BookmarkFile.parse([UInt8](Data(contentsOf: cache)))
        XCTAssertEqual(written.rules, BuiltinBookmarks.rules, "a new database: the built-in rules, with source=builtin")
        let attributes = try FileManager.default.attributesOfItem(atPath: cache.path)
        XCTAssertEqual(attributes[.posixPermissions] as? Int, 0o600)

        // Present and in line with the table: the writer leaves it alone (no write a minute).
        let marker = Data("sysstats-bookmarks 1\n# left alone\n".utf8)
        try marker.write(to: cache)
        try runWriter()
        XCTAssertEqual(try Data(contentsOf: cache), marker)

        try FileManager.default.removeItem(at: cache)
        try runWriter()
        XCTAssertEqual(try BookmarkFile.parse([UInt8](Data(contentsOf: cache))).rules, BuiltinBookmarks.rules)
    }
}
