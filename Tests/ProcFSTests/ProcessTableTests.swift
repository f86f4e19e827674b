import Foundation
import XCTest
import TestSupport
@testable import ProcFS

final class ProcessTableTests: XCTestCase {
    private let buffer = ReadBuffer(capacity: 256)

    private func scanned(_ fixture: String) -> ProcessTable {
        let table = ProcessTable(procRoot: Fixtures.path(fixture), pageSizeKiB: 4)
        table.scan(buffer)
        return table
    }

    private func process(_ pid: Int32, in list: [ProcessSample]) -> ProcessSample? {
        list.first { $0.pid == pid }
    }

    // MARK: stat parsing

    func testNameIsReadUpToTheLastClosingParenthesis() throws {
        let table = scanned("procs-basic/proc")
        XCTAssertEqual(try XCTUnwrap(process(1200, in: table.processes)).comm.text, "(sd-pam)")
        XCTAssertEqual(try XCTUnwrap(process(1300, in: table.processes)).comm.text, "a) b (c")
        XCTAssertEqual(try XCTUnwrap(process(1310, in: table.processes)).comm.text, "two\nlines)")
    }

    func testFieldsAfterANameWithParenthesesAreCountedFromTheLastOne() throws {
        let p = try XCTUnwrap(process(1300, in: scanned("procs-basic/proc").processes))
        XCTAssertEqual(p.state, UInt8(ascii: "R"))
        XCTAssertEqual(p.cpuTicks, 8)  // utime 7 + stime 1
        XCTAssertEqual(p.startTime, 2100)
        XCTAssertEqual(p.residentKiB, 400)  // 100 pages
        XCTAssertEqual(p.privateKiB, 240)  // (100 − 40) pages
    }

    func testCpuTicksAreUtimePlusStimeAndPrivateMemoryIsResidentMinusShared() throws {
        let p = try XCTUnwrap(process(1, in: scanned("procs-basic/proc").processes))
        XCTAssertEqual(p.cpuTicks, 150)
        XCTAssertEqual(p.startTime, 5)
        XCTAssertEqual(p.residentKiB, 12_000)  // 3000 pages of 4 KiB
        XCTAssertEqual(p.privateKiB, 4_000)  // (3000 − 2000) pages
        XCTAssertFalse(p.isKernelThread)
    }

    func testStatParserRejectsEmptyUnclosedAndShortLines() {
        for text in ["", "12 (x", "12 x) S", "12 (x) S 1 2 3"] {
            var bytes = Array(text.utf8)
            bytes.withUnsafeMutableBytes { XCTAssertNil(ProcessStat(parsing: UnsafeRawBufferPointer($0)), text) }
        }
    }

    // MARK: kernel threads, zombies, skipped entries

    func testKernelThreadIsFlaggedHasNoCommandLineAndItsStatmIsNotRead() throws {
        // The fixture has no 2/statm: reading it would have skipped the process.
        let p = try XCTUnwrap(process(2, in: scanned("procs-basic/proc").processes))
        XCTAssertTrue(p.isKernelThread)
        XCTAssertEqual(p.residentKiB, 0)
        XCTAssertEqual(p.privateKiB, 0)
        XCTAssertEqual(p.commandLine, [])
        XCTAssertEqual(p.exeName, [])
        XCTAssertEqual(p.name.text, "kthreadd")
    }

    func testZombieWithoutMemoryIsNotAKernelThread() throws {
        let p = try XCTUnwrap(process(1800, in: scanned("procs-basic/proc").processes))
        XCTAssertEqual(p.state, UInt8(ascii: "Z"))
        XCTAssertFalse(p.isKernelThread)
        XCTAssertEqual(p.commandLine, [])
    }

    func testProcessWhoseStatIsMissingEmptyOrUnreadableIsSkippedAndCounted() {
        let table = scanned("procs-basic/proc")
        // 1700: no stat (vanished); 1701: empty stat; 1703: stat cannot be read as a file.
        XCTAssertEqual(table.skippedCount, 3)
        for pid: Int32 in [1700, 1701, 1703] { XCTAssertNil(process(pid, in: table.processes)) }
    }

    func testOnlyNumericDirectoriesAreProcesses() {
        // "self", "meminfo" and "1a" are neither processes nor skipped.
        let pids = scanned("procs-basic/proc").processes.map(\.pid).sorted()
        XCTAssertEqual(pids, [1, 2, 1200, 1300, 1310, 1400, 1500, 1600, 1650, 1800])
    }

