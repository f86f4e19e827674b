import CSQLite
import SnapshotCodec
@testable import HistoryStore
import TestSupport
import XCTest

func unitRow(_ minute: UInt64, _ name: String, kind: String = "app", cpu: UInt32, memory: UInt64 = 1 << 20,
             read: UInt64 = 0, write: UInt64 = 0) -> UnitMinute {
    UnitMinute(minute: minute, name: Array(name.utf8), kind: Array(kind.utf8), cpuPermyriad: cpu, memoryBytes: memory,
               readBytesPerSecond: read, writeBytesPerSecond: write)
}

final class UnitHistoryTests: XCTestCase {
    let now: UInt64 = 1_800_000_000 - 1_800_000_000 % 3600
    let day: UInt64 = 86_400

    func testTheUnitTablesAreMigrationSevenAfterTheFirstListedColumnsWhichKeepTheirNumbers() {
        XCTAssertEqual(Schema.migrations.map(\.name).prefix(7).suffix(3),
                       ["5: samples fan_rpm", "6: samples power_mw", "7: unit_minutes, unit_hours"])
        XCTAssertEqual(Schema.unitTablesVersion, 7)
        XCTAssertEqual(Schema.listedColumnVersion(1), 6)
        XCTAssertEqual(Schema.listedColumnVersion(2), 8, "a listed column added later comes after the unit tables")
        XCTAssertGreaterThanOrEqual(ListedHistory.columns.count, Schema.listedColumnsBeforeUnits)
    }

    func testAMinutesUnitsRoundTripAndASecondWriteOfTheMinuteReplacesThem() throws {
        let db = try Scratch().open()
        let hostile = UnitMinute(minute: 120, name: [0xFF, 0x00, 0x27, 0x0A], kind: [0xC3], cpuPermyriad: .max,
                                 memoryBytes: UInt64(Int64.max), readBytesPerSecond: 0, writeBytesPerSecond: 7)
        try db.apply(HistoryBatch(bootID: "b", bootTime: 1, uptimeSeconds: 2, nowSeconds: 180, samples: [sample(120)], exits: [],
                                  units: [unitRow(120, "firefox", cpu: 2_000), hostile], endsCleanly: false))
        var read = try db.units(from: 0, to: 1000)
        XCTAssertEqual(read.map(\.name), [[0xFF, 0x00, 0x27, 0x0A], Array("firefox".utf8)], "busiest first within a minute")
        XCTAssertEqual(read[0].kind, Array("\u{FFFD}".utf8), "a kind that is not UTF-8 is stored as text, replaced")
        XCTAssertEqual(read[1], unitRow(120, "firefox", cpu: 2_000))
        try db.append(units: [unitRow(120, "firefox", cpu: 3_000)])
        read = try db.units(from: 0, to: 1000)
        XCTAssertEqual(read.count, 2)
        XCTAssertEqual(read.first { $0.name == Array("firefox".utf8) }?.cpuPermyriad, 3_000)
    }

