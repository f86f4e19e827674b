import Bookmarks
import Foundation
import HistoryStore
@testable import SysstatsCLI
import XCTest

final class HistoryCommandsTests: XCTestCase {
    func testHistoryTableIsByteExactWithHourlyRowsMarked() throws {
        let f = try HistoryFixture()
        let out = HistoryCommands.history(directory: f.dataDirectory, sinceSeconds: 3 * 3600, json: false, png: nil,
                                          nowSeconds: HistoryFixture.now, zone: .utc)
        XCTAssertEqual(out, CommandOutput(stdout: [
            "time                cpu avg  cpu max  used MiB  avail MiB  swap MiB   load  procs     net rx     net tx  cpu °C  / used    gpu     vram      fan    power  battery",
            "2023-11-14 22:00 h    20.0%    90.0%    2048.0     6144.0       0.0   0.70    110    5.9 KiB          -    71.0   50.5%  50.0%  2.0 GiB  1200rpm    15.0W  -",
            "2023-11-14 23:00      23.5%   100.0%    3072.0     5120.0      50.0   1.23     39    1.2 GiB   34.2 KiB    72.5   61.2%  12.3%  3.2 GiB  2100rpm    12.3W  85.1% discharging",
            "2023-11-14 23:01       0.1%     1.0%       1.5     1024.0       0.0   0.07      1          -          -       -       -      -        -        -        -  -",
            "h: one row per hour (minutes older than 90 days are rolled up: averages of the hour, cpu max, cpu °C and vram its highest minute, net rx and tx its total)",
        ]))
    }

    func testHistoryJSONIsByteExact() throws {
        let f = try HistoryFixture()
        let out = HistoryCommands.history(directory: f.dataDirectory, sinceSeconds: 3 * 3600, json: true, png: nil,
                                          nowSeconds: HistoryFixture.now, zone: .utc)
        XCTAssertEqual(out, CommandOutput(stdout: [
            #"{"from":1699995600,"samples":["#
            + #"{"battery":null,"cpu_avg_percent":20,"cpu_celsius":71,"cpu_max_percent":90,"fan_rpm":1200,"gpu_busy_percent":50.01,"hourly":true,"load1":0.7,"mem_available_mib":6144,"mem_used_mib":2048,"power_watts":15,"processes":110,"root_used_percent":50.51,"rx_bytes":6000,"swap_used_mib":0,"time":1699999200,"tx_bytes":null,"vram_used_bytes":2147483648},"#
            + #"{"battery":{"percent":85.12,"state":"discharging"},"cpu_avg_percent":23.45,"cpu_celsius":72.45,"cpu_max_percent":100,"fan_rpm":2100,"gpu_busy_percent":12.34,"hourly":false,"load1":1.23,"mem_available_mib":5120,"mem_used_mib":3072,"power_watts":12.345,"processes":39,"root_used_percent":61.23,"rx_bytes":1288490189,"swap_used_mib":50,"time":1700002800,"tx_bytes":35021,"vram_used_bytes":3435973837},"#
            + #"{"battery":null,"cpu_avg_percent":0.05,"cpu_celsius":null,"cpu_max_percent":0.99,"fan_rpm":null,"gpu_busy_percent":null,"hourly":false,"load1":0.07,"mem_available_mib":1024,"mem_used_mib":1.5,"power_watts":null,"processes":1,"root_used_percent":null,"rx_bytes":null,"swap_used_mib":0,"time":1700002860,"tx_bytes":null,"vram_used_bytes":null}"#
            + #"],"to":1700006401}"#,
        ]))
    }

    func testByteCountsAndTemperaturesAreFormattedInBinaryUnitsAndOneDecimal() {
        XCTAssertEqual([0, 1023, 1024, 1075, 1_048_550, 1_048_576, 35_021, 1_288_490_189, 1 << 50, .max].map(Columns.bytes),
                       ["0 B", "1023 B", "1.0 KiB", "1.0 KiB", "1.0 MiB", "1.0 MiB", "34.2 KiB", "1.2 GiB", "1.0 PiB", "16.0 EiB"])
        XCTAssertEqual([0, 49, 50, 52_349, 72_450, -1_250, -49, Int32.max, Int32.min].map(Columns.celsiusOneDecimal),
                       ["0.0", "0.0", "0.1", "52.3", "72.5", "-1.3", "0.0", "2147483.6", "-2147483.6"])
    }

