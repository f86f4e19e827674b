import Foundation
import SnapshotCodec
import XCTest

/// docs/renderer.md's waybar modules, one per block: every `exec` there, run as written
/// (`--once` against a fixture snapshot), prints one JSON object waybar takes, with the
/// `alt` its `format-icons` keys name.
final class WaybarModulesTests: XCTestCase {
    /// The documented modules: name → the module's object.
    func documentedModules() throws -> [(String, [String: Any])] {
        let doc = try String(contentsOf: BarProcess.packageRoot.appendingPathComponent("docs/renderer.md"), encoding: .utf8)
        var modules: [(String, [String: Any])] = []
        for line in doc.split(separator: "\n") where line.hasPrefix("\"custom/sysstats-") {
            guard let colon = line.range(of: "\": ") else { continue }
            let name = String(line[line.index(after: line.startIndex)..<colon.lowerBound])
            var body = String(line[colon.upperBound...]).trimmingCharacters(in: .whitespaces)
            if body.hasSuffix(",") { body.removeLast() }
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], body)
            modules.append((name, object))
        }
        return modules
    }

    func testEveryDocumentedModuleRunsAndPrintsWhatWaybarReads() throws {
        let binary = try BarProcess.binary()
        let modules = try documentedModules()
        // One per block the bar has.
        XCTAssertEqual(Set(modules.map(\.0)), Set(["cpu", "mem", "swap", "load", "cores", "freq", "temp", "battery", "net", "wifi",
                                                 "disk", "diskio", "procs", "top", "exited", "self", "uptime", "time"]
                                                .map { "custom/sysstats-" + $0 }))
        let dir = try RuntimeDir()
        var snapshot = sampleSnapshot()
        snapshot.intervalMs = 600_000
        snapshot.battery.count = 1
        snapshot.battery.state = .discharging
        snapshot.battery.percent = 4200
        try dir.publish(snapshot)
        for (name, module) in modules {
            XCTAssertEqual(module["return-type"] as? String, "json", name)
            XCTAssertNil(module["interval"], "\(name): the renderer runs on, waybar must not restart it")
            let exec = try XCTUnwrap(module["exec"] as? String, name)
            var words = exec.split(separator: " ").map(String.init)
            XCTAssertEqual(words.first, "sysstats-bar", name)
            words.removeFirst()
            let p = Process()
            p.executableURL = URL(fileURLWithPath: binary)
            p.arguments = words + ["--runtime-dir", dir.path, "--once"]
            let out = Pipe()
            p.standardOutput = out
            try p.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 0, name)
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
            XCTAssertEqual(lines.count, 1, name)
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any], name)
            let alt = try XCTUnwrap(object["alt"] as? String, name)
            XCTAssertNotNil(object["text"] as? String, name)
            XCTAssertNotNil(object["class"] as? String, name)
            // Every alt a module can print has its icon where the module names icons by alt.
            if let icons = module["format-icons"] as? [String: Any] {
                XCTAssertNotNil(icons[alt], "\(name): no icon for alt \(alt)")
            }
            if name.hasSuffix("battery") {
                XCTAssertEqual(alt, "discharging")
                XCTAssertEqual(object["percentage"] as? Int, 42)
            } else {
                XCTAssertEqual(alt, object["class"] as? String, name)
            }
        }
    }
}
