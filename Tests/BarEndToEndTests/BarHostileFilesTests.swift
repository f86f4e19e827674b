import Foundation
import SnapshotCodec
import XCTest

/// The built sysstats-bar against files another user or a mistake put in its way: a FIFO
/// where the snapshot or the genmon form should be, a runtime directory that is not ours
/// alone. It never hangs, never trusts, never traps. (Figures at the top of their range in
/// every text output: OnceTests, in-process.)
final class BarHostileFilesTests: XCTestCase {
    /// (`--once`'s refusal, and what it shows: OnceTests, in-process.)
    func testGenmonWithAFIFOAtTheSnapshotExitsOneAtOnce() throws {
        let dir = try RuntimeDir()
        XCTAssertEqual(mkfifo(dir.path + "/snapshot", 0o600), 0)
        for arguments in [["--output", "genmon"]] {
            let bar = try BarProcess(arguments + ["--runtime-dir", dir.path], stdin: false)
            XCTAssertTrue(waitForExit(bar), "\(arguments) blocked on the FIFO")
            XCTAssertEqual(bar.process.terminationStatus, 1, "\(arguments)")
        }
    }

    func testAFIFOAtTheGenmonFormIsIgnoredAndAClickReplacesIt() throws {
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot())
        XCTAssertEqual(mkfifo(dir.path + "/panel-form", 0o600), 0)
        XCTAssertEqual(mkfifo(dir.path + "/.panel-form.tmp", 0o600), 0)
        let genmon = try BarProcess(["--output", "genmon", "--runtime-dir", dir.path], stdin: false)
        XCTAssertTrue(waitForExit(genmon), "genmon blocked on the FIFO")
        XCTAssertEqual(genmon.process.terminationStatus, 0)
        let click = try BarProcess(["--output", "genmon", "--runtime-dir", dir.path, "--click", "1"], stdin: false)
        XCTAssertTrue(waitForExit(click), "--click blocked on the FIFO")
        XCTAssertEqual(click.process.terminationStatus, 0)
        XCTAssertEqual(try String(contentsOfFile: dir.path + "/panel-form", encoding: .utf8), "1\n")
    }

    /// (`--once`'s refusal: OnceTests; the streaming bar's refusal and retry:
    /// SnapshotSourceTests, in-process.)
    func testARuntimeDirectoryOpenToOthersIsRefusedByGenmonWhichWritesNothingIntoIt() throws {
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot())
        XCTAssertEqual(chmod(dir.path, 0o777), 0)
        let genmon = try BarProcess(["--output", "genmon", "--runtime-dir", dir.path], stdin: false)
        XCTAssertTrue(waitForExit(genmon))
        XCTAssertEqual(genmon.process.terminationStatus, 1)
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: dir.path)), ["snapshot"],
                       "no panel.png or panel-form written into a directory others can read")
    }

    func testARuntimeDirectoryOwnedBySomeoneElseIsRefused() throws {
        guard geteuid() == 0 else { throw XCTSkip("needs root to give a directory to another user") }
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot())
        XCTAssertEqual(chown(dir.path, 65534, 65534), 0)
        let once = try BarProcess(["--once", "--runtime-dir", dir.path, "--output", "i3bar"], stdin: false)
        XCTAssertTrue(waitForExit(once))
        XCTAssertEqual(once.process.terminationStatus, 1)
        XCTAssertTrue(once.waitFor { $0.first?.contains("runtime directory belongs to another user: refused") == true }, "\(once.lines)")
    }

    private func waitForExit(_ bar: BarProcess, timeout: TimeInterval = 5) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while bar.process.isRunning && Date() < deadline { usleep(5_000) }
        return !bar.process.isRunning
    }
}
