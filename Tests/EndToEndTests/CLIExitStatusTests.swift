import Foundation
import SnapshotCodec
import TestSupport
import XCTest

/// sysstats's exit statuses: a failed write to stdout (here /dev/full) is one line on stderr
/// and status 1, never a silent 0; a usage error is status 2 (ArgumentParser's own is 64), as
/// in sysstatsd and sysstats-bar; an option the command would ignore is refused.
final class CLIExitStatusTests: XCTestCase {
    var directory: TemporaryDirectory!
    var runtime: String { directory.file("run") }

    override func setUpWithError() throws {
        directory = try TemporaryDirectory("cli-exit")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        var s = Snapshot()
        s.sequence = 1
        s.timestampMs = UInt64(Date().timeIntervalSince1970 * 1000)
        s.intervalMs = 1000
        var bytes: [UInt8] = []
        s.encode(into: &bytes)
        try directory.write(bytes, to: "run/snapshot")
    }
    override func tearDownWithError() throws { directory = nil }

    /// Runs the built sysstats with stdout into `stdoutPath`, or a pipe.
    func run(_ arguments: [String], stdoutPath: String? = nil, program: String = "sysstats") throws -> Programs.Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Programs.path(program))
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let out = Pipe(), err = Pipe()
        process.standardOutput = stdoutPath == nil ? out : try XCTUnwrap(FileHandle(forWritingAtPath: stdoutPath!))
        process.standardError = err
        try process.run()
        let stdout = stdoutPath == nil ? out.fileHandleForReading.readDataToEndOfFile() : Data()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Programs.Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                               stderr: String(decoding: stderr, as: UTF8.self))
    }

    func testEveryPrintingCommandIntoAFullStdoutExitsOneWithOneLineOnStderr() throws {
        for arguments in [["report", "--runtime-dir", runtime], ["report", "--json", "--runtime-dir", runtime],
                          ["config", "example"], ["--version"], ["--help"], ["report", "--help"]] {
            let r = try run(arguments, stdoutPath: "/dev/full")
            XCTAssertEqual(r.status, 1, "\(arguments): \(r.stderr)")
            XCTAssertEqual(r.stderr, "sysstats: cannot write to standard output: No space left on device\n", "\(arguments)")
        }
        let ok = try run(["report", "--runtime-dir", runtime])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertTrue(ok.stdout.hasPrefix("cpu "), ok.stdout)
    }

    func testSysstatsdHelpAndVersionIntoAFullStdoutExitOneWithOneLine() throws {
        for arguments in [["--version"], ["--help"]] {
            let r = try run(arguments, stdoutPath: "/dev/full", program: "sysstatsd")
            XCTAssertEqual(r.status, 1, "\(arguments): \(r.stderr)")
            XCTAssertEqual(SamplerLog.withoutTimes(r.stderr), "sysstatsd: cannot write to standard output: No space left on device\n", "\(arguments)")
        }
        XCTAssertEqual(try run(["--version"], program: "sysstatsd").status, 0)
        XCTAssertEqual(try run(["--bogus"], program: "sysstatsd").status, 2)
    }

    func testUsageErrorsExitTwo() throws {
        for arguments in [["report", "--bogus"], ["report", "--runtime-dir"], ["history", "--json", "--png", "x.png"],
                          ["top", "--count", "0"], ["no-such-command"]] {
            let r = try run(arguments)
            XCTAssertEqual(r.status, 2, "\(arguments): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix("Error: "), "\(arguments): \(r.stderr)")
            XCTAssertEqual(r.stdout, "", "\(arguments)")
        }
    }

    func testTopRefusesOptionsItsListingWouldIgnore() throws {
        let since = try run(["top", "--since", "1h"])
        XCTAssertEqual(since.status, 2)
        XCTAssertTrue(since.stderr.hasPrefix("Error: --since applies only with --exited"), since.stderr)
        for option in [["--sort", "memory"], ["--interval-ms", "100"], ["--proc-root", "/proc"]] {
            let r = try run(["top", "--exited"] + option + ["--data-dir", directory.file("data")])
            XCTAssertEqual(r.status, 2, "\(option): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix("Error: \(option[0]) applies to running processes, not to --exited"), r.stderr)
        }
    }
}

extension CLIExitStatusTests {
    /// Every program prints `PROGRAM VERSION`, the release in Version.swift (issue 29: `sysstats
    /// --version` printed the bare number; issue 31: the packages are named after what they print).
    func testEveryProgramPrintsItsNameAndTheRelease() throws {
        for program in ["sysstats", "sysstatsd", "sysstatsd-history", "sysstats-bar", "sysstats-bar-x11", "sysstats-bar-wayland"] {
            let r = try run(["--version"], program: program)
            XCTAssertEqual(r.status, 0, "\(program): \(r.stderr)")
            XCTAssertEqual(r.stdout, "\(program) \(sysstatsVersion)\n")
        }
    }

    /// CHANGELOG.md's newest release is the one the programs print: a bump of one without the
    /// other would ship a package whose changelog does not describe it.
    func testTheChangelogsNewestReleaseIsTheProgramsVersion() throws {
        let changelog = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let heading = changelog.split(separator: "\n").first { $0.hasPrefix("## ") }
        let release = heading?.dropFirst(3).split(separator: " ").first.map(String.init)
        XCTAssertEqual(release, "\(sysstatsVersion)", "CHANGELOG.md's first '## VERSION …' heading")
    }
}
