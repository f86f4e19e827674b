import Foundation
@testable import HistoryStore
import TestSupport
import XCTest

/// The bytes per day of history that docs/history.md reports.
final class SizeTests: XCTestCase {
    private func fileSize(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    /// A realistic day: 1440 minute samples with a battery, network traffic, a CPU temperature
    /// and the root file system's use, 200 exits with 8–15 byte names.
    private func appendDay(_ db: HistoryDatabase, day: UInt64) throws {
        let start: UInt64 = 1_800_000_000 - 1_800_000_000 % 86_400 + day * 86_400
        var samples: [MinuteSample] = []
        for i in 0..<UInt64(1440) {
            samples.append(MinuteSample(minute: start + i * 60, cpuAverage: UInt32(300 + (i * 37) % 4000),
                                        cpuMaximum: UInt32(1500 + (i * 53) % 8500), memoryUsedKiB: 5_800_000 + (i * 911) % 900_000,
                                        memoryAvailableKiB: 9_900_000 - (i * 911) % 900_000, swapUsedKiB: 120_000 + i % 64,
                                        load1: UInt32(40 + i % 300), processCount: UInt32(300 + i % 40),
                                        batteryPercent: UInt32(10_000 - i * 5), batteryState: 2,
                                        rxBytes: 40_000 + (i * 7919) % 30_000_000, txBytes: 9_000 + (i * 104_729) % 2_000_000,
                                        cpuTemperatureMilliCelsius: 42_000 + Int32((i * 13) % 40_000),
                                        rootUsedPermyriad: UInt32(6_100 + i / 100)))
        }
        try db.append(samples: samples)
        let names = ["firefox", "Isolated Web Co", "cc1plus", "swift-frontend", "rustc", "node", "python3", "chromium"]
        try db.append(exits: (0..<UInt64(200)).map { i in
            ExitRecord(timeMs: (start + i * 400) * 1000 + 123, pid: UInt32(10_000 + i * 7), name: Array(names[Int(i) % names.count].utf8),
                       lastPrivateKiB: 20_000 + i * 1000, freedKiB: 18_000 + i * 900)
        })
    }

    func testAWeekOfHistoryGrowsTheFileByLessThan128KiBPerDay() throws {
        let scratch = try Scratch()
        let db = try scratch.open()
        _ = try db.recordBoot(id: "1eddd26a-bed7-45c3-88ca-11e106c23142", bootTime: 1, uptimeSeconds: 1, nowSeconds: 2)
        try db.checkpoint()
        let empty = try fileSize(scratch.databasePath)
        for day in 0..<UInt64(7) { try appendDay(db, day: day) }
        try db.checkpoint()
        let week = try fileSize(scratch.databasePath)
        try db.connection.execute("VACUUM")
        try db.checkpoint()
        let vacuumed = try fileSize(scratch.databasePath)
        let perDay = (week - empty) / 7, perDayVacuumed = (vacuumed - empty) / 7
        print("history size: empty \(empty) B, after 7 days \(week) B (\(perDay) B/day), after VACUUM \(vacuumed) B (\(perDayVacuumed) B/day)")

        // The same week once rolled up (older than 90 days): 24 hourly rows a day, exits gone.
        try db.applyRetention(nowSeconds: 1_800_000_000 + 200 * 86_400)
        try db.connection.execute("VACUUM")
        try db.checkpoint()
        let rolled = try fileSize(scratch.databasePath)
        print("history size: the week rolled up to hours \(rolled) B (\((rolled - empty) / 7) B/day)")
        XCTAssertLessThan(perDay, 128 * 1024)
        XCTAssertLessThan(rolled, week)
    }
}
