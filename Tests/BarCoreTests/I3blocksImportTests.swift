@testable import BarCore
import Dispatch
import XCTest

/// An i3blocks config read as i3blocks 1.5 reads it (ini.c, config.c) and written as
/// config.toml command blocks, which the config then checks as its own.
final class I3blocksImportTests: XCTestCase {
    func convert(_ text: String, folder: String = "") throws -> String {
        switch I3blocksImport.convert(Array(text.utf8), folder: Array(folder.utf8)) {
        case .success(let c): return String(decoding: c.toml, as: UTF8.self)
        case .failure(let e): XCTFail("line \(e.line): \(e.reason)"); return ""
        }
    }

    func problem(_ text: String) -> (line: Int, reason: String)? {
        switch I3blocksImport.blocks(from: Array(text.utf8)) {
        case .success: return nil
        case .failure(let e): return (e.line, String(decoding: e.reason, as: UTF8.self))
        }
    }

    func testEachSectionIsACommandBlockWithItsKeysTypedAsTheKeyTakesThem() throws {
        let toml = try convert("""
            # a comment
            [volume]
            command=$SCRIPT_DIR/volume
            interval=5 # seconds
            signal=10
            LABEL=♪ 
            separator=false
            min_width=100
            markup=pango

            [time]
            command=date '+%H:%M'
            interval=-1

            """)
        XCTAssertEqual(toml, """
            [[block]]
            block = "command"
            name = "volume"
            command = "$SCRIPT_DIR/volume"
            interval = 5
            signal = 10
            LABEL = "♪ "
            separator = false
            min_width = 100
            markup = "pango"

            [[block]]
            block = "command"
            name = "time"
            command = "date '+%H:%M'"
            interval = "once"


            """)
    }

    /// Keys before the first section are every section's defaults; a section's own key and
    /// a `name=` line win; the header is the name otherwise.
    func testGlobalsAreDefaultsAndTheSectionsOwnKeysWin() throws {
        let text = "SCRIPT_DIR=/opt/blocklets\ninterval=10\ncolor=#FFFFFF\n\n[cpu]\ncommand=x\ninterval=2\n\n[b]\nname=battery\ncommand=y\n"
        let blocks = try I3blocksImport.blocks(from: Array(text.utf8)).get()
        XCTAssertEqual(blocks.count, 2)
        let cpu = try XCTUnwrap(blocks[0].command), battery = try XCTUnwrap(blocks[1].command)
        XCTAssertEqual(String(decoding: cpu.name, as: UTF8.self), "cpu")
        XCTAssertEqual(cpu.intervalMs, 2000)
        XCTAssertEqual(battery.intervalMs, 10_000, "the global interval")
        XCTAssertEqual(String(decoding: battery.name, as: UTF8.self), "battery")
        XCTAssertTrue(battery.environment.contains(Array("SCRIPT_DIR=/opt/blocklets".utf8)))
        XCTAssertEqual(String(decoding: battery.color, as: UTF8.self), "#FFFFFF")
    }

    /// A section without a command shows its full_text (a separator, a label) and runs nothing.
    func testASectionOfFixedTextNeedsNoCommand() throws {
        let blocks = try I3blocksImport.blocks(from: Array("[separator]\nfull_text=|\ncolor=#666666\n".utf8)).get()
        XCTAssertEqual(blocks.first?.command?.command, [])
        XCTAssertEqual(blocks.first?.command?.fullText, Array("|".utf8))
    }