    func testRunningCountCountsStateR() {
        XCTAssertEqual(scanned("procs-basic/proc").runningCount, 2)
    }

    func testMissingProcRootScansNothingWithoutFailing() {
        let table = scanned("no-such-fixture/proc")
        XCTAssertEqual(table.processes, [])
        XCTAssertEqual(table.skippedCount, 0)
    }

    // MARK: names

    func testTruncatedCommIsCompletedFromTheExecutableBasename() throws {
        let p = try XCTUnwrap(process(1400, in: scanned("procs-basic/proc").processes))
        XCTAssertEqual(p.comm.text, "gnome-shell-cal")
        XCTAssertEqual(p.exeName.text, "gnome-shell-calendar-server")
        XCTAssertEqual(p.name.text, "gnome-shell-calendar-server")
    }

    func testTruncatedCommThatIsNoPrefixOfTheExecutableStaysAsIs() throws {
        let p = try XCTUnwrap(process(1500, in: scanned("procs-basic/proc").processes))
        XCTAssertEqual(p.exeName.text, "firefox-esr")
        XCTAssertEqual(p.name.text, "Isolated Web Co")
    }

    func testTruncatedCommIsCompletedFromArgv0WhenTheExecutableIsUnreadable() throws {
        let p = try XCTUnwrap(process(1600, in: scanned("procs-basic/proc").processes))
        XCTAssertEqual(p.exeName, [])
        XCTAssertEqual(p.name.text, "very-long-daemon-name")
    }

    func testDeletedSuffixIsDroppedFromTheExecutableName() throws {
        let p = try XCTUnwrap(process(1650, in: scanned("procs-basic/proc").processes))
        XCTAssertEqual(p.exeName.text, "update-notifier-gtk3")
        XCTAssertEqual(p.name.text, "update-notifier-gtk3")
    }

    func testShortCommIsTheNameEvenWhenTheExecutableDiffers() throws {
        let p = try XCTUnwrap(process(1, in: scanned("procs-basic/proc").processes))
        XCTAssertEqual(p.exeName.text, "systemd")
        XCTAssertEqual(p.name.text, "systemd")
    }

    func testCommandLineNulsBecomeSpacesAndTrailingNulsAreDropped() throws {
        let table = scanned("procs-basic/proc")
        XCTAssertEqual(try XCTUnwrap(process(1, in: table.processes)).commandLine.text, "/sbin/init splash")
        XCTAssertEqual(try XCTUnwrap(process(1200, in: table.processes)).commandLine.text, "(sd-pam)")
        XCTAssertEqual(try XCTUnwrap(process(1500, in: table.processes)).commandLine.text,
                       "/usr/lib/firefox-esr/firefox-esr -contentproc -childID 1 tab")
    }

    // MARK: two scans

    func testFirstScanHasNoDeltasAndNoExits() {
        let table = scanned("procs-basic/proc")
        XCTAssertEqual(table.exited, [])
        XCTAssertTrue(table.processes.allSatisfy { $0.cpuDelta == 0 })
    }

    func testRescanOfUnchangedTreeKeepsEveryProcessAndItsNames() {
        let table = scanned("procs-basic/proc")
        let first = table.processes
        table.scan(buffer)
        XCTAssertEqual(table.exited, [])
        XCTAssertEqual(table.skippedCount, 3)
        XCTAssertEqual(table.processes.sorted { $0.pid < $1.pid }, first.sorted { $0.pid < $1.pid })
    }

    private func scannedTwice() throws -> (ProcessTable, LiveTree) {
        let tree = try LiveTree()
        let table = ProcessTable(procRoot: tree.path, pageSizeKiB: 4)
        try tree.mirror("procs-exit/scan1/proc")
        table.scan(buffer)
        XCTAssertEqual(table.processes.count, 3)
        try tree.mirror("procs-exit/scan2/proc")
        table.scan(buffer)
        return (table, tree)
    }

    func testCpuDeltaIsTicksSinceThePreviousScanAndZeroForANewProcess() throws {
        let (table, _) = try scannedTwice()
        XCTAssertEqual(try XCTUnwrap(process(10, in: table.processes)).cpuDelta, 45)  // 165 − 120
        XCTAssertEqual(try XCTUnwrap(process(40, in: table.processes)).cpuDelta, 0)
        XCTAssertEqual(try XCTUnwrap(process(10, in: table.processes)).privateKiB, 4_000)
        XCTAssertEqual(table.runningCount, 1)
    }

