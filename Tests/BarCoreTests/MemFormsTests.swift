import BarCore
import SnapshotCodec
import XCTest

/// The mem block's click forms read without a legend: the breakdown in words, and a bar
/// that never looks empty while memory is used.
final class MemFormsTests: XCTestCase {
    let now = Fixture.desktop.nowMs

    func line(_ s: Snapshot, form: MemForm) -> String {
        var r = Renderer(output: .text, blocks: [.mem])
        r.memForm = form
        r.render(s, nowMs: now)
        return String(decoding: r.line.bytes, as: UTF8.self)
    }

    func testTheBreakdownNamesEachPartInWords() {
        XCTAssertEqual(line(Fixture.desktop.snapshot, form: .breakdown), "mem active 2.9G inact 1.9G wired 977M other 1.9G free 7.6G\n")
    }

    func testTheBarShowsAnEighthOfACellForAnyShareAboveNothing() {
        var s = Fixture.desktop.snapshot
        s.memory.total = 1_000_000
        s.memory.available = 999_000
        s.memory.used = 1_000          // 0.1 %
        XCTAssertEqual(line(s, form: .bar), "mem ▏░░░░░░░\n")
        s.memory.available = 1_000_000
        s.memory.used = 0
        XCTAssertEqual(line(s, form: .bar), "mem ░░░░░░░░\n", "nothing used: empty")
    }
}
