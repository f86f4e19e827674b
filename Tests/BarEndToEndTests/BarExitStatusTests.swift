import Foundation
import SnapshotCodec
import XCTest

/// Every write failure of sysstats-bar is one line on stderr and status 1 (it used to exit 1
/// saying nothing); a usage error is status 2 and names what is wrong; --version works.
final class BarExitStatusTests: XCTestCase {
    struct Result { var status: Int32; var stdout: String; var stderr: String }

    /// Runs the built sysstats-bar with stdout into `stdoutPath` (e.g. /dev/full), or a pipe.
    func run(_ arguments: [String], stdoutPath: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try BarProcess.binary())
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let out = Pipe(), err = Pipe()
        if let stdoutPath {
            process.standardOutput = try XCTUnwrap(FileHandle(forWritingAtPath: stdoutPath))
        } else {
            process.standardOutput = out
        }
        process.standardError = err
        try process.run()
        let stdout = stdoutPath == nil ? out.fileHandleForReading.readDataToEndOfFile() : Data()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }

    func assertOneLine(_ r: Result, status: Int32, contains text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(r.status, status, r.stderr, file: file, line: line)
        XCTAssertEqual(r.stderr.filter { $0 == "\n" }.count, 1, r.stderr, file: file, line: line)
        XCTAssertTrue(r.stderr.hasSuffix("\n"), r.stderr, file: file, line: line)
        XCTAssertTrue(r.stderr.contains(text), r.stderr, file: file, line: line)
    }

    func testOnceIntoAFullStdoutExitsOneWithOneLineOnStderr() throws {
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot())
        for output in ["text", "i3bar", "waybar"] {
            let r = try run(["--once", "--output", output, "--runtime-dir", dir.path], stdoutPath: "/dev/full")
            assertOneLine(r, status: 1, contains: "sysstats-bar: cannot write to stdout: No space left on device")
        }
    }

    func testStreamingIntoAFullStdoutExitsOneWithOneLineOnStderr() throws {
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot())
        let r = try run(["--runtime-dir", dir.path], stdoutPath: "/dev/full")
        assertOneLine(r, status: 1, contains: "sysstats-bar: cannot write to stdout: No space left on device")
    }

    func testGenmonIntoAFullStdoutExitsOneWithOneLineOnStderr() throws {
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot())
        let r = try run(["--output", "genmon", "--runtime-dir", dir.path], stdoutPath: "/dev/full")
        assertOneLine(r, status: 1, contains: "sysstats-bar: cannot write to stdout: No space left on device")
    }

    func testPNGIntoAMissingDirectoryExitsOneNamingTheFileAndWhy() throws {
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot())
        let png = dir.path + "/missing/panel.png"
        let once = try run(["--once", "--output", "png:" + png, "--runtime-dir", dir.path])
        assertOneLine(once, status: 1, contains: "sysstats-bar: cannot write the panel image \(png): No such file or directory")
        let streaming = try run(["--output", "png:" + png, "--runtime-dir", dir.path])
        assertOneLine(streaming, status: 1, contains: "cannot write the panel image \(png): No such file or directory")
        let genmon = try run(["--output", "genmon", "--image", png, "--runtime-dir", dir.path])
        XCTAssertEqual(genmon.status, 1)
        XCTAssertTrue(genmon.stderr.contains("cannot write the panel image \(png): No such file or directory"), genmon.stderr)
    }

    func testVersionPrintsTheVersionAndAFullStdoutIsAnError() throws {
        let r = try run(["--version"])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stdout, "sysstats-bar \(sysstatsVersion)\n")
        XCTAssertEqual(r.stderr, "")
        assertOneLine(try run(["--version"], stdoutPath: "/dev/full"), status: 1, contains: "cannot write to stdout")
        assertOneLine(try run(["--help"], stdoutPath: "/dev/full"), status: 1, contains: "cannot write to stdout")
    }

    /// What `main` returns is the program's status: `--once` exits 0 with a current snapshot
    /// and 1 without (what it shows, and why: OnceTests, in-process).
    func testOnceExitsZeroWithACurrentSnapshotAndOneWithout() throws {
        let dir = try RuntimeDir()
        let without = try run(["--once", "--runtime-dir", dir.path, "--blocks", "load"])
        XCTAssertEqual(without.status, 1)
        XCTAssertEqual(without.stdout, "sysstatsd not running (start it: sysstatsd &)\n")
        try dir.publish(sampleSnapshot())
        let with = try run(["--once", "--runtime-dir", dir.path, "--blocks", "load"])
        XCTAssertEqual(with.status, 0, with.stderr)
        XCTAssertEqual(with.stdout, "load 0.52 0.48 0.40\n")
    }

    func testAnUnknownBlockIsAUsageErrorThatNamesIt() throws {
        let r = try run(["--once", "--blocks", "cpu,nosuch,mem"])
        assertOneLine(r, status: 2, contains: "sysstats-bar: --blocks: unknown block 'nosuch'")
        XCTAssertEqual(r.stdout, "")
    }
}
