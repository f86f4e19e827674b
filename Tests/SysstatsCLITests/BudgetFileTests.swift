import Foundation
import FoundationXML
@testable import SysstatsCLI
import XCTest

final class BudgetFileTests: XCTestCase {
    func parse(_ text: String) throws(BudgetFileError) -> [Budget] { try BudgetFile.parse(Array(text.utf8)) }

    func error(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        do throws(BudgetFileError) {
            _ = try parse(text)
            XCTFail("accepted", file: file, line: line)
            return ""
        } catch {
            return error.describe(file: "b.toml")
        }
    }

    func testBudgetsAreReadInFileOrderWithTheirLimits() throws {
        let budgets = try parse("""
            # the renderer
            [[budget]]
            name = "bar"
            command = "exec ./bar --output text"
            setup = "make fixture"
            warmup = "500ms"
            duration = "3s"
            interval = "20ms"
            peak_rss = "2 MiB"
            steady_uss = "300K"
            growth_per_minute = "64 KiB"

            [[budget]]
            name = "tool"
            command = "./tool"
            process = "tool"
            peak_pss = 1048576
            """)
        XCTAssertEqual(budgets.map(\.name), ["bar", "tool"])
        var bar = Budget(name: "bar", command: "exec ./bar --output text", line: 2)
        bar.setup = "make fixture"; bar.warmupMs = 500; bar.durationMs = 3000; bar.intervalMs = 20
        bar.peakRSS = 2 << 20; bar.steadyUSS = 300 * 1024; bar.growthPerMinute = 64 * 1024
        bar.keyLines = ["name": 3, "command": 4, "setup": 5, "warmup": 6, "duration": 7, "interval": 8,
                        "peak_rss": 9, "steady_uss": 10, "growth_per_minute": 11]
        XCTAssertEqual(budgets[0], bar)
        XCTAssertEqual(budgets[1].peakPSS, 1 << 20)
        XCTAssertEqual(budgets[1].process, "tool")
        XCTAssertEqual(budgets[1].intervalMs, 10)
        XCTAssertNil(budgets[1].durationMs)
    }

    func testMaxOverheadIsAShareOfOneCoreAndAnythingElseIsRefusedAtItsLine() throws {
        let good = try BudgetFile.parse(Array("[[budget]]\nname = \"a\"\ncommand = \"true\"\nmax_overhead = \"0.5%\"\npeak_pss = \"4MiB\"\n".utf8))
        XCTAssertEqual(good.first?.maxOverhead, 0.005)
        let plain = try BudgetFile.parse(Array("[[budget]]\nname = \"a\"\ncommand = \"true\"\npeak_pss = \"4MiB\"\n".utf8))
        XCTAssertEqual(plain.first?.maxOverhead, OverheadGovernor.defaultShare)
        for (value, reason) in [("\"150%\"", "max_overhead: '150%' is not a share of one core from 0.01% to 100% (0: no limit)"),
                                ("2", "max_overhead must be a share such as \"2%\", not integer")] {
            XCTAssertThrowsError(try BudgetFile.parse(Array("[[budget]]\nname = \"a\"\ncommand = \"true\"\nmax_overhead = \(value)\npeak_pss = \"4MiB\"\n".utf8))) { error in
                let e = error as? BudgetFileError
                XCTAssertEqual(e?.line, 4)
                XCTAssertEqual(e?.reason, reason)
            }
        }
    }

    /// The report prints a growth as `+1.20 MiB/min`: the budget takes it written so.
    func testAGrowthLimitTakesPerMinuteAsTheReportWritesIt() throws {
        let text = "[[budget]]\nname = \"x\"\ncommand = \"y\"\ngrowth_per_minute = \"1 MiB/min\"\n[[budget]]\nname = \"z\"\ncommand = \"y\"\ngrowth_per_minute = \"1 MiB\"\n"
        XCTAssertEqual(try BudgetFile.parse(Array(text.utf8)).map(\.growthPerMinute), [1 << 20, 1 << 20])
        XCTAssertEqual(error("[[budget]]\nname = \"x\"\ncommand = \"y\"\npeak_rss = \"1 MiB/min\"\n"),
                       "b.toml:4:12: peak_rss: '1 MiB/min' is not a size (e.g. \"2 MiB\", \"300K\")", "a peak is no rate")
    }

    /// A budget may follow a running process instead of running a command, as `measure --pid`.
    func testABudgetFollowsAPidOrAPidfileInsteadOfACommand() throws {
        let budgets = try parse("""
            [[budget]]
            name = "server"
            pid = 4242
            duration = "2s"
            peak_pss = "64 MiB"

            [[budget]]
            name = "daemon"
            setup = "./start-daemon"
            pidfile = "run/daemon.pid"
            peak_rss = "64 MiB"
            """)
        XCTAssertEqual(budgets.map(\.attach), [.pid(4242), .pidfile("run/daemon.pid")])
        XCTAssertEqual(budgets.map(\.command), ["", ""])
        XCTAssertEqual(budgets[1].keyLines["pidfile"], 10)
    }

