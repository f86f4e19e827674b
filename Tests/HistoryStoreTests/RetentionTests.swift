import Foundation
@testable import HistoryStore
import TestSupport
import XCTest

final class RetentionTests: XCTestCase {
    let day: UInt64 = 86_400
    // An hour boundary, so "older than 90 days" falls on whole hours.
    let now: UInt64 = 1_800_000_000 - 1_800_000_000 % 3600

    func testMinuteSamplesOlderThan90DaysAreRolledIntoHourlyRowsWithAveragesAndMaximaThenDeleted() throws {
        let db = try Scratch().open()
        let oldHour = now - 91 * day
        // 60 minutes: cpu average 0...59 ×100 (mean 2950), maxima up to 9000 at minute 30, memory 1000...1059,
        // battery only in the first 30 minutes (mean of 5000...5029 = 5014.5 → 5015, rounded), state 2 in the last minute.
        var old: [MinuteSample] = []
        for i in 0..<60 {
            let n = UInt64(i)
            let cpuMaximum: UInt32 = i == 30 ? 9000 : 500
            let processCount: UInt32 = i < 30 ? 300 : 302
            let battery: UInt32? = i < 30 ? 5000 + UInt32(i) : nil
            let state: UInt8 = i == 59 ? 2 : 1
            old.append(MinuteSample(minute: oldHour + n * 60, cpuAverage: UInt32(i) * 100, cpuMaximum: cpuMaximum,
                                    memoryUsedKiB: 1000 + n, memoryAvailableKiB: 2000, swapUsedKiB: (n % 2) * 10,
                                    load1: 100, processCount: processCount, batteryPercent: battery, batteryState: state))
        }
        let recent = [sample(now - 89 * day), sample(now - 60)]
        try db.append(samples: old + recent)

        try db.applyRetention(nowSeconds: now)

        let rows = try db.samples(from: 0, to: now)
        XCTAssertEqual(rows, [
            MinuteSample(minute: oldHour, cpuAverage: 2950, cpuMaximum: 9000, memoryUsedKiB: 1030, memoryAvailableKiB: 2000,
                         swapUsedKiB: 5, load1: 100, processCount: 301, batteryPercent: 5015, batteryState: 2, isHourly: true),
        ] + recent)
        XCTAssertEqual(try db.connection.integer("SELECT count(*) FROM samples WHERE minute < \(now - 90 * day)"), 0)
        XCTAssertEqual(try db.connection.integer("SELECT minutes FROM hourly_samples"), 60)
    }

    func testAnHourlyRowSumsTrafficKeepsTheHottestMinuteAndAveragesRootUsedOverTheMinutesThatMeasuredIt() throws {
        let db = try Scratch().open()
        let oldHour = now - 91 * day
        // rx in the first 30 minutes only (0, 1000, ... 29,000: 435,000), tx 5 a minute, the
        // hottest minute 17 (83 °C), root measured in the first 20 minutes (5000...5019: 5009.5 → 5010).
        try db.append(samples: (0..<60).map { i in
            let n = UInt64(i)
            return sample(oldHour + n * 60, rx: i < 30 ? n * 1000 : nil, tx: 5,
                          temperature: i == 17 ? 83_000 : (i % 3 == 0 ? nil : 40_000 - Int32(i)),
                          root: i < 20 ? 5000 + UInt32(i) : nil)
        })
        // An hour that measured none of them.
        try db.append(samples: (0..<60).map { sample(oldHour + 3600 + UInt64($0) * 60) })
        try db.applyRetention(nowSeconds: now)
        let rows = try db.samples(from: 0, to: now)
        XCTAssertEqual(rows.map(\.isHourly), [true, true])
        XCTAssertEqual(rows.map(\.rxBytes), [435_000, nil])
        XCTAssertEqual(rows.map(\.txBytes), [300, nil])
        XCTAssertEqual(rows.map(\.cpuTemperatureMilliCelsius), [83_000, nil])
        XCTAssertEqual(rows.map(\.rootUsedPermyriad), [5010, nil])
    }