    /// i3blocks changes to its config file's folder once: every command runs from there, a
    /// relative path and a relative file name alike (`cat data.txt`).
    func testEveryCommandRunsFromTheFilesFolder() throws {
        let toml = try convert("[a]\ncommand=./battery 1\n[b]\ncommand=scripts/cpu\n[c]\ncommand=cat data.txt\n[d]\ncommand=$HOME/x\n",
                               folder: "/home/me/.config/it's")
        for command in ["./battery 1", "scripts/cpu", "cat data.txt", "$HOME/x"] {
            XCTAssertTrue(toml.contains(#"command = "cd -- '/home/me/.config/it'\\''s' && "# + command + "\""), toml)
        }
        XCTAssertTrue(try convert("[c]\ncommand=date\n").contains(#"command = "date""#), "no folder given: as written")
    }

    func testWhatI3blocksRefusesAndWhatTheConfigRefusesAreReportedAtTheirLine() {
        XCTAssertEqual(problem("[a]\ncommand=x\n  interval=5\n")?.line, 3, "a line starting with a blank")
        XCTAssertEqual(problem("[a\ncommand=x\n")?.line, 1)
        XCTAssertEqual(problem("[a] x\n")?.line, 1)
        XCTAssertEqual(problem("[a]\ncommand\n")?.line, 2)
        let badKey = problem("[a]\ncommand=x\nmy.key=1\n")
        XCTAssertEqual(badKey?.line, 3)
        XCTAssertTrue(badKey?.reason.contains("environment") ?? false, badKey?.reason ?? "")
        XCTAssertEqual(problem("[a]\ninterval=5\n")?.line, 1, "no command, no full_text: at the section's header")
        XCTAssertEqual(problem("[a]\ncommand=x\ncolor=red\n")?.line, 3)
        XCTAssertNil(problem(""), "an empty file is no blocks")
        XCTAssertNil(problem("[a]\ncommand=printf '\\033[1m\"x\"\\\\'\n"), "quotes and backslashes survive")
    }

    /// 2,900 global keys × 3,394 sections in 32 KiB were expanded whole (15 s and 200 MiB in
    /// the bar) before the 64 KiB limit was checked: the limit is checked as the text grows, so
    /// the refusal comes at the section that passes it, not at the end of the file.
    func testAFileThatWouldExpandPastTheLimitIsRefusedAtTheSectionThatPassesIt() {
        var text = ""
        var line = 0
        while text.utf8.count < 24_000 { text += "k\(line)=vvvvvvvv\n"; line += 1 }
        let firstHeader = line + 1
        while text.utf8.count < I3blocksImport.maximumFileSize - 8 { text += "[s]\n"; line += 1 }
        let started = DispatchTime.now().uptimeNanoseconds
        let refused = problem(text)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        XCTAssertEqual(refused?.reason, "too large: it makes more than 64 KiB of config.toml")
        XCTAssertLessThanOrEqual(refused?.line ?? .max, firstHeader + 3, "refused where it passed the limit, not after expanding every section")
        XCTAssertLessThan(seconds, 5, "refused without expanding the rest (took \(seconds) s)")
    }

    /// i3blocks accepts `signal=0` (none), and `timeout` and `persist` are no keys of its own:
    /// they are the command's environment there, and a file using them is taken as it is.
    func testSignalZeroAndTimeoutAndPersistAreTakenAsI3blocksTakesThem() throws {
        let blocks = try I3blocksImport.blocks(from: Array("[a]\ncommand=x\nsignal=0\ntimeout=5\npersist=true\n".utf8)).get()
        let command = try XCTUnwrap(blocks.first?.command)
        XCTAssertNil(command.signal, "signal=0 is no signal")
        XCTAssertFalse(command.persist)
        XCTAssertTrue(command.environment.contains(Array("timeout=5".utf8)), "\(command.environment.map { String(decoding: $0, as: UTF8.self) })")
        XCTAssertTrue(command.environment.contains(Array("persist=true".utf8)))
    }

    func testAtoiReadsAsCDoes() {
        XCTAssertEqual(I3blocksImport.atoi(Array(" 42abc".utf8)), 42)
        XCTAssertEqual(I3blocksImport.atoi(Array("-3".utf8)), -3)
        XCTAssertEqual(I3blocksImport.atoi(Array("x".utf8)), 0)
        XCTAssertEqual(I3blocksImport.atoi(Array(String(repeating: "9", count: 40).utf8)), 1_000_000_000, "saturates")
    }
}

/// `block = "i3blocks"` in config.toml: the file's sections take the entry's place.
final class I3blocksIncludeTests: XCTestCase {
    func parse(_ text: String) throws -> BarConfig {
        try Array(text.utf8).withUnsafeBytes { BarConfig.parse($0) }.get()
    }

    func testTheFilesSectionsTakeTheEntrysPlaceAmongTheOtherBlocks() throws {
        let config = try parse("[[block]]\nblock = \"cpu\"\n\n[[block]]\nblock = \"i3blocks\"\nfile = \"~/.config/i3blocks/config\"\n\n[[block]]\nblock = \"time\"\n")
        XCTAssertEqual(config.i3blocksFiles.map(\.index), [1])
        var asked: [String] = []
        var problems: [IncludedFileError] = []
        let expanded = try config.expandingI3blocksFiles(problems: &problems) { written in
            asked.append(String(decoding: written, as: UTF8.self))
            return (Array("/home/u/.config/i3blocks/config".utf8), Array("[a]\ncommand=x\n[b]\nfull_text=|\n".utf8), [])
        }.get()
        XCTAssertEqual(asked, ["~/.config/i3blocks/config"])
        XCTAssertEqual(expanded.blocks?.map(\.kind), [.cpu, .command, .command, .time])
        XCTAssertEqual(expanded.blocks?[1].command?.name, Array("a".utf8))
    }

    func testAnEntryNeedsItsFileAndNothingElseAndProblemsNameTheirFile() throws {
        XCTAssertThrowsError(try parse("[[block]]\nblock = \"i3blocks\"\n"))
        XCTAssertThrowsError(try parse("[[block]]\nblock = \"i3blocks\"\nfile = \"x\"\ninterval = 5\n"))
        let config = try parse("[[block]]\nblock = \"i3blocks\"\nfile = \"x\"\n")
        var problems: [IncludedFileError] = []
        _ = config.expandingI3blocksFiles(problems: &problems) { _ in (Array("/c/x".utf8), nil, Array("no such file".utf8)) }
        var line: [UInt8] = []
        problems.first?.error.describe(file: problems[0].file, into: &line)
        XCTAssertEqual(String(decoding: line, as: UTF8.self), "/c/x: no such file")
        problems.removeAll()
        _ = config.expandingI3blocksFiles(problems: &problems) { _ in (Array("/c/x".utf8), Array("[a]\ncommand=x\ncolor=red\n".utf8), []) }
        line.removeAll()
        problems.first?.error.describe(file: problems[0].file, into: &line)
        XCTAssertTrue(String(decoding: line, as: UTF8.self).hasPrefix("/c/x:3:1: "), String(decoding: line, as: UTF8.self))
        problems.removeAll()
        _ = config.expandingI3blocksFiles(problems: &problems) { _ in
            (Array("/c/x".utf8), Array((0..<70).map { "[b\($0)]\nfull_text=x\n" }.joined().utf8), [])
        }
        XCTAssertEqual(problems.count, 1, "a file of more than 64 blocks is a broken file")
        let beside = try parse("[[block]]\nblock = \"cpu\"\n[[block]]\nblock = \"i3blocks\"\nfile = \"x\"\n")
        let many = beside.expandingI3blocksFiles(problems: &problems) { _ in
            (Array("/c/x".utf8), Array((0..<64).map { "[b\($0)]\nfull_text=x\n" }.joined().utf8), [])
        }
        guard case .failure = many else { return XCTFail("more than 64 blocks with the config's own") }
    }

    /// Issue 58: a missing i3blocks file replaced the user's other blocks with the built-in
    /// defaults, shown as `config: no such file` (read as sysstats's own file). Now it is one
    /// block in the file's place, naming it as config.toml wrote it, and the others stay.
    func testAMissingOrBrokenFileIsOneErrorBlockInItsPlaceAndTheOtherBlocksStay() throws {
        var config = try parse("[[block]]\nblock = \"cpu\"\n\n[[block]]\nblock = \"i3blocks\"\nfile = \"~/.config/i3blocks/config\"\n\n"
                               + "[[block]]\nblock = \"time\"\n\n[theme]\ncritical = \"#FF0000\"\n")
        config.theme.critical = Array("#FF0000".utf8)
        for (file, expected) in [(nil as String?, "i3blocks ~/.config/i3blocks/config: no such file"),
                                 ("[a]\ncommand=x\n[b\n", "i3blocks ~/.config/i3blocks/config:3:1: ")] {
            var problems: [IncludedFileError] = []
            let expanded = try config.expandingI3blocksFiles(problems: &problems) { _ in
                (Array("/home/u/.config/i3blocks/config".utf8), file.map { Array($0.utf8) }, Array("no such file".utf8))
            }.get()
            XCTAssertEqual(problems.count, 1)
            XCTAssertEqual(problems.first?.file, Array("/home/u/.config/i3blocks/config".utf8), "stderr names the file resolved")
            XCTAssertEqual(expanded.blocks?.map(\.kind), [.cpu, .command, .time], "the user's cpu and time stay, one block between")
            let shown = try XCTUnwrap(expanded.blocks?[1].command)
            XCTAssertTrue(String(decoding: shown.fullText, as: UTF8.self).hasPrefix(expected), String(decoding: shown.fullText, as: UTF8.self))
            XCTAssertEqual(shown.color, Array("#FF0000".utf8), "in the critical colour")
            XCTAssertTrue(shown.command.isEmpty, "it runs nothing")
        }
    }
}
