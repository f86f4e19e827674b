import Foundation
import FoundationXML
@testable import SysstatsCLI
import XCTest

/// What a budget's line says beyond its figures (issue 60, items 3, 8 and 10): the process
/// behind the figure that failed, ERROR rather than FAIL where nothing says the program is
/// over its budget, what to do then, and where the budgets file sets the limit.
final class BudgetErrorTests: XCTestCase {
    func parsed(_ limits: String, file: String? = "b.toml") throws -> Budget {
        var budget = try XCTUnwrap(try BudgetFile.parse(Array("[[budget]]\nname = \"t\"\ncommand = \"x\"\n\(limits)".utf8)).first)
        budget.file = file
        return budget
    }

    /// "big" (pid 10) reaped "spikechild" (pid 12), which touched 100 MiB between two samples:
    /// samples saw it at 1.09 MiB, its VmHWM says 100 MiB, big's wait4 figure 101 MiB.
    static func spike(exact: Bool = true) -> Recording {
        var r = BudgetCheckTests.recording()
        r.commandPid = 10
        r.commandFromHelper = true
        var child = RecordedProcess(pid: 12, parentPid: 10, name: Array("spikechild".utf8), firstSample: 1)
        child.values = Array(repeating: ProcessValues(rssKiB: 1116, pssKiB: 1116, ussKiB: 1116, swapKiB: 0), count: 2)
        child.highWaterKiB = 100 * 1024
        r.processes.append(child)
        if exact {
            r.processes[0].exactMaxRSSKiB = 101 * 1024
            r.processes[0].exactIsOwn = false
        }
        return r
    }

    /// A peak RSS of 101 MiB from one process's figure named the holder of the sampled peak
    /// with its 1.17 MiB: it names the process whose figure it is, and where that may be a
    /// child's it reaped, the child with its own figure.
    func testAPeakFromOneProcesssFigureNamesThatProcessNotTheSampledHolder() throws {
        let budget = try parsed("peak_rss = \"50 MiB\"\n")
        var line = BudgetResult(budget: budget, summary: MeasureSummary(Self.spike(), warmupMs: 0)).line
        XCTAssertTrue(line.hasPrefix("FAIL t: peak_rss 101 MiB of 50.0 MiB"), line)
        // No sample saw either high: the line says the breakdown could not be read, not nothing.
        let unread = "; where its memory was: not read (its high came and went between samples)"
        XCTAssertTrue(line.hasSuffix("; the peak is one process's: big (pid 10) reached 101 MiB of RSS (wait4, at its end)\(unread); "
                                     + "that figure is the largest of its images and of the children it reaped; "
                                     + "its largest child seen: spikechild (pid 12) reached 100 MiB of RSS (VmHWM)\(unread); limit at b.toml:4 (peak_rss)"), line)
        XCTAssertFalse(line.contains("most at the peak"), line)
        line = BudgetResult(budget: budget, summary: MeasureSummary(Self.spike(exact: false), warmupMs: 0)).line
        XCTAssertTrue(line.contains("; the peak is one process's: spikechild (pid 12) reached 100 MiB of RSS (VmHWM)\(unread); limit at"), line)
    }

    /// `sh -c "exec ./prog"` under a shell that also is named "prog" (or an exec of the same
    /// program): two rows, one pid, one name. The line looked up the first, whose figures
    /// were not the peak's, and said the high "came and went" though the one holding it was read.
    func testAFailedLineNamesTheRowThatHeldThePeakAmongAnExecdPidsRows() throws {
        var r = Recording()
        r.sampleTimesMs = [0, 100, 200, 300]
        var before = RecordedProcess(pid: 20, parentPid: 1, name: Array("prog".utf8), firstSample: 0)
        before.values = Array(repeating: ProcessValues(rssKiB: 1000, pssKiB: 900, ussKiB: 800, swapKiB: 0), count: 2)
        before.execd = true
        var after = RecordedProcess(pid: 20, parentPid: 1, name: Array("prog".utf8), firstSample: 2)
        after.values = Array(repeating: ProcessValues(rssKiB: 24 * 1024, pssKiB: 24 * 1024, ussKiB: 24 * 1024, swapKiB: 0), count: 2)
        var anon = MappingFigures(name: Array("anon".utf8)); anon.rssKiB = 24 * 1024
        after.peakMappings = [anon]
        after.peakMappingsRSSKiB = 24 * 1024
        r.processes = [before, after]
        r.commandExit = .exited(0)
        r.wallMs = 350
        let line = BudgetResult(budget: try parsed("peak_rss = \"10 MiB\"\n"), summary: MeasureSummary(r, warmupMs: 0)).line
        XCTAssertTrue(line.contains("most at the peak: prog (pid 20) held 24.0 MiB of RSS at the peak: anon 24.0 MiB; limit at"), line)
    }

