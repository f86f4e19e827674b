import BarCore
@testable import BarRuntime
import Foundation
import SnapshotCodec
import XCTest

/// `--output genmon` in-process (``runGenmon(_:)``, one run per plugin period): the tags on
/// stdout, the picture against the golden ones, the graph form a click keeps for the next run,
/// and files another user or a mistake put in the way. (The program's own run: BarPanelTests.)
final class GenmonTests: RuntimeDirectoryHarness {
    var image: String { directory.appendingPathComponent("panel.png").path }
    var form: URL { directory.appendingPathComponent("panel-form") }

    /// One genmon run with `arguments`: its status, stdout and stderr.
    func genmon(_ arguments: [String] = []) throws -> (status: Int32, stdout: String, stderr: String) {
        let options = try runOptions(["--output", "genmon", "--runtime-dir", directory.path] + arguments).options
        let ((status, stdout), stderr) = capturingStderr { capturingStdout { runGenmon(options) } }
        return (status, stdout, stderr)
    }

    func picture() -> Data? { FileManager.default.contents(atPath: image) }

    func testGenmonPrintsItsTagsAndWritesThePicture() throws {
        try publishFixture("desktop")
        let result = try genmon()
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("<img>\(image)</img><txt></txt><tool>CPU 12% (iowait 1%), load 0.52 0.48 0.40\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains("<b>Top CPU</b>\n  firefox 9.5%</tool>"), result.stdout)
        XCTAssertTrue(result.stdout.hasSuffix(" --output genmon --runtime-dir \(directory.path) --click 1</click>\n"), result.stdout)
        XCTAssertEqual(picture(), try golden("desktop-bars"))
        // With --blocks, the text line too, Pango-escaped.
        XCTAssertTrue(try genmon(["--blocks", "cpu,load"]).stdout.contains("<txt>cpu 12% ▂▃▄▅▆▇██ | load 0.52 0.48 0.40</txt>"))
    }

    func testAClickCyclesTheGraphFormOfTheNextRun() throws {
        try publishFixture("desktop")
        var pictures: [Data?] = []
        for _ in 0..<4 {
            let click = try genmon(["--click", "1"])
            XCTAssertEqual(click.status, 0)
            XCTAssertEqual(click.stdout, "", "a click prints nothing")
            XCTAssertEqual(try genmon().status, 0)
            pictures.append(picture())
        }
        XCTAssertEqual(pictures, [try golden("desktop-area"), try golden("desktop-numbers"), try golden("desktop-network"), try golden("desktop-bars")])
        XCTAssertEqual(try genmon(["--click", "3"]).status, 0)
        XCTAssertEqual(try String(contentsOf: form, encoding: .utf8), "3\n")
        // A damaged state file means bars, not a crash.
        try Data("zz".utf8).write(to: form)
        XCTAssertEqual(try genmon().status, 0)
        XCTAssertEqual(picture(), try golden("desktop-bars"))
    }

    func testWithoutASnapshotGenmonSaysNoSamplerRunsDrawsThatPictureAndReturnsOne() throws {
        let result = try genmon()
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stdout.contains("<txt>sysstatsd not running (start it: sysstatsd &amp;)</txt>"), result.stdout)
        XCTAssertEqual(picture(), try golden("not-running"))
    }

    func testAnImagePathGenmonCouldNotReadBackRawEndsWithTwo() throws {
        let result = try genmon(["--image", "\(directory.path)/a</img>.png"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr, "sysstats-bar: genmon reads the image path raw: use letters, digits and / . _ + - , only (--image)\n")
    }

    func testAFIFOAtTheSnapshotIsRefusedAtOnceAndReturnsOne() throws {
        XCTAssertEqual(mkfifo(directory.appendingPathComponent("snapshot").path, 0o600), 0)
        let result = try genmon()
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stdout.contains("<txt>snapshot is not a regular file: refused</txt>"), result.stdout)
    }

    func testAFIFOAtTheGraphFormIsIgnoredAndAClickReplacesIt() throws {
        try publishFixture("desktop")
        XCTAssertEqual(mkfifo(form.path, 0o600), 0)
        XCTAssertEqual(mkfifo(directory.appendingPathComponent(".panel-form.tmp").path, 0o600), 0)
        XCTAssertEqual(try genmon().status, 0)
        XCTAssertEqual(picture(), try golden("desktop-bars"), "bars, the form unread")
        XCTAssertEqual(try genmon(["--click", "1"]).status, 0)
        XCTAssertEqual(try String(contentsOf: form, encoding: .utf8), "1\n")
    }

    func testARuntimeDirectoryOpenToOthersIsRefusedAndNothingIsWrittenIntoIt() throws {
        try publishFixture("desktop")
        XCTAssertEqual(chmod(directory.path, 0o777), 0)
        for arguments in [[], ["--click", "1"]] {
            let result = try genmon(arguments)
            XCTAssertEqual(result.status, 1, "\(arguments)")
            XCTAssertEqual(result.stderr, "sysstats-bar: runtime directory is open to others: chmod 700 it\n")
        }
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: directory.path)), ["snapshot"],
                       "no panel.png or panel-form written into a directory others can read")
    }
}
