import Foundation
import SnapshotCodec
import SysstatsCLI
import XCTest

final class ReportJSONTests: XCTestCase {
    private func object(_ snapshot: Snapshot, stale: Bool = false) throws -> [String: Any] {
        let text = ReportJSON.format(snapshot, stale: stale)
        XCTAssertFalse(text.contains("\n"), "one line")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    func testJSONHasExactlyTheDocumentedKeys() throws {
        let json = try object(Samples.laptop)
        XCTAssertEqual(Set(json.keys), ["uptime_seconds", "cpu_percent", "memory_mib", "swap", "load", "battery",
                                        "processes", "running", "top_cpu", "top_memory", "exits", "sequence",
                                        "timestamp", "stale", "unavailable", "network", "disks", "disk_io",
                                        "temperatures", "cpu_mhz", "gpus", "fans", "power", "backlight", "volume", "microphone", "media", "units"])
        let memory = try XCTUnwrap(json["memory_mib"] as? [String: Any])
        XCTAssertEqual(Set(memory.keys), ["free", "other", "wired", "active", "inactive", "available", "used", "total"])
    }

    func testJSONValuesAreTheSnapshotInMiBPercentAndSeconds() throws {
        let json = try object(Samples.laptop)
        XCTAssertEqual(json["uptime_seconds"] as? Int, 44258)
        XCTAssertEqual(json["cpu_percent"] as? Double, 23.45)
        let memory = try XCTUnwrap(json["memory_mib"] as? [String: Double])
        XCTAssertEqual(memory["free"], 17.4)
        XCTAssertEqual(memory["other"], 329.1)
        XCTAssertEqual(memory["wired"], 69.7)
        XCTAssertEqual(memory["active"], 53.9)
        XCTAssertEqual(memory["inactive"], 32.8)
        XCTAssertEqual(memory["available"], 390.6)   // 400000 KiB
        XCTAssertEqual(memory["total"], 502.9)       // 514970 KiB
        XCTAssertEqual(memory["used"], 112.3)        // 114970 KiB
        XCTAssertEqual(json["swap"] as? [String: Double], ["total": 1024, "used": 50])
        XCTAssertEqual(json["load"] as? [Double], [1.23, 0.45, 0.07])
        let battery = try XCTUnwrap(json["battery"] as? [String: Any])
        XCTAssertEqual(Set(battery.keys), ["percent", "state"])
        XCTAssertEqual(battery["percent"] as? Double, 85.12)
        XCTAssertEqual(battery["state"] as? String, "discharging")
        XCTAssertEqual(json["processes"] as? Int, 39)
        XCTAssertEqual(json["running"] as? Int, 2)
        XCTAssertEqual(json["sequence"] as? Int, 42)
        XCTAssertEqual(json["timestamp"] as? Int, 1_700_000_000_000)
        XCTAssertEqual(json["stale"] as? Bool, false)
    }

    func testJSONListsTopProcessesAndExitsWithNamesAsText() throws {
        let json = try object(Samples.laptop)
        let topCPU = try XCTUnwrap(json["top_cpu"] as? [[String: Any]])
        XCTAssertEqual(topCPU.count, 1)
        XCTAssertEqual(Set(topCPU[0].keys), ["pid", "name", "cpu_percent", "private_mib"])
        XCTAssertEqual(topCPU[0]["pid"] as? Int, 1200)
        XCTAssertEqual(topCPU[0]["name"] as? String, "firefox")
        XCTAssertEqual(topCPU[0]["cpu_percent"] as? Double, 15.5)
        XCTAssertEqual(topCPU[0]["private_mib"] as? Double, 200)
        let topMemory = try XCTUnwrap(json["top_memory"] as? [[String: Any]])
        XCTAssertEqual(topMemory.map { $0["name"] as? String }, ["firefox", "say \"hi\"/é"])
        let exits = try XCTUnwrap(json["exits"] as? [[String: Any]])
        XCTAssertEqual(exits.count, 1)
        XCTAssertEqual(Set(exits[0].keys), ["pid", "name", "time_ms", "last_private_mib", "freed_mib"])
        XCTAssertEqual(exits[0]["pid"] as? Int, 77)
        XCTAssertEqual(exits[0]["name"] as? String, "make")
        XCTAssertEqual(exits[0]["time_ms"] as? Int, 1_699_999_999_500)
        XCTAssertEqual(exits[0]["last_private_mib"] as? Double, 8)
        XCTAssertEqual(exits[0]["freed_mib"] as? Double, 6)
    }

    func testJSONBatteryIsNullWithoutABattery() throws {
        let text = ReportJSON.format(Samples.desktop, stale: false)
        XCTAssertTrue(text.contains("\"battery\":null"), text)
        XCTAssertTrue(try object(Samples.desktop)["battery"] is NSNull)
    }

    func testJSONSaysStaleWhenTold() throws {
        XCTAssertEqual(try object(Samples.laptop, stale: true)["stale"] as? Bool, true)
    }

    func testJSONCarriesNetworkDisksTemperaturesAndFrequencyAsTheIssueNamesThem() throws {
        let s = Samples.laptopWithEveryPart
        let json = try object(s)
        let network = try XCTUnwrap(json["network"] as? [[String: Any]])
        XCTAssertEqual(network.count, 2)
        XCTAssertEqual(Set(network[0].keys), ["name", "up", "rx_bytes_per_s", "tx_bytes_per_s", "ipv4", "ipv6", "wifi"])
        XCTAssertEqual(network[0]["name"] as? String, "wlan0")
        XCTAssertEqual(network[0]["up"] as? Bool, true)
        XCTAssertEqual(network[0]["rx_bytes_per_s"] as? Int, 1200)
        XCTAssertEqual(network[0]["ipv4"] as? String, "192.168.1.20")
        XCTAssertTrue(network[0]["ipv6"] is NSNull)
        let wifi = try XCTUnwrap(network[0]["wifi"] as? [String: Any])
        XCTAssertEqual(wifi["ssid"] as? String, "Caf\u{E9} \"net\"\u{FFFD}\u{1B}", "any bytes: invalid UTF-8 replaced, controls JSON-escaped")
        XCTAssertEqual(wifi["signal_dbm"] as? Int, -61)
        XCTAssertEqual(wifi["quality_percent"] as? Int, 78)
        XCTAssertEqual(wifi["bitrate_mbps"] as? Double, 866.7)
        XCTAssertTrue(network[1]["wifi"] is NSNull, "not wireless: null")
        XCTAssertEqual(network[1]["up"] as? Bool, false)
        XCTAssertTrue(network[1]["rx_bytes_per_s"] is NSNull, "no rates measured yet: null")
        XCTAssertEqual(json["disks"] as? NSArray,
                       [["mount": "/", "total_kib": 100, "used_kib": 40, "available_kib": 55]] as NSArray)
        XCTAssertEqual(json["disk_io"] as? NSArray,
                       [["device": "nvme0n1", "read_bytes_per_s": 5, "write_bytes_per_s": 6]] as NSArray)
        XCTAssertEqual(json["temperatures"] as? NSArray,
                       [["sensor": "coretemp", "label": "Package id 0", "celsius": 52.5]] as NSArray)
        XCTAssertEqual(json["cpu_mhz"] as? [String: Int], ["average": 2345, "max": 4567])
        let gpus = try XCTUnwrap(json["gpus"] as? [[String: Any]])
        XCTAssertEqual(gpus.count, 3)
        XCTAssertEqual(Set(gpus[0].keys), ["card", "driver", "name", "busy_percent", "memory_busy_percent", "vram_used_bytes",
                                           "vram_total_bytes", "gtt_used_bytes", "gtt_total_bytes", "celsius", "watts",
                                           "clock_mhz", "fan", "power_limit_watts"])
        XCTAssertEqual(gpus[0]["name"] as? String, "NVIDIA H200")
        XCTAssertEqual(gpus[0]["busy_percent"] as? Double, 97)
        XCTAssertEqual(gpus[0]["vram_used_bytes"] as? Int, 18_681_233_408)
        XCTAssertEqual(gpus[0]["watts"] as? Double, 612.34)
        XCTAssertEqual(gpus[0]["power_limit_watts"] as? Double, 700)
        XCTAssertTrue(gpus[1]["power_limit_watts"] is NSNull, "not given: null")
        XCTAssertTrue(gpus[0]["gtt_used_bytes"] is NSNull, "NVML gives no GTT: null")
        XCTAssertEqual(gpus[1]["driver"] as? String, "i915")
        XCTAssertEqual(gpus[1]["clock_mhz"] as? Int, 1300)
        XCTAssertTrue(gpus[1]["busy_percent"] is NSNull, "busy needs two readings: null until then")
        XCTAssertEqual(gpus[2]["gtt_used_bytes"] as? Int, 1 << 27)
        // The listed parts, made from their tables: source, label, then each figure (null: not given).
        XCTAssertEqual(json["fans"] as? NSArray, [["chip": "dell_smm", "label": "Processor Fan", "rpm": 2400, "target_rpm": 2500],
                                                  ["chip": "nct6798", "label": "fan\u{1B}2", "rpm": 0, "target_rpm": NSNull()]] as NSArray)
        XCTAssertEqual(json["power"] as? NSArray, [["source": "system", "label": "battery", "watts": 14.235]] as NSArray)
        XCTAssertEqual(json["backlight"] as? NSArray, [["type": "firmware", "label": "acpi_video0", "percent": 46.67,
                                                        "brightness": 7, "max_brightness": 15],
                                                       ["type": "raw", "label": "amdgpu_bl0", "percent": NSNull(),
                                                        "brightness": 0, "max_brightness": 0]] as NSArray)
        XCTAssertEqual(json["volume"] as? NSArray, [["port": "Speakers", "label": "Built-in Audio Analog Stereo",
                                                     "percent": 40, "muted": 0]] as NSArray)
        XCTAssertEqual(json["microphone"] as? NSArray, [["port": "", "label": "USB \"Mic\"", "percent": 125, "muted": 1]] as NSArray)
        XCTAssertEqual(json["media"] as? NSArray, [["player": "mpv", "label": "mpv Media Player", "playing": 0, "length_seconds": NSNull(),
                                                    "position_seconds": NSNull(), "title": "Song \"1\"\u{1B}", "artist": "", "album": "", "status": "paused"]] as NSArray,
                       "texts are members of their own (a control byte escaped by the JSON writer)")
        XCTAssertEqual(json["units"] as? NSArray, [["kind": "app", "label": "Terminal", "cpu_percent": 185, "memory_bytes": 734_003_200,
                                                    "anon_bytes": NSNull(), "file_bytes": NSNull(), "read_bytes_per_second": NSNull(),
                                                    "write_bytes_per_second": NSNull(), "tasks": 212, "pressure_percent": NSNull(),
                                                    "unit": "app-gnome-org.gnome.Terminal-4242.scope"]] as NSArray)
        XCTAssertEqual(json["unavailable"] as? [String], [])
        let line = ReportLine.format(s, columns: 400)
        XCTAssertTrue(line.contains(" | temp 53°C | disk / "), line)
        XCTAssertTrue(line.contains(" | net wlan0 192.168.1.20 "), line)
        XCTAssertFalse(line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "no control byte: \(line)")
    }

    func testNewerPartsNotMeasuredAreEmptyListsOrNullAndNamed() throws {
        let json = try object(Samples.laptop)
        XCTAssertEqual((json["network"] as? [Any])?.count, 0)
        XCTAssertTrue(json["cpu_mhz"] is NSNull)
        XCTAssertEqual((json["gpus"] as? [Any])?.count, 0)
        XCTAssertEqual((json["fans"] as? [Any])?.count, 0)
        XCTAssertEqual((json["power"] as? [Any])?.count, 0)
        XCTAssertEqual((json["backlight"] as? [Any])?.count, 0)
        XCTAssertEqual(json["unavailable"] as? [String], ["network", "disks", "disk_io", "temperatures", "cpu_mhz", "gpus", "fans", "power",
                                                          "backlight", "volume", "microphone", "media", "units"])
        XCTAssertFalse(ReportLine.format(Samples.laptop).contains("[Net]"), "the one-line report shows them only where present")
    }
}

extension ReportJSONTests {
    /// Bidi controls in a process name are valid JSON, but a terminal showing the JSON acts on
    /// them: they are written as `\u202e` escapes, and the parsed name keeps every character.
    func testBidiControlsInNamesAreEscapedNotWrittenRaw() throws {
        var s = Samples.laptop
        let name = "a\u{202E}gpj.exe\u{2066}x\u{2069}\u{9B}"
        s.topCPU = [ProcessEntry(pid: 7, cpu: 100, privateKiB: 1024, name: Array(name.utf8))]
        let text = ReportJSON.format(s, stale: false)
        for raw in ["\u{202E}", "\u{2066}", "\u{2069}", "\u{9B}"] { XCTAssertFalse(text.contains(raw), text) }
        XCTAssertTrue(text.contains(#"a\u202egpj.exe\u2066x\u2069\u009b"#), text)
        let json = try object(s)
        let top = try XCTUnwrap((json["top_cpu"] as? [[String: Any]])?.first)
        XCTAssertEqual(top["name"] as? String, name, "the escapes mean the same characters")
    }

    /// A tag character (above U+FFFF) becomes a surrogate pair.
    func testInvisibleCharactersAboveTheBMPBecomeSurrogatePairs() {
        XCTAssertEqual(JSONText.terminalSafe("\"x\u{E0041}\""), #""x\udb40\udc41""#)
        XCTAssertEqual(JSONText.terminalSafe(#"{"a":"plain é 日本"}"#), #"{"a":"plain é 日本"}"#)
    }

    /// A snapshot is decoded with its shares clamped: 65535 ‱ is reported as 100 %.
    func testSharesAboveAHundredPercentAreReportedAsAHundred() throws {
        var s = Samples.laptop
        s.cpuBusy = .max
        s.battery.percent = .max
        var bytes: [UInt8] = []
        s.encode(into: &bytes)
        let decoded = try bytes.withUnsafeBytes { try Snapshot.decode($0) }
        let json = try object(decoded)
        XCTAssertEqual(json["cpu_percent"] as? Double, 100)
        XCTAssertEqual((json["battery"] as? [String: Any])?["percent"] as? Double, 100)
    }
}
