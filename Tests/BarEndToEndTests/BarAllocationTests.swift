import Foundation
import SnapshotCodec
import XCTest

/// Steady state allocates nothing: the allocator calls counted for 10 and 1,000 updates are
/// equal. The renderer is linked statically, where glibc's `malloc` is a local symbol that
/// valgrind cannot replace, so gdb counts the calls instead: a breakpoint on `malloc`,
/// `calloc`, `realloc` and `posix_memalign` (Embedded Swift's allocations) that adds one and
/// goes on. Skipped when gdb is not installed.
final class BarAllocationTests: XCTestCase {
    static let gdb = "/usr/bin/gdb"

    /// gdb, told to count every allocator call of the program it runs and to write the count
    /// (`allocations N`) to `log` when the program has exited; its own messages go there too,
    /// so the program's stdout is the program's alone.
    func counting(log: String, in dir: RuntimeDir) throws -> [String] {
        let script = dir.url.appendingPathComponent("count-allocations.gdb")
        var text = """
            set pagination off
            set confirm off
            set $allocations = 0
            set logging file \(log)
            set logging redirect on
            set logging overwrite on
            set logging enabled on
            handle SIGTERM nostop noprint pass
            handle SIGPIPE nostop noprint pass

            """
        for function in ["malloc", "calloc", "realloc", "posix_memalign"] {
            text += "break \(function)\ncommands\nsilent\nset $allocations = $allocations + 1\ncontinue\nend\n"
        }
        text += "run\nprintf \"allocations %d\\n\", $allocations\n"
        try text.write(to: script, atomically: true, encoding: .utf8)
        return [Self.gdb, "-q", "-batch", "-x", script.path, "--args"]
    }

    /// The count gdb wrote.
    func heapTotal(_ log: String) throws -> Int {
        let text = try String(contentsOfFile: log, encoding: .utf8)
        guard let range = text.range(of: #"allocations ([0-9]+)"#, options: .regularExpression) else {
            XCTFail("no count in gdb's log:\n\(text)")
            return -1
        }
        return Int(text[range].split(separator: " ")[1]) ?? -1
    }

    /// Runs the release renderer under gdb for `updates` snapshot renames and returns how
    /// many allocations it made.
    func heapAllocations(output: String, updates: Int, extra: [String] = []) throws -> Int {
        let dir = try RuntimeDir()
        let log = dir.url.appendingPathComponent("gdb.log").path
        try dir.publish(sampleSnapshot(sequence: 0))
        let bar = try BarProcess(["--output", output, "--runtime-dir", dir.path,
                                  "--blocks", "cpu,mem,load,uptime,battery,procs,exited,self"] + extra,
                                 wrapper: try counting(log: log, in: dir))
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
        // The renderer (gdb's child) ends on SIGTERM; gdb then writes the count and exits 0.
        XCTAssertEqual(bar.stop(SIGTERM, target: bar.childPID, timeout: 30), 0)
        return try heapTotal(log)
    }

    /// The same for `--output png:FILE`: each update is a new file renamed over FILE.
    func pngHeapAllocations(updates: Int) throws -> Int {
        let dir = try RuntimeDir()
        let log = dir.url.appendingPathComponent("gdb.log").path
        try dir.publish(sampleSnapshot(sequence: 0))
        let out = dir.url.appendingPathComponent("panel.png").path
        let bar = try BarProcess(["--output", "png:\(out)", "--runtime-dir", dir.path], wrapper: try counting(log: log, in: dir))
        var last = try XCTUnwrap(waitForNewFile(out, after: nil, timeout: 30))
        for sequence in 1...updates {
            try dir.publish(sampleSnapshot(sequence: UInt64(sequence)))
            guard let next = waitForNewFile(out, after: last) else { XCTFail("no picture for update \(sequence)"); break }
            last = next
        }
        // The renderer (gdb's child) ends on SIGTERM; gdb then writes the count and exits 0.
        XCTAssertEqual(bar.stop(SIGTERM, target: bar.childPID, timeout: 30), 0)
        return try heapTotal(log)
    }

    func testPNGOutputHeapAllocationsDoNotGrowWithTheNumberOfUpdates() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.gdb) else { throw XCTSkip("gdb is not installed") }
        let few = try pngHeapAllocations(updates: 10)
        let many = try pngHeapAllocations(updates: 1_000)
        print("sysstats-bar --output png: heap allocations after 10 updates: \(few), after 1000: \(many)")
        XCTAssertGreaterThan(few, 0)
        XCTAssertEqual(few, many, "png: allocations grew with the number of updates")
    }

    func testHeapAllocationsDoNotGrowWithTheNumberOfUpdates() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.gdb) else { throw XCTSkip("gdb is not installed") }
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
        guard FileManager.default.isExecutableFile(atPath: Self.gdb) else { throw XCTSkip("gdb is not installed") }
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
