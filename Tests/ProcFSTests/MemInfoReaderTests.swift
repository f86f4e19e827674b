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

    /// /proc/meminfo as the kernel writes it: the key padded to 16, the figure to 8.
    private func kernelText(_ figures: [(String, UInt64)]) -> String {
        figures.map { key, value in
            let k = key + ":" + String(repeating: " ", count: max(0, 15 - key.count))
            let v = String(value)
            return k + String(repeating: " ", count: max(0, 8 - v.count)) + v + " kB\n"
        }.joined()
    }

    private let kept: [(String, UInt64)] = [
        ("MemTotal", 24684092), ("MemFree", 23138688), ("MemAvailable", 24315156), ("Buffers", 20524),
        ("Cached", 1348152), ("SwapCached", 0), ("Active", 592616), ("Inactive", 777468),
        ("Active(anon)", 1), ("Inactive(anon)", 2), ("Unevictable", 15588), ("SwapTotal", 0), ("SwapFree", 0),
        ("Shmem", 8856), ("SReclaimable", 49640), ("SUnreclaim", 21208), ("KernelStack", 1396), ("PageTables", 1792),
        ("HugePages_Total", 0),
    ]

    private func parsedWhole(_ text: String) throws -> MemInfo { try XCTUnwrap(parse(text)) }

    func testASecondReadingWithTheSameLayoutReadsTheKeysInPlace() throws {
        let (reader, buffer, path) = try readerAfterAWholeParse(of: kernelText(kept))
        XCTAssertEqual(reader.reading, try parsedWhole(kernelText(kept)))
        var changed = kept
        changed[1].1 = 23000001   // MemFree: same width
        changed[4].1 = 1348999    // Cached
        try writeFile(path, kernelText(changed))
        let second = try XCTUnwrap(reader.update(buffer))
        XCTAssertEqual(second, try parsedWhole(kernelText(changed)))
        XCTAssertEqual(second.memFree, 23000001)
        XCTAssertEqual(reader.fullParses, 1, "the second reading found every key where it was")
    }

    func testALineThatMovesIsFoundByAWholeParse() throws {
        let (reader, buffer, path) = try readerAfterAWholeParse(of: kernelText(kept))
        // MemFree outgrows eight digits: every line after it moves by one byte.
        var grown = kept
        grown[1].1 = 123456789
        try writeFile(path, kernelText(grown))
        XCTAssertEqual(reader.update(buffer), try parsedWhole(kernelText(grown)))
        XCTAssertEqual(reader.fullParses, 2)
        // Lines in another order, of the same lengths: the keys are no longer where they were.
        var swapped = grown
        swapped.swapAt(6, 7)   // Active, Inactive
        swapped.swapAt(12, 11) // SwapFree, SwapTotal
        try writeFile(path, kernelText(swapped))
        XCTAssertEqual(reader.update(buffer), try parsedWhole(kernelText(swapped)))
        XCTAssertEqual(reader.fullParses, 3)
        // The same layout again: in place.
        XCTAssertEqual(reader.update(buffer), try parsedWhole(kernelText(swapped)))
        XCTAssertEqual(reader.fullParses, 3)
    }

    /// A reader that has read `text` once (a whole parse), the file at `path` for the test to rewrite.
    private func readerAfterAWholeParse(of text: String) throws -> (MemInfoReader, ReadBuffer, path: String) {
        let root = try makeTemporaryProcRoot()
        let path = root + "/meminfo"
        try writeFile(path, text)
        let reader = MemInfoReader(procRoot: root)
        let buffer = ReadBuffer()
        _ = reader.update(buffer)
        return (reader, buffer, path)
    }

    func testAnotherKeyOfTheSameLengthAtAKeptPlaceIsNotReadInPlace() throws {
        // The in-place reading compares each line's key with the bytes the whole parse saw
        // there: a key changed in one letter (or its colon) at the same offset is not taken
        // for the kept one, and the whole parse then finds it missing.
        for (from, to) in [("Buffers:", "Buffets:"), ("Buffers:", "Buffers "), ("MemAvailable:", "MemAvailablE:"),
                           ("SReclaimable:", "SReclaimablx:")] {
            let before = kernelText(kept)
            let (reader, buffer, path) = try readerAfterAWholeParse(of: before)
            let after = before.replacingOccurrences(of: from, with: to)
            XCTAssertNotEqual(after, before)
            try writeFile(path, after)
            XCTAssertEqual(reader.update(buffer), try parsedWhole(after), "\(from) → \(to)")
            XCTAssertEqual(reader.fullParses, 2, "\(from) → \(to): read whole again")
        }
    }

    func testAKeyInsideAnotherKeyAtTheOldPlaceIsNotTakenForIt() throws {
        // "Cached:" used to start a line; now the same offset is inside "SwapCached:" (the
        // lines before it shortened by four bytes), and only a whole parse tells them apart.
        let before = kernelText(kept)
        let (reader, buffer, path) = try readerAfterAWholeParse(of: before)
        let cachedOffset = try XCTUnwrap(before.range(of: "\nCached:")).lowerBound.utf16Offset(in: before) + 1
        var lines = before.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Make the line before Cached four bytes shorter and put SwapCached where Cached was:
        // then "Cached:" sits at the old offset inside "SwapCached:".
        let index = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("Buffers:") })
        lines[index] = "Buffers: " + String(repeating: " ", count: 6) + "20524 kB"
        lines.swapAt(index + 1, index + 2)   // SwapCached before Cached
        let after = lines.joined(separator: "\n")
        let swapCachedOffset = try XCTUnwrap(after.range(of: "\nSwapCached:")).lowerBound.utf16Offset(in: after) + 1
        XCTAssertEqual(swapCachedOffset + 4, cachedOffset, "the test's premise: Cached: at its old offset, mid-line")
        try writeFile(path, after)
        let info = try XCTUnwrap(reader.update(buffer))
        XCTAssertEqual(info, try parsedWhole(after))
        XCTAssertEqual(info.cached, 1348152)
        XCTAssertEqual(info.swapCached, 0)
        XCTAssertEqual(reader.fullParses, 2)
    }
}