    func testUnitMinutesOlderThanAWeekBecomeHoursAveragedOverTheHourAndTheHoursBusiestTenStay() throws {
        let db = try Scratch().open()
        let hour = now - 8 * day
        // "build" in 30 minutes of the hour at 2 cores, "firefox" in all 60 at 10 %; 12 small units once.
        var rows = (0..<30).map { unitRow(hour + UInt64($0) * 60, "build", kind: "service", cpu: 20_000, memory: UInt64($0),
                                          read: 120, write: 6) }
        rows += (0..<60).map { unitRow(hour + UInt64($0) * 60, "firefox", cpu: 1_000) }
        rows += (0..<12).map { unitRow(hour + 120, "small-\($0)", cpu: UInt32(60 - $0), memory: UInt64(100 - $0)) }
        rows.append(unitRow(now - 60, "recent", cpu: 5))
        try db.append(units: rows)
        try db.applyRetention(nowSeconds: now)
        let read = try db.units(from: 0, to: now + 60)
        let hours = read.filter(\.isHourly)
        XCTAssertEqual(hours.count, 10, "the hour keeps its ten busiest")
        XCTAssertEqual(hours.first, UnitMinute(minute: hour, name: Array("build".utf8), kind: Array("service".utf8),
                                               cpuPermyriad: 10_000, memoryBytes: 29, readBytesPerSecond: 60,
                                               writeBytesPerSecond: 3, minutes: 30, isHourly: true),
                       "an hour's figures are its averages, a minute without the unit counting 0; memory its most")
        XCTAssertEqual(hours[1].cpuPermyriad, 1_000)
        XCTAssertEqual(hours.last.map { String(decoding: $0.name, as: UTF8.self) }, "small-7")
        XCTAssertEqual(read.filter { !$0.isHourly }.map(\.minute), [now - 60], "a recent minute stays a minute")
        // Late minutes of that hour merge into it; after 90 days the hour goes.
        try db.append(units: [unitRow(hour + 3000, "build", kind: "service", cpu: 60_000, memory: 1)])
        try db.applyRetention(nowSeconds: now)
        XCTAssertEqual(try db.units(from: hour, to: hour + 1).first?.cpuPermyriad, 11_000)
        XCTAssertEqual(try db.units(from: hour, to: hour + 1).first?.minutes, 31)
        try db.applyRetention(nowSeconds: hour + 91 * day)
        XCTAssertEqual(try db.units(from: 0, to: hour + 1), [])
    }

    func testASixDatabaseGainsTheUnitTablesAndReadUnmigratedHasNoUnits() throws {
        let scratch = try Scratch()
        let raw = try rawConnection(scratch.databasePath)
        try Schema.migrate(raw, migrations: Array(Schema.migrations.prefix(6)))
        raw.close()
        let unmigrated = try scratch.open(readOnly: true)
        XCTAssertEqual(unmigrated.version, 6)
        XCTAssertEqual(try unmigrated.units(from: 0, to: .max), [])
        unmigrated.close()
        let db = try scratch.open()
        XCTAssertEqual(db.version, HistoryDatabase.schemaVersion)
        try db.append(units: [unitRow(60, "firefox", cpu: 1)])
        XCTAssertEqual(try db.units(from: 0, to: .max).count, 1)
    }

    func testRestoreRefusesAUnitRowOutOfRangeOrTooManyOfThem() throws {
        let scratch = try Scratch()
        let db = try scratch.open()
        try db.append(units: [unitRow(60, "firefox", cpu: 1)])
        try db.checkpoint()
        db.close()
        let raw = try rawConnection(scratch.databasePath)
        try raw.execute("UPDATE unit_minutes SET cpu = -1")
        XCTAssertThrowsError(try HistoryDatabase.checkContent(raw, version: HistoryDatabase.schemaVersion, path: "backup")) {
            XCTAssertEqual(($0 as? StoreError)?.message,
                           "backup has a value out of range: unit_minutes row 1, cpu is -1 (expected 0 to 4294967295: hundredths of a percent of a core)")
        }
        try raw.execute("UPDATE unit_minutes SET cpu = 1, name = zeroblob(129)")
        XCTAssertThrowsError(try HistoryDatabase.checkContent(raw, version: HistoryDatabase.schemaVersion, path: "backup")) {
            XCTAssertEqual(($0 as? StoreError)?.message, "backup has an overlong value: unit_minutes row 1, name is 129 bytes (at most 128)")
        }
        try raw.execute("UPDATE unit_minutes SET name = X'41'")
        var limits = RestoreLimits()
        limits.unitMinutes = 0
        XCTAssertThrowsError(try HistoryDatabase.checkContent(raw, version: HistoryDatabase.schemaVersion, path: "backup", limits: limits)) {
            XCTAssertEqual(($0 as? StoreError)?.message,
                           "backup has 1 rows in unit_minutes, more than 0 (twice the units a minute keeps for as long as unit minutes are kept)")
        }
        XCTAssertNoThrow(try HistoryDatabase.checkContent(raw, version: HistoryDatabase.schemaVersion, path: "backup"))
        raw.close()
    }
}
