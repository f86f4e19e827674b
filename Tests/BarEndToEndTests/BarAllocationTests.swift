import Foundation
import SnapshotCodec
import XCTest

/// Steady state allocates nothing: valgrind's heap totals for 10 and 1,000
/// updates are equal. Skipped when valgrind is not installed. (Valgrind 3.19
/// cannot read the toolchain's DWARF 5, so it runs a copy stripped of debug info.)
final class BarAllocationTests: XCTestCase {
    static let valgrind = "/usr/bin/valgrind"
    static let strip = "/usr/bin/strip"

    /// A copy of the release renderer without debug info, in `dir`.
    func strippedBinary(in dir: RuntimeDir) throws -> String {
        let stripped = dir.url.appendingPathComponent("sysstats-bar").path
        let strip = Process()
        strip.executableURL = URL(fileURLWithPath: Self.strip)
        strip.arguments = ["-g", "-o", stripped, try BarProcess.binary()]
        try strip.run()
        strip.waitUntilExit()
        XCTAssertEqual(strip.terminationStatus, 0)
        return stripped
    }

    /// The "total heap usage: N allocs" figure of a valgrind log.
    func heapTotal(_ log: String) throws -> Int {
        let text = try String(contentsOfFile: log, encoding: .utf8)
        guard let range = text.range(of: #"total heap usage: ([0-9,]+) allocs"#, options: .regularExpression) else {
            XCTFail("no heap summary in valgrind's log:\n\(text)")
            return -1
        }
        return Int(text[range].split(separator: " ")[3].filter(\.isNumber)) ?? -1
    }

    /// Runs the release renderer under valgrind for `updates` snapshot renames and
    /// returns the "total heap usage: N allocs" figure.
    func heapAllocations(output: String, updates: Int, extra: [String] = []) throws -> Int {
        let dir = try RuntimeDir()
        let log = dir.url.appendingPathComponent("valgrind.log").path
        try dir.publish(sampleSnapshot(sequence: 0))
        let stripped = try strippedBinary(in: dir)
        let bar = try BarProcess(["--output", output, "--runtime-dir", dir.path,
                                  "--blocks", "cpu,mem,load,uptime,battery,procs,exited,self"] + extra,
                                 wrapper: [Self.valgrind, "--log-file=\(log)"], binary: stripped)
        let firstLine = output == "i3bar" ? 3 : 1
        XCTAssertTrue(bar.waitForLineCount(firstLine, timeout: 30))
        var seen = bar.lineCount
        if output == "i3bar" {
            bar.send("[\n" + #"{"name":"mem","button":1}"# + "\n")
            XCTAssertTrue(bar.waitForLineCount(seen + 1))
            seen = bar.lineCount
        }
        for sequence in 1...updates {
            try dir.publish(sampleSnapshot(sequence: UInt64(sequence)))
            guard bar.waitForLineCount(seen + 1, timeout: 10) else { XCTFail("no output for update \(sequence)"); break }
            seen = bar.lineCount
        }
        XCTAssertEqual(bar.stop(SIGTERM, timeout: 30), 0)
        return try heapTotal(log)
    }

    /// The same for `--output png:FILE`: each update is a new file renamed over FILE.
    func pngHeapAllocations(updates: Int) throws -> Int {
        let dir = try RuntimeDir()
        let log = dir.url.appendingPathComponent("valgrind.log").path
        try dir.publish(sampleSnapshot(sequence: 0))
        let out = dir.url.appendingPathComponent("panel.png").path
        let bar = try BarProcess(["--output", "png:\(out)", "--runtime-dir", dir.path],
                                 wrapper: [Self.valgrind, "--log-file=\(log)"], binary: try strippedBinary(in: dir))
        var last = try XCTUnwrap(waitForNewFile(out, after: nil, timeout: 30))
        for sequence in 1...updates {
            try dir.publish(sampleSnapshot(sequence: UInt64(sequence)))
            guard let next = waitForNewFile(out, after: last) else { XCTFail("no picture for update \(sequence)"); break }
            last = next
        }
        XCTAssertEqual(bar.stop(SIGTERM, timeout: 30), 0)
        return try heapTotal(log)
    }

    func testPNGOutputHeapAllocationsDoNotGrowWithTheNumberOfUpdates() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.valgrind), FileManager.default.isExecutableFile(atPath: Self.strip)
        else { throw XCTSkip("valgrind or strip is not installed") }
        let few = try pngHeapAllocations(updates: 10)
        let many = try pngHeapAllocations(updates: 1_000)
        print("sysstats-bar --output png: heap allocations after 10 updates: \(few), after 1000: \(many)")
        XCTAssertGreaterThan(few, 0)
        XCTAssertEqual(few, many, "png: allocations grew with the number of updates")
    }

    func testHeapAllocationsDoNotGrowWithTheNumberOfUpdates() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.valgrind), FileManager.default.isExecutableFile(atPath: Self.strip)
        else { throw XCTSkip("valgrind or strip is not installed") }
        for output in ["text", "i3bar"] {
            let few = try heapAllocations(output: output, updates: 10)
            let many = try heapAllocations(output: output, updates: 1_000)
            print("sysstats-bar --output \(output): heap allocations after 10 updates: \(few), after 1000: \(many)")
            XCTAssertGreaterThan(few, 0)
            XCTAssertEqual(few, many, "\(output): allocations grew with the number of updates")
        }
    }

    /// The same with a `--format` on every block: templates are walked, never re-parsed or reallocated.
    func testHeapAllocationsDoNotGrowWithAFormatOnEveryBlock() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.valgrind), FileManager.default.isExecutableFile(atPath: Self.strip)
        else { throw XCTSkip("valgrind or strip is not installed") }
        let formats = [
            "cpu=C {busy}% {iowait} {spark}", "mem={used}/{total} {percent}% {bar} {{swap {swap}}}", "load={1} {5} {15}",
            "uptime={days}d {hours}:{minutes} ({uptime})", "battery={percent} {state} {sign} {remaining} {power}",
            "procs={count}/{running}", "exited={name} {pid} {freed} {private} {ago}",
            "self={cpu} {sampler_cpu} {bar_cpu} {sampler_rss} {bar_rss}",
        ].flatMap { ["--format", $0] }
        let few = try heapAllocations(output: "i3bar", updates: 10, extra: formats)
        let many = try heapAllocations(output: "i3bar", updates: 1_000, extra: formats)
        print("sysstats-bar --output i3bar with formats: heap allocations after 10 updates: \(few), after 1000: \(many)")
        XCTAssertGreaterThan(few, 0)
        XCTAssertEqual(few, many, "allocations grew with the number of updates")
    }
}