    func testAnHourlyRowAveragesTheGPUOverTheMinutesThatMeasuredItAndKeepsTheMostVideoMemory() throws {
        let db = try Scratch().open()
        let hour = now - 100 * day
        // GPU busy in the first 10 minutes (1000...1009: 1004.5 → 1005), VRAM in minutes 20-39, largest at 33.
        var minutes: [MinuteSample] = []
        for i in 0..<60 {
            let busy: UInt32? = i < 10 ? 1000 + UInt32(i) : nil
            var vram: UInt64? = nil
            if (20..<40).contains(i) { vram = i == 33 ? 5 << 30 : UInt64(i) << 20 }
            minutes.append(sample(hour + UInt64(i) * 60, gpu: busy, vram: vram))
        }
        try db.append(samples: minutes)
        try db.append(samples: (0..<60).map { sample(hour + 3600 + UInt64($0) * 60) })   // an hour without a GPU
        try db.applyRetention(nowSeconds: now)
        // Late minutes into the first hour: weighted by minutes, the larger VRAM kept.
        try db.append(samples: (40..<50).map { sample(hour + UInt64($0) * 60, gpu: 4000, vram: 1 << 20) })
        try db.applyRetention(nowSeconds: now)
        let rows = try db.samples(from: 0, to: now)
        XCTAssertEqual(rows.map(\.isHourly), [true, true])
        XCTAssertEqual(rows.map(\.gpuBusyPermyriad), [1433, nil], "(60 × 1005 + 10 × 4000) / 70, rounded: weighted by minutes, as root_used")
        XCTAssertEqual(rows.map(\.vramUsedBytes), [5 << 30, nil])
    }

    func testLateMinutesMergeTheNewFiguresIntoAnHourAlreadyRolledUp() throws {
        let db = try Scratch().open()
        let hour = now - 100 * day
        try db.append(samples: (0..<30).map { sample(hour + UInt64($0) * 60, rx: 100, temperature: 50_000, root: 4000) })
        try db.applyRetention(nowSeconds: now)
        try db.append(samples: (30..<40).map { sample(hour + UInt64($0) * 60, rx: 7, tx: 9, temperature: 60_000, root: 6000) })
        try db.applyRetention(nowSeconds: now)
        try db.append(samples: [sample(hour + 40 * 60)])   // a late minute without any: nothing changes
        try db.applyRetention(nowSeconds: now)
        let row = try db.samples(from: 0, to: now)
        XCTAssertEqual(row.count, 1)
        XCTAssertEqual(row.first?.rxBytes, 3070)
        XCTAssertEqual(row.first?.txBytes, 90, "a NULL total takes the late minutes' total")
        XCTAssertEqual(row.first?.cpuTemperatureMilliCelsius, 60_000)
        XCTAssertEqual(row.first?.rootUsedPermyriad, 4500)   // (30×4000 + 10×6000) / 40, weighted by minutes
    }

    /// The listed parts' columns roll up as their tables say (fan_rpm and power_mw: the average
    /// over the minutes that gave them), and late minutes merge weighted by minutes.
    func testTheListedPartsColumnsRollUpAndMergeAsTheirTablesSay() throws {
        let db = try Scratch().open()
        let hour = now - 100 * day
        func listed(_ s: MinuteSample, fan: Int64?, milliwatts: Int64?) -> MinuteSample {
            var s = s
            s.listed[0] = fan
            s.listed[1] = milliwatts
            return s
        }
        try db.append(samples: (0..<30).map { listed(sample(hour + UInt64($0) * 60), fan: 1000, milliwatts: $0 < 20 ? 10_000 : nil) })
        try db.applyRetention(nowSeconds: now)
        XCTAssertEqual(try db.samples(from: 0, to: now).first?.listed[0], 1000)
        XCTAssertEqual(try db.samples(from: 0, to: now).first?.listed[1], 10_000, "over the 20 minutes that measured it")
        try db.append(samples: (30..<40).map { listed(sample(hour + UInt64($0) * 60), fan: 2000, milliwatts: 20_000) })
        try db.applyRetention(nowSeconds: now)
        let row = try db.samples(from: 0, to: now)
        XCTAssertEqual(row.count, 1)
        XCTAssertEqual(row.first?.listed[0], 1250, "(30 × 1000 + 10 × 2000) / 40")
        XCTAssertEqual(row.first?.listed[1], 12_500, "(30 × 10000 + 10 × 20000) / 40: weighted by the hour's minutes, as root_used")
    }

