import BarCore
@testable import BarRuntime
import CommandOptions
import Foundation
import SnapshotCodec
import XCTest

/// A bar whose program file is removed under it (a purge, the tarball's `--uninstall`): said
/// once, leading the line for a period and on stderr, and the figures go on. (Replaced, the
/// program starts again in place, which only the built program can show:
/// BarFollowsItsProgramTests.)
final class ProgramFollowTests: RuntimeDirectoryHarness {
    let notice = "sysstats was removed: this bar stops at logout"

    /// A bar following a copy of /bin/true as its program, looked at every 200 ms of the wall
    /// clock (on the wake-ups of a clock showing seconds), a change settled after 300 ms.
    func followingBar(_ program: String) throws -> Bar<Sink> {
        try FileManager.default.copyItem(atPath: "/bin/true", toPath: program)
        var info = stat()
        XCTAssertEqual(stat(program, &info), 0)
        try publish { $0.processCount = 300 }
        var b = try bar(["--output", "i3bar", "--blocks", "procs,time:UTC", "--format", "time=%H:%M:%S"])
        b.program = ProgramFile(path: Array(program.utf8),
                                running: ProgramFile.Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)),
                                nowMs: nowMs(), periodMs: 200, settleMs: 300)
        begin(&b)
        return b
    }

    func testARemovedProgramIsSaidOnceLeadingTheLineBesideTheFiguresAndTheBarRunsOn() throws {
        let bin = directory.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: false)
        let program = bin.appendingPathComponent("sysstats-bar").path
        var b = try followingBar(program)
        defer { _ = b.stopCommands(returning: 0) }
        XCTAssertEqual(unlink(program), 0)
        let (seen, said) = capturingStderr {
            turns(&b, seconds: 5, until: { $0.sink.lines.contains { $0.contains(self.notice) } })
        }
        XCTAssertTrue(seen, "\(b.sink.lines.suffix(3))")
        let shown = try XCTUnwrap(b.sink.lines.last { $0.contains(notice) })
        XCTAssertTrue(shown.contains(#""name":"procs""#), "the figures beside it: \(shown)")
        XCTAssertEqual(said.components(separatedBy: "was removed").count - 1, 1, said)
        XCTAssertTrue(said.contains(program), said)

        // A period later the notice is gone, and later looks that find nothing say nothing.
        try publish { $0.processCount = 301 }
        let (_, later) = capturingStderr { turns(&b, seconds: 2.5) }
        XCTAssertFalse(b.sink.lines.last?.contains(notice) ?? true, "\(b.sink.lines.last ?? "no line")")
        XCTAssertEqual(later, "", "said once")
        XCTAssertNil(b.exitStatus, "the bar runs on")
    }

    func testTheProgramStillAtItsPathChangesNothing() throws {
        let program = directory.appendingPathComponent("sysstats-bar").path
        var b = try followingBar(program)
        defer { _ = b.stopCommands(returning: 0) }
        let (_, said) = capturingStderr { turns(&b, seconds: 2.2) }
        XCTAssertEqual(said, "")
        XCTAssertFalse(b.sink.lines.contains { $0.contains(notice) }, "\(b.sink.lines)")
        XCTAssertNotNil(b.program, "still followed")
    }
}
