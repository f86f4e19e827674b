import XCTest
import ProcFS

final class CPUStatReaderTests: XCTestCase {
    private func parse(_ text: String) -> CPUStat? {
        var stat = CPUStat()
        return withBytes(text) { CPUStatReader.parse($0, into: &stat) } ? stat : nil
    }

    func testAggregateAndPerCoreLinesParseAllEightFieldsAndIgnoreGuest() throws {
        let stat = try XCTUnwrap(parse("""
            cpu  17750 1 3052 332770 1024 2 155 1553 900 7
            cpu0 8747 0 1445 166475 631 1 81 695 400 3
            cpu1 9002 1 1607 166295 393 1 74 858 500 4
            intr 218984 0 0 0
            ctxt 268009
            btime 1795286902
            processes 8467
            procs_running 3
            procs_blocked 2
            softirq 133725 0 25700 3 110 9814 0 2 55923 0 42173

            """))
        XCTAssertEqual(stat.total, CPUTimes(user: 17750, nice: 1, system: 3052, idle: 332770,
                                            iowait: 1024, irq: 2, softirq: 155, steal: 1553))
        XCTAssertEqual(stat.cores, [
            CPUTimes(user: 8747, nice: 0, system: 1445, idle: 166475, iowait: 631, irq: 1, softirq: 81, steal: 695),
            CPUTimes(user: 9002, nice: 1, system: 1607, idle: 166295, iowait: 393, irq: 1, softirq: 74, steal: 858),
        ])
        XCTAssertEqual(stat.bootTime, 1795286902)
        XCTAssertEqual(stat.procsRunning, 3)
        XCTAssertEqual(stat.procsBlocked, 2)
    }

    func testCPULinesWithFewerFieldsOnOldKernelsParseMissingAsZero() throws {
        let stat = try XCTUnwrap(parse("cpu  10 20 30 40\ncpu0 1 2 3 4 5 6 7\n"))
        XCTAssertEqual(stat.total, CPUTimes(user: 10, nice: 20, system: 30, idle: 40,
                                            iowait: 0, irq: 0, softirq: 0, steal: 0))
        XCTAssertEqual(stat.cores, [CPUTimes(user: 1, nice: 2, system: 3, idle: 4,
                                             iowait: 5, irq: 6, softirq: 7, steal: 0)])
    }

    func testCoresWithGapsFromOfflineCPUsAreKeptInFileOrder() throws {
        let stat = try XCTUnwrap(parse("cpu  3 0 0 3\ncpu0 1 0 0 1\ncpu2 2 0 0 2\n"))
        XCTAssertEqual(stat.cores.map(\.user), [1, 2])
    }

    func testLinesAfterAHugeIntrLineAreStillRead() throws {
        let intr = "intr 1" + String(repeating: " 0", count: 20_000)
        let stat = try XCTUnwrap(parse("cpu  1 2 3 4\n\(intr)\nbtime 42\nprocs_running 5\n"))
        XCTAssertEqual(stat.bootTime, 42)
        XCTAssertEqual(stat.procsRunning, 5)
    }

    func testMissingAggregateCPULineIsUnparsable() {
        XCTAssertNil(parse("cpu0 1 2 3 4\nbtime 42\n"))
        XCTAssertNil(parse(""))
    }

    func testCPULineWithFewerThanFourFieldsIsUnparsable() {
        XCTAssertNil(parse("cpu  1 2 3\n"))
        XCTAssertNil(parse("cpu  1 2 3 4\ncpu0 1 x\n"))
    }

    func testModernFixtureReadsTwoCoresAndBootTime() throws {
        let reader = CPUStatReader(procRoot: fixtureProcRoot("procsys-modern"))
        let stat = try XCTUnwrap(reader.update(ReadBuffer()))
        XCTAssertEqual(stat.total, CPUTimes(user: 26908, nice: 0, system: 4500, idle: 350812,
                                            iowait: 1099, irq: 0, softirq: 177, steal: 1752))
        XCTAssertEqual(stat.cores.count, 2)
        XCTAssertEqual(stat.cores[1].steal, 935)
        XCTAssertEqual(stat.bootTime, 1795286902)
        XCTAssertEqual(stat.procsRunning, 1)
        XCTAssertEqual(stat.procsBlocked, 0)
        XCTAssertEqual(reader.reading, stat)
    }

    func testOldKernelFixtureWithSevenFieldLinesReadsStealAsZero() throws {
        let reader = CPUStatReader(procRoot: fixtureProcRoot("procsys-old-kernel"))
        let stat = try XCTUnwrap(reader.update(ReadBuffer()))
        XCTAssertEqual(stat.total, CPUTimes(user: 4705, nice: 356, system: 584, idle: 3699176,
                                            iowait: 23060, irq: 0, softirq: 277, steal: 0))
        XCTAssertEqual(stat.cores.count, 4)
        XCTAssertTrue(stat.cores.allSatisfy { $0.steal == 0 })
        XCTAssertEqual(stat.procsRunning, 2)
        XCTAssertEqual(stat.procsBlocked, 1)
    }