    func testAPidOrPidfileThatCannotBeFollowedIsRefusedAtItsLine() {
        XCTAssertEqual(error("[[budget]]\nname = \"x\"\ncommand = \"y\"\npid = 7\npeak_rss = 1\n"),
                       "b.toml:4:1: budget 'x' gives more than one of command, pid and pidfile: it runs a command or follows a process")
        XCTAssertEqual(error("[[budget]]\nname = \"x\"\npidfile = \"p\"\npid = 7\npeak_rss = 1\n"),
                       "b.toml:4:1: budget 'x' gives more than one of command, pid and pidfile: it runs a command or follows a process")
        XCTAssertEqual(error("[[budget]]\nname = \"x\"\npid = 0\npeak_rss = 1\n"),
                       "b.toml:3:7: pid is a process id, a whole number from 1 to 4194304")
        XCTAssertEqual(error("[[budget]]\nname = \"x\"\npid = \"42\"\npeak_rss = 1\n"),
                       "b.toml:3:7: pid is a process id, a whole number from 1 to 4194304")
        XCTAssertEqual(error("[[budget]]\nname = \"x\"\npid = 4194305\npeak_rss = 1\n"),
                       "b.toml:3:7: pid is a process id, a whole number from 1 to 4194304")
        XCTAssertEqual(error("[[budget]]\nname = \"x\"\npidfile = \"\"\npeak_rss = 1\n"),
                       "b.toml:3:11: pidfile is a path of 1 to 4096 bytes")
        XCTAssertEqual(error("[[budget]]\nname = \"x\"\npidfile = 3\npeak_rss = 1\n"),
                       "b.toml:3:11: pidfile must be a string, not integer")
    }

