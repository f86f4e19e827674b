import Foundation
import ProcFS
import SnapshotCodec
import XCTest
@testable import Sampler

/// What the running renderers show, from their `wants/<pid>` files: a union over the living
/// ones; dead renderers' files removed; anything but a small regular file of digits passed over.
final class RendererWantsTests: XCTestCase {
    var runtime = ""
    var directory = FileDescriptor(rawValue: -1)
    var folder: String { runtime + "/wants" }

    override func setUpWithError() throws {
        runtime = NSTemporaryDirectory() + "sysstats-wants-" + UUID().uuidString
        XCTAssertEqual(mkdir(runtime, 0o700), 0)
        directory = FileDescriptor(rawValue: open(runtime, O_RDONLY | O_DIRECTORY))
        addTeardownBlock { [runtime, directory] in
            directory.close()
            try? FileManager.default.removeItem(atPath: runtime)
        }
    }

    private func put(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/.tmp"))
        XCTAssertEqual(rename(folder + "/.tmp", folder + "/" + name), 0)
        usleep(20_000)   // the folder's times move by the kernel's tick
    }

    func testNoFileMeansNothingIsKnownAndTheFolderIsMadePrivate() throws {
        let wants = RendererWants()
        XCTAssertNil(wants.update(in: directory, monotonicNs: 1))
        var info = stat()
        XCTAssertEqual(lstat(folder, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700)
    }

    func testTheLivingRenderersFilesAreUnitedAndAChangeIsSeenAtTheNextSample() throws {
        let wants = RendererWants()
        XCTAssertNil(wants.update(in: directory, monotonicNs: 1))
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sleep")
        child.arguments = ["100"]
        try child.run()
        defer { child.terminate(); child.waitUntilExit() }
        try put("\(getpid())", "\(SnapshotSections([.cpu, .memory]).rawValue)\n")
        XCTAssertEqual(wants.update(in: directory, monotonicNs: 2), [.cpu, .memory])
        try put("\(child.processIdentifier)", "\(SnapshotSections.network.rawValue)")
        XCTAssertEqual(wants.update(in: directory, monotonicNs: 3), [.cpu, .memory, .network])
        XCTAssertEqual(unlink(folder + "/\(getpid())"), 0)
        usleep(20_000)
        XCTAssertEqual(wants.update(in: directory, monotonicNs: 4), [.network])
    }

    /// The names the renderers' files carry are united too, and a change of them is said
    /// once (the sampler then makes its probes again), not at every listing.
    func testTheNamesOfTheLivingRenderersAreUnitedAndAChangeIsSaidOnce() throws {
        let wants = RendererWants()
        _ = wants.update(in: directory, monotonicNs: 1)
        XCTAssertFalse(wants.takeNamesChange())
        try put("\(getpid())", "\(SnapshotSections.disks.rawValue)\ndisk /home\nnet wg0\n")
        XCTAssertEqual(wants.update(in: directory, monotonicNs: 2), [.disks])
        XCTAssertTrue(wants.takeNamesChange())
        XCTAssertFalse(wants.takeNamesChange(), "said once")
        XCTAssertEqual(wants.named.disks, [Array("/home".utf8)])
        XCTAssertEqual(wants.named.interfaces, [Array("wg0".utf8)])
        try put("\(getpid())", "\(SnapshotSections.disks.rawValue)\nnet wg0\ndisk /home\n")
        _ = wants.update(in: directory, monotonicNs: 3 + RendererWants.rescanNs)
        XCTAssertFalse(wants.takeNamesChange(), "the same names in another order: no change")
        try put("\(getpid())", "\(SnapshotSections.disks.rawValue)\n")
        _ = wants.update(in: directory, monotonicNs: 4 + 2 * RendererWants.rescanNs)
        XCTAssertTrue(wants.takeNamesChange())
        XCTAssertTrue(wants.named.namesNothing)
    }

    /// Under the inotify watch the periodic look only asks whether the renderers counted are
    /// alive; one killed without removing its file (no event) is dropped at that look.
    func testUnderTheWatchThePeriodicLookListsOnlyWhenACountedRendererIsGone() throws {
        let watch = ChangeWatch(rulesPath: runtime + "/data/bookmarks.rules")
        let wants = RendererWants()
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sleep")
        child.arguments = ["100"]
        try child.run()
        defer { if child.isRunning { child.terminate(); child.waitUntilExit() } }
        _ = wants.update(in: directory, monotonicNs: 1, changes: watch)
        try put("\(getpid())", "\(SnapshotSections.cpu.rawValue)")
        try put("\(child.processIdentifier)", "\(SnapshotSections.network.rawValue)")
        watch.sleep(untilMonotonicNs: 0)   // the events taken
        let step = RendererWants.rescanNs
        XCTAssertEqual(wants.update(in: directory, monotonicNs: 2, changes: watch), [.cpu, .network])
        let listed = wants.listings
        // Periods pass, both alive: no listing.
        for n in 1...3 {
            watch.sleep(untilMonotonicNs: 0)
            XCTAssertEqual(wants.update(in: directory, monotonicNs: 2 + UInt64(n) * step, changes: watch), [.cpu, .network])
        }
        XCTAssertEqual(wants.listings, listed, "alive renderers are asked, not listed")
        // Killed: its file stays, no inotify event; the next periodic look finds it gone.
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        watch.sleep(untilMonotonicNs: 0)
        XCTAssertEqual(wants.update(in: directory, monotonicNs: 3 + 3 * step, changes: watch), [.cpu, .network],
                       "within the period: as it was")
        XCTAssertEqual(wants.update(in: directory, monotonicNs: 3 + 4 * step, changes: watch), [.cpu])
        XCTAssertEqual(wants.listings, listed + 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/\(child.processIdentifier)"))
    }

    func testADeadRenderersFileIsRemovedAndCountsForNothing() throws {
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let wants = RendererWants()
        _ = wants.update(in: directory, monotonicNs: 1)
        try put("\(gone.processIdentifier)", "\(SnapshotSections.all.rawValue)")
        XCTAssertNil(wants.update(in: directory, monotonicNs: 2))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/\(gone.processIdentifier)"))
    }

    func testHostileFilesArePassedOverNeverBlockOrCrash() throws {
        let wants = RendererWants()
        _ = wants.update(in: directory, monotonicNs: 1)
        let me = "\(getpid())"
        for text in ["", "\n", "12x", "-1", "99999999999", "4294967296", "1 2", String(repeating: "7", count: 40), "\u{1b}[31m"] {
            try put(me, text)
            XCTAssertNil(wants.update(in: directory, monotonicNs: 2), "'\(text)'")
        }
        // Bits this sampler does not know are dropped.
        try put(me, "\(UInt32.max)")
        XCTAssertEqual(wants.update(in: directory, monotonicNs: 3), .all)
        // A FIFO (open would block without O_NONBLOCK), a symbolic link, a directory.
        XCTAssertEqual(unlink(folder + "/" + me), 0)
        XCTAssertEqual(mkfifo(folder + "/" + me, 0o600), 0)
        usleep(20_000)
        XCTAssertNil(wants.update(in: directory, monotonicNs: 4))
        XCTAssertEqual(unlink(folder + "/" + me), 0)
        try Data("3".utf8).write(to: URL(fileURLWithPath: runtime + "/elsewhere"))
        XCTAssertEqual(symlink(runtime + "/elsewhere", folder + "/" + me), 0)
        usleep(20_000)
        XCTAssertNil(wants.update(in: directory, monotonicNs: 5))
        XCTAssertEqual(unlink(folder + "/" + me), 0)
        XCTAssertEqual(mkdir(folder + "/" + me, 0o700), 0)
        usleep(20_000)
        XCTAssertNil(wants.update(in: directory, monotonicNs: 6))
    }

    func testAFolderOpenToOthersIsNotTrusted() throws {
        XCTAssertEqual(mkdir(folder, 0o777), 0)
        XCTAssertEqual(chmod(folder, 0o777), 0)
        try put("\(getpid())", "2")
        XCTAssertNil(RendererWants().update(in: directory, monotonicNs: 1))
    }

    func testAFileChangedInTheSameTickIsSeenAtTheNextListingAtTheLatest() throws {
        let wants = RendererWants()
        _ = wants.update(in: directory, monotonicNs: 1)
        try put("\(getpid())", "2")
        XCTAssertEqual(wants.update(in: directory, monotonicNs: 2), .cpu)
        // Rewritten in place: the folder's times do not move. The periodic listing sees it.
        try Data("4".utf8).write(to: URL(fileURLWithPath: folder + "/\(getpid())"))
        XCTAssertEqual(wants.update(in: directory, monotonicNs: 2 + RendererWants.rescanNs), .memory)
    }
}
