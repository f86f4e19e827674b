import ArgumentParser
import Foundation
import HistoryStore
import SnapshotCodec
@testable import SysstatsCLI
import XCTest

/// `sysstats exited` and `top --exited` with the snapshot's exits (issue 58): the bar showed
/// `exited python3 freed 396M` at once, `exited` two seconds later did not list it, because
/// history gets an exit with its minute's row.
final class RecentExitsTests: XCTestCase {
    static let nowMs = HistoryFixture.now * 1000
    static let header = "time                     pid  freed MiB  last MiB  name"
    static let makeLine = "2023-11-14 23:00:00     4242        6.0       8.0  make"
    static let hostileLine = #"2023-11-14 23:01:00        7        0.5       1.0  \x1b[2Jev\nil\xff\u{202e}\u{9b}\\é"#
    static let python = ExitEntry(pid: 9001, timeMs: nowMs - 2000, lastPrivateKiB: 409_600, freedKiB: 405_504,
                                  name: Array("python3".utf8))
    static let pythonLine = "2023-11-14 23:59:58     9001      396.0     400.0  python3"

    /// A fresh snapshot holding `exits` beside the fixture's data directory (a folder of ours,
    /// mode 0700, as the runtime directory must be); its path.
    func writeSnapshot(_ exits: [ExitEntry], in f: HistoryFixture) throws -> String {
        var s = Samples.laptop
        s.timestampMs = Self.nowMs - 500
        s.exits = exits
        try f.directory.write(s)
        return f.directory.file("snapshot")
    }

    func testAnExitOnlyTheSnapshotHasIsListedAtOnceNewestFirstWithTheNameTheBarShows() throws {
        let f = try HistoryFixture()
        let recent = RecentExits.read(snapshotPath: try writeSnapshot([Self.python], in: f), nowMs: Self.nowMs)
        XCTAssertEqual(recent, [Self.python])
        let out = HistoryCommands.exited(directory: f.dataDirectory, sinceSeconds: 3 * 3600, json: false, newestFirst: true,
                                         recent: recent, nowSeconds: HistoryFixture.now, zone: .utc)
        XCTAssertEqual(out, CommandOutput(stdout: [Self.header, Self.pythonLine, Self.hostileLine, Self.makeLine]))
        let json = HistoryCommands.exited(directory: f.dataDirectory, sinceSeconds: 3 * 3600, json: true, newestFirst: true,
                                          recent: recent, nowSeconds: HistoryFixture.now, zone: .utc)
        XCTAssertEqual(json.stdout.count, 1)
        XCTAssertTrue(json.stdout.first?.hasPrefix(
            #"[{"freed_mib":396,"friendly_name":null,"last_private_mib":400,"name":"python3","name_hex":"707974686f6e33","pid":9001,"time_ms":1700006398000},"#
        ) ?? false, "\(json.stdout)")
    }

    /// Once its minute is written an exit is in both: listed once, as history has it (the
    /// process's own name with the friendly one), whichever name the snapshot showed, a
    /// hostile one the sampler sanitized included.
    func testAnExitInBothTheSnapshotAndHistoryIsListedOnceAsHistoryHasIt() throws {
        let f = try HistoryFixture()
        let database = try HistoryDatabase(path: f.databasePath)
        try database.append(exits: [ExitRecord(timeMs: Self.nowMs - 3000, pid: 4300, name: Array("firefox-esr".utf8),
                                               friendlyName: "My Browser", lastPrivateKiB: 204_800, freedKiB: 204_800)])
        database.close()
        var hostile: [UInt8] = []
        NameSanitizer.sanitize([0x1B, 0x5B, 0x32, 0x4A, 0x65, 0x76, 0x0A, 0x69, 0x6C, 0xFF, 0xE2, 0x80, 0xAE, 0xC2, 0x9B,
                                0x5C, 0xC3, 0xA9] as [UInt8], into: &hostile)
        let recent = [
            ExitEntry(pid: 4300, timeMs: Self.nowMs - 3000, lastPrivateKiB: 204_800, freedKiB: 204_800,
                      name: Array("My Browser".utf8)),
            ExitEntry(pid: 7, timeMs: (HistoryFixture.base + 3660) * 1000, lastPrivateKiB: 1024, freedKiB: 512, name: hostile),
            ExitEntry(pid: 4242, timeMs: (HistoryFixture.base + 3600) * 1000 + 250, lastPrivateKiB: 8192, freedKiB: 6144,
                      name: Array("make".utf8)),
        ]
        let out = HistoryCommands.exited(directory: f.dataDirectory, sinceSeconds: 3 * 3600, json: false, newestFirst: true,
                                         recent: recent, nowSeconds: HistoryFixture.now, zone: .utc)
        XCTAssertEqual(out, CommandOutput(stdout: [
            Self.header, "2023-11-14 23:59:57     4300      200.0     200.0  firefox-esr (My Browser)", Self.hostileLine, Self.makeLine,
        ]))
    }