    /// The pid file is outside input: one number, blanks around it, nothing else.
    func testAPidfileHoldsOneNumberOrTheBudgetSaysWhatItHolds() throws {
        let directory = NSTemporaryDirectory() + "pidfile-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func read(_ text: String) -> String {
            FileManager.default.createFile(atPath: directory + "/p", contents: Data(text.utf8))
            switch BudgetRunner.attachedPid(.pidfile("p"), directory: directory) {
            case .success(let pid): return "\(pid)"
            case .failure(let e): return e.message
            }
        }
        XCTAssertEqual(read("4242\n"), "4242")
        XCTAssertEqual(read("  77 \r\n"), "77")
        XCTAssertEqual(read(""), "pidfile p holds no process id (one number, 1 or more)")
        XCTAssertEqual(read("0\n"), "pidfile p holds no process id (one number, 1 or more)")
        XCTAssertEqual(read("12 13\n"), "pidfile p holds no process id (one number, 1 or more)")
        XCTAssertEqual(read("-5"), "pidfile p holds no process id (one number, 1 or more)")
        XCTAssertEqual(read("99999999999"), "pidfile p holds no process id (one number, 1 or more)")
        XCTAssertEqual(read(String(repeating: "1", count: 65)), "pidfile p: larger than 64 bytes: not a pid file")
        try FileManager.default.createSymbolicLink(atPath: directory + "/link", withDestinationPath: directory + "/p")
        guard case .failure(let e) = BudgetRunner.attachedPid(.pidfile("link"), directory: directory) else { return XCTFail("followed a link") }
        XCTAssertTrue(e.message.hasPrefix("pidfile link: "), e.message)
        guard case .failure(let missing) = BudgetRunner.attachedPid(.pidfile(directory + "/none"), directory: "/") else { return XCTFail("read") }
        XCTAssertTrue(missing.message.contains("none"), missing.message)
    }

    func testEachMistakeIsOneLineWithItsLineAndColumn() {
        XCTAssertEqual(error("[[budget]]\nname = \"x\"\ncommand = \"y\"\npeak_rss = \"2 parsecs\"\n"),
                       "b.toml:4:12: peak_rss: '2 parsecs': unknown size unit 'parsecs' (B, K, KiB, MiB, GiB, kB, MB, GB)")
        XCTAssertEqual(error("[[budget]]\nname = \"x\"\ncommand = \"y\"\npeak_rs = \"2 MiB\"\n"),
                       "b.toml:4:1: unknown key 'peak_rs' (known: command, duration, growth_per_minute, interval, max_overhead, name, peak_anon, peak_cgroup, peak_pss, peak_rss, peak_rss_exact, pid, pidfile, process, setup, steady_anon, steady_uss, warmup)")
        XCTAssertEqual(error("[[budget]]\nname = \"x\"\ncommand = \"y\"\n"),
                       "b.toml:1:1: budget 'x' sets no limit (peak_rss, peak_rss_exact, peak_pss, steady_uss, peak_anon, steady_anon, peak_cgroup, growth_per_minute)")
        XCTAssertEqual(error("[[budget]]\ncommand = \"y\"\npeak_rss = 1\n"), "b.toml:1:1: a [[budget]] needs a name")
        XCTAssertEqual(error("[[budget]]\nname = \"x\"\npeak_rss = 1\n"), "b.toml:1:1: budget 'x' needs a command (or a pid or pidfile to follow)")
        XCTAssertEqual(error("[[budget]]\nname = \"x\"\ncommand = \"y\"\npeak_rss = 1\n[[budget]]\nname = \"x\"\ncommand = \"z\"\npeak_rss = 1\n"),
                       "b.toml:6:8: a second budget named 'x'")
        XCTAssertEqual(error("[[budget]]\nname = \"x\"\ncommand = \"y\"\npeak_rss = 1\nwarmup = 5\n"),
                       "b.toml:5:10: warmup must be a duration such as \"500ms\", not integer")
        XCTAssertEqual(error("[[budget]]\nname = \"x\"\ncommand = \"y\"\npeak_rss = -1\n"), "b.toml:4:12: peak_rss cannot be negative")
        XCTAssertEqual(error("[[budget]]\nname = \"x\"\ncommand = \"y\"\npeak_rss = 1\ninterval = \"0ms\"\n"),
                       "b.toml:5:12: interval is 1ms to 60s")
        XCTAssertEqual(error("[[budget]]\nname = \"x\"\ncommand = \"y\"\npeak_rss = 1\ninterval = \"3600h\"\n"),
                       "b.toml:5:12: interval is 1ms to 60s", "a typo's hours would hold the run that long")
        XCTAssertEqual(error("[[budget]]\nname = \"x\"\ncommand = \"y\"\npeak_rss = 1\nprocess = \"a-name-too-long-for-comm\"\n"),
                       "b.toml:5:11: process is a command name of 1 to 15 bytes (as ps -o comm shows it)")
        XCTAssertEqual(error("[[budget]]\nname = \"x\"\ncommand = \"y\"\npeak_rss = 1\nwarmup = \"5s\"\nduration = \"5s\"\n"),
                       "b.toml:5:10: warmup must end before the duration: nothing would be measured after it",
                       "refused when read, not after the run")
        // Found by the budget-file fuzz target: a duration of 0 with no warm-up trapped.
        XCTAssertEqual(error("[[budget]]\nname = \"x\"\ncommand = \"y\"\nduration = \"00s\"\npeak_rss = 1\n"),
                       "b.toml:4:12: duration must be longer than 0: nothing would be measured")
        XCTAssertEqual(error("[[budget]]\nname = \"x\"\ncommand = \"y\"\npeak_rss = \"30 mb\"\n"),
                       "b.toml:4:12: peak_rss: '30 mb' is ambiguous: write MB (powers of 1000) or MiB (powers of 1024)")
        XCTAssertEqual(error("[budget]\nname = \"x\"\n"), "b.toml:1:2: 'budget' must be written [[budget]]")
        XCTAssertEqual(error("title = \"x\"\n"), "b.toml:1:1: unknown key 'title' (the file holds [[budget]] tables)")
        XCTAssertEqual(error("# nothing\n"), "b.toml:1:1: no [[budget]] table")
        XCTAssertEqual(error("[[budget]]\nname = \"x\ny\"\n"), "b.toml:2:8: unterminated string")
        XCTAssertEqual(error("[[budget]]\nname = \"a\\u0007\"\ncommand = \"y\"\npeak_rss = 1\n"),
                       "b.toml:2:8: a name is 1 to 128 printable characters")
        XCTAssertEqual(error("[[budget]]\nname = \"a\"\ncommand = \"y\\u0000\"\npeak_rss = 1\n"), "b.toml:3:11: command holds a NUL byte")
        // The file's text quoted in a reason reaches a terminal: controls and the rest as '?'.
        XCTAssertEqual(error("[[budget]]\nname = \"a\"\ncommand = \"y\"\nsteady_uss = \"\\u001b[2J \\u202e\"\n"),
                       "b.toml:4:14: steady_uss: '?[2J ???' is not a size (e.g. \"2 MiB\", \"300K\")")
    }

    func testAFileThatIsNotThereOrNotRegularIsRefusedInOneLine() throws {
        let dir = try TemporaryDirectory()
        XCTAssertEqual(BudgetRunner.load(dir.file("none.toml")).failure?.message.hasPrefix(dir.file("none.toml") + ": "), true)
        symlink("/etc/passwd", dir.file("link.toml"))
        XCTAssertEqual(BudgetRunner.load(dir.file("link.toml")).failure?.message, dir.file("link.toml") + ": is a symbolic link, not a regular file")
        mkfifo(dir.file("fifo.toml"), 0o600)
        XCTAssertEqual(BudgetRunner.load(dir.file("fifo.toml")).failure?.message, dir.file("fifo.toml") + ": is a FIFO, not a regular file")
        try dir.write([UInt8](repeating: 0x20, count: BudgetFile.maximumSize + 1), to: "big.toml")
        XCTAssertEqual(BudgetRunner.load(dir.file("big.toml")).failure?.message, dir.file("big.toml") + ": larger than 65536 bytes")
    }
}

extension Result {
    var failure: Failure? { if case .failure(let e) = self { return e } else { return nil } }
}

