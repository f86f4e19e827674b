import Foundation
import SnapshotCodec
import XCTest
import TestSupport

/// Peak resident memory (VmHWM) of the release sampler, as a user runs it: with history on
/// (the sampler collects rows and hands them to `sysstatsd-history`, which is not counted).
/// The goal in docs/architecture.md, 4 MiB, is the budget. Most of the figure is code: the kernel maps the
/// executable in 64 KiB windows (and whole page-cache folios) around each page run, so it
/// follows where the functions run lie as much as how many there are. The release link packs
/// the ones a sampler runs together (Sources/sysstatsd/function-order.txt,
/// docs/performance-history.md "The sampler linked by lld"; today's figures are in
/// docs/performance.md, "Memory"). The tree also has network, disk, sensor and cpufreq
/// files, so the system probes do their real work.
final class MemoryBudgetTests: XCTestCase {
    static let budgetKiB = 4 * 1024

    func testSamplerStaysUnderBudgetWithAThousandProcessesOverThirtySamples() throws {
        try measure(samples: 40, extraArguments: { _ in [] }, what: "history on")
    }

    /// The Prometheus export on (docs/fleet.md): its 24 KiB buffer, its formatter's code, a
    /// write every second (every 20th sample), and the same budget.
    func testSamplerWithTheTextfileExportStaysUnderBudget() throws {
        try measure(samples: 70, extraArguments: { work in
            let textfiles = work.url.appendingPathComponent("textfiles")
            try FileManager.default.createDirectory(at: textfiles, withIntermediateDirectories: false)
            return ["--textfile-dir", textfiles.path, "--textfile-interval", "1"]
        }, what: "history and the textfile export on", check: { work in
            let file = work.url.appendingPathComponent("textfiles/sysstats.prom")
            let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
            XCTAssertTrue(text.contains("sysstats_processes "), "the export was written")
        })
    }

    /// A server or a build machine: 10,000 processes. What grows with them is the process table
    /// (a sample, names and bookkeeping per process) and the pid index; the budget states what
    /// a process may cost on top of the 4 MiB: under 512 bytes.
    static let tenThousandBudgetKiB = 4 * 1024 + 10_000 * 512 / 1024

    func testSamplerWithTenThousandProcessesStaysUnderItsBudget() throws {
        try measure(samples: 30, processes: 10_000, budgetKiB: Self.tenThousandBudgetKiB, extraArguments: { _ in [] },
                    what: "history on")
    }

    /// The order file names functions by their mangled names; code changes rename some.
    /// Names the link does not find are ignored, so a stale list only loses its effect —
    /// this says when to make it again (`bench/order-functions.py`).
    func testTheFunctionOrderStillNamesMostOfTheSamplersFunctions() throws {
        let checked = try Programs.run("/usr/bin/env", ["python3", Programs.packageRoot.appendingPathComponent("bench/order-functions.py").path,
                                                        "--check", "--bin", URL(fileURLWithPath: try Programs.path("sysstatsd")).deletingLastPathComponent().path])
        print(checked.stdout, terminator: "")
        XCTAssertEqual(checked.status, 0, "run bench/order-functions.py: \(checked.stdout)\(checked.stderr)")
    }

    func measure(samples: UInt64, processes: Int = 1000, budgetKiB: Int = MemoryBudgetTests.budgetKiB,
                 extraArguments: (TemporaryDirectory) throws -> [String], what: String,
                 check: (TemporaryDirectory) throws -> Void = { _ in }) throws {
        let work = try TemporaryDirectory("budget")
        let tree = work.url.appendingPathComponent("tree"), runtime = work.url.appendingPathComponent("run")
        let data = work.url.appendingPathComponent("data")
        let made = try Programs.run("/usr/bin/env", ["python3", Programs.packageRoot.appendingPathComponent("bench/make-proc-tree.py").path,
                                                     tree.path, "--processes", String(processes), "--batteries", "2"])
        XCTAssertEqual(made.status, 0, made.stderr)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Programs.path("sysstatsd"))
        process.arguments = ["--interval", "0.05", "--runtime-dir", runtime.path, "--data-dir", data.path,
                             "--proc-root", tree.appendingPathComponent("proc").path,
                             "--sys-root", tree.appendingPathComponent("sys").path] + (try extraArguments(work))
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        var snapshot = Snapshot()
        let deadline = Date().addingTimeInterval(60)
        while snapshot.sequence < samples, Date() < deadline {
            usleep(50_000)
            if let data = try? Data(contentsOf: runtime.appendingPathComponent("snapshot")),
               let s = try? [UInt8](data).withUnsafeBytes({ try Snapshot.decode($0) }) { snapshot = s }
        }
        let peak = Programs.statusKiB(pid: process.processIdentifier, field: "VmHWM")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()

        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: data.appendingPathComponent("history.sqlite").path),
                      "history was on: the writer made the database")
        XCTAssertGreaterThanOrEqual(snapshot.sequence, 30, "the sampler did not take 30 samples in time")
        XCTAssertGreaterThanOrEqual(snapshot.processCount, UInt32(processes))
        try check(work)
        let peakKiB = try XCTUnwrap(peak)
        print("sysstatsd peak RSS (VmHWM) with \(what), \(processes) processes, after \(snapshot.sequence) samples: \(peakKiB) KiB")
        XCTAssertLessThanOrEqual(peakKiB, budgetKiB, "peak RSS \(peakKiB) KiB is over the \(budgetKiB) KiB budget")
    }
}
