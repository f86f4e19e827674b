import Foundation
import TestSupport
import XCTest

/// Paths and process helpers for tests that run the built programs.
///
/// They run the *release* binaries (memory budgets are about what users run):
/// `install/test.sh` builds them first. Set SYSSTATS_BIN_DIR to test other builds.
enum Programs {
    static let packageRoot = Fixtures.packageRoot

    static var binDir: URL {
        if let dir = ProcessInfo.processInfo.environment["SYSSTATS_BIN_DIR"] { return URL(fileURLWithPath: dir) }
        return packageRoot.appendingPathComponent(".build/release")
    }

    /// The path of a built program; fails the test with the command that builds it.
    static func path(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        // A bar a test starts must not start a real sysstatsd on this machine's /proc.
        setenv("SYSSTATS_NO_START_SAMPLER", "1", 1)
        let url = binDir.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            XCTFail("\(url.path) is missing: run `swift build -c release` first (install/test.sh does)", file: file, line: line)
            throw CocoaError(.fileNoSuchFile)
        }
        return url.path
    }

    struct Output { var status: Int32; var stdout: String; var stderr: String }

    /// Runs a program to completion with a time limit.
    static func run(_ executable: String, _ arguments: [String], timeout: TimeInterval = 30) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate(); XCTFail("\(executable) \(arguments) timed out") }
        process.waitUntilExit()
        return Output(status: process.terminationStatus,
                      stdout: String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                      stderr: String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    /// Runs a program with stdin from /dev/null (never a terminal) and extra environment
    /// variables, reading its output as it comes (no pipe can fill up), then its status.
    static func capture(_ executable: String, _ arguments: [String],
                        environment: [String: String] = [:]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardInput = FileHandle.nullDevice
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// A field of /proc/PID/status in KiB (VmHWM, VmRSS), while the process runs.
    static func statusKiB(pid: Int32, field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }
}
