import CommandOptions
import Foundation
import XCTest

/// What a running sampler or bar makes of the file it was started from (issue 58): the same
/// file, a new one renamed over it (an upgrade), nothing (a purge), and the seconds of a
/// reinstall in between, from looks made up here and from a copy of /bin/true.
final class ProgramFileTests: XCTestCase {
    let running = ProgramFile.Identity(device: 2049, inode: 1000)
    let other = ProgramFile.Identity(device: 2049, inode: 2000)
    /// 10 s into a minute of the wall clock.
    let t0: UInt64 = 1_800_000_000_000 + 10_000

    func watch(at now: UInt64? = nil) -> ProgramFile {
        ProgramFile(path: Array("/usr/bin/sysstatsd".utf8), running: running, nowMs: now ?? t0)
    }

    func testTheLookIsDueAtEachMinutesTurnOfTheWallClockNotAMinuteAfterStart() throws {
        var w = watch()
        XCTAssertFalse(w.isDue(nowMs: t0 + 49_999), "still the minute it started in")
        XCTAssertTrue(w.isDue(nowMs: t0 + 50_000), "the minute's turn")
        XCTAssertEqual(w.take(.file(running, changedMs: 0, runnable: true), nowMs: t0 + 50_000), .unchanged)
        // take() is the verdict alone; look() also marks the period looked at (here at a real
        // file that is its own program, so that the look settles nothing).
        let real = try XCTUnwrap(try? identity("/bin/true"))
        var looked = ProgramFile(path: Array("/bin/true".utf8), running: real, nowMs: t0)
        XCTAssertEqual(looked.look(nowMs: t0 + 50_000), .unchanged)
        XCTAssertFalse(looked.isDue(nowMs: t0 + 60_000))
        XCTAssertTrue(looked.isDue(nowMs: t0 + 110_000))
    }

    func testTheRunningFileStillAtItsPathIsUnchanged() {
        var w = watch()
        XCTAssertEqual(w.take(.file(running, changedMs: t0, runnable: true), nowMs: t0), .unchanged)
        XCTAssertFalse(w.isSettling)
    }

    func testANewFileRenamedInLongBeforeTheLookIsReplacedAtOnce() {
        var w = watch()
        XCTAssertEqual(w.take(.file(other, changedMs: t0 - 40_000, runnable: true), nowMs: t0), .replaced)
    }

    func testANewFileChangedMomentsAgoSettlesFirstAndIsLookedAtAtEveryChance() {
        var w = watch()
        let fresh = ProgramFile.Found.file(other, changedMs: t0 - 1_000, runnable: true)
        XCTAssertEqual(w.take(fresh, nowMs: t0), .settling)
        XCTAssertTrue(w.isSettling, "the sampler holds the minute's history meanwhile")
        XCTAssertTrue(w.isDue(nowMs: t0 + 1), "looked at again at the next sample, not the next minute")
        XCTAssertEqual(w.take(fresh, nowMs: t0 + 3_000), .settling)
        XCTAssertEqual(w.take(fresh, nowMs: t0 + 4_000), .replaced, "its change time is 5 s old")
        XCTAssertFalse(w.isSettling)
    }

    func testAFileStillBeingWrittenIsNotTakenUntilItsChangeTimeStopsMoving() {
        var w = watch()
        var now = t0
        for _ in 0..<8 {
            XCTAssertEqual(w.take(.file(other, changedMs: now - 100, runnable: true), nowMs: now), .settling)
            now += 1_000
        }
        let done = ProgramFile.Found.file(other, changedMs: now - 100, runnable: true)
        XCTAssertEqual(w.take(done, nowMs: now), .settling)
        XCTAssertEqual(w.take(done, nowMs: now + 4_000), .settling)
        XCTAssertEqual(w.take(done, nowMs: now + 4_900), .replaced)
    }

