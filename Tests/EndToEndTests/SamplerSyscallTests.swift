import Foundation
import SnapshotCodec
import TestSupport
import XCTest

/// System calls of the release sampler between samples, logged by `strace -f -ttt`: a quiet
/// interval is one `clock_nanosleep` (the inotify descriptor signals its events instead of
/// being polled), and a sample publishes with one `renameat2` (the snapshot copied into the
/// spare's mapping: no `pwrite`), without an `fstat` of the snapshot files (their inotify
/// watches stand in for it). Skipped when strace is not installed.
final class SamplerSyscallTests: XCTestCase {
    static let strace = "/usr/bin/strace"

    func testASampleSleepsOnceAndPublishesWithOneExchangeAndNoWriteUntilAFileIsTamperedWith() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.strace) else { throw XCTSkip("strace is not installed") }
        let work = try TemporaryDirectory("sampler-syscalls")
        let tree = work.url.appendingPathComponent("tree"), runtime = work.url.appendingPathComponent("run")
        let log = work.url.appendingPathComponent("strace.log").path
        let made = try Programs.run("/usr/bin/env", ["python3", Programs.packageRoot.appendingPathComponent("bench/make-proc-tree.py").path,
                                                     tree.path, "--processes", "3"])
        XCTAssertEqual(made.status, 0, made.stderr)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.strace)
        process.arguments = ["-f", "-ttt", "-o", log, try Programs.path("sysstatsd"),
                             "--interval", "0.05", "--no-history", "--runtime-dir", runtime.path,
                             "--proc-root", tree.appendingPathComponent("proc").path,
                             "--sys-root", tree.appendingPathComponent("sys").path]
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let snapshotPath = runtime.appendingPathComponent("snapshot").path
        func sequence() -> UInt64 {
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: snapshotPath)),
                  let s = try? [UInt8](data).withUnsafeBytes({ try Snapshot.decode($0) }) else { return 0 }
            return s.sequence
        }
        func waitFor(sequence wanted: UInt64) -> Bool {
            let deadline = Date().addingTimeInterval(30)
            while sequence() < wanted, Date() < deadline { usleep(20_000) }
            return sequence() >= wanted
        }
        XCTAssertTrue(waitFor(sequence: 40), "the sampler did not take 40 samples in time")
        let quietEnd = Date().timeIntervalSince1970
        // A file of someone else's renamed over the spare: never published.
        let foreign = runtime.appendingPathComponent("foreign").path
        try Data("foreign".utf8).write(to: URL(fileURLWithPath: foreign))
        XCTAssertEqual(rename(foreign, runtime.appendingPathComponent(".snapshot.tmp").path), 0)
        let tampered = sequence()
        for wanted in tampered + 1...tampered + 6 {
            XCTAssertTrue(waitFor(sequence: wanted), "no snapshot \(wanted) after the spare was replaced")
        }
        let sampler = try XCTUnwrap(Self.child(of: process.processIdentifier))
        kill(sampler, SIGTERM)
        process.waitUntilExit()

        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        func time(_ line: Substring) -> Double? {
            let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            return fields.count >= 2 ? Double(fields[1]) : nil
        }
        func call(_ line: Substring) -> Substring? {
            let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            return fields.count == 3 ? fields[2] : nil
        }
        // The quiet window: from the 10th exchange (start-up done) to the tampering.
        let exchanges = lines.enumerated().filter { call($0.element)?.hasPrefix("renameat2(") == true }
        XCTAssertGreaterThan(exchanges.count, 40, "strace logged too few exchanges")
        guard exchanges.count > 10 else { return }
        let quiet = lines[exchanges[10].offset...].filter { line in time(line).map { $0 < quietEnd } ?? false }
        let calls = quiet.compactMap(call)
        let renames = calls.filter { $0.hasPrefix("renameat2(") }
        XCTAssertGreaterThanOrEqual(renames.count, 20)
        XCTAssertEqual(calls.filter { $0.hasPrefix("pwrite64(") || $0.hasPrefix("write(") }, [],
                       "the snapshot is copied into the spare's mapping: no write")
        // Cut or grown to the new length only when it changed (the histories filling up).
        let truncations = calls.filter { $0.hasPrefix("ftruncate(") }
        XCTAssertLessThanOrEqual(truncations.count, renames.count)
        XCTAssertEqual(calls.filter { $0.hasPrefix("ppoll(") || $0.hasPrefix("poll(") }, [], "the sleep does not poll")
        XCTAssertLessThanOrEqual(abs(calls.filter { $0.hasPrefix("clock_nanosleep(") }.count - renames.count), 1,
                                 "one sleep per sample")
        // The snapshot files, each mapped once at start: never fstat'ed while nothing happens to them.
        let files = Set(lines.compactMap(call).filter { $0.hasPrefix("mmap(") && $0.contains("MAP_SHARED") }.compactMap {
            $0.split(separator: ",").dropFirst(4).first.map { String($0.drop { $0 == " " }) }
        })
        XCTAssertEqual(files.count, 2, "two files take turns, each mapped")
        XCTAssertTrue(truncations.allSatisfy { t in files.contains { t.hasPrefix("ftruncate(\($0),") } })
        let checks = calls.filter { c in files.contains { c.hasPrefix("newfstatat(\($0), \"\"") || c.hasPrefix("fstat(\($0),") } }
        XCTAssertEqual(checks, [], "the snapshot files are checked only after an event on them")
        // After the tampering the files were checked (and the spare made again).
        let after = lines.filter { line in time(line).map { $0 >= quietEnd } ?? false }.compactMap(call)
        XCTAssertTrue(after.contains { $0.hasPrefix("openat(") && $0.contains("\".snapshot.tmp\"") && $0.contains("O_CREAT") },
                      "the replaced spare was made again")
    }

    /// The first child of `pid` (strace's tracee).
    static func child(of pid: pid_t) -> pid_t? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8) else { return nil }
        return text.split(separator: " ").first.flatMap { pid_t(String($0)) }
    }
}
