import Foundation
import SnapshotCodec
import XCTest

/// System calls of the release renderer, counted by `strace -c -f`: a handful per
/// update (wake, read the event, open, read, close, write; with the sampler's exchange the
/// open, fstat and close drop out) and none while idle.
/// Counts are differences between runs, so start-up calls cancel out.
/// Skipped when strace is not installed.
final class BarSyscallTests: XCTestCase {
    static let strace = "/usr/bin/strace"

    /// Runs the renderer under strace for `updates` renames, then idles `idle`
    /// seconds, and returns strace's total number of calls (and the per-call table).
    func syscalls(output: String, updates: Int, idle: TimeInterval = 0, exchange: Bool = false) throws -> (total: Int, table: String) {
        let dir = try RuntimeDir()
        let log = dir.url.appendingPathComponent("strace.log").path
        let publish = exchange ? dir.publishByExchange : dir.publish
        try publish(sampleSnapshot(sequence: 0))
        let bar = try BarProcess(["--output", output, "--runtime-dir", dir.path, "--blocks", "cpu,mem,load,uptime,exited"],
                                 stdin: false, wrapper: [Self.strace, "-c", "-f", "-o", log])
        let firstLine = output == "i3bar" ? 3 : 1
        XCTAssertTrue(bar.waitForLineCount(firstLine, timeout: 10))
        var seen = bar.lineCount
        for sequence in 0..<updates {
            try publish(sampleSnapshot(sequence: UInt64(sequence + 1)))
            guard bar.waitForLineCount(seen + 1) else { XCTFail("no output for update \(sequence)"); break }
            seen = bar.lineCount
        }
        if idle > 0 { usleep(useconds_t(idle * 1_000_000)) }
        // strace -c prints its table when the traced program ends (strace itself blocks SIGTERM).
        let renderer = try XCTUnwrap(bar.childPID)
        XCTAssertEqual(bar.stop(SIGTERM, target: renderer, timeout: 10), 0)
        let table = try String(contentsOfFile: log, encoding: .utf8)
        guard let totalLine = table.split(separator: "\n").last(where: { $0.hasSuffix("total") }) else {
            XCTFail("no total in strace's table:\n\(table)")
            return (-1, table)
        }
        // Columns: % time, seconds, usecs/call, calls, [errors], syscall
        let fields = totalLine.split(separator: " ", omittingEmptySubsequences: true)
        return (Int(fields[3]) ?? -1, table)
    }

    func testAnUpdateCostsAHandfulOfSyscallsAndIdleCostsNone() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.strace) else { throw XCTSkip("strace is not installed") }
        for output in ["text", "i3bar"] {
            let base = try syscalls(output: output, updates: 10)
            let many = try syscalls(output: output, updates: 510)
            let idle = try syscalls(output: output, updates: 10, idle: 2)
            let perUpdate = Double(many.total - base.total) / 500
            print("sysstats-bar --output \(output): \(perUpdate) syscalls per update; \(idle.total - base.total) in 2 s idle")
            XCTAssertLessThanOrEqual(perUpdate, 7, "\(output) per update:\n\(many.table)")
            XCTAssertEqual(idle.total, base.total, "\(output): syscalls while idle:\n\(idle.table)")
        }
    }

    /// The calls `name` made in strace's table (0 when it has no row).
    func calls(_ name: String, in table: String) -> Int {
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.last.map(String.init) == name, fields.count >= 5 { return Int(fields[3]) ?? -1 }
        }
        return 0
    }

    func testWithTheSamplersExchangeAnUpdateReadsAKeptFileWithoutOpeningIt() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.strace) else { throw XCTSkip("strace is not installed") }
        let base = try syscalls(output: "i3bar", updates: 10, exchange: true)
        let many = try syscalls(output: "i3bar", updates: 510, exchange: true)
        let perUpdate = Double(many.total - base.total) / 500
        print("sysstats-bar --output i3bar, snapshots exchanged: \(perUpdate) syscalls per update")
        // Wake (poll), the event (read), the snapshot (pread), the line (write).
        XCTAssertLessThanOrEqual(perUpdate, 4.2, many.table)
        XCTAssertEqual(calls("openat", in: many.table), calls("openat", in: base.table), "no open per update:\n\(many.table)")
        XCTAssertGreaterThanOrEqual(calls("pread64", in: many.table) - calls("pread64", in: base.table), 490, many.table)
    }
}
