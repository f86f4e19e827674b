import Foundation
import SnapshotCodec
import XCTest

/// Latency from the sampler's rename to the renderer's line, and the renderer's
/// CPU time per update, over 1,000 updates of the release binary.
final class BarLatencyTests: XCTestCase {
    /// utime + stime of a process, in clock ticks (/proc/PID/stat fields 14 and 15).
    func cpuTicks(_ pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is the state (field 3): utime is field 14, stime 15.
        guard fields.count > 13, let u = Int(fields[11]), let s = Int(fields[12]) else { return nil }
        return u + s
    }

    func testRenameToOutputLatencyAndCPUPerUpdate() throws {
        let updates = 1_000
        for output in ["text", "i3bar"] {
            let dir = try RuntimeDir()
            try dir.publish(sampleSnapshot(sequence: 0))
            // Blocks whose text changes with every sample (exited): an unchanged line is not written.
            let bar = try BarProcess(["--output", output, "--runtime-dir", dir.path, "--blocks", "cpu,mem,load,exited"],
                                     stdin: false)
            XCTAssertTrue(bar.waitForLineCount(output == "i3bar" ? 3 : 1))
            var seen = bar.lineCount
            var latencies: [Double] = []
            let ticksBefore = try XCTUnwrap(cpuTicks(bar.pid))
            for sequence in 1...updates {
                let snapshot = sampleSnapshot(sequence: UInt64(sequence))
                let start = DispatchTime.now().uptimeNanoseconds
                try dir.publish(snapshot)  // write .snapshot.tmp + rename, as the sampler does
                guard bar.waitForLineCount(seen + 1) else { XCTFail("no output for update \(sequence)"); break }
                latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                seen = bar.lineCount
            }
            let ticks = try XCTUnwrap(cpuTicks(bar.pid)) - ticksBefore
            XCTAssertEqual(bar.stop(), 0)
            latencies.sort()
            guard !latencies.isEmpty else { return }
            let median = latencies[latencies.count / 2], p99 = latencies[latencies.count * 99 / 100]
            let cpuPerUpdateUs = Double(ticks) * 1e6 / Double(sysconf(Int32(_SC_CLK_TCK))) / Double(updates)
            print(String(format: "sysstats-bar --output %@: write+rename to line: median %.3f ms, p99 %.3f ms; CPU %.1f µs per update (%d ticks over %d updates)",
                         output, median, p99, cpuPerUpdateUs, ticks, updates))
            XCTAssertEqual(latencies.count, updates)
            XCTAssertLessThan(p99, 50, "\(output): p99 latency")
            XCTAssertLessThan(cpuPerUpdateUs, 200, "\(output): CPU per update")
        }
    }
}
