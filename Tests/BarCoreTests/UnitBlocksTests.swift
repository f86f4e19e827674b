@testable import BarCore
import SnapshotCodec
import XCTest

/// The units part in the bar (issue 63): `top:units` the busiest unit, `top:units-mem` the
/// largest, `unit:NAME` one by its name or kind; `n/a` without a cgroup v2 tree; a click's
/// command learns the unit's own name.
final class UnitBlocksTests: XCTestCase {
    let now = Fixture.station.nowMs
    let snapshot = Fixture.station.snapshot

    func line(_ blocks: String, _ s: Snapshot? = nil) throws -> String {
        let parsed = try BarOptions.parse(["--blocks", blocks].map { Array($0.utf8) })
        return rendered(s ?? snapshot, .text, blocks: try XCTUnwrap(parsed.blocks), nowMs: now)
    }

    func testTopUnitsShowsTheBusiestTheLargestAndTheUnitBlockOneByName() throws {
        XCTAssertEqual(try line("top:units,top:units-mem"), "top Terminal 185% 700M | top firefox 9% 2.1G\n")
        XCTAssertEqual(try line("unit,unit:pipewire,unit:container"), "unit Terminal 185% | unit pipewire 1% | unit docker 3f2a1b9c8d7e 0%\n")
        XCTAssertEqual(try line("top"), "top firefox 10% 117M\n", "the process list is as it was")
        let parsed = try BarOptions.parse(["--blocks", "top:units", "--format", "top={name} io {io} psi {pressure}%"].map { Array($0.utf8) })
        XCTAssertEqual(rendered(snapshot, .text, blocks: try XCTUnwrap(parsed.blocks), formats: parsed.formats, nowMs: now),
                       "Terminal io 6.0M/s psi 3%\n")
    }

    func testWithoutTheUnitsPartTopUnitsSaysNAAndWithoutUnitsItHides() throws {
        var s = snapshot
        s.available.remove(UnitsPart.part.part)
        XCTAssertEqual(try line("top:units,cpu", s), "top units n/a | " + (try line("cpu")))
        s = snapshot
        _ = s.listed.update(.units) { $0.removeAll() }
        XCTAssertEqual(try line("top:units,cpu", s), try line("cpu"), "a tree without a unit: hidden")
    }

    func testAClickCommandLearnsTheUnitTheBlockShows() throws {
        let parsed = try BarOptions.parse(["--blocks", "top:units,unit:pipewire,cpu"].map { Array($0.utf8) })
        var r = Renderer(output: .i3bar, blocks: try XCTUnwrap(parsed.blocks))
        r.render(snapshot, nowMs: now)
        var top = ClickEvent(block: .top, button: 1)
        top.instance = Array("units".utf8)
        XCTAssertEqual(r.readingEnvironment(of: top, in: snapshot, nowMs: now).map { String(decoding: $0, as: UTF8.self) },
                       ["BLOCK_SOURCE=app", "BLOCK_LABEL=Terminal", "BLOCK_UNIT=app-gnome-org.gnome.Terminal-4242.scope"])
        var unit = ClickEvent(block: BlockKind.listed(.units)!, button: 1)
        unit.instance = Array("pipewire".utf8)
        XCTAssertEqual(r.readingEnvironment(of: unit, in: snapshot, nowMs: now).last.map { String(decoding: $0, as: UTF8.self) },
                       "BLOCK_UNIT=pipewire.service")
        XCTAssertEqual(r.readingEnvironment(of: ClickEvent(block: .cpu, button: 1), in: snapshot, nowMs: now), [], "cpu shows no reading")
    }
}