    func testProcessGoneInTheSecondScanIsExitedWithItsLastValues() throws {
        let (table, _) = try scannedTwice()
        XCTAssertNil(process(20, in: table.processes))
        let gone = try XCTUnwrap(process(20, in: table.exited))
        XCTAssertEqual(gone.name.text, "leaver")
        XCTAssertEqual(gone.privateKiB, 6_000)  // (2000 − 500) pages
        XCTAssertEqual(gone.cpuTicks, 10)
    }

    func testReusedPidWithAnotherStartTimeIsAnExitAndANewProcess() throws {
        let (table, _) = try scannedTwice()
        let old = try XCTUnwrap(process(30, in: table.exited))
        XCTAssertEqual(old.startTime, 700)
        XCTAssertEqual(old.name.text, "oldthirty")
        let new = try XCTUnwrap(process(30, in: table.processes))
        XCTAssertEqual(new.startTime, 9000)
        XCTAssertEqual(new.name.text, "newthirty")
        XCTAssertEqual(new.cpuDelta, 0)
        XCTAssertEqual(table.exited.map(\.pid).sorted(), [20, 30])
    }

    func testExitIsReportedInOneScanOnly() throws {
        let (table, tree) = try scannedTwice()
        withExtendedLifetime(tree) { table.scan(buffer) }
        XCTAssertEqual(table.exited, [])
        XCTAssertEqual(try XCTUnwrap(process(10, in: table.processes)).cpuDelta, 0)
    }

    // MARK: the real /proc

    func testLiveProcContainsThisTestProcess() throws {
        guard FileManager.default.fileExists(atPath: "/proc/self/stat") else { throw XCTSkip("no /proc") }
        let table = ProcessTable()
        table.scan(buffer)
        table.scan(buffer)
        let me = try XCTUnwrap(process(getpid(), in: table.processes))
        XCTAssertGreaterThan(me.privateKiB, 0)
        XCTAssertFalse(me.isKernelThread)
        XCTAssertFalse(me.commandLine.isEmpty)
        XCTAssertFalse(me.name.isEmpty)
        XCTAssertNil(process(getpid(), in: table.exited))
    }

    // MARK: statm only when resident memory moved

    func testStatmIsReadAgainOnlyWhenResidentMemoryChanged() throws {
        let tree = try LiveTree()
        let table = ProcessTable(procRoot: tree.path, pageSizeKiB: 4)
        try tree.mirror("procs-exit/scan1/proc")
        table.scan(buffer)
        XCTAssertEqual(try XCTUnwrap(process(10, in: table.processes)).privateKiB, 3_200)  // (1000 − 200) pages

        // Same rss in stat: the new statm is not read, the private figure stays.
        try writeFile(tree.path + "/10/statm", "3000 1000 900 1 0 500 0\n")
        table.scan(buffer)
        XCTAssertEqual(try XCTUnwrap(process(10, in: table.processes)).privateKiB, 3_200)

        // rss moved (1000 → 1100 pages): statm is read again.
        let stat = try String(contentsOfFile: tree.path + "/10/stat", encoding: .utf8)
        try writeFile(tree.path + "/10/stat", stat.replacingOccurrences(of: " 12288000 1000 ", with: " 12288000 1100 "))
        try writeFile(tree.path + "/10/statm", "3000 1100 900 1 0 500 0\n")
        table.scan(buffer)
        XCTAssertEqual(try XCTUnwrap(process(10, in: table.processes)).privateKiB, 800)  // (1100 − 900) pages
    }

    func testStatmIsReadAgainWithinTenScansEvenWhenResidentMemoryStaysPut() throws {
        let tree = try LiveTree()
        let table = ProcessTable(procRoot: tree.path, pageSizeKiB: 4)
        try tree.mirror("procs-exit/scan1/proc")
        table.scan(buffer)
        try writeFile(tree.path + "/10/statm", "3000 1000 900 1 0 500 0\n")
        for _ in 0..<Int(ProcessTable.privateRefreshScans) { table.scan(buffer) }
        XCTAssertEqual(try XCTUnwrap(process(10, in: table.processes)).privateKiB, 400)  // (1000 − 900) pages
    }
}
