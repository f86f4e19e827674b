@testable import BarCore
import Glibc
import SnapshotCodec
import XCTest

/// A state's own text: `format_down` of net, wifi and battery (i3status's), `format_charging` and
/// `format_full` of battery (waybar's format-charging and format-full); and the
/// placeholders added for imported configs (wifi's `{ip}`, `{down}`, `{up}`, cpu's `{bars}` and
/// `{frequency}`, mem's `{swap_percent}` and `{swap_free}`, disk's `{free_percent}`).
final class StateFormatTests: XCTestCase {
    let now = Fixture.station.nowMs

    func blocks(_ text: String) throws -> [BarBlock] {
        try XCTUnwrap(try Array(text.utf8).withUnsafeBytes { BarConfig.parse($0) }.get().blocks)
    }

    func testFormatDownShowsWhileTheInterfaceIsDownOrAbsentAndAnEmptyOneHidesTheBlock() throws {
        let b = try blocks("""
            [[block]]
            block = "net"
            interface = "enp3s0"
            format = "E: {ip}"
            format_down = "E: down"
            [[block]]
            block = "net"
            interface = "wlan0"
            format = "E: {ip}"
            format_down = "E: down"
            [[block]]
            block = "wifi"
            interface = "enp9s9"
            format_down = "W: down"
            [[block]]
            block = "net"
            interface = "enp3s0"
            format_down = ""
            """)
        XCTAssertEqual(rendered(Fixture.station.snapshot, .text, blocks: b, nowMs: now), "E: down | E: 192.168.1.20 | W: down\n")
    }

    func testBatteryTakesItsChargingAndFullTexts() throws {
        let b = try blocks("""
            [[block]]
            block = "battery"
            format = "BAT {percent}%"
            format_charging = "CHR {percent}%"
            format_full = "FULL"
            format_down = "No battery"
            """)
        var s = Fixture.laptop.snapshot
        XCTAssertEqual(rendered(s, .text, blocks: b, nowMs: now), "BAT 8%\n")
        s.battery.state = .charging
        XCTAssertEqual(rendered(s, .text, blocks: b, nowMs: now), "CHR 8%\n")
        s.battery.state = .full
        XCTAssertEqual(rendered(s, .text, blocks: b, nowMs: now), "FULL\n")
        s.battery.count = 0
        XCTAssertEqual(rendered(s, .text, blocks: b, nowMs: now), "No battery\n", "i3status's text without a battery")
        guard case .failure(let e) = Array("[[block]]\nblock = \"cpu\"\nformat_full = \"x\"\n".utf8).withUnsafeBytes({ BarConfig.parse($0) }) else {
            return XCTFail("only the battery has a full state")
        }
        XCTAssertEqual(String(decoding: e.reason, as: UTF8.self), "unknown key \"format_full\" in this block (man sysstats-config)")
    }

    /// i3status's `%emptytime`: the local clock when the battery will be empty.
    func testUntilIsTheLocalTimeTheBatteryWillBeEmpty() throws {
        setenv("TZ", "UTC", 1)
        tzset()
        defer { unsetenv("TZ"); tzset() }
        var s = Fixture.laptop.snapshot          // discharging, 83 minutes left
        let b = try XCTUnwrap(try Array("[[block]]\nblock = \"battery\"\nformat = \"{remaining} until {until}\"\n".utf8)
            .withUnsafeBytes { BarConfig.parse($0) }.get().blocks)
        let noon: UInt64 = 1_764_417_600_000    // 2025-11-29 12:00:00 UTC
        XCTAssertEqual(rendered(s, .text, blocks: b, nowMs: noon), "1:23 until 13:23\n")
        s.battery.minutesRemaining = .max
        XCTAssertEqual(rendered(s, .text, blocks: b, nowMs: noon), " until \n", "no estimate: both empty")
    }