    /// The cgroup's peak is the whole tree's: the line says so, and names the largest process
    /// by its exact figure where there is one.
    func testAFailedCgroupPeakSaysItIsTheTreesAndNamesTheLargestProcess() throws {
        var r = Self.spike()
        r.cgroup = .measured(bytes: 103 << 20, source: "cgroup v2 memory.peak")
        let line = BudgetResult(budget: try parsed("peak_cgroup = \"100 MiB\"\n"), summary: MeasureSummary(r, warmupMs: 0)).line
        XCTAssertTrue(line.contains("; the cgroup's peak is the whole tree's, page cache and kernel memory included; "
                                    + "the largest process: big (pid 10) reached 101 MiB of RSS (wait4, at its end)"), line)
    }

    /// No usable cgroup (a normal user's "Permission denied", none mounted) and no wait4 figure
    /// were FAIL lines and JUnit failures: they are ERROR lines and JUnit errors, each with what
    /// to do.
    func testALimitThatCouldNotBeMeasuredIsAnErrorSayingWhatToDo() throws {
        var r = BudgetCheckTests.recording()
        r.cgroup = .unavailable(reason: "v2: cannot make /sys/fs/cgroup/user.slice/x/sysstats-measure-1: Permission denied")
        let denied = BudgetResult(budget: try parsed("peak_rss = \"1 GiB\"\npeak_cgroup = \"100 MiB\"\n"), summary: MeasureSummary(r, warmupMs: 0))
        XCTAssertTrue(denied.isError)
        XCTAssertFalse(denied.passed)
        XCTAssertTrue(denied.line.hasPrefix("ERROR t: peak_rss 1.76 MiB of 1.00 GiB"), denied.line)
        XCTAssertTrue(denied.line.contains("[no memory cgroup: v2: cannot make /sys/fs/cgroup/user.slice/x/sysstats-measure-1: Permission denied; "
                                           + "run where one can be made: as root, or in a delegated cgroup "
                                           + "(systemd-run --user --scope -p Delegate=yes sysstats budget check ...)"), denied.line)
        XCTAssertTrue(denied.line.hasSuffix("; limit at b.toml:5 (peak_cgroup)"), denied.line)
        r.cgroup = .unavailable(reason: "no memory cgroup is mounted")
        let unmounted = BudgetResult(budget: try parsed("peak_cgroup = \"100 MiB\"\n"), summary: MeasureSummary(r, warmupMs: 0))
        XCTAssertTrue(unmounted.line.contains("[no memory cgroup: no memory cgroup is mounted (a container needs one mounted at /sys/fs/cgroup); "
                                              + "limit peak_rss_exact or peak_rss instead]"), unmounted.line)

        // With process, a figure that may be another image's or a child's is left out: said so.
        r = BudgetCheckTests.recording()
        r.commandFromHelper = true
        r.ownExactFiguresOnly = true
        r.processes[0].exactMaxRSSKiB = 3000
        let notOwn = BudgetResult(budget: try parsed("peak_rss_exact = \"2 MiB\"\n"), summary: MeasureSummary(r, warmupMs: 0))
        XCTAssertTrue(notOwn.line.hasPrefix("ERROR t: peak_rss_exact n/a of 2.00 MiB [the figure measure had at the end of each counted process "
                                            + "may not be its own (it exec'd over the shell's image, or reaped children): without process the "
                                            + "tree's exact peak counts it; or limit peak_rss (VmHWM) instead]"), notOwn.line)

        let xml = JUnitReport.xml([denied, unmounted, notOwn])
        XCTAssertTrue(xml.contains("<testsuites tests=\"3\" failures=\"0\" errors=\"3\""), xml)
        XCTAssertFalse(xml.contains("<failure"), xml)
        XCTAssertTrue(xml.contains("<error message=\"ERROR t: peak_rss 1.76 MiB of 1.00 GiB"), xml)
        XCTAssertTrue(xml.contains("type=\"unmeasured\">"), xml)
        XCTAssertNoThrow(try XMLDocument(xmlString: xml))
    }

