import SnapshotCodec
import SysstatsCLI
import XCTest

final class ReportLineTests: XCTestCase {
    func testLineWithBatteryMatchesTheDocumentedExampleByteForByte() {
        XCTAssertEqual(ReportLine.format(Samples.laptop),
                       "[Uptime]: 0 day(s), 12:17:38 [CPU]: 23% [Memory(MB)]: free= 17.4, other=329.1, wired= 69.7, "
                       + "active= 53.9, inactive= 32.8 [Battery]: 85% [Process]: 39")
    }

    func testLineWithoutBatterySaysNone() {
        XCTAssertEqual(ReportLine.format(Samples.desktop),
                       "[Uptime]: 0 day(s), 12:17:38 [CPU]: 23% [Memory(MB)]: free= 17.4, other=329.1, wired= 69.7, "
                       + "active= 53.9, inactive= 32.8 [Battery]: none [Process]: 39")
    }

    func testMultiDayUptimeCountsDaysAndZeroPadsTheClock() {
        var s = Samples.desktop
        s.uptimeCentiseconds = (3 * 86400 + 4 * 3600 + 5 * 60 + 6) * 100 + 99
        s.cpuBusy = 10000
        s.memory.free = 12_641_894       // 12345.6 MiB: wider than 5 columns, not cut
        s.memory.other = 0
        s.processCount = 1234
        XCTAssertEqual(ReportLine.format(s),
                       "[Uptime]: 3 day(s), 04:05:06 [CPU]: 100% [Memory(MB)]: free=12345.6, other=  0.0, wired= 69.7, "
                       + "active= 53.9, inactive= 32.8 [Battery]: none [Process]: 1234")
    }

    func testMiBHasOneDecimalRoundedHalfUpAndIsRightAlignedInFiveColumns() {
        XCTAssertEqual(ReportLine.mib(0), "  0.0")
        XCTAssertEqual(ReportLine.mib(51), "  0.0")       // 0.0498
        XCTAssertEqual(ReportLine.mib(52), "  0.1")       // 0.0508
        XCTAssertEqual(ReportLine.mib(1024), "  1.0")
        XCTAssertEqual(ReportLine.mib(1_023_948), "999.9")    // 999.949
        XCTAssertEqual(ReportLine.mib(1_023_950), "1000.0")   // 999.951: wider than 5 columns, not cut
        XCTAssertEqual(ReportLine.mib(.max), "18014398509481984.0", "no overflow at the top of the range")
    }

    func testPercentRoundsHundredthsHalfUp() {
        XCTAssertEqual(ReportLine.percent(0), 0)
        XCTAssertEqual(ReportLine.percent(2349), 23)
        XCTAssertEqual(ReportLine.percent(2350), 24)
        XCTAssertEqual(ReportLine.percent(10000), 100)
    }

    func testUptimeBelowOneMinute() {
        XCTAssertEqual(ReportLine.uptime(centiseconds: 5_99), "0 day(s), 00:00:05")
    }
}