    /// History stores the snapshot's time as it is, in milliseconds both: the same exit has
    /// the same pid and millisecond, and the snapshot's name is one of history's two.
    func testOnlyTheSamePidMillisecondAndNameAreTheSameExit() {
        let record = ExitRecord(timeMs: 1_700_006_398_123, pid: 5, name: Array("firefox-esr".utf8), friendlyName: "My Browser",
                                lastPrivateKiB: 1, freedKiB: 1)
        func entry(_ pid: UInt32, _ timeMs: UInt64, _ name: String) -> ExitEntry {
            ExitEntry(pid: pid, timeMs: timeMs, lastPrivateKiB: 1, freedKiB: 1, name: Array(name.utf8))
        }
        XCTAssertTrue(RecentExits.isSameExit(record, entry(5, 1_700_006_398_123, "My Browser")), "the friendly name the bar shows")
        XCTAssertTrue(RecentExits.isSameExit(record, entry(5, 1_700_006_398_123, "firefox-esr")), "the process's own name")
        XCTAssertFalse(RecentExits.isSameExit(record, entry(6, 1_700_006_398_123, "My Browser")), "another pid")
        XCTAssertFalse(RecentExits.isSameExit(record, entry(5, 1_700_006_398_000, "My Browser")), "another millisecond")
        XCTAssertFalse(RecentExits.isSameExit(record, entry(5, 1_700_006_398_123, "bash")), "another name")
        let noFriend = ExitRecord(timeMs: 10, pid: 5, name: Array("make".utf8), lastPrivateKiB: 1, freedKiB: 1)
        XCTAssertTrue(RecentExits.isSameExit(noFriend, entry(5, 10, "make")))
        XCTAssertFalse(RecentExits.isSameExit(noFriend, entry(5, 10, "?")), "no friendly name to match")
    }

    /// Oldest first, as the database gives them: the snapshot's take their place in time; on
    /// equal times history's come first, then the snapshot's in its own order (the order the
    /// history writer stores them in). `sinceMs` leaves out the older ones.
    func testTheSnapshotsExitsTakeTheirPlaceInTimeAfterHistorysOnEqualTimes() {
        func record(_ pid: UInt32, _ timeMs: UInt64) -> ExitRecord {
            ExitRecord(timeMs: timeMs, pid: pid, name: Array("history".utf8), lastPrivateKiB: 1, freedKiB: 1)
        }
        func entry(_ pid: UInt32, _ timeMs: UInt64) -> ExitEntry {
            ExitEntry(pid: pid, timeMs: timeMs, lastPrivateKiB: 1, freedKiB: 1, name: Array("snapshot".utf8))
        }
        let history = [record(1, 10), record(2, 20)]
        let recent = [entry(5, 20), entry(6, 20), entry(4, 15), entry(3, 5)]   // most recent first, as the snapshot holds them
        XCTAssertEqual(RecentExits.merged(history: history, recent: recent, sinceMs: 0).map(\.pid), [3, 1, 4, 2, 5, 6])
        XCTAssertEqual(RecentExits.merged(history: history, recent: recent, sinceMs: 10).map(\.pid), [1, 4, 2, 5, 6])
        XCTAssertEqual(RecentExits.merged(history: history, recent: [], sinceMs: 0), history)
        XCTAssertEqual(RecentExits.merged(history: [], recent: recent, sinceMs: 0).map(\.pid), [3, 4, 5, 6])
    }

