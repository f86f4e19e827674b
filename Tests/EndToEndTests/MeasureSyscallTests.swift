import Foundation
import TestSupport
import XCTest

/// What `sysstats measure` reads of a quiet tree, logged by `strace -y` (the measurer alone,
/// not the command): a process that did not run since its last read costs a read of its CPU
/// clock, not of /proc/PID/statm, and no process of the tree ran to start another: the pid
/// counter (/proc/loadavg) is not read either. Skipped when strace is not installed.
final class MeasureSyscallTests: XCTestCase {
    static let strace = "/usr/bin/strace"

    func testASleepingProcessIsAskedItsCPUClockEachSampleAndItsStatmAndThePidCounterOnlyWhenItRan() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.strace) else { throw XCTSkip("strace is not installed") }
        let work = try TemporaryDirectory("measure-syscalls")
        let log = work.file("strace.log")
        let run = try Programs.run(Self.strace, ["-y", "-ttt", "-o", log, "-e", "trace=pread64,clock_gettime",
                                                 try Programs.path("sysstats"), "measure", "--output", "/dev/null",
                                                 "--", "/bin/sleep", "1.5"], timeout: 30)
        XCTAssertEqual(run.status, 0, run.stderr)
        // Each line `SECONDS.MICROS call(…)`: the time, and the call.
        let timed = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").compactMap { line -> (Double, Substring)? in
            guard let space = line.firstIndex(of: " "), let time = Double(line[..<space]) else { return nil }
            return (time, line[line.index(after: space)...])
        }
        let lines = timed.map(\.1)
        // CPU clocks are negative clock ids (strace shows them as CLOCK_???); the measurer's own
        // CLOCK_MONOTONIC is answered by the vDSO and not logged.
        let clockReads = lines.filter { $0.hasPrefix("clock_gettime(0x") }.count
        let isStatm = { (call: Substring) in call.hasPrefix("pread64(") && call.contains("/statm>") }
        let statmReads = lines.filter(isStatm).count
        XCTAssertGreaterThanOrEqual(clockReads, 100, "one CPU clock read per 10-ms sample of the 1.5-s sleep")
        // The first sample, the refresh each second, and the sample that finds it ended.
        XCTAssertGreaterThanOrEqual(statmReads, 2)
        // While it sleeps (from 0.5 s on: sleep's start, which runs across several samples on a
        // loaded machine, is behind it): the refresh at 1 s and the end's sample.
        let start = timed.first?.0 ?? 0
        let sleepingStatmReads = timed.filter { $0.0 >= start + 0.5 && isStatm($0.1) }.count
        XCTAssertLessThanOrEqual(sleepingStatmReads, 4, "statm read although the process slept: \(sleepingStatmReads) reads")
        let pidCounterReads = lines.filter { $0.hasPrefix("pread64(") && $0.contains("/proc/loadavg>") }.count
        XCTAssertLessThanOrEqual(pidCounterReads, 8, "the pid counter read although nothing ran to start a process: \(pidCounterReads) reads")
    }
}