final class BudgetCheckTests: XCTestCase {
    /// A run of two processes over 5 samples 100 ms apart: "big" grows by 100 KiB a sample.
    static func recording() -> Recording {
        var r = Recording()
        r.sampleTimesMs = [0, 100, 200, 300, 400]
        var big = RecordedProcess(pid: 10, parentPid: 1, name: Array("big".utf8), firstSample: 0)
        big.values = (0..<5).map { i in ProcessValues(rssKiB: 1000 + 100 * UInt32(i), pssKiB: 900 + 100 * UInt32(i), ussKiB: 800 + 100 * UInt32(i), swapKiB: 0) }
        var small = RecordedProcess(pid: 11, parentPid: 10, name: Array("small".utf8), firstSample: 1)
        small.values = (0..<3).map { _ in ProcessValues(rssKiB: 500, pssKiB: 200, ussKiB: 100, swapKiB: 4) }
        r.processes = [big, small]
        r.commandExit = .exited(0)
        r.wallMs = 450
        return r
    }

    func testTheSummaryFindsPeaksTheirHolderTheSteadyStateAndGrowth() throws {
        let s = MeasureSummary(Self.recording(), warmupMs: 100)
        XCTAssertEqual(s.treePeaks[.rss]?.kib, 1300 + 500)
        XCTAssertEqual(s.treePeaks[.rss]?.atMs, 300)   // the last sample has "small" gone
        XCTAssertEqual(s.treePeaks[.rss]?.holderPid, 10)
        XCTAssertEqual(s.treePeaks[.pss]?.kib, 1200 + 200)
        // After 100 ms: USS 900+100, 1000+100, 1100+100, 1200 → mean 1125.
        XCTAssertEqual(s.steady?[.uss], 1125)
        XCTAssertEqual(s.steadySamples, 4)
        XCTAssertEqual(s.processes.first?.peaks[.uss]?.kib, 1200)
        XCTAssertEqual(s.processes.first?.steady?[.pss], 1150)
        XCTAssertEqual(s.processCount, 2)
        XCTAssertEqual(s.samplesWithTree, 5)
        XCTAssertEqual(s.steadySamplesWithTree, 4)
        XCTAssertEqual(s.steadySpanMs, 300)
        XCTAssertNil(s.growth, "4 samples over 300 ms after the warm-up: no growth from so little")
    }

    func testALimitExceededFailsAndNamesTheProcessHoldingTheMostAtThePeak() {
        var budget = Budget(name: "tool", command: "./tool")
        budget.peakRSS = 1 << 20       // 1024 KiB < 1800 KiB
        budget.steadyUSS = 2 << 20
        let result = BudgetResult(budget: budget, summary: MeasureSummary(Self.recording(), warmupMs: 100))
        XCTAssertFalse(result.passed)
        XCTAssertEqual(result.line, "FAIL tool: peak_rss 1.76 MiB of 1.00 MiB (76% over; sampled, 5 samples); "
                       + "steady_uss 1.10 MiB of 2.00 MiB (45% headroom; sampled, 4 samples); "
                       + "most at the peak: big (pid 10) held 1.27 MiB of RSS at the peak")
    }

    func testLimitsKeptPassWithTheirHeadroom() {
        var budget = Budget(name: "tool", command: "./tool")
        budget.peakPSS = 2 << 20
        let result = BudgetResult(budget: budget, summary: MeasureSummary(Self.recording(), warmupMs: 100))
        XCTAssertTrue(result.passed, result.line)
        XCTAssertEqual(result.line, "ok   tool: peak_pss 1.37 MiB of 2.00 MiB (32% headroom; sampled, 5 samples)")
    }