    func testHistoryOfAnEmptyPeriodPrintsTheHeaderAndSaysSoOnStderr() throws {
        let f = try HistoryFixture()
        let out = HistoryCommands.history(directory: f.dataDirectory, sinceSeconds: 600, json: false, png: nil,
                                          nowSeconds: HistoryFixture.now + 86_400, zone: .utc)
        XCTAssertEqual(out.status, 0)
        XCTAssertEqual(out.stdout.count, 1)
        XCTAssertEqual(out.stderr, ["sysstats: no samples since 2023-11-15 23:50 in \(f.databasePath)"])
    }

    func testMissingDatabaseIsOneLineAndExitOne() throws {
        let dir = try TemporaryDirectory()
        let path = HistoryDatabase.databasePath(in: dir.path)
        for out in [HistoryCommands.history(directory: dir.path, sinceSeconds: 60, json: false, png: nil),
                    HistoryCommands.reboots(directory: dir.path, json: false),
                    HistoryCommands.exited(directory: dir.path, sinceSeconds: 60, json: true),
                    HistoryCommands.backup(directory: dir.path, to: dir.file("b.sqlite"), force: false)] {
            XCTAssertEqual(out, CommandOutput(stderr: ["sysstats: " + HistoryAccess.missingMessage(path: path)], status: 1))
            XCTAssertTrue(out.stderr[0].hasPrefix("sysstats: no history yet at \(path): "))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [], "reading created files")
    }

    func testDataDirectoryDefaultsLikeTheStore() {
        XCTAssertEqual(try? HistoryAccess.dataDirectory(option: "/d", xdgDataHome: "/x", home: "/h").get(), "/d")
        XCTAssertEqual(try? HistoryAccess.dataDirectory(option: nil, xdgDataHome: "/x", home: "/h").get(), "/x/sysstats")
        XCTAssertEqual(try? HistoryAccess.dataDirectory(option: nil, xdgDataHome: "rel", home: "/h").get(), "/h/.local/share/sysstats")
        XCTAssertNil(try? HistoryAccess.dataDirectory(option: nil, xdgDataHome: nil, home: nil).get())
    }

    func testRebootsShowCleanUncleanAndRunning() throws {
        let f = try HistoryFixture()
        let out = HistoryCommands.reboots(directory: f.dataDirectory, json: false,
                                          currentBootID: HistoryFixture.bootIDs[2], zone: .utc)
        XCTAssertEqual(out, CommandOutput(stdout: [
            "boot time         ran for         end",
            "2023-11-13 22:00  3 h 5 min       clean",
            "2023-11-14 10:53  2 d 2 h         unclean: crash or power loss",
            "2023-11-14 22:00  12 min          running",
        ]))
        let json = HistoryCommands.reboots(directory: f.dataDirectory, json: true,
                                           currentBootID: HistoryFixture.bootIDs[2], zone: .utc)
        XCTAssertEqual(json.stdout, [
            #"[{"boot_id":"11111111-1111-4111-8111-111111111111","boot_time":1699912800,"end":"clean","last_seen_time":1699923900,"last_seen_uptime_seconds":11100},"#
            + #"{"boot_id":"22222222-2222-4222-8222-222222222222","boot_time":1699959200,"end":"unclean","last_seen_time":1699969200,"last_seen_uptime_seconds":180000},"#
            + #"{"boot_id":"33333333-3333-4333-8333-333333333333","boot_time":1699999200,"end":"running","last_seen_time":1699999920,"last_seen_uptime_seconds":720}]"#,
        ])
    }

    func testTheLatestBootWithoutACleanMarkIsUncleanWhenItIsNotTheCurrentBoot() throws {
        let f = try HistoryFixture()
        let out = HistoryCommands.reboots(directory: f.dataDirectory, json: false,
                                          currentBootID: "44444444-4444-4444-8444-444444444444", zone: .utc)
        XCTAssertEqual(out.stdout.last, "2023-11-14 22:00  12 min          unclean: crash or power loss")
    }

