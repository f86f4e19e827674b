import Foundation
import HistoryStore
@testable import SysstatsCLI
import TestSupport
import XCTest

/// The read-only commands on a data directory whose file system is full (a small tmpfs;
/// skipped where mounting is not allowed). Before, each said "disk I/O error".
final class FullDiskCommandsTests: XCTestCase {
    func testReadOnlyCommandsWorkOnAFullDataDisk() throws {
        let disk: SmallFileSystem
        do { disk = try SmallFileSystem(kilobytes: 1024) } catch let error as SmallFileSystem.Unavailable {
            throw XCTSkip("\(error)")
        }
        let data = disk.file("data")
        let database = try HistoryDatabase(path: HistoryDatabase.databasePath(in: data))
        _ = try database.recordBoot(id: "1eddd26a-bed7-45c3-88ca-11e106c23142", bootTime: 1_750_000_000,
                                    uptimeSeconds: 60, nowSeconds: 1_750_000_060)
        try database.append(samples: [MinuteSample(minute: 1_750_000_020, cpuAverage: 1000, cpuMaximum: 2000,
                                                   memoryUsedKiB: 1024, memoryAvailableKiB: 2048, swapUsedKiB: 0,
                                                   load1: 10, processCount: 100)])
        try database.append(exits: [ExitRecord(timeMs: 1_750_000_030_000, pid: 42, name: Array("firefox".utf8),
                                               friendlyName: nil, lastPrivateKiB: 1024, freedKiB: 512)])
        database.close()
        disk.fill()
        XCTAssertEqual(disk.availableBytes, 0)
        let elsewhere = try TemporaryDirectory("full-disk-out")
        let now: UInt64 = 1_750_000_100
        let outputs: [(String, CommandOutput)] = [
            ("history", HistoryCommands.history(directory: data, sinceSeconds: 3600, json: false, png: nil, nowSeconds: now, zone: .utc)),
            ("reboots", HistoryCommands.reboots(directory: data, json: false, currentBootID: nil, zone: .utc)),
            ("exited", HistoryCommands.exited(directory: data, sinceSeconds: 3600, json: false, nowSeconds: now, zone: .utc)),
            ("top --exited", HistoryCommands.exited(directory: data, sinceSeconds: 3600, json: false, newestFirst: true, limit: 5,
                                                    nowSeconds: now, zone: .utc)),
            ("bookmarks list", BookmarkCommands.list(directory: data, source: nil, json: false)),
            ("bookmarks export", BookmarkCommands.export(directory: data, to: elsewhere.file("rules"), all: true, force: false)),
            ("backup", HistoryCommands.backup(directory: data, to: elsewhere.file("backup.sqlite"), force: false)),
        ]
        for (command, output) in outputs {
            XCTAssertEqual(output.status, 0, "\(command): \(output.stderr)")
        }
        XCTAssertTrue(outputs[0].1.stdout.contains { $0.contains("10.0") }, "\(outputs[0].1.stdout)")
        XCTAssertTrue(outputs[2].1.stdout.contains { $0.contains("firefox") }, "\(outputs[2].1.stdout)")
    }
}