    func testSinceAndCountApplyToTheSnapshotsExitsAsToHistorys() throws {
        let f = try HistoryFixture()
        let old = ExitEntry(pid: 8000, timeMs: (HistoryFixture.now - 7000) * 1000, lastPrivateKiB: 2048, freedKiB: 0,
                            name: Array("old".utf8))
        let recent = RecentExits.read(snapshotPath: try writeSnapshot([Self.python, old], in: f), nowMs: Self.nowMs)
        let since = HistoryCommands.exited(directory: f.dataDirectory, sinceSeconds: 3600 - 30, json: false,
                                           recent: recent, nowSeconds: HistoryFixture.now, zone: .utc)
        XCTAssertEqual(since.stdout, [Self.header, Self.hostileLine, Self.pythonLine], "oldest first (--oldest-first)")
        let top = HistoryCommands.exited(directory: f.dataDirectory, sinceSeconds: 86_400, json: false, newestFirst: true,
                                         limit: 1, recent: recent, nowSeconds: HistoryFixture.now, zone: .utc)
        XCTAssertEqual(top.stdout, [Self.header, Self.pythonLine], "top --exited --count 1")
    }

    /// Without a fresh snapshot the list is history's alone, and nothing is said: a stale
    /// snapshot's sampler is gone (a clean stop wrote its exits to history).
    func testTheSnapshotGivesNoExitsWhenMissingStaleCorruptOrWithoutItsExitsPart() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("snapshot")
        XCTAssertEqual(RecentExits.read(snapshotPath: path, nowMs: Samples.timestampMs), [], "missing")
        XCTAssertEqual(RecentExits.read(snapshotPath: dir.file("none/snapshot"), nowMs: Samples.timestampMs), [],
                       "no runtime directory")
        try dir.write(Samples.laptop)
        XCTAssertEqual(RecentExits.read(snapshotPath: path, nowMs: Samples.timestampMs + 1500), Samples.laptop.exits, "fresh")
        XCTAssertEqual(RecentExits.read(snapshotPath: path, nowMs: Samples.timestampMs + 5001), [], "stale")
        var without = Samples.laptop
        without.available.remove(.exits)
        try dir.write(without)
        XCTAssertEqual(RecentExits.read(snapshotPath: path, nowMs: Samples.timestampMs + 1500), [], "no exits part")
        try dir.write(Array("hello, this is not a snapshot at all, just text".utf8), to: "snapshot")
        XCTAssertEqual(RecentExits.read(snapshotPath: path, nowMs: Samples.timestampMs + 1500), [], "corrupt")
    }

    /// A snapshot another user could have planted lists nothing, and a FIFO in its place
    /// does not block: the snapshot is read as `report` reads it.
    func testASnapshotOthersCouldPlantOrAFIFOGivesNoExits() throws {
        let planted = try TemporaryDirectory()
        try planted.write(Samples.laptop)
        XCTAssertEqual(chmod(planted.path, 0o777), 0)
        XCTAssertEqual(RecentExits.read(snapshotPath: planted.file("snapshot"), nowMs: Samples.timestampMs + 1500), [])
        let fifo = try TemporaryDirectory()
        XCTAssertEqual(mkfifo(fifo.file("snapshot"), 0o600), 0)
        XCTAssertEqual(RecentExits.read(snapshotPath: fifo.file("snapshot"), nowMs: Samples.timestampMs + 1500), [])
    }

    func testExitedAndTopExitedTakeTheRuntimeDirectoryWhichTopAloneRefuses() throws {
        XCTAssertEqual(try ExitedCommand.parse(["--runtime-dir", "/r"]).runtime.runtimeDirectory, "/r")
        XCTAssertEqual(try TopCommand.parse(["--exited", "--runtime-dir", "/r"]).runtime.runtimeDirectory, "/r")
        XCTAssertThrowsError(try TopCommand.parse(["--runtime-dir", "/r"])) { error in
            XCTAssertEqual(TopCommand.message(for: error),
                           "--runtime-dir applies only with --exited (running processes are read from /proc)")
        }
    }
}
