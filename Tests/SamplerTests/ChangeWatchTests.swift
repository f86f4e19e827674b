import Foundation
import ProcFS
import SnapshotCodec
import XCTest
@testable import Sampler

/// The sampler's sleep with inotify watching the rules cache's folder and the wants folder:
/// a quiet sample looks at neither, a change wakes the sleep and is looked at once.
final class ChangeWatchTests: XCTestCase {
    var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "sysstats-changes-" + UUID().uuidString
        XCTAssertEqual(mkdir(folder, 0o700), 0)
        addTeardownBlock { [folder] in try? FileManager.default.removeItem(atPath: folder) }
    }

    private func sleep(_ watch: ChangeWatch, ms: UInt64) { watch.sleep(untilMonotonicNs: monotonicNs() + ms * 1_000_000) }

    private func monotonicNs() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    func testTheRulesAreLookedAtOnlyAfterTheirFileChanged() throws {
        let rules = folder + "/bookmarks.rules"
        let watch = ChangeWatch(rulesPath: rules)
        sleep(watch, ms: 5)   // the watch is added
        XCTAssertTrue(watch.takeRulesChange(), "once, for what happened before the watch")
        XCTAssertFalse(watch.takeRulesChange())
        sleep(watch, ms: 5)
        XCTAssertFalse(watch.takeRulesChange(), "nothing changed")
        // Another file in the folder is not the rules.
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/history.sqlite"))
        sleep(watch, ms: 20)
        XCTAssertFalse(watch.takeRulesChange())
        // Written and renamed into place, as the CLI does.
        try Data("rule".utf8).write(to: URL(fileURLWithPath: rules + ".tmp"))
        XCTAssertEqual(rename(rules + ".tmp", rules), 0)
        sleep(watch, ms: 20)
        XCTAssertTrue(watch.takeRulesChange())
        XCTAssertFalse(watch.takeRulesChange())
        XCTAssertEqual(unlink(rules), 0)
        sleep(watch, ms: 20)
        XCTAssertTrue(watch.takeRulesChange(), "removed")
    }

    func testWhileTheRulesFolderIsMissingTheRulesAreLookedAtOnlyWhenAFolderOnTheWayIsMade() throws {
        let missing = folder + "/missing"
        let rules = missing + "/deeper/bookmarks.rules"
        let watch = ChangeWatch(rulesPath: rules)
        sleep(watch, ms: 2)
        XCTAssertTrue(watch.takeRulesChange(), "once, for what happened before the watch")
        for _ in 0..<3 {
            sleep(watch, ms: 2)
            XCTAssertFalse(watch.takeRulesChange(), "nothing made: the missing folder is not stat'ed every sample")
        }
        // Something else made beside the way is looked at once (cheaply), then quiet again.
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/other"))
        sleep(watch, ms: 20)
        XCTAssertTrue(watch.takeRulesChange())
        sleep(watch, ms: 2)
        XCTAssertFalse(watch.takeRulesChange())
        // The way is made one folder at a time, as `mkdir -p` does; each step is seen.
        XCTAssertEqual(mkdir(missing, 0o700), 0)
        sleep(watch, ms: 20)
        XCTAssertTrue(watch.takeRulesChange())
        XCTAssertEqual(mkdir(missing + "/deeper", 0o700), 0)
        sleep(watch, ms: 20)
        XCTAssertTrue(watch.takeRulesChange())
        sleep(watch, ms: 2)
        XCTAssertFalse(watch.takeRulesChange(), "the folder itself is watched now")
        try Data("rule".utf8).write(to: URL(fileURLWithPath: rules))
        sleep(watch, ms: 20)
        XCTAssertTrue(watch.takeRulesChange(), "the rules written in the folder made meanwhile")
        XCTAssertFalse(watch.takeRulesChange())
    }

    func testARulesFolderMadeAndFilledAtOnceIsSeen() throws {
        let missing = folder + "/a"
        let watch = ChangeWatch(rulesPath: missing + "/b/bookmarks.rules")
        sleep(watch, ms: 2)
        _ = watch.takeRulesChange()
        // Made and filled before the sampler's next sleep: the watch added late still says
        // "look", for what happened before it.
        XCTAssertEqual(mkdir(missing, 0o700), 0)
        XCTAssertEqual(mkdir(missing + "/b", 0o700), 0)
        try Data("rule".utf8).write(to: URL(fileURLWithPath: missing + "/b/bookmarks.rules"))
        sleep(watch, ms: 20)
        XCTAssertTrue(watch.takeRulesChange())
        sleep(watch, ms: 2)
        XCTAssertFalse(watch.takeRulesChange())
    }

    /// The rules' missing folder under the runtime directory (`--data-dir` inside it): the
    /// nearest existing folder is the runtime directory, whose watch (one per directory)
    /// must not be taken over, nor removed when the folder appears.
    func testAMissingRulesFolderUnderTheRuntimeDirectoryLeavesItsWatchAlone() throws {
        let runtime = open(folder, O_RDONLY | O_DIRECTORY)
        defer { close(runtime) }
        let watch = ChangeWatch(rulesPath: folder + "/data/bookmarks.rules")
        XCTAssertTrue(watch.takeRuntimeMove(directory: runtime), "once, for what happened before the watch")
        sleep(watch, ms: 5)
        XCTAssertFalse(watch.takeRuntimeMove(directory: runtime))
        // A file moved into the runtime directory (as each snapshot is) is not a move of it.
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/x.tmp"))
        XCTAssertEqual(rename(folder + "/x.tmp", folder + "/snapshot"), 0)
        sleep(watch, ms: 20)
        XCTAssertFalse(watch.takeRuntimeMove(directory: runtime), "the runtime watch kept its own events")
        XCTAssertTrue(watch.takeRulesChange(), "without a watch of its own the rules are looked at")
        XCTAssertEqual(mkdir(folder + "/data", 0o700), 0)
        sleep(watch, ms: 40)   // the 30 s retry is not due: the rules go on being looked at
        XCTAssertTrue(watch.takeRulesChange())
        // The runtime directory's watch is still there: its move is seen.
        XCTAssertEqual(rename(folder, folder + "-moved"), 0)
        defer { _ = rename(folder + "-moved", folder) }
        sleep(watch, ms: 20)
        XCTAssertTrue(watch.takeRuntimeMove(directory: runtime), "the runtime directory's move is seen")
    }

    /// `--config /dev/null` (no config) is not watched: its folder is /dev, and every write to
    /// /dev/null on the machine would have woken the sampler to read it again. A config file is.
    func testTheNullDeviceAsTheConfigIsNotWatchedAndAConfigFileIs() throws {
        let null = ChangeWatch(rulesPath: nil, configPath: "/dev/null")
        sleep(null, ms: 5)   // a watch would be added here
        let device = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/null"))
        device.write(Data("x".utf8))
        try device.close()
        sleep(null, ms: 20)
        XCTAssertFalse(null.takeConfigChange(), "a write to /dev/null is no change of the config")
        let config = folder + "/config.toml"
        let watched = ChangeWatch(rulesPath: nil, configPath: config)
        sleep(watched, ms: 5)
        try Data("[sampler]\n".utf8).write(to: URL(fileURLWithPath: config))
        sleep(watched, ms: 20)
        XCTAssertTrue(watched.takeConfigChange(), "written in its folder")
    }

    func testTheSleepLastsToItsDeadlineWhateverWakesIt() throws {
        let rules = folder + "/bookmarks.rules"
        let watch = ChangeWatch(rulesPath: rules)
        let start = monotonicNs()
        let writer = Thread { [folder] in
            usleep(30_000)
            try? Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/bookmarks.rules"))
        }
        writer.start()
        watch.sleep(untilMonotonicNs: start + 150_000_000)
        let slept = monotonicNs() - start
        XCTAssertGreaterThanOrEqual(slept, 150_000_000)
        XCTAssertLessThan(slept, 1_000_000_000)
        XCTAssertTrue(watch.takeRulesChange())
    }

    /// The descriptor signals its events (SIGIO): they are read when signalled, without a
    /// sleep in between, and a quiet look reads nothing.
    func testAChangeIsSeenWithoutASleepOnceTheKernelSignalsIt() throws {
        let wants = folder + "/wants"
        XCTAssertEqual(mkdir(wants, 0o700), 0)
        let fd = open(wants, O_RDONLY | O_DIRECTORY)
        defer { close(fd) }
        let watch = ChangeWatch(rulesPath: nil)
        XCTAssertTrue(watch.takeWantsChange(folder: fd), "a new folder: look at it")
        XCTAssertFalse(watch.takeWantsChange(folder: fd))
        try Data("2\n".utf8).write(to: URL(fileURLWithPath: wants + "/1234"))
        usleep(20_000)   // not the watch's sleep: the signal alone brings the events in
        XCTAssertTrue(watch.takeWantsChange(folder: fd))
        XCTAssertFalse(watch.takeWantsChange(folder: fd))
    }

    func testTheWantsFolderIsLookedAtOnlyAfterItChanged() throws {
        let wants = folder + "/wants"
        XCTAssertEqual(mkdir(wants, 0o700), 0)
        let fd = open(wants, O_RDONLY | O_DIRECTORY)
        defer { close(fd) }
        let watch = ChangeWatch(rulesPath: nil)
        XCTAssertTrue(watch.takeWantsChange(folder: fd), "a new folder: look at it")
        XCTAssertFalse(watch.takeWantsChange(folder: fd))
        sleep(watch, ms: 5)
        XCTAssertFalse(watch.takeWantsChange(folder: fd))
        try Data("2\n".utf8).write(to: URL(fileURLWithPath: wants + "/1234"))
        sleep(watch, ms: 20)
        XCTAssertTrue(watch.takeWantsChange(folder: fd))
        XCTAssertFalse(watch.takeWantsChange(folder: fd))
    }

    /// Under the watch, RendererWants makes no system call on a quiet sample and sees a
    /// renderer's file as soon as the sleep saw it arrive.
    func testRendererWantsUnderTheWatchSeesANewFileAtTheNextSample() throws {
        let runtime = FileDescriptor(rawValue: open(folder, O_RDONLY | O_DIRECTORY))
        defer { runtime.close() }
        let watch = ChangeWatch(rulesPath: nil)
        let wants = RendererWants()
        var now: UInt64 = 1_000
        XCTAssertNil(wants.update(in: runtime, monotonicNs: now, changes: watch))
        sleep(watch, ms: 5)
        now += 1_000_000_000
        XCTAssertNil(wants.update(in: runtime, monotonicNs: now, changes: watch))
        try Data("4\n".utf8).write(to: URL(fileURLWithPath: folder + "/wants/\(getpid())"))
        sleep(watch, ms: 20)
        now += 1_000_000_000
        XCTAssertEqual(wants.update(in: runtime, monotonicNs: now, changes: watch), .memory)
    }
}