    /// /bin/sh's exit 127 (no such command) was a `<failure type="budget">` with the shell's
    /// figures checked: the command never ran, so it is an error, pointing at the command.
    func testACommandThatCouldNotRunIsAnErrorNotAMemoryFailure() throws {
        var r = BudgetCheckTests.recording()
        let budget = try parsed("peak_rss = \"1 KiB\"\n")
        for (code, why) in [(Int32(127), "exit 127: /bin/sh found no such command (its message is on stderr)"),
                            (Int32(126), "exit 126: /bin/sh found the command but could not run it (not executable, or a folder)")] {
            r.commandExit = .exited(code)
            let result = BudgetResult(budget: budget, summary: MeasureSummary(r, warmupMs: 0))
            XCTAssertTrue(result.isError)
            XCTAssertTrue(result.checks.isEmpty, "the shell's figures are not the program's")
            XCTAssertEqual(result.line, "ERROR t: the command could not run: \(why); the command is at b.toml:3")
            let xml = JUnitReport.xml([result])
            XCTAssertTrue(xml.contains("failures=\"0\" errors=\"1\""), xml)
            XCTAssertTrue(xml.contains("<error message=\"ERROR t: the command could not run: exit \(code)"), xml)
            XCTAssertTrue(xml.contains("type=\"run\">"), xml)
        }
        r.commandExit = .exited(1)
        let failed = BudgetResult(budget: budget, summary: MeasureSummary(r, warmupMs: 0))
        XCTAssertFalse(failed.isError, "a program that ran and failed is a failure")
        XCTAssertTrue(failed.line.hasPrefix("FAIL t: peak_rss 1.76 MiB of 1.00 KiB"), failed.line)
        XCTAssertTrue(failed.line.contains("; the command ended with exit 1; "), failed.line)
    }

    /// A FAIL line says where each failed limit is set (FILE:LINE), and after a regression
    /// over the baseline how to accept a change that is meant; a kept budget says neither.
    func testAFailedLimitPointsToItsLineAndARegressionToRecordOrTolerance() throws {
        let limits = "peak_rss = \"1 MiB\"\nsteady_uss = \"2 MiB\"\n"
        var result = BudgetResult(budget: try parsed(limits), summary: MeasureSummary(BudgetCheckTests.recording(), warmupMs: 100))
        XCTAssertTrue(result.line.hasSuffix("; most at the peak: big (pid 10) held 1.27 MiB of RSS at the peak; limit at b.toml:4 (peak_rss)"), result.line)
        result.compare(with: ["peak_rss": 1400 * 1024, "steady_uss": 1], tolerance: 0.05)
        XCTAssertTrue(result.line.hasSuffix("; limit at b.toml:4 (peak_rss); if the change is meant: sysstats budget record writes a new baseline, "
                                            + "or --tolerance allows more"), result.line)
        let unnamed = BudgetResult(budget: try parsed(limits, file: nil), summary: MeasureSummary(BudgetCheckTests.recording(), warmupMs: 100))
        XCTAssertTrue(unnamed.line.hasSuffix("; limit at line 4 (peak_rss)"), unnamed.line)
        let kept = BudgetResult(budget: try parsed("peak_rss = \"1 GiB\"\n"), summary: MeasureSummary(BudgetCheckTests.recording(), warmupMs: 0))
        XCTAssertEqual(kept.line, "ok   t: peak_rss 1.76 MiB of 1.00 GiB (100% headroom; sampled, 5 samples)")
    }
}
