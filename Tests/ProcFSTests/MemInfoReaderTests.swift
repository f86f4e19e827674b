import XCTest
import ProcFS

final class MemInfoReaderTests: XCTestCase {
    private func parse(_ text: String) -> MemInfo? {
        var info = MemInfo()
        return withBytes(text) { MemInfoReader.parse($0, into: &info) } ? info : nil
    }

    func testActiveAnonIsNotMistakenForActive() throws {
        let info = try XCTUnwrap(parse("""
            MemTotal:        1000 kB
            Active(anon):     111 kB
            Inactive(anon):   222 kB
            Active:           333 kB
            Inactive:         444 kB
            Active(file):     555 kB
            Inactive(file):   666 kB

            """))
        XCTAssertEqual(info.active, 333)
        XCTAssertEqual(info.inactive, 444)
    }

    func testKeysThatArePrefixesOfOtherKeysAreMatchedWhole() throws {
        // "Cached:" vs "SwapCached:", "Shmem:" vs "ShmemHugePages:", "MemFree:" vs "SwapFree:".
        let info = try XCTUnwrap(parse("""
            MemTotal: 100 kB
            SwapCached: 1 kB
            Cached: 2 kB
            ShmemHugePages: 3 kB
            Shmem: 4 kB
            SwapFree: 5 kB
            MemFree: 6 kB

            """))
        XCTAssertEqual(info.swapCached, 1)
        XCTAssertEqual(info.cached, 2)
        XCTAssertEqual(info.shmem, 4)
        XCTAssertEqual(info.swapFree, 5)
        XCTAssertEqual(info.memFree, 6)
    }

    /// Every key kept, in the kernel's order, then lines that are never read once all are
    /// seen (here a second MemTotal; in /proc, the hugepage and DirectMap lines).
    func testParsingStopsOnceEveryKeptKeyIsSeen() throws {
        let keys = ["MemTotal", "MemFree", "MemAvailable", "Buffers", "Cached", "SwapCached", "Active", "Inactive",
                    "Unevictable", "SwapTotal", "SwapFree", "Shmem", "SReclaimable", "SUnreclaim", "KernelStack", "PageTables"]
        let all = keys.enumerated().map { "\($0.element):   \($0.offset + 1) kB\n" }.joined()
        let info = try XCTUnwrap(parse(all + "MemTotal: 999 kB\n"))
        XCTAssertEqual(info.memTotal, 1, "the line after the sixteenth key is not read")
        XCTAssertEqual(info.pageTables, 16)
        XCTAssertEqual(info.swapFree, 11)
        // One key missing: every line is read, and the last MemTotal is the one kept.
        let fifteen = keys.dropLast().enumerated().map { "\($0.element):   \($0.offset + 1) kB\n" }.joined()
        XCTAssertEqual(try XCTUnwrap(parse(fifteen + "MemTotal: 999 kB\n")).memTotal, 999)
    }

    func testMemAvailableIsNilWhenTheKernelDoesNotHaveIt() throws {
        XCTAssertNil(try XCTUnwrap(parse("MemTotal: 100 kB\nMemFree: 50 kB\n")).memAvailable)
        XCTAssertEqual(try XCTUnwrap(parse("MemTotal: 100 kB\nMemAvailable: 70 kB\n")).memAvailable, 70)
    }

    func testParseResetsFieldsFromAnEarlierReading() throws {
        var info = MemInfo()
        info.memAvailable = 99
        info.swapTotal = 99
        XCTAssertTrue(withBytes("MemTotal: 100 kB\n") { MemInfoReader.parse($0, into: &info) })
        XCTAssertNil(info.memAvailable)
        XCTAssertEqual(info.swapTotal, 0)
    }

    func testMissingMemTotalIsUnparsable() {
        XCTAssertNil(parse("MemFree: 50 kB\n"))
        XCTAssertNil(parse(""))
        XCTAssertNil(parse("MemTotal:\n"))
    }

    func testModernFixtureReadsEveryField() throws {
        let reader = MemInfoReader(procRoot: fixtureProcRoot("procsys-modern"))
        let info = try XCTUnwrap(reader.update(ReadBuffer()))
        var expected = MemInfo()
        expected.memTotal = 24684092
        expected.memFree = 23138688
        expected.memAvailable = 24315156
        expected.buffers = 20524
        expected.cached = 1348152
        expected.swapCached = 0
        expected.active = 592616
        expected.inactive = 777468
        expected.unevictable = 15588
        expected.shmem = 8856
        expected.sReclaimable = 49640
        expected.sUnreclaim = 21208
        expected.kernelStack = 1396
        expected.pageTables = 1792
        expected.swapTotal = 0
        expected.swapFree = 0
        XCTAssertEqual(info, expected)
        XCTAssertEqual(reader.reading, expected)
    }

    func testOldKernelFixtureHasNoMemAvailableButHasSwap() throws {
        let info = try XCTUnwrap(MemInfoReader(procRoot: fixtureProcRoot("procsys-old-kernel")).update(ReadBuffer()))
        XCTAssertEqual(info.memTotal, 8061568)
        XCTAssertNil(info.memAvailable)
        XCTAssertEqual(info.active, 1618244)
        XCTAssertEqual(info.swapCached, 1200)
        XCTAssertEqual(info.swapTotal, 2097148)
        XCTAssertEqual(info.swapFree, 2091004)
    }

    func testUpdatingTwiceGivesTheSameReading() throws {
        let reader = MemInfoReader(procRoot: fixtureProcRoot("procsys-modern"))
        let buffer = ReadBuffer()
        let first = try XCTUnwrap(reader.update(buffer))
        XCTAssertEqual(reader.update(buffer), first)
    }

    func testMissingFileGivesNilNotACrash() {
        let reader = MemInfoReader(procRoot: missingProcRoot)
        XCTAssertNil(reader.update(ReadBuffer()))
        XCTAssertEqual(reader.reading, MemInfo())
    }
}
