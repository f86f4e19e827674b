import XCTest
import TestSupport
import ProcFS

final class CPUFrequencyReaderTests: XCTestCase {
    private let buffer = ReadBuffer(capacity: 64)

    private func reader(_ fixture: String) -> CPUFrequencyReader {
        CPUFrequencyReader(sysRoot: Fixtures.path(fixture + "/sys"), procRoot: Fixtures.path(fixture + "/proc"))
    }

    func testCpufreqGivesMeanAndMaximumOfTheOnlineCPUs() throws {
        let r = reader("cpufreq-basic")
        XCTAssertEqual(r.cpufreqCount, 3, "cpu3 has no cpufreq; cpufreq/ and cpuidle/ are not CPUs")
        let f = try XCTUnwrap(r.update(buffer))
        XCTAssertEqual(f.averageMHz, 2000)
        XCTAssertEqual(f.maximumMHz, 3400)
        XCTAssertEqual(f.count, 3)
        XCTAssertEqual(f.source, .cpufreq)
    }

    func testVirtualMachinesFallBackToCpuinfoRoundedToTheNearestMHz() throws {
        let r = reader("cpufreq-vm")
        XCTAssertEqual(r.cpufreqCount, 0)
        let f = try XCTUnwrap(r.update(buffer))
        XCTAssertEqual(f.averageMHz, 2600)  // 2600.250
        XCTAssertEqual(f.maximumMHz, 2801)  // 2800.500
        XCTAssertEqual(f.count, 2)
        XCTAssertEqual(f.source, .cpuinfo)
    }

    func testCpuinfoWithoutMHzLinesGivesNil() {
        XCTAssertNil(withBytes("processor\t: 0\nBogoMIPS\t: 108.00\nFeatures\t: fp asimd\n") {
            CPUFrequencyReader.parseCPUInfo($0)
        })
        XCTAssertNil(withBytes("cpu MHz\t\t: fast\n") { CPUFrequencyReader.parseCPUInfo($0) })
        XCTAssertEqual(withBytes("cpu MHz\t\t: 999.4999\ncpu MHz : 1000\n") { CPUFrequencyReader.parseCPUInfo($0) }?
            .maximumMHz, 1000)
    }

    func testMissingFilesGiveNil() {
        let r = CPUFrequencyReader(sysRoot: "/nonexistent-sysstats-fixture-root/sys", procRoot: missingProcRoot)
        XCTAssertEqual(r.cpufreqCount, 0)
        XCTAssertNil(r.update(buffer))
    }

    func testGarbageIsSkippedHugeSaturatesAndKeptOpenFilesSeeNewValues() throws {
        let root = try makeTemporaryProcRoot()
        let cpu0 = "sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq"
        let cpu1 = "sys/devices/system/cpu/cpu1/cpufreq/scaling_cur_freq"
        try writeFile(root, cpu0, "1000000\n")
        try writeFile(root, cpu1, "abc\n")
        try writeFile(root, "proc/cpuinfo", "processor\t: 0\nBogoMIPS\t: 108.00\n")
        let r = CPUFrequencyReader(sysRoot: root + "/sys", procRoot: root + "/proc")
        XCTAssertEqual(r.cpufreqCount, 2)
        var f = try XCTUnwrap(r.update(buffer))
        XCTAssertEqual([f.averageMHz, f.maximumMHz, UInt32(f.count)], [1000, 1000, 1])

        try writeFile(root + "/" + cpu0, "2000000\n")
        try writeFile(root + "/" + cpu1, "3000000\n")
        f = try XCTUnwrap(r.update(buffer))
        XCTAssertEqual([f.averageMHz, f.maximumMHz, UInt32(f.count)], [2500, 3000, 2])

        try writeFile(root + "/" + cpu0, "99999999999999999999999\n")
        try writeFile(root + "/" + cpu1, "99999999999999999999999\n")
        f = try XCTUnwrap(r.update(buffer))
        XCTAssertEqual([f.averageMHz, f.maximumMHz], [UInt32.max, UInt32.max])

        try writeFile(root + "/" + cpu0, "12 34\n")
        try writeFile(root + "/" + cpu1, "")
        XCTAssertNil(r.update(buffer), "no figure, and no cpu MHz in cpuinfo")
        XCTAssertEqual(r.reading.maximumMHz, UInt32.max, "the last good reading stays")
        try writeFile(root + "/proc/cpuinfo", "cpu MHz\t\t: 1500.000\n")
        XCTAssertEqual(r.update(buffer)?.source, .cpuinfo, "cpufreq unreadable this time: cpuinfo")
    }

    func testRescanCountsANewCPU() throws {
        let root = try makeTemporaryProcRoot()
        try writeFile(root, "sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "1000000\n")
        let r = CPUFrequencyReader(sysRoot: root + "/sys", procRoot: root + "/proc")
        try writeFile(root, "sys/devices/system/cpu/cpu1/cpufreq/scaling_cur_freq", "3000000\n")
        XCTAssertEqual(r.update(buffer)?.count, 1)
        r.rescan()
        XCTAssertEqual(r.cpufreqCount, 2)
        XCTAssertEqual(r.update(buffer)?.averageMHz, 2000)
    }
}
