@testable import BarRuntime
import BarCore
import Foundation
import XCTest

/// When the bar starts a sampler. A bar that came while its sampler was stopping
/// (`--exit-when-unwatched`) found the lock still held, started none, and looked again only
/// 30 s later: "sysstatsd stopped" for ~25 s. A held lock is looked at again within a second.
final class SamplerStarterTests: XCTestCase {
    func testALockHeldIsLookedAtAgainWithinASecondNotThirtySeconds() throws {
        let folder = NSTemporaryDirectory() + "sysstats-starter-\(UUID().uuidString)"
        XCTAssertEqual(mkdir(folder, 0o700), 0)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let held = open(folder, O_RDONLY | O_DIRECTORY)
        XCTAssertGreaterThanOrEqual(held, 0)
        XCTAssertEqual(flock(held, LOCK_EX | LOCK_NB), 0, "a sampler on its way out still holds the lock")
        var starter = SamplerStarter(options: BarOptions(), runtimeDir: Array(folder.utf8), environmentSaysNo: false)
        XCTAssertTrue(starter.isDue(nowMs: 10_000))
        XCTAssertFalse(starter.startIfNeeded(nowMs: 10_000), "the lock is held: none started")
        XCTAssertFalse(starter.isDue(nowMs: 10_500))
        XCTAssertTrue(starter.isDue(nowMs: 11_000), "looked at again a second later")
        XCTAssertEqual(starter.nextAttemptMs, 11_000)
        close(held)
    }

    /// The sampler's log lines start with the local time (issue 58); the bar's line for a
    /// sampler that failed shows the reason without it, and a line of an earlier sampler,
    /// which has none, whole.
    func testTheTimeASamplerLogLineStartsWithIsLeftOutOfTheReasonTheBarShows() {
        func timeLength(_ text: String, from start: Int = 0) -> Int {
            var bytes = Array(text.utf8)
            return bytes.withUnsafeMutableBytes { SamplerStarter.logTimeLength($0, from: start, to: $0.count) }
        }
        XCTAssertEqual(timeLength("2026-11-29T07:03:12+01:00 sysstatsd: --interval takes seconds"), 26)
        XCTAssertEqual(timeLength("2026-01-15T08:30:00-03:30 sysstatsd: x"), 26, "an offset west of UTC")
        XCTAssertEqual(timeLength("earlier\n2026-11-29T07:03:12+00:00 sysstatsd: x", from: 8), 26, "a line after another in the tail")
        XCTAssertEqual(timeLength("sysstatsd: --interval takes seconds between 0.05 and 3600"), 0, "an earlier sampler's line")
        XCTAssertEqual(timeLength("2026-11-29 07:03:12 sysstatsd: x"), 0)
        XCTAssertEqual(timeLength("2026-11-29T07:03:12+01:00"), 0, "no space after it: not a log line's time")
    }
}
