import BarCore
import SnapshotCodec
import XCTest

/// The load block's levels: the 1-minute average at one per core is a warning and at two a
/// critical, unless the config file gives marks of its own (`warning = 4`, `critical = 8.5`).
final class LoadBlockTests: XCTestCase {
    let now = Fixture.desktop.nowMs

    func color(_ s: Snapshot, _ block: BarBlock = BarBlock(.load)) throws -> String? {
        let line = rendered(s, .i3bar, blocks: [block], nowMs: now)
        return try XCTUnwrap(parseJSON(line) as? [[String: Any]]).first?["color"] as? String
    }

    func testWithoutMarksOnePerCoreWarnsAndTwoPerCoreIsCritical() throws {
        var s = Fixture.desktop.snapshot
        s.coreBusy = [0, 0, 0, 0]
        s.load1 = 399
        XCTAssertNil(try color(s), "under one per core")
        s.load1 = 400
        XCTAssertEqual(try color(s), "#E5C07B")
        s.load1 = 800
        XCTAssertEqual(try color(s), "#E06C75")
    }

    func testTheConfigFilesMarksWinWholeOrDecimal() throws {
        let text = Array("[[block]]\nblock = \"load\"\nwarning = 1.5\ncritical = 3\n".utf8)
        let config = try text.withUnsafeBytes { BarConfig.parse($0) }.get()
        let block = try XCTUnwrap(config.blocks?.first)
        XCTAssertEqual(block.warning, 150)
        XCTAssertEqual(block.critical, 300)
        var s = Fixture.desktop.snapshot
        s.coreBusy = [0, 0, 0, 0]
        s.load1 = 149
        XCTAssertNil(try color(s, block))
        s.load1 = 150
        XCTAssertEqual(try color(s, block), "#E5C07B", "from 1.5, though under one per core")
        s.load1 = 300
        XCTAssertEqual(try color(s, block), "#E06C75", "from 3")
    }
}
