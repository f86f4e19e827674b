import CSQLite
import Foundation
@testable import HistoryStore
import TestSupport
import XCTest

/// A fresh temporary folder with a history database path in it.
final class Scratch {
    let directory: TemporaryDirectory
    var databasePath: String { directory.file(HistoryDatabase.fileName) }

    init(_ label: String = "history") throws { directory = try TemporaryDirectory(label) }

    func file(_ name: String) -> String { directory.file(name) }

    func open(readOnly: Bool = false) throws -> HistoryDatabase {
        try HistoryDatabase(path: databasePath, readOnly: readOnly)
    }
}

/// A raw read-write connection (creating the file), for building foreign or damaged files.
func rawConnection(_ path: String) throws -> Connection {
    try Connection(path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
}

func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

func writeBytes(_ content: [UInt8], _ path: String) throws { try Data(content).write(to: URL(fileURLWithPath: path)) }

func fileExists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

func sample(_ minute: UInt64, cpu: UInt32 = 1234, max: UInt32? = nil, used: UInt64 = 4_000_000,
            battery: UInt32? = nil, state: UInt8? = nil, rx: UInt64? = nil, tx: UInt64? = nil,
            temperature: Int32? = nil, root: UInt32? = nil, gpu: UInt32? = nil, vram: UInt64? = nil) -> MinuteSample {
    MinuteSample(minute: minute, cpuAverage: cpu, cpuMaximum: max ?? cpu + 100, memoryUsedKiB: used,
                 memoryAvailableKiB: used > 12_000_000 ? 0 : 12_000_000 - used, swapUsedKiB: 1024, load1: 87, processCount: 312,
                 batteryPercent: battery, batteryState: state, rxBytes: rx, txBytes: tx,
                 cpuTemperatureMilliCelsius: temperature, rootUsedPermyriad: root, gpuBusyPermyriad: gpu, vramUsedBytes: vram)
}

func exitRecord(_ timeMs: UInt64, name: [UInt8] = Array("firefox".utf8), friendly: String? = nil) -> ExitRecord {
    ExitRecord(timeMs: timeMs, pid: 4242, name: name, friendlyName: friendly, lastPrivateKiB: 512_000, freedKiB: 498_000)
}

/// A database with a day of samples, some exits and a boot, closed, at `path`.
func makePopulatedDatabase(_ path: String, start: UInt64 = 1_750_000_020, minutes: Int = 1440, exits: Int = 50) throws {
    let db = try HistoryDatabase(path: path)
    _ = try db.recordBoot(id: "1eddd26a-bed7-45c3-88ca-11e106c23142", bootTime: start - 100, uptimeSeconds: 100, nowSeconds: start)
    // Every other minute with network, temperature and root disk figures, the others without.
    try db.append(samples: (0..<minutes).map {
        let measured = $0 % 2 == 0
        return sample(start - start % 60 + UInt64($0) * 60, cpu: UInt32($0 % 10_000), rx: measured ? UInt64($0) * 1_000_003 : nil,
                      tx: measured ? UInt64($0) : nil, temperature: measured ? 40_000 + Int32($0) : nil,
                      root: measured ? UInt32($0 % 10_001) : nil)
    })
    try db.append(exits: (0..<exits).map { exitRecord(start * 1000 + UInt64($0) * 1000, name: Array("proc-\($0)".utf8)) })
    db.close()
}

/// A database as a build of schema version 2 left it (before the network, temperature and
/// root disk columns), closed, at `path`: a boot, a day of minutes (every other one with a
/// battery), one hourly row, exits and a bookmark, written with version 2's own columns.
func makeVersionTwoDatabase(_ path: String, minutes: Int = 1440) throws {
    let raw = try rawConnection(path)
    try Schema.migrate(raw, migrations: Array(Schema.migrations.prefix(2)))
    try raw.execute("""
        INSERT INTO boots (boot_id, boot_time, first_seen_time, last_seen_uptime, last_seen_time, clean_end)
            VALUES ('1eddd26a-bed7-45c3-88ca-11e106c23142', 1799990000, 1799990010, 86400, 1800086400, 1);
        WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < \(minutes))
        INSERT INTO samples (minute, cpu_avg, cpu_max, mem_used_kib, mem_available_kib, swap_used_kib, load1,
                             process_count, battery_percent, battery_state)
            SELECT 1800000000 + i * 60, i % 10000, 10000, 4000000 + i, 8000000 - i, 1024, 87, 312,
                   CASE WHEN i % 2 = 0 THEN 8512 END, CASE WHEN i % 2 = 0 THEN 2 END FROM n;
        INSERT INTO hourly_samples (hour, minutes, cpu_avg, cpu_max, mem_used_kib, mem_available_kib, swap_used_kib,
                                    load1, process_count, battery_percent, battery_state)
            VALUES (1799996400, 60, 2950, 9000, 1030, 2000, 5, 100, 301, NULL, NULL);
        INSERT INTO exits (time_ms, pid, name, friendly_name, last_private_kib, freed_kib)
            VALUES (1800000000123, 42, X'FF006E616D65', NULL, 1, 2), (1800000060000, 43, X'6D616B65', 'Make', 3, 4);
        INSERT INTO bookmarks (kind, pattern, friendly_name, source, created_at, strip)
            VALUES ('comm', X'586F7267', 'X server', 'user', 1, 'none');
        """)
    XCTAssertEqual(try raw.integer("PRAGMA user_version"), 2)
    raw.close()
}

/// The rows ``makeVersionTwoDatabase(_:minutes:)`` wrote, as `samples(from:to:)` reads them.
func versionTwoSamples(minutes: Int = 1440) -> [MinuteSample] {
    [MinuteSample(minute: 1_799_996_400, cpuAverage: 2950, cpuMaximum: 9000, memoryUsedKiB: 1030, memoryAvailableKiB: 2000,
                  swapUsedKiB: 5, load1: 100, processCount: 301, isHourly: true)]
        + (0..<UInt64(minutes)).map { i in
            MinuteSample(minute: 1_800_000_000 + i * 60, cpuAverage: UInt32(i % 10_000), cpuMaximum: 10_000,
                         memoryUsedKiB: 4_000_000 + i, memoryAvailableKiB: 8_000_000 - i, swapUsedKiB: 1024, load1: 87,
                         processCount: 312, batteryPercent: i % 2 == 0 ? 8512 : nil, batteryState: i % 2 == 0 ? 2 : nil)
        }
}

/// A database as a build of schema version 3 left it (before the GPU columns), closed, at
/// `path`: version 2's rows (``makeVersionTwoDatabase(_:minutes:)``), migrated by version 3,
/// every other minute then given network, temperature and root figures.
func makeVersionThreeDatabase(_ path: String, minutes: Int = 1440) throws {
    try makeVersionTwoDatabase(path, minutes: minutes)
    let raw = try rawConnection(path)
    try Schema.migrate(raw, migrations: Array(Schema.migrations.prefix(3)))
    try raw.execute("""
        UPDATE samples SET rx_bytes = minute, tx_bytes = 7, cpu_temp_mc = -1500, root_used = 5000 WHERE minute % 120 = 0;
        """)
    XCTAssertEqual(try raw.integer("PRAGMA user_version"), 3)
    raw.close()
}

/// The rows ``makeVersionThreeDatabase(_:minutes:)`` wrote, as `samples(from:to:)` reads them.
func versionThreeSamples(minutes: Int = 1440) -> [MinuteSample] {
    versionTwoSamples(minutes: minutes).map { s in
        guard !s.isHourly, s.minute % 120 == 0 else { return s }
        var m = s
        m.rxBytes = s.minute; m.txBytes = 7; m.cpuTemperatureMilliCelsius = -1500; m.rootUsedPermyriad = 5000
        return m
    }
}
