import Foundation
import XCTest

/// What the tests of a pushing helper share (the sound helper's against PulseAudio, the media
/// helper's against a session bus): a runtime folder, the release sampler on the desktop
/// fixture tree with the server's environment (its log kept), and bars with it too (they run
/// the helper for a click).
class HelperTestCase: XCTestCase {
    var runtime: String!
    var sampler: Process?
    var samplerLog: URL!
    /// What finds the server: `PULSE_SERVER`, `DBUS_SESSION_BUS_ADDRESS`.
    var serverEnvironment: [String: String] { [:] }

    /// Makes the runtime folder (`sysstats-NAME-…`).
    func makeRuntime(_ name: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sysstats-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        runtime = dir.path
        samplerLog = dir.appendingPathComponent("sampler.log")
    }

    /// Stops the sampler and removes the runtime folder.
    func removeRuntime() {
        if let s = sampler, s.isRunning { s.terminate(); s.waitUntilExit() }
        if let runtime { try? FileManager.default.removeItem(atPath: runtime) }
    }

    /// Starts the release sampler on the desktop fixture tree (`sysRoot`: another /sys, a
    /// folder of Tests/Fixtures, or an absolute path).
    func startSampler(sysRoot: String? = nil) throws {
        let tree = BarProcess.packageRoot.appendingPathComponent("Tests/Fixtures/sampler-desktop/1")
        let sys = sysRoot.map { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : BarProcess.packageRoot.appendingPathComponent("Tests/Fixtures/" + $0) }
            ?? tree.appendingPathComponent("sys")
        let bin = URL(fileURLWithPath: try BarProcess.binary()).deletingLastPathComponent()
        let p = Process()
        p.executableURL = bin.appendingPathComponent("sysstatsd")
        p.arguments = ["--runtime-dir", runtime, "--config", "/dev/null", "--no-history", "--interval", "5",
                       "--proc-root", tree.appendingPathComponent("proc").path, "--sys-root", sys.path]
        p.environment = ProcessInfo.processInfo.environment.merging(serverEnvironment) { $1 }
        FileManager.default.createFile(atPath: samplerLog.path, contents: nil)
        p.standardError = try FileHandle(forWritingTo: samplerLog)
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        sampler = p
    }

    /// strace -c over `seconds` of the sampler's helper `name` and of the sampler beside it:
    /// the helper makes no system call (it sleeps in poll the whole time). The sampler samples
    /// meanwhile: the control that strace saw something (it prints no table for a process
    /// that made no call).
    func assertHelperMakesNoSystemCall(_ name: String, over seconds: UInt32,
                                       file: StaticString = #filePath, line: UInt = #line) throws {
        let samplerPid = try XCTUnwrap(sampler?.processIdentifier, file: file, line: line)
        let helper = try XCTUnwrap(childProcess(named: name, of: samplerPid), "\(name) runs", file: file, line: line)
        let traced = try systemCalls(of: [helper, samplerPid], over: seconds, in: runtime)
        XCTAssertGreaterThan(traced[1].calls, 0, "strace saw the sampler sample", file: file, line: line)
        XCTAssertEqual(traced[0].calls, 0, traced[0].table, file: file, line: line)
    }

    /// Makes each change (`make`) and times the bar's last line becoming what it expects, from
    /// the change's end: each shows within 5 s, and the median within the 100 ms (the
    /// median against a loaded machine's outliers). Returns the delays, 5 s for one not shown.
    @discardableResult
    func assertChangesShowWithin100Milliseconds<Change>(_ bar: BarProcess, _ changes: [(Change, String)], make: (Change) throws -> Void,
                                                         file: StaticString = #filePath, line: UInt = #line) throws -> [TimeInterval] {
        var delays: [TimeInterval] = []
        for (change, expected) in changes {
            try make(change)
            let start = Date()
            let shown = bar.waitFor(timeout: 5) { $0.last == expected }
            XCTAssertTrue(shown, "\(change): \(bar.lines.suffix(3))", file: file, line: line)
            delays.append(shown ? Date().timeIntervalSince(start) : 5)
        }
        let median = delays.sorted()[delays.count / 2]
        XCTAssertLessThan(median, 0.1, "delays \(delays)", file: file, line: line)
        return delays
    }

    func bar(_ extra: [String] = [], config: String? = nil) throws -> BarProcess {
        var arguments = ["--runtime-dir", runtime!] + extra
        if let config {
            let path = runtime + "/config.toml"
            try config.write(toFile: path, atomically: true, encoding: .utf8)
            arguments += ["--config", path]
        } else {
            arguments += ["--config", "/dev/null"]
        }
        return try BarProcess(arguments, environment: serverEnvironment)
    }
}

/// The pid of the child of `parent` whose command is `name` (a helper the sampler started),
/// waiting up to 5 s for it.
func childProcess(named name: String, of parent: Int32) -> Int32? {
    let deadline = Date().addingTimeInterval(5)
    while Date() < deadline {
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.range(of: ") ", options: .backwards) else { continue }
            let fields = stat[close.upperBound...].split(separator: " ")
            if fields.count > 1, Int32(fields[1]) == parent, stat.contains("(\(name))") { return pid }
        }
        usleep(50_000)
    }
    return nil
}

/// The system calls each of `pids` makes over `seconds`, as `strace -c` counts them (the
/// total of its table; 0 where it printed none), with the table; the tables are written into
/// `folder`. All are traced at once.
func systemCalls(of pids: [Int32], over seconds: UInt32, in folder: String) throws -> [(calls: Int, table: String)] {
    var tracers: [Process] = []
    for pid in pids {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/strace")
        p.arguments = ["-c", "-p", "\(pid)", "-o", folder + "/strace-\(pid).txt"]
        p.standardError = FileHandle.nullDevice
        try p.run()
        tracers.append(p)
    }
    sleep(seconds)
    for t in tracers { kill(t.processIdentifier, SIGINT); t.waitUntilExit() }
    return try pids.map { pid in
        let table = try String(contentsOfFile: folder + "/strace-\(pid).txt", encoding: .utf8)
        let total = table.split(separator: "\n").last { $0.contains("total") }
        return (total.flatMap { Int($0.split(separator: " ").dropFirst(3).first ?? "") } ?? 0, table)
    }
}

/// A sound server a test started in a folder of its own (PulseServer, PipeWireServer): what
/// finds it, and `pactl` against it, as a user changes it.
protocol PactlServer: AnyObject {
    var folder: URL { get }
    /// `PULSE_SERVER` naming its socket.
    var environment: [String: String] { get }
}

extension PactlServer {
    /// Runs `pactl` against this server; its stdout.
    @discardableResult
    func pactl(_ arguments: String...) throws -> String { try pactl(arguments) }

    @discardableResult
    func pactl(_ arguments: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/pactl")
        p.arguments = arguments
        p.environment = environment.merging(["HOME": folder.path]) { $1 }
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
        return String(decoding: data, as: UTF8.self)
    }
}
