import Foundation
import HistoryStore
import SysstatsCLI
import TestSupport
import XCTest

/// The readers of the live database meet whatever is stored there (a file put in place by
/// hand, a damaged one, a writer's bug): figures at the top of their types neither trap nor
/// print garbage. (`history --png` trapped on `used * 10_000`; a boot in the year 219250468
/// printed as `219250468-01-00`.)
final class HostileHistoryTests: XCTestCase {
    /// A data directory whose database holds two minutes, a boot and an exit with every figure
    /// at the top of its type (stored as SQLite's largest integer, read back clamped).
    func extremeDatabase() throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory()
        let data = directory.file("data")
        let database = try HistoryDatabase(path: HistoryDatabase.databasePath(in: data))
        defer { database.close() }
        let top = MinuteSample(minute: HistoryFixture.base, cpuAverage: .max, cpuMaximum: .max, memoryUsedKiB: .max,
                               memoryAvailableKiB: .max, swapUsedKiB: .max, load1: .max, processCount: .max,
                               batteryPercent: .max, batteryState: .max, rxBytes: .max, txBytes: .max,
                               cpuTemperatureMilliCelsius: .max, rootUsedPermyriad: .max, gpuBusyPermyriad: .max,
                               vramUsedBytes: .max)
        var allUsed = top
        allUsed.minute += 60
        allUsed.memoryAvailableKiB = 0
        try database.append(samples: [top, allUsed])
        _ = try database.recordBoot(id: HistoryFixture.bootIDs[0], bootTime: .max, uptimeSeconds: .max, nowSeconds: .max)
        try database.append(exits: [ExitRecord(timeMs: .max, pid: .max, name: Array("x".utf8), lastPrivateKiB: .max, freedKiB: .max)])
        return (directory, data)
    }

    func testFiguresAtTheTopOfTheirTypesNeitherTrapNorPrintGarbageInAnyReader() throws {
        let (directory, data) = try extremeDatabase()
        let png = directory.file("chart.png")
        let now = HistoryFixture.base + 120
        let drawn = HistoryCommands.history(directory: data, sinceSeconds: 3600, json: false, png: png, nowSeconds: now, zone: .utc)
        XCTAssertEqual(drawn.status, 0, "\(drawn)")
        XCTAssertTrue(drawn.stdout.first?.hasSuffix(", 2 samples") ?? false, "\(drawn)")
        for json in [false, true] {
            let listed = HistoryCommands.history(directory: data, sinceSeconds: 3600, json: json, png: nil, nowSeconds: now, zone: .utc)
            XCTAssertEqual(listed.status, 0, "\(listed)")
        }
        // SQLite's largest integer as a time: shown as it is, not as a date of a year of nine digits.
        let reboots = HistoryCommands.reboots(directory: data, json: false, currentBootID: nil, zone: .utc)
        XCTAssertEqual(reboots.stdout.count, 2, "\(reboots)")
        XCTAssertTrue(reboots.stdout[1].hasPrefix("@9223372036854775807 "), reboots.stdout[1])
        let exited = HistoryCommands.exited(directory: data, sinceSeconds: 60, json: false, nowSeconds: now, zone: .utc)
        XCTAssertEqual(exited.stdout.count, 2, "\(exited)")
        XCTAssertTrue(exited.stdout[1].hasPrefix("@9223372036854775 "), exited.stdout[1])
        for command in [HistoryCommands.reboots(directory: data, json: true, currentBootID: nil),
                        HistoryCommands.exited(directory: data, sinceSeconds: 60, json: true, nowSeconds: now)] {
            XCTAssertEqual(command.status, 0, "\(command)")
        }
    }

    /// Up to 9999-12-31 23:59:59 a time is a date; past it, `@` and the seconds.
    func testATimeIsADateUpToTheYear9999AndRawAfter() {
        XCTAssertEqual(TimeZoneChoice.utc.minute(0), "1970-01-01 00:00")
        XCTAssertEqual(TimeZoneChoice.utc.second(253_402_300_799), "9999-12-31 23:59:59")
        XCTAssertEqual(TimeZoneChoice.utc.minute(253_402_300_800), "@253402300800")
        XCTAssertEqual(TimeZoneChoice.utc.second(.max), "@18446744073709551615")
        XCTAssertEqual(TimeZoneChoice.local.minute(.max), "@18446744073709551615")
    }

    /// The memory line's share for any two figures: exact as before where the sum fits.
    func testTheUsedShareOfMemoryIsExactAndNeverOverflows() {
        XCTAssertEqual(HistoryChart.usedShare(used: 0, available: 0), 0)
        XCTAssertEqual(HistoryChart.usedShare(used: 1, available: 3), 2500)
        XCTAssertEqual(HistoryChart.usedShare(used: 2_097_152, available: 6_291_456), 2500)
        XCTAssertEqual(HistoryChart.usedShare(used: 1, available: 2), 3333)
        XCTAssertEqual(HistoryChart.usedShare(used: .max, available: 0), 10_000)
        XCTAssertEqual(HistoryChart.usedShare(used: .max, available: .max), 5000)
        XCTAssertEqual(HistoryChart.usedShare(used: UInt64(Int64.max), available: UInt64(Int64.max)), 5000)
    }

    /// An hourly row at the very end of time: its end saturates (`minute + 3600` trapped) and
    /// it is drawn to the plot's right edge.
    func testARowAtTheEndOfTimeIsDrawnWithoutOverflow() {
        let row = MinuteSample(minute: .max - 100, cpuAverage: 10_000, cpuMaximum: 10_000, memoryUsedKiB: .max,
                               memoryAvailableKiB: .max, swapUsedKiB: 0, load1: 0, processCount: 0, isHourly: true)
        let chart = HistoryChart([row], from: .max - 7200, to: .max)
        XCTAssertEqual(chart.colour(HistoryChart.right - 1, HistoryChart.y(percentHundredths: 5000)),
                       HistoryChart.Colour.memory.rawValue)
        XCTAssertEqual(chart.colour(HistoryChart.left + 11, HistoryChart.y(percentHundredths: 5000)),
                       HistoryChart.Colour.background.rawValue, "before the row: empty (between the grid's dots)")
    }
}
