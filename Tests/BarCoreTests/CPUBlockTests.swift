import BarCore
import SnapshotCodec
import XCTest

/// The cpu block's sparkline keeps its width from the first update: with fewer than eight
/// samples (the first seconds after the sampler starts) the missing cells are spaces on the
/// left, so the blocks beside it do not slide as the history fills.
final class CPUBlockTests: XCTestCase {
    let now = Fixture.desktop.nowMs

    func testTheSparklineIsEightCellsWideFromTheFirstSample() {
        var s = Fixture.desktop.snapshot
        s.cpuBusy = 1200
        s.cpuHistory = [1250]
        XCTAssertEqual(rendered(s, .text, blocks: [.cpu, .load], nowMs: now), "cpu 12%        ▂ | load 0.52 0.48 0.40\n")
        s.cpuHistory = [1250, 2500, 3750]
        XCTAssertEqual(rendered(s, .text, blocks: [.cpu, .load], nowMs: now), "cpu 12%      ▂▃▄ | load 0.52 0.48 0.40\n")
        var widths: Set<Int> = []
        for n in 1...12 {
            s.cpuHistory = Array(repeating: 5000, count: n)
            widths.insert(rendered(s, .text, blocks: [.cpu], nowMs: now).unicodeScalars.count)
        }
        XCTAssertEqual(widths.count, 1, "one width for 1 to 12 samples")
    }
}
