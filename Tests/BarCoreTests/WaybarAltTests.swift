import BarCore
import SnapshotCodec
import XCTest

/// waybar's `alt`: the key its `format-icons` picks an icon by (docs/renderer.md, "waybar").
final class WaybarAltTests: XCTestCase {
    func alt(_ snapshot: Snapshot, _ blocks: [BlockKind], nowMs: UInt64) throws -> String? {
        let line = rendered(snapshot, .waybar, blocks: blocks, nowMs: nowMs)
        let object = try XCTUnwrap(parseJSON(line) as? [String: Any], line)
        return object["alt"] as? String
    }

    func testABatteryModuleSaysTheBatterysStateForIconsByStateAndPercentage() throws {
        let laptop = Fixture.laptop
        var s = laptop.snapshot
        let states: [(BatteryFigures.State, String)] = [
            (.charging, "charging"), (.discharging, "discharging"), (.full, "full"),
            (.notCharging, "not-charging"), (.unknown, "unknown"),
        ]
        for (state, word) in states {
            s.battery.state = state
            XCTAssertEqual(try alt(s, [.battery], nowMs: laptop.nowMs), word)
            // The percentage beside it picks an icon within the state's list.
            XCTAssertTrue(rendered(s, .waybar, blocks: [.battery], nowMs: laptop.nowMs).contains(#""percentage":8}"#))
        }
    }

    func testAnyOtherModuleSaysItsLevelTheSameWordAsItsClass() throws {
        for fixture in Fixture.allCases {
            for block in BlockKind.allCases where block != .battery && block != .command {
                let line = rendered(fixture.snapshot, .waybar, blocks: [block], nowMs: fixture.nowMs)
                let object = try XCTUnwrap(parseJSON(line) as? [String: Any], line)
                let alt = try XCTUnwrap(object["alt"] as? String, line)
                XCTAssertEqual(alt, object["class"] as? String, "\(fixture) \(block)")
                XCTAssertTrue(["normal", "warning", "critical", "urgent"].contains(alt), line)
            }
        }
        // The laptop's CPU at 95 %: critical.
        XCTAssertEqual(try alt(Fixture.laptop.snapshot, [.cpu], nowMs: Fixture.laptop.nowMs), "critical")
        XCTAssertEqual(try alt(Fixture.desktop.snapshot, [.cpu], nowMs: Fixture.desktop.nowMs), "normal")
    }

    func testSeveralBlocksTakeTheFirstShownBlocksAlt() throws {
        let laptop = Fixture.laptop
        XCTAssertEqual(try alt(laptop.snapshot, [.battery, .cpu], nowMs: laptop.nowMs), "discharging")
        // cpu has no state of its own: the line's class, urgent for the low battery.
        XCTAssertEqual(try alt(laptop.snapshot, [.cpu, .battery], nowMs: laptop.nowMs), "urgent")
        // No battery: the hidden block is not the first shown one.
        let desktop = Fixture.desktop
        XCTAssertEqual(try alt(desktop.snapshot, [.battery, .load], nowMs: desktop.nowMs),
                       try alt(desktop.snapshot, [.load], nowMs: desktop.nowMs))
    }

    func testAMissingOrStaleSnapshotSaysStale() throws {
        var r = Renderer(output: .waybar, blocks: [.battery])
        r.renderMessage(staleMessage)
        let object = try XCTUnwrap(parseJSON(String(decoding: r.line.bytes, as: UTF8.self)) as? [String: Any])
        XCTAssertEqual(object["alt"] as? String, "stale")
        XCTAssertEqual(object["class"] as? String, "stale")
    }
}