    func testHostileCountersSaturateInTheRollupInsteadOfFailingRetentionAndStayIntegers() throws {
        let scratch = try Scratch()
        let db = try scratch.open()
        let hour = now - 100 * day
        try db.append(samples: (0..<3).map { sample(hour + UInt64($0) * 60, rx: .max, tx: UInt64(Int64.max) - 1) })
        try db.applyRetention(nowSeconds: now)
        try db.append(samples: [sample(hour + 300, rx: .max, tx: 5)])
        try db.applyRetention(nowSeconds: now)
        let row = try db.samples(from: 0, to: now).first
        XCTAssertEqual(row?.rxBytes, UInt64(Int64.max))
        XCTAssertEqual(row?.txBytes, UInt64(Int64.max))
        XCTAssertEqual(try db.connection.integer("SELECT count(*) FROM hourly_samples WHERE typeof(rx_bytes) = 'integer' AND typeof(tx_bytes) = 'integer'"), 1)
        let backup = scratch.file("backup.sqlite")
        try db.backup(to: backup)
        XCTAssertEqual(try HistoryDatabase.checkRestorable(backup), HistoryDatabase.schemaVersion, "restore accepts what retention wrote")
    }

    func testAHourStraddlingTheCutoffIsNotRolledUpUntilItIsWholeOld() throws {
        let db = try Scratch().open()
        let cutoff = now - 90 * day
        try db.append(samples: [sample(cutoff - 30 * 60 + 1800), sample(cutoff + 1800 - 60)])
        try db.applyRetention(nowSeconds: now + 1800 - 1)
        XCTAssertEqual(try db.samples(from: 0, to: now).map(\.isHourly), [false, false])
    }

    func testMinutesWrittenLateIntoAnHourAlreadyRolledUpAreMergedWeightedByMinutes() throws {
        let db = try Scratch().open()
        let hour = now - 100 * day
        try db.append(samples: (0..<30).map { sample(hour + UInt64($0) * 60, cpu: 1000, max: 2000) })
        try db.applyRetention(nowSeconds: now)
        try db.append(samples: (30..<40).map { sample(hour + UInt64($0) * 60, cpu: 5000, max: 7000) })
        try db.applyRetention(nowSeconds: now)
        let rows = try db.samples(from: 0, to: now)
        XCTAssertEqual(rows.count, 1)
        XCTAssertEqual(rows.first?.cpuAverage, 2000)   // (30×1000 + 10×5000) / 40
        XCTAssertEqual(rows.first?.cpuMaximum, 7000)
        XCTAssertEqual(try db.connection.integer("SELECT minutes FROM hourly_samples"), 40)
    }

    func testHourlyRowsAndBootsOlderThanTwoYearsAreDeleted() throws {
        let db = try Scratch().open()
        try db.append(samples: [sample(now - 731 * day), sample(now - 729 * day)])
        _ = try db.recordBoot(id: "old", bootTime: now - 740 * day, uptimeSeconds: 1, nowSeconds: now - 731 * day)
        _ = try db.recordBoot(id: "new", bootTime: now - 1000, uptimeSeconds: 1000, nowSeconds: now)
        try db.applyRetention(nowSeconds: now)
        let rows = try db.samples(from: 0, to: now)
        XCTAssertEqual(rows.map(\.minute), [(now - 729 * day) - (now - 729 * day) % 3600])
        XCTAssertEqual(rows.map(\.isHourly), [true])
        XCTAssertEqual(try db.boots().map(\.id), ["new"])
    }

    func testExitsOlderThan90DaysAreDeleted() throws {
        let db = try Scratch().open()
        let old = exitRecord((now - 91 * day) * 1000), kept = exitRecord((now - 89 * day) * 1000)
        try db.append(exits: [old, kept])
        try db.applyRetention(nowSeconds: now)
        XCTAssertEqual(try db.exits(sinceMs: 0), [kept])
    }

    func testRetentionOnAYoungDatabaseChangesNothing() throws {
        let db = try Scratch().open()
        try db.append(samples: [sample(now - 60)])
        try db.append(exits: [exitRecord(now * 1000)])
        try db.applyRetention(nowSeconds: now)
        XCTAssertEqual(try db.samples(from: 0, to: now), [sample(now - 60)])
        XCTAssertEqual(try db.exits(sinceMs: 0), [exitRecord(now * 1000)])
    }
}
