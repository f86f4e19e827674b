import BarCore
import SnapshotCodec
import XCTest

/// The pressure block: PSI memory `some avg10` with one decimal, its levels, `n/a` on a
/// kernel without PSI (hidden with `hide_missing`).
final class PressureBlockTests: XCTestCase {
    let now = Fixture.desktop.nowMs

    func i3bar(_ s: Snapshot, _ block: BarBlock = BarBlock(.pressure)) throws -> [String: Any]? {
        let line = rendered(s, .i3bar, blocks: [block], nowMs: now)
        return try XCTUnwrap(parseJSON(line) as? [[String: Any]]).first
    }

    func testPressureShowsTheShareOfTimeTasksWaitedForMemoryWithItsLevels() throws {
        var s = Fixture.desktop.snapshot
        s.memoryPressure = 250
        XCTAssertEqual(rendered(s, .text, blocks: [.pressure], nowMs: now), "psi 2.5%\n")
        XCTAssertNil(try i3bar(s)?["color"], "2.5 %: normal")
        s.memoryPressure = 1200
        XCTAssertEqual(try i3bar(s)?["color"] as? String, "#E5C07B", "from 10 %: warning")
        s.memoryPressure = 3000
        XCTAssertEqual(try i3bar(s)?["color"] as? String, "#E06C75", "from 25 %: critical")
        var own = BarBlock(.pressure)
        own.critical = 50
        XCTAssertEqual(try i3bar(s, own)?["color"] as? String, "#E5C07B", "its own critical mark")
        XCTAssertEqual(rendered(s, .text, blocks: [.pressure], formats: try formats("pressure=mem wait {some}%"), nowMs: now),
                       "mem wait 30.0%\n")
    }

    func testAKernelWithoutPSIShowsNotAvailableOrHidesWithHideMissing() throws {
        var s = Fixture.desktop.snapshot
        s.memoryPressure = nil
        XCTAssertEqual(rendered(s, .text, blocks: [.pressure, .load], nowMs: now), "psi n/a | load 0.52 0.48 0.40\n")
        var hidden = BarBlock(.pressure)
        hidden.hideMissing = true
        XCTAssertEqual(rendered(s, .text, blocks: [hidden, BarBlock(.load)], nowMs: now), "load 0.52 0.48 0.40\n")
    }
}