    /// A process's peak RSS is the largest of its samples, VmHWM and wait4's figure at its
    /// end, and says which; the tree's is at least the largest exact one.
    func testAProcessPeakRSSIsTheLargestOfSamplesVmHWMAndItsEnd() throws {
        var r = Self.recording()
        r.commandPid = 10
        r.commandFromHelper = true
        r.processes[0].highWaterKiB = 1500
        r.processes[0].exactMaxRSSKiB = 2500
        r.processes[0].exactIsOwn = true
        r.processes[1].highWaterKiB = 600
        var s = MeasureSummary(r, warmupMs: 0)
        XCTAssertEqual(s.processes[0].peakRSSKiB, 2500)
        XCTAssertEqual(s.processes[0].peakRSSSource, .exit)
        XCTAssertEqual(s.processes[1].peakRSSKiB, 600)
        XCTAssertEqual(s.processes[1].peakRSSSource, .highWater)
        XCTAssertEqual(s.exactPeakRSSKiB, 2500)
        XCTAssertEqual(s.peakRSSKiB, 2500)
        XCTAssertEqual(s.peakRSSSource, "one process's wait4 at its end")
        // A process that reaped children: its figure may be theirs, so it is the tree's
        // exact peak (the children are of the tree) but not its own peak, and a budget's
        // process filter leaves it out.
        r.processes[0].exactIsOwn = false
        s = MeasureSummary(r, warmupMs: 0)
        XCTAssertEqual(s.processes[0].peakRSSKiB, 1500)
        XCTAssertEqual(s.exactPeakRSSKiB, 2500)
        XCTAssertEqual(MeasureReport.json(s, command: ["x"]).processes[0].wait4IsOwn, false)
        r.ownExactFiguresOnly = true
        XCTAssertNil(MeasureSummary(r, warmupMs: 0).exactPeakRSSKiB)
        r.ownExactFiguresOnly = false
        r.processes[0].exactIsOwn = true
        // Started without the helper, the command's figure counts measure's own RSS: unused.
        r.commandFromHelper = false
        s = MeasureSummary(r, warmupMs: 0)
        XCTAssertNil(s.exactPeakRSSKiB)
        XCTAssertEqual(s.processes[0].peakRSSKiB, 1500)
        XCTAssertEqual(s.peakRSSKiB, 1800, "the sampled sum")
        // A process reaped before any sample still has its end.
        r.largestUnseen = UnseenProcess(pid: 12, name: Array("short".utf8), maxRSSKiB: 4000)
        r.unseenProcesses = 1
        s = MeasureSummary(r, warmupMs: 0)
        XCTAssertEqual(s.exactPeakRSSKiB, 4000)
        XCTAssertEqual(s.exactPeakHolder?.pid, 12)
        XCTAssertEqual(s.peakRSSKiB, 4000)
        XCTAssertEqual(s.processCount, 3)
        let text = MeasureReport.text(s, command: ["x"])
        XCTAssertTrue(text.contains("1 process ended before any sample; the largest: short (12) 3.91 MiB at its end"), "\(text)")
        XCTAssertTrue(text.contains { $0.hasPrefix("the command was started without sysstats-spawn") }, "\(text)")
        let json = MeasureReport.json(s, command: ["x"])
        XCTAssertEqual(json.exactPeakRss, 4000 * 1024)
        XCTAssertEqual(json.exactPeakName, "short")
        XCTAssertEqual(json.processes[0].peakRssSource, "VmHWM")
        XCTAssertEqual(json.processes[0].sampledPeakRss, 1400 * 1024)
    }

    /// A failing budget names the largest mappings of the process that held the most, by
    /// the figure that failed.
    func testAFailureNamesTheLargestMappingsOfTheProcessHoldingTheMost() {
        var budget = Budget(name: "tool", command: "./tool")
        budget.peakRSS = 1 << 20
        var r = Self.recording()
        var heap = MappingFigures(name: Array("[heap]".utf8)); heap.rssKiB = 900
        var lib = MappingFigures(name: Array("libpython3.11.so".utf8)); lib.rssKiB = 300
        var anon = MappingFigures(name: Array("anon".utf8)); anon.rssKiB = 100
        var small = MappingFigures(name: Array("ld.so".utf8)); small.rssKiB = 4
        r.processes[0].peakMappings = [heap, lib, anon, small]
        let result = BudgetResult(budget: budget, summary: MeasureSummary(r, warmupMs: 100))
        XCTAssertTrue(result.line.hasSuffix("most at the peak: big (pid 10) held 1.27 MiB of RSS at the peak: [heap] 900 KiB, libpython3.11.so 300 KiB, anon 100 KiB"), result.line)
    }

    /// The exact peak can be budgeted, and a failed one names the process whose figure it is
    /// (it named the holder of the sampled peak); where measure reaped no counted process the
    /// budget is an error that says why.
    func testTheExactPeakIsBudgetedAndIsAnErrorWhereNoProcessEndWasSeen() {
        var budget = Budget(name: "exact", command: "x")
        budget.peakRSSExact = 2 << 20
        var r = Self.recording()
        r.commandFromHelper = true
        r.processes[1].exactMaxRSSKiB = 3000
        r.processes[1].exactIsOwn = true
        var result = BudgetResult(budget: budget, summary: MeasureSummary(r, warmupMs: 0))
        XCTAssertEqual(result.line, "FAIL exact: peak_rss_exact 2.93 MiB of 2.00 MiB (46% over; exact: wait4 at a process's end); the peak is one process's: small (pid 11) reached 2.93 MiB of RSS (wait4, at its end); where its memory was: not read (its high came and went between samples)")
        r.processes[1].exactMaxRSSKiB = nil
        result = BudgetResult(budget: budget, summary: MeasureSummary(r, warmupMs: 0))
        XCTAssertFalse(result.passed)
        XCTAssertTrue(result.isError)
        XCTAssertTrue(result.line.hasPrefix("ERROR exact: peak_rss_exact n/a of 2.00 MiB [measure reaped no counted process: each was reaped by its own parent, "
                                            + "whose figure holds it; or limit peak_rss (VmHWM) or peak_cgroup instead]"), result.line)
    }

