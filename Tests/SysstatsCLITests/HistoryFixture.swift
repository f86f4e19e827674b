import Foundation
import HistoryStore
import SnapshotCodec

/// A data directory holding a history database with known rows, built through
/// HistoryDatabase's write API (the sampler does not write history yet).
final class HistoryFixture {
    let directory: TemporaryDirectory
    var dataDirectory: String { directory.file("data") }
    var databasePath: String { HistoryDatabase.databasePath(in: dataDirectory) }

    /// 2023-11-14 22:00:00 UTC, the start of an hour.
    static let base: UInt64 = 1_699_999_200
    /// "Now" for the fixture: two hours after `base`.
    static let now: UInt64 = base + 7200

    /// The listed parts' history figures: the first fan's speed and the system's power.
    static func listed(fan: Int64, milliwatts: Int64) -> FigureValues {
        var values = FigureValues()
        values[0] = fan
        values[1] = milliwatts
        return values
    }

    /// Three minutes of the hour at `base` (rolled up into one hourly row: traffic received in
    /// each, sent in none, the hottest minute 71 °C, / used and the GPU in two), then two minute rows at
    /// `base + 1 h` (with and without a battery, with every newer figure and with none);
    /// three boots; two exits.
    init() throws {
        directory = try TemporaryDirectory()
        let database = try HistoryDatabase(path: databasePath)
        defer { database.close() }
        let b = Self.base
        try database.append(samples: [
            MinuteSample(minute: b, cpuAverage: 1000, cpuMaximum: 4000, memoryUsedKiB: 2_097_152,
                         memoryAvailableKiB: 6_291_456, swapUsedKiB: 0, load1: 50, processCount: 100,
                         rxBytes: 1000, cpuTemperatureMilliCelsius: 45_000, rootUsedPermyriad: 5000,
                         gpuBusyPermyriad: 4000, vramUsedBytes: 1 << 30, listed: Self.listed(fan: 1000, milliwatts: 10_000)),
            MinuteSample(minute: b + 60, cpuAverage: 2000, cpuMaximum: 9000, memoryUsedKiB: 2_097_152,
                         memoryAvailableKiB: 6_291_456, swapUsedKiB: 0, load1: 70, processCount: 110,
                         rxBytes: 2000, cpuTemperatureMilliCelsius: 71_000, rootUsedPermyriad: 5101,
                         gpuBusyPermyriad: 6001, vramUsedBytes: 2 << 30, listed: Self.listed(fan: 1400, milliwatts: 20_000)),
            MinuteSample(minute: b + 120, cpuAverage: 3000, cpuMaximum: 5000, memoryUsedKiB: 2_097_152,
                         memoryAvailableKiB: 6_291_456, swapUsedKiB: 0, load1: 90, processCount: 120,
                         rxBytes: 3000, cpuTemperatureMilliCelsius: 52_000),
        ])
        try database.applyRetention(nowSeconds: Self.now, policy: RetentionPolicy(
            minuteSamplesSeconds: 3600, hourlySamplesSeconds: 730 * 86_400, exitsSeconds: 730 * 86_400))
        try database.append(samples: [
            MinuteSample(minute: b + 3600, cpuAverage: 2345, cpuMaximum: 10_000, memoryUsedKiB: 3_145_728,
                         memoryAvailableKiB: 5_242_880, swapUsedKiB: 51_200, load1: 123, processCount: 39,
                         batteryPercent: 8512, batteryState: 2, rxBytes: 1_288_490_189, txBytes: 35_021,
                         cpuTemperatureMilliCelsius: 72_450, rootUsedPermyriad: 6123,
                         gpuBusyPermyriad: 1234, vramUsedBytes: 3_435_973_837, listed: Self.listed(fan: 2100, milliwatts: 12_345)),
            MinuteSample(minute: b + 3660, cpuAverage: 5, cpuMaximum: 99, memoryUsedKiB: 1536,
                         memoryAvailableKiB: 1_048_576, swapUsedKiB: 0, load1: 7, processCount: 1),
        ])
        _ = try database.recordBoot(id: Self.bootIDs[0], bootTime: b - 86_400, uptimeSeconds: 60, nowSeconds: b - 86_340)
        try database.markBootClean(id: Self.bootIDs[0], uptimeSeconds: 3 * 3600 + 300, nowSeconds: b - 86_400 + 3 * 3600 + 300)
        _ = try database.recordBoot(id: Self.bootIDs[1], bootTime: b - 40_000, uptimeSeconds: 30, nowSeconds: b - 39_970)
        try database.refreshBoot(id: Self.bootIDs[1], uptimeSeconds: 2 * 86_400 + 7200, nowSeconds: b - 30_000)
        _ = try database.recordBoot(id: Self.bootIDs[2], bootTime: b, uptimeSeconds: 45, nowSeconds: b + 45)
        try database.refreshBoot(id: Self.bootIDs[2], uptimeSeconds: 720, nowSeconds: b + 720)
        try database.append(exits: [
            ExitRecord(timeMs: (b + 3600) * 1000 + 250, pid: 4242, name: Array("make".utf8),
                       lastPrivateKiB: 8192, freedKiB: 6144),
            ExitRecord(timeMs: (b + 3660) * 1000, pid: 7, name: [0x1B, 0x5B, 0x32, 0x4A, 0x65, 0x76, 0x0A, 0x69, 0x6C, 0xFF,
                                                                0xE2, 0x80, 0xAE, 0xC2, 0x9B, 0x5C, 0xC3, 0xA9],
                       lastPrivateKiB: 1024, freedKiB: 512),
        ])
    }

    static let bootIDs = ["11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222",
                          "33333333-3333-4333-8333-333333333333"]

    /// The file's bytes.
    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The folder's names, sorted.
    func listing() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dataDirectory).sorted()
    }
}
