import ArgumentParser
@testable import SysstatsCLI
import XCTest

/// `sysstats measure … -- COMMAND ARGS…`: the parser gets the line up to COMMAND, and the ARGS,
/// however many, join the parsed command as they are (issue 59: the parser's time is quadratic
/// in its input; 20,000 arguments, a link line or a list of files, took 7.6 s and 100,000
/// almost four minutes before the command started). Nothing a user sees may change: the same
/// command, the same help, the same errors.
final class MeasureArgumentsTests: XCTestCase {
    func testAHundredThousandArgumentsArriveIntactWhileTheParserGetsTheSameFourWordsAsForTenThousand() throws {
        let files = (0..<100_000).map { "obj/file\($0).o" }
        let line = ["measure", "--json", "--", "ld"] + files
        let parsed = MeasureCommand.splitAtCommand(line).parsed
        XCTAssertEqual(parsed, ["measure", "--json", "--", "ld"])
        XCTAssertEqual(MeasureCommand.splitAtCommand(Array(line.prefix(10_004))).parsed, parsed,
                       "the parser's share does not grow with the command's arguments: linear in all")
        let measure = try XCTUnwrap(try SysstatsCommand.parseInLinearTime(line) as? MeasureCommand)
        XCTAssertTrue(measure.json)
        XCTAssertEqual(measure.arguments, ["ld"] + files)
    }

    func testOnlyAMeasureLineWithWordsPastTheCommandIsSplit() {
        for line in [["measure", "--"], ["measure", "--", "true"], ["measure", "true", "a", "b"], ["report", "--", "a", "b"],
                     ["help", "measure", "--", "a", "b"], ["--version", "measure", "--", "a", "b"], [], ["measure"]] {
            let (parsed, rest) = MeasureCommand.splitAtCommand(line)
            XCTAssertEqual(parsed, line)
            XCTAssertTrue(rest.isEmpty, "\(line)")
        }
        let (parsed, rest) = MeasureCommand.splitAtCommand(["measure", "true", "x", "--", "y", "--", "z"])
        XCTAssertEqual(parsed, ["measure", "true", "x", "--", "y"], "at the first `--`, as the parser ends its options")
        XCTAssertEqual(Array(rest), ["--", "z"])
    }

    /// The outcome of parsing, as a user would see it: the command's settings, or the
    /// error's status and message (the help text for a help request).
    func outcome(_ parse: () throws -> ParsableCommand) -> String {
        do {
            let command = try parse()
            guard let m = command as? MeasureCommand else { return "\(type(of: command))" }
            return "measure \(m.command) interval \(m.interval) warmup \(m.warmup) duration \(String(describing: m.duration)) "
                + "json \(m.json) pid \(String(describing: m.pid)) png \(m.png ?? "-") output \(m.output ?? "-") noCgroup \(m.noCgroup)"
        } catch {
            return "status \(SysstatsCommand.exitCode(for: error).rawValue): \(SysstatsCommand.fullMessage(for: error))"
        }
    }

    func testEveryLineParsesAsTheWholeLineDidWithTheSameCommandHelpAndErrors() {
        let lines: [[String]] = [
            ["measure", "--", "true", "a", "b"],
            ["measure", "--json", "--interval", "5ms", "--no-cgroup", "--output", "r.txt", "--", "sh", "-c", "echo hi", "--help", "--version"],
            ["measure", "true", "x", "--", "y", "z"],
            ["measure", "--bogus", "--", "true", "a"],
            ["measure", "--", "--help", "a"], ["measure", "--", "--", "a", "b"], ["measure", "--", "-h", "--json"],
            ["measure", "--help", "--", "true", "a"], ["measure", "-h", "--", "true", "a"], ["measure", "--version", "--", "true", "a"],
            ["measure", "--pid", "5", "--", "true", "a"], ["measure", "--interval", "0", "--", "true", "a"],
            ["measure", "--warmup", "2s", "--duration", "1s", "--", "true", "a"], ["measure", "--interval", "fast", "--", "true", "a"],
            ["measure", "--output", "--", "true", "a"], ["measure", "--duration", "-", "--", "true", "a"],
            ["measure", "--experimental-dump-help", "--", "true", "a"],
        ]
        for line in lines {
            XCTAssertEqual(outcome { try SysstatsCommand.parseInLinearTime(line) }, outcome { try SysstatsCommand.parseAsRoot(line) },
                           "\(line)")
        }
    }
}