    func testAChangeTimeInTheFutureIsTakenOnceTwoLooksFiveSecondsApartAgree() {
        // The clock was set back after the file was written.
        var w = watch()
        let future = ProgramFile.Found.file(other, changedMs: t0 + 3_600_000, runnable: true)
        XCTAssertEqual(w.take(future, nowMs: t0), .settling)
        XCTAssertEqual(w.take(future, nowMs: t0 + 4_999), .settling)
        XCTAssertEqual(w.take(future, nowMs: t0 + 5_000), .replaced)
    }

    func testAChangeThatNeverSettlesIsTakenAfterAMinuteSoHistoryIsNotHeldForLong() {
        var w = watch()
        var now = t0, verdict = ProgramFile.Verdict.settling
        while verdict == .settling && now < t0 + 120_000 {
            verdict = w.take(.file(other, changedMs: now, runnable: true), nowMs: now)
            now += 1_000
        }
        XCTAssertEqual(verdict, .replaced)
        XCTAssertEqual(now - 1_000, t0 + ProgramFile.longestSettleMs)
    }

    func testNothingAtThePathIsARemovalOnlyWhenLooksFiveSecondsApartFoundNothing() {
        var w = watch()
        XCTAssertEqual(w.take(.nothing, nowMs: t0), .settling)
        XCTAssertEqual(w.take(.nothing, nowMs: t0 + 1_000), .settling)
        XCTAssertEqual(w.take(.nothing, nowMs: t0 + 5_000), .removed)
        XCTAssertFalse(w.isDue(nowMs: t0 + 5_001), "then only at the next minute's turn")
        XCTAssertEqual(w.take(.nothing, nowMs: t0 + 60_000), .unchanged, "said once, not each minute")
        XCTAssertFalse(w.isSettling)
    }

    func testAReinstallBetweenTwoLooksIsAReplacementNeverARemoval() {
        // install.sh removes the programs, then copies them anew.
        var w = watch()
        XCTAssertEqual(w.take(.nothing, nowMs: t0), .settling)
        let copied = ProgramFile.Found.file(other, changedMs: t0 + 900, runnable: true)
        XCTAssertEqual(w.take(copied, nowMs: t0 + 1_000), .settling)
        XCTAssertEqual(w.take(copied, nowMs: t0 + 5_500), .settling, "the copy changed 4.6 s ago")
        XCTAssertEqual(w.take(copied, nowMs: t0 + 5_900), .replaced)
    }

    func testAProgramRemovedThenInstalledAgainIsFollowedToTheNewFile() {
        var w = watch()
        _ = w.take(.nothing, nowMs: t0)
        XCTAssertEqual(w.take(.nothing, nowMs: t0 + 5_000), .removed)
        XCTAssertEqual(w.take(.file(other, changedMs: t0 + 100_000, runnable: true), nowMs: t0 + 120_000), .replaced)
    }

    func testSomethingThatCannotRunInPlaceOfTheProgramIsARemoval() {
        var w = watch()
        let text = ProgramFile.Found.file(other, changedMs: t0 - 60_000, runnable: false)
        XCTAssertEqual(w.take(text, nowMs: t0), .removed)
        XCTAssertEqual(w.take(text, nowMs: t0 + 60_000), .unchanged, "said once")
    }

    func testALookThatCannotTellDecidesNothingAndEndsASettlingChange() {
        var w = watch()
        XCTAssertEqual(w.take(.unknown, nowMs: t0), .unchanged)
        XCTAssertEqual(w.take(.nothing, nowMs: t0 + 60_000), .settling)
        XCTAssertEqual(w.take(.unknown, nowMs: t0 + 61_000), .unchanged)
        XCTAssertFalse(w.isSettling)
    }

    func testAClockSetBackWhileAChangeSettlesStartsTheWaitAgainFromNow() {
        var w = watch()
        XCTAssertEqual(w.take(.nothing, nowMs: t0), .settling)
        XCTAssertEqual(w.take(.nothing, nowMs: t0 - 3_600_000), .settling)
        XCTAssertEqual(w.take(.nothing, nowMs: t0 - 3_596_000), .settling, "4 s after the clock's new now")
        XCTAssertEqual(w.take(.nothing, nowMs: t0 - 3_595_000), .removed)
    }

    // MARK: - Real files