    /// The kernel's exact peak can be budgeted (a child's spike between two samples is in
    /// it); where no memory cgroup could be made the budget is an error that says why, not a
    /// pass, nor a limit failed.
    func testTheCgroupPeakIsBudgetedAndIsAnErrorWhereItCouldNotBeHad() {
        var budget = Budget(name: "exact", command: "x")
        budget.peakCgroup = 100 << 20
        var r = Self.recording()
        r.cgroup = .measured(bytes: 101 << 20, source: "cgroup v2 memory.peak")
        var result = BudgetResult(budget: budget, summary: MeasureSummary(r, warmupMs: 0))
        XCTAssertFalse(result.passed)
        XCTAssertTrue(result.line.hasPrefix("FAIL exact: peak_cgroup 101 MiB of 100 MiB (1% over; exact: cgroup v2 memory.peak); the cgroup's peak is the whole tree's, "
                                            + "page cache and kernel memory included; the largest process: big (pid 10) reached 1.37 MiB of RSS (sampled)"), result.line)
        r.cgroup = .unavailable(reason: "no delegated cgroup subtree")
        result = BudgetResult(budget: budget, summary: MeasureSummary(r, warmupMs: 0))
        XCTAssertFalse(result.passed)
        XCTAssertTrue(result.line.hasPrefix("ERROR exact: peak_cgroup n/a of 100 MiB [no memory cgroup: no delegated cgroup subtree; "), result.line)
        XCTAssertTrue(result.isError, "a limit that could not be checked is no memory failure")
    }

    /// Anonymous memory can be budgeted, peak and steady (the recording's values carry it).
    func testAnonymousMemoryIsBudgetedPeakAndSteady() {
        var budget = Budget(name: "anon", command: "x")
        budget.peakAnon = 1 << 20
        budget.steadyAnon = 1 << 30
        var r = Self.recording()
        for p in r.processes.indices { for v in r.processes[p].values.indices { r.processes[p].values[v].anonKiB = 700 } }
        let result = BudgetResult(budget: budget, summary: MeasureSummary(r, warmupMs: 0))
        XCTAssertTrue(result.line.hasPrefix("FAIL anon: peak_anon 1.37 MiB of 1.00 MiB (37% over; sampled, 5 samples); steady_anon "), result.line)
    }

    func testACommandThatFailsFailsItsBudget() {
        var r = Self.recording()
        r.commandExit = .signalled(9)
        var budget = Budget(name: "t", command: "x")
        budget.peakRSS = 1 << 30
        let result = BudgetResult(budget: budget, summary: MeasureSummary(r, warmupMs: 0))
        XCTAssertFalse(result.passed)
        XCTAssertTrue(result.line.hasSuffix("; the command ended with signal 9"), result.line)
        r.stoppedAtDuration = true
        XCTAssertTrue(BudgetResult(budget: budget, summary: MeasureSummary(r, warmupMs: 0)).passed, "--duration ended it")
    }

    func testARegressionOverTheBaselineBeyondTheToleranceFails() {
        var budget = Budget(name: "t", command: "x")
        budget.peakRSS = 1 << 30
        var result = BudgetResult(budget: budget, summary: MeasureSummary(Self.recording(), warmupMs: 0))
        // 1800 KiB: allowed is the baseline and the larger of 5 % of it and 1 MiB.
        result.compare(with: ["peak_rss": 776 * 1024], tolerance: 0.05)
        XCTAssertTrue(result.passed, result.line)
        result = BudgetResult(budget: budget, summary: MeasureSummary(Self.recording(), warmupMs: 0))
        result.compare(with: ["peak_rss": 775 * 1024, "peak_pss": 1], tolerance: 0.05)
        XCTAssertFalse(result.passed)
        XCTAssertTrue(result.line.contains("peak_rss 1.76 MiB regressed over the baseline 775 KiB by 132.3%, tolerance 5.0%, at least 1.00 MiB"), result.line)
        XCTAssertFalse(result.line.contains("peak_pss"), "the budget sets no peak_pss: its baseline is not compared: \(result.line)")
        budget.peakPSS = 1 << 30
        result = BudgetResult(budget: budget, summary: MeasureSummary(Self.recording(), warmupMs: 0))
        result.compare(with: ["peak_pss": 1], tolerance: 0.05)
        XCTAssertTrue(result.line.contains("peak_pss 1.37 MiB regressed over the baseline 1 B"), result.line)
        XCTAssertEqual(BudgetRunner.Options(file: "x").tolerance, 0.10, "the default holds for an unchanged program (docs/budgets.md)")
    }

    func testTheBaselineRoundTripsThroughItsJSON() throws {
        var budget = Budget(name: "t", command: "x")
        budget.peakRSS = 1 << 30
        let results = [BudgetResult(budget: budget, summary: MeasureSummary(Self.recording(), warmupMs: 100))]
        let baseline = BudgetBaseline(results)
        let dir = try TemporaryDirectory()
        try dir.write(Array(baseline.json.utf8), to: "b.json")
        XCTAssertEqual(try BudgetBaseline.read(path: dir.file("b.json")).get(), baseline)
        XCTAssertEqual(baseline.budgets["t"]?["peak_rss"], 1800 * 1024)
        try dir.write(Array("{\"version\": 2, \"budgets\": {}}".utf8), to: "v2.json")
        XCTAssertEqual(BudgetBaseline.read(path: dir.file("v2.json")).failure?.message,
                       dir.file("v2.json") + ": not a sysstats budget baseline (version 1 JSON)")
        XCTAssertEqual(BudgetBaseline.read(path: dir.file("none.json")).failure?.missing, true)
    }

