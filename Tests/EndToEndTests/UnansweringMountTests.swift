import Foundation
import SnapshotCodec
import TestSupport
import XCTest

/// A `disk:MNT` block whose file system never answers statfs (a hung NFS server, a stuck
/// FUSE daemon) froze the sampler for good: no snapshot, every bar "sysstatsd stopped",
/// SIGTERM left it in D state with its lock held. The statfs runs in a process of its own:
/// the disk says "not answering", everything else is published, SIGTERM ends the sampler.
/// The file system is a FUSE one written in the test over /dev/fuse (no library), which
/// answers everything but STATFS.
final class UnansweringMountTests: XCTestCase {
    var work: TemporaryDirectory!
    override func setUpWithError() throws { work = try TemporaryDirectory("unanswering") }
    override func tearDownWithError() throws { work = nil }

    func waitFor(seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    func snapshot(_ runtime: String) -> Snapshot? {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: runtime + "/snapshot")) else { return nil }
        return try? [UInt8](data).withUnsafeBytes { try Snapshot.decode($0) }
    }

    func testADiskThatNeverAnswersShowsNotAnsweringWhileTheRestIsPublishedAndSIGTERMEndsTheSampler() throws {
        guard geteuid() == 0 else { throw XCTSkip("mounting a FUSE file system needs root") }
        guard access("/dev/fuse", R_OK | W_OK) == 0 else { throw XCTSkip("no /dev/fuse on this machine") }
        let server = work.file("unanswering-fs")
        let compiled = try Programs.run("/usr/bin/cc", ["-O2", "-o", server, Fixtures.path("fuse/unanswering-fs.c")])
        XCTAssertEqual(compiled.status, 0, compiled.stderr)
        // A mount point is at most 64 bytes in the snapshot: a short one of its own.
        var template = Array("/tmp/sysstats-fuse-XXXXXX".utf8CString)
        let mount = String(cString: try XCTUnwrap(mkdtemp(&template)))
        defer { umount2(mount, Int32(MNT_DETACH)); rmdir(mount) }
        let ready = work.file("ready"), runtime = work.file("run")
        let fuse = Process()
        fuse.executableURL = URL(fileURLWithPath: server)
        fuse.arguments = [mount, ready]
        let fuseErrors = Pipe()
        fuse.standardError = fuseErrors
        try fuse.run()
        defer {
            if fuse.isRunning { fuse.terminate() }
            fuse.waitUntilExit()
        }
        if !waitFor(seconds: 10, { access(ready, F_OK) == 0 || !fuse.isRunning }) || !fuse.isRunning {
            let why = String(decoding: fuseErrors.fileHandleForReading.availableData, as: UTF8.self)
            throw XCTSkip("the FUSE file system could not be mounted here: \(why)")
        }

        let tree = Fixtures.root.appendingPathComponent("sampler-desktop/2")
        let sampler = Process()
        sampler.executableURL = URL(fileURLWithPath: try Programs.path("sysstatsd"))
        sampler.arguments = ["--interval", "0.2", "--no-history", "--runtime-dir", runtime, "--disk", mount, "--disk", "/",
                             "--proc-root", tree.appendingPathComponent("proc").path,
                             "--sys-root", tree.appendingPathComponent("sys").path]
        let log = work.file("sysstatsd.log")
        FileManager.default.createFile(atPath: log, contents: nil)
        sampler.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try sampler.run()
        defer { if sampler.isRunning { kill(sampler.processIdentifier, SIGKILL) } }
        func said() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

        XCTAssertTrue(waitFor(seconds: 10) { snapshot(runtime)?.disks.first?.isNotAnswering == true },
                      "the unanswering disk is said so: \(String(describing: snapshot(runtime)?.disks)) \(said())")
        let first = try XCTUnwrap(snapshot(runtime)).sequence
        XCTAssertTrue(waitFor(seconds: 5) { (snapshot(runtime)?.sequence ?? 0) >= first + 5 }, "snapshots go on being published")
        let root = try XCTUnwrap(snapshot(runtime)?.disks.last)
        XCTAssertGreaterThan(root.totalKiB, 0, "the other disk is measured")

        let bar = try Programs.run("/usr/bin/env", ["SYSSTATS_NO_START_SAMPLER=1", try Programs.path("sysstats-bar"),
                                                    "--once", "--output", "text", "--runtime-dir", runtime,
                                                    "--blocks", "disk:\(mount),load"])
        XCTAssertTrue(bar.stdout.contains("disk \(mount): not answering"), bar.stdout + bar.stderr)

        kill(sampler.processIdentifier, SIGTERM)
        XCTAssertTrue(waitFor(seconds: 5) { !sampler.isRunning }, "SIGTERM ends the sampler though its disk's statfs waits")
        if !sampler.isRunning { XCTAssertEqual(sampler.terminationStatus, 0) }
        // Its lock went with it: another sampler starts on the same runtime directory.
        let again = try Programs.run(try Programs.path("sysstatsd"),
                                     ["--once", "--no-history", "--runtime-dir", runtime,
                                      "--proc-root", tree.appendingPathComponent("proc").path,
                                      "--sys-root", tree.appendingPathComponent("sys").path])
        XCTAssertEqual(again.status, 0, again.stderr)
    }
}
