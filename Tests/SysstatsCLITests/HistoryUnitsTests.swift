import Bookmarks
import HistoryStore
@testable import SysstatsCLI
import TestSupport
import XCTest

final class HistoryUnitsTests: XCTestCase {
    /// 2023-11-14 22:00 UTC; "now" two hours later.
    let base: UInt64 = 1_699_999_200
    var now: UInt64 { base + 7200 }

    func unit(_ minute: UInt64, _ name: [UInt8], _ kind: String, cpu: UInt32, memory: UInt64, read: UInt64 = 0,
              write: UInt64 = 0, minutes: UInt32 = 1, hourly: Bool = false) -> UnitMinute {
        UnitMinute(minute: minute, name: name, kind: Array(kind.utf8), cpuPermyriad: cpu, memoryBytes: memory,
                   readBytesPerSecond: read, writeBytesPerSecond: write, minutes: minutes, isHourly: hourly)
    }

    /// A build (a service) busy for 20 minutes of the second hour, a browser in both hours (its
    /// first hour rolled up), and a unit whose name is hostile bytes.
    func database() throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory()
        let db = try HistoryDatabase(path: HistoryDatabase.databasePath(in: directory.path))
        defer { db.close() }
        try db.append(units: (0..<20).map { unit(base + 3600 + UInt64($0) * 60, Array("make".utf8), "service",
                                                   cpu: 18_000, memory: 500 << 20, read: 1 << 20, write: 1 << 10) }
                      + (0..<40).map { unit(base + 3600 + UInt64($0) * 60, Array("firefox".utf8), "app", cpu: 900, memory: 2 << 30) }
                      + [unit(base + 3660, [0x1B, 0x5B, 0x32, 0x4A, 0xFF], "container", cpu: 1, memory: 1)])
        // An hour retention rolls up: firefox at 12 % over the hour, among the busiest in 60 minutes.
        try db.append(units: (0..<60).map { unit(base + UInt64($0) * 60, Array("firefox".utf8), "app", cpu: 1200, memory: 3 << 30) })
        var policy = RetentionPolicy.default
        policy.unitMinutesSeconds = 3600
        try db.applyRetention(nowSeconds: now, policy: policy)
        return (directory, directory.path)
    }

    func testTheTableListsTheBusiestUnitsOfThePeriodWithLowerBoundAveragesAndEachHoursBusiest() throws {
        let (keep, directory) = try database()
        _ = keep
        let out = HistoryCommands.units(directory: directory, sinceSeconds: 3 * 3600, json: false, nowSeconds: now, zone: .utc)
        XCTAssertEqual(out, CommandOutput(stdout: [
            "units from 2023-11-14 21:00 to 2023-11-15 00:00: 100 minutes kept (cpu avg over those minutes; a unit not among a minute's busiest counts 0)",
            "unit                      kind        cpu avg  cpu max    mem max       read    written  minutes",
            "make                      service       36.0%   180.0%  500.0 MiB    1.2 GiB    1.2 MiB       20",
            "firefox                   app           10.8%    12.0%    3.0 GiB        0 B        0 B      100",
            "\\x1b[2J\\xff               container      0.0%     0.0%        1 B        0 B        0 B        1",
            "",
            "hour              busiest units (cpu avg of the hour)",
            "2023-11-14 22:00  firefox 12.0%",
            "2023-11-14 23:00  make 60.0%, firefox 6.0%, \\x1b[2J\\xff 0.0%",
        ]))
    }

    func testTheJSONHasEveryUnitWithItsExactNameAndEachHour() throws {
        let (keep, directory) = try database()
        _ = keep
        let out = HistoryCommands.units(directory: directory, sinceSeconds: 3 * 3600, json: true, nowSeconds: now, zone: .utc)
        XCTAssertEqual(out.stdout.count, 1)
        XCTAssertTrue(out.stdout[0].hasPrefix(#"{"from":1699995600,"hours":[{"hour":1699999200,"units":[{"cpu_avg_percent":12,"cpu_max_percent":12,"kind":"app","memory_max_bytes":3221225472,"minutes":60,"name":"firefox","name_hex":"66697265666f78","read_bytes":0,"written_bytes":0}]}"#), out.stdout[0])
        XCTAssertTrue(out.stdout[0].contains(#"{"cpu_avg_percent":0,"cpu_max_percent":0.01,"kind":"container","memory_max_bytes":1,"minutes":1,"name":"\\x1b[2J\\xff","name_hex":"1b5b324aff""#))
        XCTAssertTrue(out.stdout[0].contains(#""minutes":100,"to":1700006401,"units":[{"cpu_avg_percent":36,"cpu_max_percent":180,"kind":"service","#),
                      out.stdout[0])
    }

    func testAPeriodWithoutUnitsSaysHowToKeepThem() throws {
        let directory = try TemporaryDirectory()
        try HistoryDatabase(path: HistoryDatabase.databasePath(in: directory.path)).close()
        let out = HistoryCommands.units(directory: directory.path, sinceSeconds: 600, json: false, nowSeconds: now, zone: .utc)
        XCTAssertEqual(out.status, 0)
        XCTAssertEqual(out.stdout, [])
        XCTAssertEqual(out.stderr.count, 1)
        XCTAssertTrue(out.stderr[0].hasSuffix("history keeps them while a bar shows top:units or a unit block, "
                                              + "or always with `unit_history = true` in [sampler] (man sysstats-config)"), out.stderr[0])
    }
}
