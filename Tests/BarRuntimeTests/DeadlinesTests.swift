@testable import BarRuntime
import XCTest

/// The loop's one merge of its timers into poll()'s timeout.
final class DeadlinesTests: XCTestCase {
    func testNoDeadlineSleepsUntilAnEvent() {
        var d = Deadlines()
        d.add(nil)
        XCTAssertEqual(d.timeout(now: 1_000), -1)
    }

    func testTheEarliestDeadlineWinsAndAPastOneIsDueAtOnce() {
        var d = Deadlines()
        d.add(5_000); d.add(1_250); d.add(nil); d.add(3_000)
        XCTAssertEqual(d.timeout(now: 1_000), 250)
        XCTAssertEqual(d.timeout(now: 1_250), 0)
        XCTAssertEqual(d.timeout(now: 9_000), 0)
    }

    func testASleepIsAtMostAnHourAndAHugeDelaySaturates() {
        var d = Deadlines()
        d.add(in: .max, from: 1_000)   // a hostile snapshot's interval
        XCTAssertEqual(d.earliest, .max)
        XCTAssertEqual(d.timeout(now: 1_000), Int32(Deadlines.longestSleepMs))
        d.add(in: 2_000, from: 1_000)
        XCTAssertEqual(d.timeout(now: 1_000), 2_000)
    }
}