    /// cpu's `{frequency}` shows the frequency part: a cpu block using it asks for that part too.
    func testAPlaceholderOfAnotherPartAsksForThatPart() throws {
        let b = try blocks("[[block]]\nblock = \"cpu\"\nformat = \"{busy}% {frequency}\"\n[[block]]\nblock = \"cpu\"\n")
        XCTAssertEqual(BlockKind.sectionsShown(by: [b[1]]), .cpu)
        XCTAssertEqual(BlockKind.sectionsShown(by: b), [.cpu, .frequency])
        var formats = BlockFormats()
        try formats.add(Array("cpu={frequency}".utf8)[...])
        XCTAssertEqual(Renderer(output: .text, blocks: [BarBlock(.cpu)], formats: formats).partsShown, [.cpu, .frequency],
                       "a --format asks for it too")
        var s = Fixture.station.snapshot
        s.available.remove(.frequency)
        XCTAssertTrue(rendered(s, .text, blocks: [b[0]], nowMs: now).hasSuffix("% n/a\n"), "without the part: n/a, never 0.0")
    }

    func testTheLinkSpeedIsWrittenAsI3statusWritesIt() {
        for (mbps, text) in [(UInt32(100), "100 Mbit/s"), (1000, "1000 Mbit/s"), (2500, "2.5 Gbit/s"), (10_000, "10 Gbit/s"),
                             (0, "0 Mbit/s"), (Snapshot.unreadableLinkSpeed, "?")] {
            var w = ByteWriter(capacity: 32)
            NetBlock.appendSpeed(mbps, into: &w)
            XCTAssertEqual(String(decoding: w.bytes, as: UTF8.self), text)
        }
    }

    func testTheImportsPlaceholdersShowTheirFigures() throws {
        let b = try blocks("""
            [[block]]
            block = "wifi"
            format = "{ssid} {ip} {down} {up}"
            [[block]]
            block = "disk"
            format = "{free_percent}% free"
            [[block]]
            block = "cpu"
            format = "{bars}"
            [[block]]
            block = "mem"
            format = "swap {swap_percent}% {swap_free}"
            [[block]]
            block = "cpu"
            format = "{frequency}GHz"
            """)
        XCTAssertEqual(rendered(Fixture.station.snapshot, .text, blocks: b, nowMs: now),
                       "HomeNet 192.168.1.20 1.2M/s 34K/s | 66% free | ▁▂█▁ | swap 25% 1.5G | 2.3GHz\n")
    }
}

/// `color`: a built-in block's own i3bar colour while it is normal (polybar's
/// format-foreground, i3status's per-module colour); the warning and critical colours win.
final class BlockColourTests: XCTestCase {
    func testABlocksOwnColourShowsWhileNormalAndGivesWayToItsLevels() throws {
        let blocks = try XCTUnwrap(try Array("""
            [[block]]
            block = "load"
            color = "#88C0D0"
            [[block]]
            block = "load"
            color = "#88C0D0"
            warning = 0.1
            [[block]]
            block = "time"
            color = "#A3BE8CFF"
            """.utf8).withUnsafeBytes { BarConfig.parse($0) }.get().blocks)
        let line = rendered(Fixture.desktop.snapshot, .i3bar, blocks: blocks, nowMs: Fixture.desktop.nowMs)
        let parsed = try XCTUnwrap(parseJSON(line) as? [[String: Any]])
        XCTAssertEqual(parsed.map { $0["color"] as? String }, ["#88C0D0", String(decoding: Theme().warning, as: UTF8.self), "#A3BE8CFF"])
        guard case .failure(let e) = Array("[[block]]\nblock = \"cpu\"\ncolor = \"red\"\n".utf8).withUnsafeBytes({ BarConfig.parse($0) }) else {
            return XCTFail("a colour that is not #RRGGBB was taken")
        }
        XCTAssertEqual(String(decoding: e.reason, as: UTF8.self), "a colour is \"#RRGGBB\" or \"#RRGGBBAA\"")
    }
}