    func identity(_ path: String) throws -> ProgramFile.Identity {
        var info = stat()
        XCTAssertEqual(stat(path, &info), 0, path)
        return ProgramFile.Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    func cString(_ path: String) -> [CChar] { path.utf8.map { CChar(bitPattern: $0) } + [0] }

    func testACopyOfAProgramIsFoundTheSameThenReplacedThenGoneThenNotRunnable() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sysstats-program-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let program = folder.appendingPathComponent("prog").path
        try FileManager.default.copyItem(atPath: "/bin/true", toPath: program)
        let started = try identity(program)
        // Held open as a running program's file is: its inode cannot be reused by the files
        // written at the path below (tmpfs hands a freed inode number out again).
        let hold = open(program, O_RDONLY)
        defer { close(hold) }
        guard case .file(let same, _, let runnable) = ProgramFile.find(cString(program), running: started) else {
            return XCTFail("the copy is a file")
        }
        XCTAssertEqual(same, started)
        XCTAssertTrue(runnable)

        // As dpkg does: written beside, renamed over (a new inode).
        try FileManager.default.copyItem(atPath: "/bin/true", toPath: program + ".new")
        XCTAssertEqual(rename(program + ".new", program), 0)
        let found = ProgramFile.find(cString(program), running: started)
        guard case .file(let new, let changedMs, let newRunnable) = found else { return XCTFail("\(found)") }
        XCTAssertNotEqual(new, started)
        XCTAssertTrue(newRunnable)
        let now = UInt64(Date().timeIntervalSince1970 * 1000)
        XCTAssertLessThanOrEqual(changedMs, now + 1_000, "the change time is the rename's")
        XCTAssertGreaterThan(changedMs + 60_000, now)
        var w = ProgramFile(path: Array(program.utf8), running: started, nowMs: now)
        XCTAssertEqual(w.take(found, nowMs: now), .settling, "just renamed in")
        XCTAssertEqual(w.take(found, nowMs: max(now, changedMs) + ProgramFile.defaultSettleMs), .replaced)

        XCTAssertEqual(ProgramFile.find(cString(program + "/below"), running: started), .nothing, "ENOTDIR")
        XCTAssertEqual(unlink(program), 0)
        XCTAssertEqual(ProgramFile.find(cString(program), running: started), .nothing)

        try Data("#!/bin/sh\n".utf8).write(to: URL(fileURLWithPath: program))
        guard case .file(_, _, let textRunnable) = ProgramFile.find(cString(program), running: started) else {
            return XCTFail("a text file")
        }
        XCTAssertFalse(textRunnable, "mode 0644")
        XCTAssertEqual(unlink(program), 0)
        XCTAssertEqual(mkdir(program, 0o755), 0)
        guard case .file(_, _, let folderRunnable) = ProgramFile.find(cString(program), running: started) else {
            return XCTFail("a folder")
        }
        XCTAssertFalse(folderRunnable, "a folder is searchable, not runnable")
    }

    func testThisProcesssOwnProgramIsFoundUnchangedAtItsPath() throws {
        let now = UInt64(Date().timeIntervalSince1970 * 1000)
        var w = try XCTUnwrap(ProgramFile.current(nowMs: now))
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        XCTAssertEqual(w.path, Array(link.utf8))
        XCTAssertEqual(w.running, try identity(link))
        XCTAssertEqual(w.cPath, cString(link))
        XCTAssertEqual(w.look(nowMs: now), .unchanged)
    }

    func testTheTestsPeriodComesFromTheEnvironmentAndTheMinuteOtherwise() {
        let name = "SYSSTATS_PROGRAM_CHECK_MS"
        defer { unsetenv(name) }
        unsetenv(name)
        XCTAssertEqual(ProgramFile.periodFromEnvironment(), 60_000)
        for (value, period) in [("500", 500), ("20", 100), ("", 60_000), ("5s", 60_000), ("99999999999", 60_000)] as [(String, UInt64)] {
            setenv(name, value, 1)
            XCTAssertEqual(ProgramFile.periodFromEnvironment(), period, value)
        }
    }
}
