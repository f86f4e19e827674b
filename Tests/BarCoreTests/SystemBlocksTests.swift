import BarCore
import SnapshotCodec
import XCTest

/// The net, wifi, disk, diskio, temp and freq blocks over a snapshot that has every newer part.
final class SystemBlocksTests: XCTestCase {
    let now = Fixture.desktop.nowMs

    /// A laptop on Wi-Fi with a docked Ethernet cable out, two disks, two sensors.
    static func station() -> Snapshot {
        var s = Fixture.desktop.snapshot
        Fixture.addSystemParts(&s)
        return s
    }

    func text(_ s: Snapshot, _ blocks: [BarBlock], format: String? = nil) throws -> String {
        rendered(s, .text, blocks: blocks, formats: try format.map { try formats($0) } ?? BlockFormats(), nowMs: now)
    }

    func block(_ kind: BlockKind, _ argument: String = "") -> BarBlock { BarBlock(kind, argument: Array(argument.utf8)) }

    func testEachBlockTextByDefault() throws {
        let s = Self.station()
        XCTAssertEqual(try text(s, [block(.net), block(.wifi), block(.disk), block(.diskio), block(.temp), block(.freq)]),
                       "net wlan0 192.168.1.20 ↓1.2M/s ↑34K/s | wifi HomeNet 72% 866M | disk / 75.0G free | io r 1.3M/s w 293K/s | temp 52°C | freq 2.3/4.6GHz\n")
    }

    func testArgumentsPickTheInterfaceMountDiskAndSensor() throws {
        let s = Self.station()
        XCTAssertEqual(try text(s, [block(.net, "enp3s0"), block(.disk, "/home"), block(.diskio, "sda"),
                                    block(.temp, "Composite"), block(.temp, "nvme"), block(.temp, "coretemp/Package id 0")]),
                       "net enp3s0 down | disk /home 47.7G free | io sda r 97K/s w 500B/s | temp 62°C | temp 62°C | temp 52°C\n")
        XCTAssertEqual(try text(s, [block(.net, "eth9"), block(.wifi, "wlan9"), block(.disk, "/mnt"), block(.diskio, "sdz"),
                                    block(.temp, "nope")]),
                       "net eth9: no such interface | wifi wlan9: no such interface | disk /mnt n/a | io sdz n/a | temp nope n/a\n")
    }

    /// An interface or a mount the sampler was asked for and did not find is named as such,
    /// in the warning colour: a typo or an unplugged drive, not an emergency.
    func testAMissingInterfaceOrMountSaysSoAsAWarningNotCriticalDown() throws {
        var s = Self.station()
        var missing = DiskFigures()
        missing.mount = Array("/media/usb".utf8)
        missing.markMissing()
        s.disks.append(missing)
        let line = rendered(s, .i3bar, blocks: [block(.net, "wlan9"), block(.disk, "/media/usb"), block(.wifi, "wlan9")], nowMs: now)
        let blocks = try XCTUnwrap(parseJSON(line) as? [[String: Any]])
        XCTAssertEqual(blocks.map { $0["full_text"] as? String },
                       ["net wlan9: no such interface", "disk /media/usb: no such mount", "wifi wlan9: no such interface"])
        XCTAssertEqual(blocks.map { $0["color"] as? String }, ["#E5C07B", "#E5C07B", "#E5C07B"])
        XCTAssertEqual(try text(Self.station(), [block(.net)]).hasPrefix("net wlan0"), true, "no argument: the default route's")
    }

    /// The bar's wants file asks the sampler for what its blocks name: disk, temp, net and
    /// wifi arguments; nothing for blocks without one, and each name once.
    func testTheBlocksArgumentsAreAskedOfTheSamplerOnce() throws {
        let blocks = [block(.disk, "/home"), block(.disk), block(.temp, "nvme/Composite"), block(.net, "wg0"),
                      block(.wifi, "wg0"), block(.diskio, "sda"), block(.cpu), block(.disk, "/home")]
        let request = BlockKind.request(of: blocks)
        XCTAssertEqual(request.disks, [Array("/home".utf8)])
        XCTAssertEqual(request.sensors, [Array("nvme/Composite".utf8)])
        XCTAssertEqual(request.interfaces, [Array("wg0".utf8)])
        XCTAssertTrue(request.parts.isSuperset(of: [.disks, .temperature, .network, .diskIO, .cpu]))
    }

    func testLevelsFollowThresholds() throws {
        let s = Self.station()
        let line = rendered(s, .i3bar, blocks: [block(.net, "enp3s0"), block(.disk, "/home"), block(.disk)], nowMs: now)
        let blocks = try XCTUnwrap(parseJSON(line) as? [[String: Any]])
        XCTAssertEqual(blocks.map { $0["color"] as? String }, ["#E06C75", "#E06C75", nil], "down is critical; 95 % used is critical")
        XCTAssertEqual(blocks.map { $0["instance"] as? String }, ["enp3s0", "/home", "disk"])
        var hot = s
        hot.temperatures[1].milliCelsius = 100_000
        let temp = try XCTUnwrap(parseJSON(rendered(hot, .i3bar, blocks: [block(.temp)], nowMs: now)) as? [[String: Any]])
        XCTAssertEqual(temp[0]["urgent"] as? Bool, true, "at the critical mark: urgent")
        hot.temperatures[1].milliCelsius = 85_000
        let warm = try XCTUnwrap(parseJSON(rendered(hot, .i3bar, blocks: [block(.temp)], nowMs: now)) as? [[String: Any]])
        XCTAssertEqual(warm[0]["color"] as? String, "#E5C07B", "past the high mark: warning")
    }