    func testExitedEscapesAHostileName() throws {
        let f = try HistoryFixture()
        let out = HistoryCommands.exited(directory: f.dataDirectory, sinceSeconds: 3 * 3600, json: false,
                                         nowSeconds: HistoryFixture.now, zone: .utc)
        XCTAssertEqual(out, CommandOutput(stdout: [
            "time                     pid  freed MiB  last MiB  name",
            "2023-11-14 23:00:00     4242        6.0       8.0  make",
            #"2023-11-14 23:01:00        7        0.5       1.0  \x1b[2Jev\nil\xff\u{202e}\u{9b}\\é"#,
        ]))
        for line in out.stdout {
            XCTAssertFalse(line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E },
                           "a control character would reach the terminal: \(line)")
        }
        let json = HistoryCommands.exited(directory: f.dataDirectory, sinceSeconds: 3 * 3600, json: true,
                                          nowSeconds: HistoryFixture.now, zone: .utc)
        XCTAssertEqual(json.stdout, [
            #"[{"freed_mib":6,"friendly_name":null,"last_private_mib":8,"name":"make","name_hex":"6d616b65","pid":4242,"time_ms":1700002800250},"#
            + #"{"freed_mib":0.5,"friendly_name":null,"last_private_mib":1,"name":"\\x1b[2Jev\\nil\\xff\\u{202e}\\u{9b}\\\\é","name_hex":"1b5b324a65760a696cffe280aec29b5cc3a9","pid":7,"time_ms":1700002860000}]"#,
        ])
    }

    func testExitedSinceLeavesOutOlderExits() throws {
        let f = try HistoryFixture()
        let out = HistoryCommands.exited(directory: f.dataDirectory, sinceSeconds: 3600 - 30, json: false,
                                         nowSeconds: HistoryFixture.now, zone: .utc)
        XCTAssertEqual(out.stdout.count, 2)
        XCTAssertTrue(out.stdout[1].hasPrefix("2023-11-14 23:01:00        7"))
    }

    func testTopExitedListsTheNewestFirstAndAtMostCount() throws {
        let f = try HistoryFixture()
        let all = HistoryCommands.exited(directory: f.dataDirectory, sinceSeconds: 86_400, json: false,
                                         nowSeconds: HistoryFixture.now, zone: .utc)
        let newest = HistoryCommands.exited(directory: f.dataDirectory, sinceSeconds: 86_400, json: false, newestFirst: true,
                                            nowSeconds: HistoryFixture.now, zone: .utc)
        XCTAssertEqual(all.stdout.count, 3)
        XCTAssertEqual(newest.stdout, [all.stdout[0]] + all.stdout.dropFirst().reversed())
        let one = HistoryCommands.exited(directory: f.dataDirectory, sinceSeconds: 86_400, json: false, newestFirst: true,
                                         limit: 1, nowSeconds: HistoryFixture.now, zone: .utc)
        XCTAssertEqual(one.stdout, Array(newest.stdout.prefix(2)))
    }

    func testSanitizeKeepsPrintableTextAndEscapesEverythingElse() {
        XCTAssertEqual(TerminalText.escape(Array("firefox-bin (x86)".utf8)), "firefox-bin (x86)")
        XCTAssertEqual(TerminalText.escape([0x00, 0x07, 0x09, 0x7F]), #"\x00\x07\t\x7f"#)
        XCTAssertEqual(TerminalText.escape([0xC0, 0xAF]), #"\xc0\xaf"#, "an overlong encoding is not decoded")
        XCTAssertEqual(TerminalText.escape([0xED, 0xA0, 0x80]), #"\xed\xa0\x80"#, "a surrogate is not decoded")
        XCTAssertEqual(TerminalText.escape([0xE2, 0x80]), #"\xe2\x80"#, "a cut sequence")
        XCTAssertEqual(TerminalText.escape(Array("日本\u{2028}".utf8)), #"日本\u{2028}"#)
        // C1 controls (0x9B is CSI), bidi controls and invisible marks as \u{…}; a raw 0x9B byte as \x9b.
        XCTAssertEqual(TerminalText.escape(Array("a\u{9B}2J\u{202E}b\u{2066}c\u{2069}\u{200E}\u{200F}\u{061C}\u{200B}\u{FEFF}".utf8)),
                       #"a\u{9b}2J\u{202e}b\u{2066}c\u{2069}\u{200e}\u{200f}\u{61c}\u{200b}\u{feff}"#)
        XCTAssertEqual(TerminalText.escape([0x61, 0x9B, 0x5C]), #"a\x9b\\"#)
        XCTAssertEqual(TerminalText.escape(Array("long name".utf8), limit: 4), "long...")
    }
}
