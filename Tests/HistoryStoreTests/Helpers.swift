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
            battery: UInt32? = nil, state: UInt8? = nil) -> MinuteSample {
    MinuteSample(minute: minute, cpuAverage: cpu, cpuMaximum: max ?? cpu + 100, memoryUsedKiB: used,
                 memoryAvailableKiB: used > 12_000_000 ? 0 : 12_000_000 - used, swapUsedKiB: 1024, load1: 87, processCount: 312,
                 batteryPercent: battery, batteryState: state)
}

func exitRecord(_ timeMs: UInt64, name: [UInt8] = Array("firefox".utf8), friendly: String? = nil) -> ExitRecord {
    ExitRecord(timeMs: timeMs, pid: 4242, name: name, friendlyName: friendly, lastPrivateKiB: 512_000, freedKiB: 498_000)
}

/// A database with a day of samples, some exits and a boot, closed, at `path`.
func makePopulatedDatabase(_ path: String, start: UInt64 = 1_750_000_020, minutes: Int = 1440, exits: Int = 50) throws {
    let db = try HistoryDatabase(path: path)
    _ = try db.recordBoot(id: "1eddd26a-bed7-45c3-88ca-11e106c23142", bootTime: start - 100, uptimeSeconds: 100, nowSeconds: start)
    try db.append(samples: (0..<minutes).map { sample(start - start % 60 + UInt64($0) * 60, cpu: UInt32($0 % 10_000)) })
    try db.append(exits: (0..<exits).map { exitRecord(start * 1000 + UInt64($0) * 1000, name: Array("proc-\($0)".utf8)) })
    db.close()
}
