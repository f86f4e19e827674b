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
                                        "timestamp", "stale", "unavailable"])
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
}
