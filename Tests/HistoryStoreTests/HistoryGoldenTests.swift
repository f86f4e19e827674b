import Foundation
@testable import HistoryStore
import SnapshotCodec
import TestSupport
import XCTest

/// The minute and hourly rows a set of minutes gives, written, read back and rolled up by
/// retention (late minutes merged into an hour already rolled up, figures missing in some
/// minutes, every listed column), every value with its SQLite type, byte for byte: the
/// history's columns are made from a table, and moving a column onto it must not change a
/// row. Regenerate only for a deliberate change:
///     SYSSTATS_UPDATE_GOLDEN=1 swift test --filter HistoryGoldenTests
final class HistoryGoldenTests: XCTestCase {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/rows.txt")
    let day: UInt64 = 86_400
    let now: UInt64 = 1_800_000_000 - 1_800_000_000 % 3600

    /// Minute `i` of the test: figures that vary, and each optional figure missing now and then
    /// (the battery state in the third old hour's last minute: the hour takes that NULL).
    private func minute(_ at: UInt64, _ i: Int) -> MinuteSample {
        let n = UInt64(i)
        var listed = FigureValues()
        for c in 0..<min(ListedHistory.columns.count, ListedHistory.maximumColumns) where (i + c) % 4 != 0 {
            listed[c] = Int64(1000 + i * 7 + c)
        }
        return MinuteSample(minute: at, cpuAverage: UInt32(i * 37 % 10_000), cpuMaximum: UInt32(i * 53 % 10_000),
                            memoryUsedKiB: 4_000_000 + n * 977, memoryAvailableKiB: 8_000_000 - n * 313,
                            swapUsedKiB: n % 3 * 1024, load1: UInt32(i * 11 % 900), processCount: UInt32(300 + i % 7),
                            batteryPercent: i % 5 == 0 ? nil : UInt32(9000 - i), batteryState: i % 6 == 0 || i == 179 ? nil : UInt8(i % 4),
                            rxBytes: i % 7 == 0 ? nil : n * 12_345, txBytes: i % 8 == 0 ? nil : n * 321,
                            cpuTemperatureMilliCelsius: i % 9 == 0 ? nil : Int32(40_000 + i * 13),
                            rootUsedPermyriad: i % 10 == 0 ? nil : UInt32(5000 + i), gpuBusyPermyriad: i % 3 == 0 ? nil : UInt32(i * 29 % 10_000),
                            vramUsedBytes: i % 4 == 0 ? nil : n << 20, listed: listed)
    }

    private func dump(_ db: HistoryDatabase, _ table: String) throws -> [String] {
        let columns = try db.connection.statement("SELECT name FROM pragma_table_info('\(table)') ORDER BY cid")
        defer { columns.reset() }
        var names: [String] = []
        while try columns.step() { names.append(String(decoding: columns.blob(0), as: UTF8.self)) }
        let select = names.map { "quote(\($0)) || ':' || typeof(\($0))" }.joined(separator: " || ' ' || ")
        let rows = try db.connection.statement("SELECT \(select) FROM \(table) ORDER BY 1")
        defer { rows.reset() }
        var out = ["\(table): " + names.joined(separator: " ")]
        while try rows.step() { out.append(String(decoding: rows.blob(0), as: UTF8.self)) }
        return out
    }

    func testMinutesRolledUpAndMergedGiveTheGoldenRows() throws {
        let db = try Scratch().open()
        let old = now - 92 * day
        // Three old hours (the second missing its last 20 minutes), and a recent one.
        var minutes: [MinuteSample] = []
        for h in 0..<3 {
            for m in 0..<(h == 1 ? 40 : 60) { minutes.append(minute(old + UInt64(h) * 3600 + UInt64(m) * 60, h * 60 + m)) }
        }
        for m in 0..<30 { minutes.append(minute(now - 3600 + UInt64(m) * 60, 200 + m)) }
        try db.append(samples: minutes)
        var rows = try db.samples(from: 0, to: now).map { "\($0)" }
        try db.applyRetention(nowSeconds: now)
        // The second hour's last minutes, written late, merge into its hourly row.
        try db.append(samples: (40..<60).map { minute(old + 3600 + UInt64($0) * 60, 300 + $0) })
        try db.applyRetention(nowSeconds: now)
        rows += try db.samples(from: 0, to: now).map { "\($0)" }
        let out = (try dump(db, "samples") + dump(db, "hourly_samples") + rows).joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment["SYSSTATS_UPDATE_GOLDEN"] == "1" { try Data(out.utf8).write(to: Self.golden) }
        XCTAssertEqual(out, String(decoding: try Data(contentsOf: Self.golden), as: UTF8.self))
    }
}
