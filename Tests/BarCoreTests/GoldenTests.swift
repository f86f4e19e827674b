import BarCore
import Foundation
import SnapshotCodec
import XCTest

/// Committed snapshots → byte-exact expected lines for every output.
final class GoldenTests: XCTestCase {
    func decodedGolden(_ fixture: Fixture) throws -> Snapshot {
        let url = goldenURL(fixture, "snapshot")
        if updatingGolden {
            var bytes: [UInt8] = []
            fixture.snapshot.encode(into: &bytes)
            try Data(bytes).write(to: url)
        }
        let data = try Data(contentsOf: url)
        let result = data.withUnsafeBytes { raw in
            Result { () throws(SnapshotDecodeError) in try Snapshot.decode(raw) }
        }
        return try result.get()
    }

    func testCommittedSnapshotsDecodeToTheFixtures() throws {
        for fixture in Fixture.allCases {
            XCTAssertEqual(try decodedGolden(fixture), fixture.snapshot, "\(fixture)")
        }
    }

    func testEachOutputRendersTheCommittedSnapshotsByteForByte() throws {
        for fixture in Fixture.allCases {
            let snapshot = try decodedGolden(fixture)
            for output in OutputKind.allCases where !output.isImage {
                let url = goldenURL(fixture, String(describing: output))
                let line = rendered(snapshot, output, blocks: allBlocks, nowMs: fixture.nowMs)
                if updatingGolden { try Data(line.utf8).write(to: url) }
                let expected = try String(contentsOf: url, encoding: .utf8)
                XCTAssertEqual(line, expected, "\(fixture) \(output)")
            }
        }
    }

    func testEveryI3barAndWaybarGoldenLineParsesAsJSON() throws {
        for fixture in Fixture.allCases {
            for output in [OutputKind.i3bar, .waybar] {
                let line = rendered(try decodedGolden(fixture), output, blocks: allBlocks, nowMs: fixture.nowMs)
                XCTAssertTrue(line.hasSuffix("\n"))
                XCTAssertEqual(line.filter { $0 == "\n" }.count, 1, "one line per update")
                XCTAssertNotNil(parseJSON(line), "\(fixture) \(output)")
            }
        }
    }

    func testI3barBlocksCarryNameInstanceColorAndUrgent() throws {
        let line = rendered(Fixture.laptop.snapshot, .i3bar, blocks: allBlocks, nowMs: Fixture.laptop.nowMs)
        let blocks = try XCTUnwrap(parseJSON(line) as? [[String: Any]])
        XCTAssertEqual(blocks.map { $0["name"] as? String },
                       ["cpu", "mem", "load", "uptime", "battery", "procs", "exited", "self", "top", "swap", "cores",
                        "net", "wifi", "disk", "diskio", "temp", "freq", "time"])
        // The instance is the block's name, or its argument when it has one (the time zone).
        XCTAssertEqual(blocks.map { $0["instance"] as? String },
                       blocks.map { $0["name"] as? String == "time" ? "UTC" : $0["name"] as? String })
        let byName = Dictionary(uniqueKeysWithValues: blocks.map { ($0["name"] as! String, $0) })
        XCTAssertEqual(byName["battery"]?["urgent"] as? Bool, true)
        XCTAssertEqual(byName["mem"]?["urgent"] as? Bool, true)
        XCTAssertEqual(byName["cpu"]?["color"] as? String, "#E06C75")
        XCTAssertNil(byName["uptime"]?["color"])
        XCTAssertNil(byName["cpu"]?["urgent"])
    }

    func testHostileNamesYieldValidI3barJSONShowingTheNamesEscaped() throws {
        let fixture = Fixture.hostile
        let name = String(decoding: fixture.snapshot.exits[0].name, as: UTF8.self)
        let line = rendered(fixture.snapshot, .i3bar, blocks: allBlocks, nowMs: fixture.nowMs)
        let blocks = try XCTUnwrap(parseJSON(line) as? [[String: Any]])
        // No block was injected: exactly the blocks asked for (wifi hidden: none; battery n/a).
        XCTAssertEqual(blocks.count, 18)
        let exited = try XCTUnwrap(blocks.first { $0["name"] as? String == "exited" })
        XCTAssertEqual(exited["full_text"] as? String, "exited \(name) had 2.0M")
        XCTAssertTrue(line.contains(#"exited a\"b\\c</span>\"},{\"full_text\":\"x had"#))
    }

    func testHostileNamesInWaybarAreMarkupEscapedInsideValidJSON() throws {
        let fixture = Fixture.hostile
        let line = rendered(fixture.snapshot, .waybar, blocks: allBlocks, nowMs: fixture.nowMs)
        let object = try XCTUnwrap(parseJSON(line) as? [String: Any])
        let text = try XCTUnwrap(object["text"] as? String)
        XCTAssertTrue(text.contains("exited a&quot;b\\c&lt;/span&gt;&quot;},{&quot;full_text&quot;:&quot;x had"), text)
        XCTAssertFalse(text.contains("<"))
        let tooltip = try XCTUnwrap(object["tooltip"] as? String)
        XCTAssertTrue(tooltip.contains("&lt;b&gt;&amp;&#39;x&#39;&quot;\\ 1.0%"), tooltip)
    }

    func testInvalidUTF8AndControlCharactersInNamesStillYieldValidJSON() throws {
        var s = Fixture.hostile.snapshot
        // Bypasses the codec (which refuses no bytes but the sampler sanitizes): the renderer must cope anyway.
        s.exits[0].name = [0x61, 0x0A, 0x22, 0xFF, 0xC3, 0x28, 0x01, 0x7F, 0xED, 0xA0, 0x80, 0x62]
        for output in [OutputKind.i3bar, .waybar] {
            let line = rendered(s, output, blocks: [.exited], nowMs: Fixture.hostile.nowMs)
            XCTAssertEqual(line.filter { $0 == "\n" }.count, 1)
            let json = parseJSON(line)
            let text = output == .i3bar
                ? ((json as? [[String: Any]])?.first?["full_text"] as? String)
                : ((json as? [String: Any])?["text"] as? String)
            let quote = output == .i3bar ? "\"" : "&quot;"
            XCTAssertEqual(text, "exited a \(quote)\u{FFFD}\u{FFFD}(  \u{FFFD}\u{FFFD}\u{FFFD}b had 2.0M", "\(output): control characters become spaces")
        }
        let plain = rendered(s, .text, blocks: [.exited], nowMs: Fixture.hostile.nowMs)
        XCTAssertEqual(plain, "exited a \"\u{FFFD}\u{FFFD}(  \u{FFFD}\u{FFFD}\u{FFFD}b had 2.0M\n")
    }
}