    func testPlaceholders() throws {
        let s = Self.station()
        XCTAssertEqual(try text(s, [block(.net)], format: "net={name}|{ipv4}|{ipv6}|{ip}|{down}|{up}|{state}"),
                       "wlan0|192.168.1.20|2001:db8::20|192.168.1.20|1.2M/s|34K/s|up\n")
        XCTAssertEqual(try text(s, [block(.wifi)], format: "wifi={ssid}|{quality}|{signal}|{bitrate}|{name}"),
                       "HomeNet|72|-64|866|wlan0\n")
        XCTAssertEqual(try text(s, [block(.disk, "/home")], format: "disk={mount}|{free}|{used}|{total}|{percent}|{bar}"),
                       "/home|47.7G|858G|954G|95|███████▌\n")
        XCTAssertEqual(try text(s, [block(.diskio)], format: "diskio={read}|{write}|{device}"), "1.3M/s|293K/s|all\n")
        XCTAssertEqual(try text(s, [block(.temp)], format: "temp={celsius}|{label}|{chip}|{max}"), "52|Package id 0|coretemp|62\n")
        XCTAssertEqual(try text(s, [block(.freq)], format: "freq={average}|{max}|{average_mhz}|{max_mhz}"), "2.3|4.6|2345|4567\n")
    }

    func testNoWifiSaysNAAndNoLinkSaysDown() throws {
        var s = Self.station()
        s.interfaces[1].flags.remove(.wifiLink)
        XCTAssertEqual(try text(s, [block(.wifi)]), "wifi down\n")
        s.interfaces[1].flags.remove(.wireless)
        XCTAssertEqual(try text(s, [block(.wifi), block(.freq)]), "wifi n/a | freq 2.3/4.6GHz\n",
                       "a machine without Wi-Fi: n/a when asked for by name (the default bar hides it)")
        s.interfaces = []
        XCTAssertEqual(try text(s, [block(.net)]), "net down\n")
    }

    func testPartsNotMeasuredSayNA() throws {
        var s = Self.station()
        s.available = .fixedLayout
        XCTAssertEqual(try text(s, [block(.net), block(.wifi), block(.disk, "/home"), block(.diskio), block(.temp), block(.freq)]),
                       "net n/a | wifi n/a | disk /home n/a | io n/a | temp n/a | freq n/a\n")
    }

    func testHostileInterfaceNamesAndSSIDsAreEscapedInEveryOutputAndTheJSONStaysValid() throws {
        var s = Self.station()
        // An SSID is any 32 bytes: quotes, a backslash, markup, ESC, NUL, a bidi override, invalid UTF-8.
        s.interfaces[1].wifi.ssid = Array(#""},{"full_text":"x\<b>"#.utf8) + [0x1B, 0x00, 0xE2, 0x80, 0xAE, 0xFF, 0xC3]
        s.interfaces[1].name = Array("w\"<i>".utf8)
        s.temperatures[1].label = Array("</span>\u{7}".utf8)
        let blocks = [block(.net), block(.wifi), block(.temp)]
        for output in [OutputKind.i3bar, .waybar] {
            let line = rendered(s, output, blocks: blocks, formats: try formats("temp={label}"), nowMs: now)
            let json = try XCTUnwrap(parseJSON(line))
            if output == .i3bar {
                let array = try XCTUnwrap(json as? [[String: Any]])
                XCTAssertEqual(array.count, 3, "no block injected")
                let ssidText = try XCTUnwrap(array[1]["full_text"] as? String)
                XCTAssertTrue(ssidText.hasPrefix(#"wifi "},{"full_text":"x\<b>"#), ssidText)
                XCTAssertFalse(ssidText.unicodeScalars.contains { $0.value == 0x202E }, "the bidi override is dropped")
            }
            XCTAssertFalse(line.utf8.dropLast().contains { $0 < 0x20 }, "controls are escaped in the JSON text: \(line)")
        }
        let plain = rendered(s, .text, blocks: blocks, nowMs: now)
        XCTAssertFalse(plain.dropLast().unicodeScalars.contains { $0.value < 0x20 }, plain)
    }

    func testExtremeFiguresNeverTrap() throws {
        var s = Self.station()
        s.interfaces[1].rxBytesPerSecond = .max; s.interfaces[1].txBytesPerSecond = .max
        s.interfaces[1].wifi.qualityPercent = 254; s.interfaces[1].wifi.bitrateKbps = .max
        s.interfaces[1].wifi.signalDBm = Snapshot.unknownSignal
        s.disks[0].totalKiB = .max; s.disks[0].usedKiB = .max; s.disks[0].availableKiB = .max
        s.diskIO[0].readBytesPerSecond = .max; s.diskIO[1].readBytesPerSecond = .max
        s.temperatures[1].milliCelsius = .min; s.temperatures[0].milliCelsius = .max
        s.cpuMHzAverage = .max; s.cpuMHzMaximum = .max
        let every = BlockKind.allCases.map { block($0, $0 == .time ? "UTC" : "") }
        for output in OutputKind.allCases where !output.isImage {
            _ = rendered(s, output, blocks: every, nowMs: now)
        }
        XCTAssertEqual(try text(s, [block(.diskio), block(.temp, "Composite"), block(.temp)]),
                       "io r 16777216T/s w 293K/s | temp 2147484°C | temp -2147484°C\n")
    }
}
