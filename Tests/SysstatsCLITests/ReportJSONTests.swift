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
                                        "timestamp", "stale"])
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
        XCTAssertEqual(json["battery"] as? [String: AnyHashable], ["percent": 85.12, "state": "discharging"])
        XCTAssertEqual(json["processes"] as? Int, 39)
        XCTAssertEqual(json["running"] as? Int, 2)
        XCTAssertEqual(json["sequence"] as? Int, 42)
        XCTAssertEqual(json["timestamp"] as? Int, 1_700_000_000_000)
        XCTAssertEqual(json["stale"] as? Bool, false)
    }

    func testJSONListsTopProcessesAndExitsWithNamesAsText() throws {
        let json = try object(Samples.laptop)
        let topCPU = try XCTUnwrap(json["top_cpu"] as? [[String: AnyHashable]])
        XCTAssertEqual(topCPU, [["pid": 1200, "name": "firefox", "cpu_percent": 15.5, "private_mib": 200]])
        let topMemory = try XCTUnwrap(json["top_memory"] as? [[String: AnyHashable]])
        XCTAssertEqual(topMemory.map { $0["name"] }, ["firefox", "say \"hi\"/é"])
        let exits = try XCTUnwrap(json["exits"] as? [[String: AnyHashable]])
        XCTAssertEqual(exits, [["pid": 77, "name": "make", "time_ms": 1_699_999_999_500,
                                "last_private_mib": 8, "freed_mib": 6]])
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