    func testUpdatingTwiceGivesTheSameReading() throws {
        let reader = CPUStatReader(procRoot: fixtureProcRoot("procsys-modern"))
        let buffer = ReadBuffer()
        let first = try XCTUnwrap(reader.update(buffer))
        XCTAssertEqual(reader.update(buffer), first)
        XCTAssertEqual(reader.reading, first)
    }

    func testSamplerKeepingThePreviousReadingCausesNoCoreArrayReallocation() throws {
        // The sampler's loop: keep the previous reading to compute rates, update, replace.
        // The reader parses into a spare CPUStat and swaps it in, so two core arrays
        // alternate and neither is shared when it is refilled: no copy-on-write, no malloc.
        let reader = CPUStatReader(procRoot: fixtureProcRoot("procsys-modern"))
        let buffer = ReadBuffer()
        func address(_ stat: CPUStat) -> UnsafePointer<CPUTimes>? {
            stat.cores.withUnsafeBufferPointer { $0.baseAddress }
        }
        var previous = try XCTUnwrap(reader.update(buffer))
        let a = address(previous)
        var current = try XCTUnwrap(reader.update(buffer))
        let b = address(current)
        let capacity = current.cores.capacity
        XCTAssertNotEqual(a, b)
        for tick in 0..<6 {
            previous = current
            current = try XCTUnwrap(reader.update(buffer))
            XCTAssertEqual(current, previous)
            XCTAssertEqual(address(current), tick % 2 == 0 ? a : b, "tick \(tick)")
            XCTAssertEqual(current.cores.capacity, capacity)
        }
    }

    func testAReadingWithFewerCoresThanTheLastKeepsOnlyItsOwn() throws {
        // Cores are written over in place: a reading with fewer (a CPU taken offline) must
        // not keep the last reading's extra ones, nor one with more lose any.
        var stat = CPUStat()
        func parse(_ cores: Int, base: UInt64) -> Bool {
            var text = "cpu  1 2 3 4\n"
            for i in 0..<cores { text += "cpu\(i) \(base + UInt64(i)) 0 0 9\n" }
            text += "intr 5 0 0\nprocesses 77\n"
            return withBytes(text) { CPUStatReader.parse($0, into: &stat) }
        }
        XCTAssertTrue(parse(4, base: 10))
        XCTAssertEqual(stat.cores.map(\.user), [10, 11, 12, 13])
        XCTAssertTrue(parse(2, base: 20))
        XCTAssertEqual(stat.cores.map(\.user), [20, 21])
        XCTAssertTrue(parse(3, base: 30))
        XCTAssertEqual(stat.cores.map(\.user), [30, 31, 32])
        XCTAssertEqual(stat.forks, 77)
    }

    func testUnparsableRereadReturnsNilAndKeepsThePreviousReading() throws {
        let root = try makeTemporaryProcRoot()
        try writeFile(root + "/stat", "cpu  1 2 3 4\ncpu0 1 2 3 4\nbtime 7\n")
        let reader = CPUStatReader(procRoot: root)
        let buffer = ReadBuffer()
        let good = try XCTUnwrap(reader.update(buffer))
        // Rewritten in place: the reader keeps its descriptor and re-reads from offset 0.
        try writeFile(root + "/stat", "garbage\n")
        XCTAssertNil(reader.update(buffer))
        XCTAssertEqual(reader.reading, good)
        try writeFile(root + "/stat", "cpu  5 6 7 8\n")
        XCTAssertEqual(reader.update(buffer)?.total.user, 5)
    }

    func testMissingFileGivesNilNotACrash() {
        let reader = CPUStatReader(procRoot: missingProcRoot)
        let buffer = ReadBuffer()
        XCTAssertNil(reader.update(buffer))
        XCTAssertNil(reader.update(buffer))
    }

    func testReadBufferGrowsToReadAStatFileBiggerThanItsCapacity() throws {
        let buffer = ReadBuffer(capacity: 64)
        let reader = CPUStatReader(procRoot: fixtureProcRoot("procsys-modern"))
        let small = try XCTUnwrap(reader.update(buffer))
        XCTAssertGreaterThan(buffer.storage.count, 64)
        XCTAssertGreaterThan(buffer.count, 64)
        let big = try XCTUnwrap(CPUStatReader(procRoot: fixtureProcRoot("procsys-modern")).update(ReadBuffer()))
        XCTAssertEqual(small, big)
    }
}
