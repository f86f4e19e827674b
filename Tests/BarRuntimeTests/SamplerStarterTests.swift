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
}