    /// A figure of 2^64 or more trapped `budget check --baseline` (status 132, nothing printed,
    /// no JUnit): each number is checked where it enters, and the file refused in one line
    /// naming it, the budget and the key (status 2, as for any baseline that cannot be used).
    func testABaselineFigureOutOfRangeIsRefusedNamingTheFileAndTheKey() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("b.json")
        let sizes = "(a baseline figure is bytes from 0 to 2^53)"
        let cases: [(key: String, number: String, message: String)] = [
            ("peak_rss", "1e20", "peak_rss is 1e20, out of range \(sizes)"),
            ("peak_rss", "1e999", "peak_rss is 1e999, out of range \(sizes)"),
            ("steady_uss", "18446744073709551616", "steady_uss is 18446744073709551616, out of range \(sizes)"),
            ("peak_pss", "-1", "peak_pss is -1, out of range \(sizes)"),
            ("peak_rss", "9007199254740994", "peak_rss is 9007199254740994, out of range \(sizes)"),
            ("growth_per_minute", "-1e999", "growth_per_minute is -1e999, out of range (a baseline figure is bytes a minute from -2^53 to 2^53)"),
            ("peak_rss", "1" + String(repeating: "0", count: 400), "peak_rss is 1" + String(repeating: "0", count: 28) + "..., out of range"),
        ]
        for (key, number, message) in cases {
            try dir.write(Array("{\"version\": 1, \"budgets\": {\"sampler\": {\"\(key)\": \(number)}}}".utf8), to: "b.json")
            let failure = BudgetBaseline.read(path: path).failure
            XCTAssertEqual(failure?.missing, false, number)
            XCTAssertTrue(failure?.message.hasPrefix("\(path): budget 'sampler': \(message)") ?? false, "\(String(describing: failure))")
        }
        // The ends of the ranges are figures; a version that is not a whole 1 is not a baseline.
        try dir.write(Array(#"{"version": 1, "budgets": {"s": {"peak_rss": 9007199254740992, "growth_per_minute": -9007199254740992}}}"#.utf8),
                      to: "b.json")
        XCTAssertEqual(try BudgetBaseline.read(path: path).get().budgets["s"]?["peak_rss"], 9_007_199_254_740_992)
        for version in ["1e999", "1.5", "-1e999"] {
            try dir.write(Array("{\"version\": \(version), \"budgets\": {}}".utf8), to: "b.json")
            XCTAssertEqual(BudgetBaseline.read(path: path).failure?.message, "\(path): not a sysstats budget baseline (version 1 JSON)")
        }
    }

    /// A limit of `UInt64.max` bytes (2^64 as a Double) and baselines of any Double print
    /// instead of trapping where they became a `UInt64`.
    func testHugeLimitsAndBaselinesPrintWithoutTrapping() {
        let figures: [Double] = [.nan, -.infinity, -1, 0, 1.9, 1e20, .infinity, 18_446_744_073_709_551_616]
        XCTAssertEqual(figures.map(SizeText.bytes), [0, 0, 0, 0, 1, .max, .max, .max])
        var budget = Budget(name: "t", command: "x")
        budget.peakRSS = .max
        var result = BudgetResult(budget: budget, summary: MeasureSummary(Self.recording(), warmupMs: 0))
        XCTAssertTrue(result.line.hasPrefix("ok   t: peak_rss 1.76 MiB of 16777216 TiB"), result.line)
        result.compare(with: ["peak_rss": 1e20], tolerance: 0.1)
        XCTAssertTrue(result.passed, result.line)
        XCTAssertEqual(result.regressions.first?.note, "baseline 16777216 TiB by -100.0%, tolerance 10.0%, at least 1.00 MiB")
        for base in [Double.nan, -.infinity, .infinity] {
            var other = BudgetResult(budget: budget, summary: MeasureSummary(Self.recording(), warmupMs: 0))
            other.compare(with: ["peak_rss": base], tolerance: 0.1)
            XCTAssertFalse(other.line.isEmpty, "\(base)")
        }
    }

