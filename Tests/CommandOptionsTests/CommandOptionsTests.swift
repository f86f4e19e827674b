import CommandOptions
import XCTest

final class CommandOptionsTests: XCTestCase {
    enum ID: UInt8, Sendable, Equatable { case interval, once, disk, help }

    let table = CommandOptions(program: "prog", [
        CommandOption(ID.interval, "--interval", value: "SEC", "seconds between samples"),
        CommandOption(ID.once, "--once", "one sample, then exit"),
        CommandOption(ID.disk, "--disk", value: "PATH", repeatable: true, "a mount point\n(repeatable)"),
        CommandOption(ID.help, "--help", alias: "-h", inSynopsis: false, "show this help"),
    ])

    struct Failure: Error, Equatable { var error: CommandOptionError }

    func parse(_ arguments: [String], stopAt: ID? = nil) -> Result<[String], Failure> {
        var seen: [String] = []
        do throws(Failure) {
            try table.parse(arguments.map { Array($0.utf8) }, failure: Failure.init) { raw, value throws(Failure) in
                let id = ID(rawValue: raw)!
                seen.append("\(id)" + (value.map { "=" + String(decoding: $0, as: UTF8.self) } ?? ""))
                return id != stopAt
            }
        } catch {
            return .failure(error)
        }
        return .success(seen)
    }

    func testValuesComeSeparateOrAfterAnEqualsSignAndFlagsAlone() {
        XCTAssertEqual(try parse(["--interval", "2", "--once", "--disk=/a=b", "-h"]).get(),
                       ["interval=2", "once", "disk=/a=b", "help"])
    }

    func testAnUnknownOptionAMissingValueAndAFlagsValueAreRefusedByName() {
        XCTAssertEqual(parse(["--bogus=1"]), .failure(Failure(error: .unknown(Array("--bogus".utf8)))))
        XCTAssertEqual(parse(["plain"]), .failure(Failure(error: .unknown(Array("plain".utf8)))))
        XCTAssertEqual(parse(["--interval"]), .failure(Failure(error: .missingValue(Array("--interval".utf8)))))
        XCTAssertEqual(parse(["--once=yes"]), .failure(Failure(error: .unexpectedValue(Array("--once".utf8)))))
        XCTAssertEqual(parse([String(repeating: "x", count: 300)]),
                       .failure(Failure(error: .unknown(Array(repeating: UInt8(ascii: "x"), count: 64)))), "named, cut at 64 bytes")
    }

    func testTheBodyStopsTheParseAndWhatFollowsIsNotLookedAt() {
        XCTAssertEqual(try parse(["--help", "--bogus"], stopAt: .help).get(), ["help"])
    }

    func testHelpPutsEachDescriptionBesideItsOptionOrUnderALongOne() {
        var text: [UInt8] = []
        table.writeUsage(into: &text)
        table.writeOptions(into: &text, column: 16)
        XCTAssertEqual(String(decoding: text, as: UTF8.self), """
            usage: prog [--interval SEC] [--once] [--disk PATH]...
              --interval SEC
                            seconds between samples
              --once        one sample, then exit
              --disk PATH   a mount point
                            (repeatable)
              -h, --help    show this help

            """)
    }

    func testTheUsageWrapsUnderTheProgramsName() {
        var text: [UInt8] = []
        table.writeUsage(into: &text, width: 37)
        XCTAssertEqual(String(decoding: text, as: UTF8.self), """
            usage: prog [--interval SEC] [--once]
                        [--disk PATH]...

            """)
    }

    func testTheManualHasTheSynopsisHelpLineAndASentencePerOption() {
        var synopsis: [UInt8] = [], options: [UInt8] = []
        table.writeManualSynopsis(into: &synopsis)
        table.writeManualOptions(into: &options)
        XCTAssertEqual(String(decoding: synopsis, as: UTF8.self), """
            .B prog
            .RB [ \\-\\-interval
            .IR SEC ]
            .RB [ \\-\\-once ]
            .RB [ \\-\\-disk
            .IR PATH ]...
            .br
            .B prog
            .BR \\-\\-help

            """)
        XCTAssertEqual(String(decoding: options, as: UTF8.self), """
            .TP
            .BI \\-\\-interval " SEC"
            Seconds between samples.
            .TP
            .B \\-\\-once
            One sample, then exit.
            .TP
            .BI \\-\\-disk " PATH"
            A mount point
            (repeatable).
            .TP
            .BR \\-h ", " \\-\\-help
            Show this help.

            """)
    }
}

extension CommandOptionsTests {
    func rewritten(_ arguments: [String]) -> [String] {
        table.rewritingValues(arguments.map { Array($0.utf8) }) { raw, value in
            ID(rawValue: raw) == .disk ? Array("<".utf8) + Array(value) + Array(">".utf8) : nil
        }.map { String(decoding: $0, as: UTF8.self) }
    }

    /// sysstatsd makes its relative paths absolute before it leaves its start folder: the
    /// values are found as the parse finds them, in both spellings, and nothing else moves.
    func testRewritingReplacesTheChosenValuesInBothSpellingsAndLeavesTheRest() {
        XCTAssertEqual(rewritten(["--disk", "a", "--interval", "--disk", "--disk=b=c", "--once", "-h", "--disk="]),
                       ["--disk", "<a>", "--interval", "--disk", "--disk=<b=c>", "--once", "-h", "--disk=<>"],
                       "`--disk` as --interval's value is a value, not the option")
    }

    func testRewritingStopsWhereTheParseWouldRefuseAndLeavesTheRestForItToName() {
        XCTAssertEqual(rewritten(["--disk", "a", "--bogus", "--disk", "b"]), ["--disk", "<a>", "--bogus", "--disk", "b"])
        XCTAssertEqual(rewritten(["--disk", "a", "--once=1", "--disk", "b"]), ["--disk", "<a>", "--once=1", "--disk", "b"])
        XCTAssertEqual(rewritten(["--disk"]), ["--disk"])
    }
}