    func testJUnitXMLHasACasePerBudgetAndEscapesMarkup() {
        var ok = Budget(name: "a<b>&\"c\"", command: "x")
        ok.peakRSS = 1 << 30
        var failing = Budget(name: "small", command: "x")
        failing.peakRSS = 1024
        let results = [ok, failing].map { BudgetResult(budget: $0, summary: MeasureSummary(Self.recording(), warmupMs: 0)) }
        let xml = JUnitReport.xml(results)
        XCTAssertTrue(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"2\" failures=\"1\" errors=\"0\" time=\"0.900\">"), xml)
        XCTAssertTrue(xml.contains("<testcase classname=\"sysstats-budget\" name=\"a&lt;b&gt;&amp;&quot;c&quot;\" time=\"0.450\">"), xml)
        XCTAssertTrue(xml.contains("<failure message=\"FAIL small: peak_rss 1.76 MiB of 1.00 KiB"), xml)
        XCTAssertEqual(JUnitReport.escape("a\u{1}b\u{FFFE}\tc'"), "a\u{FFFD}b\u{FFFD}\tc&apos;")
        // A budget whose command could not run checked nothing: an error, not a failure.
        var broken = BudgetResult(budget: failing)
        broken.failure = "could not start: No such file or directory"
        let withError = JUnitReport.xml(results + [broken])
        XCTAssertTrue(withError.contains("<testsuite name=\"sysstats budget\" tests=\"3\" failures=\"1\" errors=\"1\""), withError)
        XCTAssertTrue(withError.contains("<error message=\"ERROR small: could not start: No such file or directory\" type=\"run\">"), withError)
        XCTAssertNoThrow(try XMLDocument(xmlString: xml))
    }

    func testTheJSONReportHasSnakeCaseKeysTheTimelineAndSources() throws {
        var r = Self.recording()
        r.cgroup = .measured(bytes: 2 << 20, source: "cgroup v2 memory.peak")
        let json = MeasureReport.encode(MeasureReport.json(MeasureSummary(r, warmupMs: 100), command: ["./tool", "-x"]))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual(object["peak_rss"] as? Int, 1800 * 1024)
        XCTAssertEqual(object["peak_rss_source"] as? String, "samples")
        XCTAssertEqual(object["cgroup_peak"] as? Int, 2 << 20)
        XCTAssertEqual(object["cgroup_source"] as? String, "cgroup v2 memory.peak")
        XCTAssertEqual(object["exit_status"] as? Int, 0)
        XCTAssertEqual((object["timeline"] as? [String: Any])?["ms"] as? [Int], [0, 100, 200, 300, 400])
        let tree = try XCTUnwrap(object["tree"] as? [String: [String: Any]])
        XCTAssertEqual(tree["uss"]?["steady"] as? Int, 1125 * 1024)
        XCTAssertEqual(tree["rss"]?["peak_holder_name"] as? String, "big")
        XCTAssertEqual((object["processes"] as? [[String: Any]])?.first?["steady_pss"] as? Int, 1150 * 1024)
        XCTAssertFalse(json.contains("\n"))
    }

    func testTheTableEscapesProcessNamesForTheTerminal() {
        var r = Self.recording()
        r.processes[0].name = Array("evil\u{1B}[2J\u{202E}".utf8)
        let text = MeasureReport.text(MeasureSummary(r, warmupMs: 0), command: ["x"]).joined(separator: "\n")
        XCTAssertFalse(text.contains("\u{1B}"))
        XCTAssertFalse(text.contains("\u{202E}"))
    }

    func testTheChartStacksEachProcessesPSS() {
        let chart = MeasureChart(MeasureSummary(Self.recording(), warmupMs: 0))
        XCTAssertEqual(chart.scaleKiB, 2048, "1,400 KiB at the peak: a scale of 2 MiB")
        XCTAssertEqual(MeasureChart.niceScale(700), 1000)
        XCTAssertEqual(MeasureChart.niceScale(49_000), 50 * 1024)
        XCTAssertEqual(MeasureChart.niceScale(.max), .max)
        XCTAssertEqual(Array(chart.png().prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // At the last column only "big" is left, in the first colour, from the axis up.
        XCTAssertEqual(chart.image[MeasureChart.right - 1, MeasureChart.bottom - 2], MeasureChart.palette[0])
    }

    /// In a storm of short children the colours went to one-sample spikes, the process that
    /// lived the whole run grey: the colours go to the most area (PSS over time). The command
    /// is the title.
    func testTheChartColoursTheProcessesThatTakeTheMostOfItAndIsTitled() {
        var r = Recording()
        r.sampleTimesMs = (0..<100).map { UInt64($0) * 10 }
        var steady = RecordedProcess(pid: 10, parentPid: 1, name: Array("server".utf8), firstSample: 0)
        steady.values = Array(repeating: ProcessValues(rssKiB: 1024, pssKiB: 1024, ussKiB: 1024, swapKiB: 0), count: 100)
        r.processes = [steady]
        for k in 0..<10 {
            var spike = RecordedProcess(pid: Int32(100 + k), parentPid: 10, name: Array("child".utf8), firstSample: k * 10)
            spike.values = [ProcessValues(rssKiB: 4096, pssKiB: 4096, ussKiB: 4096, swapKiB: 0)]
            r.processes.append(spike)
        }
        let summary = MeasureSummary(r, warmupMs: 0)
        let chart = MeasureChart(summary, command: ["./server", "--port", "80"]), untitled = MeasureChart(summary)
        XCTAssertEqual(chart.order.first, 0, "the server, 100 samples of 1 MiB, before a child's one of 4 MiB")
        // Its colour at the last column, from the axis up; the title's ink on the first row.
        XCTAssertEqual(chart.image[MeasureChart.right - 1, MeasureChart.bottom - 2], MeasureChart.palette[0])
        XCTAssertTrue((4..<100).contains { x in (2..<10).contains { y in chart.image[x, y] != untitled.image[x, y] } }, "a title drawn")
    }
}
