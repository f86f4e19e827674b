import BarCore
import Foundation
import SnapshotCodec
import XCTest

/// The bar's part of config.toml: every key, and each mistake refused where it was written.
final class ConfigTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func parse(_ text: String) -> Result<BarConfig, ConfigError> {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { BarConfig.parse($0) }
    }

    func error(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String? {
        guard case .failure(let e) = parse(text) else { XCTFail("accepted: \(text)", file: file, line: line); return nil }
        var out: [UInt8] = []
        e.describe(file: Array("c.toml".utf8), into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    func testEveryKeyOfTheFullExample() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("Tests/Fixtures/config/full.toml"), encoding: .utf8)
        let config = try parse(text).get()
        XCTAssertEqual(config.theme.separator, Array(" ┃ ".utf8))
        XCTAssertEqual(config.theme.notAvailable, Array("?".utf8))
        XCTAssertEqual(config.theme.warning, Array("#FFAA00".utf8))
        XCTAssertEqual(config.theme.critical, Array("#FF0000CC".utf8))
        let blocks = try XCTUnwrap(config.blocks)
        XCTAssertEqual(blocks.map(\.kind), [.cpu, .net, .disk, .temp, .time, .command, .command])
        XCTAssertEqual(blocks[0].warning, 60)
        XCTAssertEqual(blocks[0].critical, 85)
        XCTAssertNotNil(blocks[0].format)
        XCTAssertNotNil(blocks[0].shortFormat)
        XCTAssertEqual(blocks[1].argument, Array("wlan0".utf8))
        XCTAssertEqual(blocks[2].argument, Array("/home".utf8))
        XCTAssertEqual(blocks[3].argument, Array("Package id 0".utf8))
        XCTAssertEqual(blocks[4].argument, Array("Europe/Paris".utf8))
        XCTAssertEqual(blocks[4].timeFormat, Array("%H:%M:%S".utf8))
        XCTAssertEqual(blocks[4].timeShortFormat, Array("%H:%M".utf8))
        var volume = CommandSpec(command: Array("amixer get Master | tail -1".utf8), name: Array("volume".utf8),
                                 instance: Array("Master".utf8), intervalMs: 5000, signal: 10, timeoutMs: 2000)
        volume.environment = try XCTUnwrap(blocks[5].command?.environment)
        XCTAssertEqual(blocks[5].command, volume)
        XCTAssertEqual(volume.environment.map { String(decoding: $0, as: UTF8.self) }.filter { $0.hasPrefix("name=") || $0.hasPrefix("interval=") },
                       ["name=volume", "interval=5"], "each key is also the command's environment")
        XCTAssertEqual(blocks[6].command?.persist, true)
        XCTAssertEqual(blocks[6].command?.instance, [], "no instance unless given (i3blocks)")
    }

    func testTheExampleFileIsTheBuiltInDefaults() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("assets/config.toml"), encoding: .utf8)
        let config = try parse(text).get()
        XCTAssertEqual(config.theme, Theme())
        let blocks = try XCTUnwrap(config.blocks)
        XCTAssertEqual(blocks.map(\.kind), BlockKind.defaults)
        // The same bar, byte for byte, in every text output and for every fixture.
        for fixture in Fixture.allCases {
            for output in OutputKind.allCases where !output.isImage {
                var withFile = Renderer(output: output, blocks: blocks, theme: config.theme)
                var without = Renderer(output: output)
                withFile.render(fixture.snapshot, nowMs: fixture.nowMs)
                without.render(fixture.snapshot, nowMs: fixture.nowMs)
                XCTAssertEqual(withFile.line.bytes, without.line.bytes, "\(fixture) \(output)")
            }
        }
    }

    func testAnEmptyFileIsTheDefaults() throws {
        let config = try parse("# nothing\n").get()
        XCTAssertNil(config.blocks)
        XCTAssertEqual(config.theme, Theme())
    }

    func testEachMistakeIsRefusedWithItsLineAndColumn() {
        XCTAssertEqual(error("[themes]\n"), #"c.toml:1:2: unknown key "themes"; did you mean "theme"?"#)
        XCTAssertEqual(error("[look]\n"), #"c.toml:1:2: unknown key "look" (the file has [theme], [sampler] and [[block]])"#)
        XCTAssertEqual(error("[theme]\ncolour = \"#FFFFFF\"\n"), #"c.toml:2:1: unknown key "colour" in [theme] (separator, na, warning, critical)"#)
        XCTAssertEqual(error("[theme]\nwarning = \"orange\"\n"), ##"c.toml:2:11: a colour is "#RRGGBB" or "#RRGGBBAA""##)
        XCTAssertEqual(error("[theme]\nna = 3\n"), "c.toml:2:6: expected a string, found integer")
        XCTAssertEqual(error("[[block]]\nformat = \"x\"\n"), #"c.toml:1:1: a [[block]] needs block = "…" (cpu, mem, net, time, command, …)"#)
        XCTAssertEqual(error("[[block]]\nblock = \"nosuch\"\n"), #"c.toml:2:9: unknown block "nosuch" (man sysstats-config lists them)"#)
        XCTAssertEqual(error("[[block]]\nblock = \"cpu\"\ncolour = 1\n"), #"c.toml:3:1: unknown key "colour"; did you mean "color"?"#)
        XCTAssertEqual(error("[[block]]\nblock = \"cpu\"\nbogus = 1\n"), #"c.toml:3:1: unknown key "bogus" in this block (man sysstats-config)"#)
        XCTAssertEqual(error("[[block]]\nblock = \"cpu\"\nwarning = 101\n"), "c.toml:3:11: out of range: 0 to 100")
        XCTAssertEqual(error("[[block]]\nblock = \"cpu\"\nwarning = \"70\"\n"), "c.toml:3:11: expected an integer, found string")
        XCTAssertEqual(error("[[block]]\nblock = \"uptime\"\nwarning = 1\n"), #"c.toml:3:1: the "uptime" block has no thresholds"#)
        XCTAssertEqual(error("[[block]]\nblock = \"load\"\nwarning = 1001\n"), "c.toml:3:11: out of range: 0 to 1000")
        XCTAssertEqual(error("[[block]]\nblock = \"load\"\nwarning = -0.5\n"), "c.toml:3:11: out of range: 0 to 1000")
        XCTAssertEqual(error("[[block]]\nblock = \"cpu\"\nformat = \"{used}\"\n"),
                       "c.toml:3:11: format: unknown placeholder {used}; cpu has {busy} {iowait} {spark} {bars} {frequency}")
        XCTAssertEqual(error("[[block]]\nblock = \"net\"\nformat = \"{name} {down} {ip4}\"\n"),
                       "c.toml:3:25: format: unknown placeholder {ip4}; net has {name} {ipv4} {ipv6} {ip} {down} {up} {state} {speed}",
                       "the placeholder named, its column its brace's")
        XCTAssertEqual(error("[[block]]\nblock = \"cpu\"\nformat = \"{busy\"\n"),
                       "c.toml:3:10: format: '{' without '}' (write {{ for a literal brace)")
        XCTAssertEqual(error("[[block]]\nblock = \"cpu\"\ninterface = \"eth0\"\n"), #"c.toml:3:1: unknown key "interface" in this block (man sysstats-config)"#)
        XCTAssertEqual(error("[[block]]\nblock = \"time\"\ntimezone = \"Mars/Base\"\n"), #"c.toml:3:12: no such time zone "Mars/Base" in /usr/share/zoneinfo"#)
        XCTAssertEqual(error("[[block]]\nblock = \"command\"\ninterval = 5\n"), #"c.toml:1:1: a command block needs command = "…" (or full_text for fixed text)"#)
        XCTAssertEqual(error("[[block]]\nblock = \"command\"\ncommand = \"x\"\nsignal = 31\n"), "c.toml:4:10: out of range: 0 to 30")
        XCTAssertEqual(error("[[block]]\nblock = \"command\"\ncommand = \"x\"\nname = \"\"\n"),
                       "c.toml:4:8: a command block's name must not be empty")
        XCTAssertEqual(error("[[block]]\nblock = \"command\"\ncommand = \"x\"\nformat = \"x\"\n"),
                       #"c.toml:4:10: format is "json" (one JSON object per run) or "none" (lines)"#)
        XCTAssertEqual(error("[[block]]\nblock = \"command\"\ncommand = \"x\"\ninterval = \"sometimes\"\n"),
                       #"c.toml:4:12: interval is seconds, "once", "repeat" or "persist""#)
        XCTAssertEqual(error("[[block]]\nblock = \"i3bar\"\n"), #"c.toml:1:1: an i3bar block needs command = "…""#)
        XCTAssertEqual(error("[[block]]\nblock = \"i3bar\"\ncommand = \"i3status\"\ninterval = 5\n"),
                       #"c.toml:4:1: unknown key "interval" in an i3bar block (command, name, click_signal)"#)
        XCTAssertEqual(error("[[block]]\nblock = \"i3bar\"\ncommand = \"x\"\nclick_signal = 9\n"),
                       "c.toml:4:16: click_signal is 0 (none) or a signal other than KILL, STOP and CHLD")
        XCTAssertEqual(error("block = 3\n"), "c.toml:1:9: block must be a list of tables: [[block]]")
        XCTAssertEqual(error("when = 1979-05-27\n"), "c.toml:1:8: dates and times are not supported")
        XCTAssertEqual(error("[theme]\n[theme]\n"), "c.toml:2:2: table defined twice")
    }

    func testAHostileKeyIsQuotedWithoutItsControlBytes() {
        XCTAssertEqual(error("\"a\\u001b[31m\\\"\" = 1\n"), #"c.toml:1:1: unknown key "a?[31m?" (the file has [theme], [sampler] and [[block]])"#)
    }

    func testAnI3barBlockWrapsAProgramAndSignalsI3statusOnAClick() throws {
        let config = try parse("[[block]]\nblock = \"i3bar\"\ncommand = \"exec /usr/bin/i3status -c x\"\n"
                               + "[[block]]\nblock = \"i3bar\"\nname = \"mine\"\ncommand = \"my-bar\"\n").get()
        let specs = config.blocks?.compactMap { $0.command } ?? []
        XCTAssertEqual(specs.count, 2)
        XCTAssertTrue(specs.allSatisfy { $0.wrapsI3bar && $0.persist })
        XCTAssertEqual(specs[0].refreshSignal, 10, "i3status redraws on SIGUSR1")
        XCTAssertEqual(specs[1].refreshSignal, 0, "another program is sent no signal it may not expect")
        XCTAssertEqual(specs[1].name, Array("mine".utf8))
    }

    func testCommandBlocksAreRefusedOnTheCommandLine() {
        XCTAssertThrowsError(try BarOptions.parse([Array("--blocks".utf8), Array("cpu,command".utf8)])) {
            XCTAssertEqual($0 as? OptionsError, .commandNeedsConfig)
        }
    }

    func testFlagsWinOverTheFile() throws {
        let config = try parse("[[block]]\nblock = \"mem\"\n[theme]\nna = \"-\"\n").get()
        let withFlag = try BarOptions.parse([Array("--blocks".utf8), Array("cpu".utf8)]).applying(config)
        XCTAssertEqual(withFlag.blocks.map(\.kind), [.cpu])
        XCTAssertEqual(withFlag.theme.notAvailable, Array("-".utf8), "the theme still applies")
        XCTAssertEqual(try BarOptions.parse([]).applying(config).blocks.map(\.kind), [.mem])
    }

    func testAMisspeltKeyIsNamedAtItsOwnLineWithTheKeyItWasMeantToBe() {
        XCTAssertEqual(error("[[block]]\nblok = \"load\"\n"), #"c.toml:2:1: unknown key "blok"; did you mean "block"?"#)
        XCTAssertEqual(error("[[block]]\nblock = \"cpu\"\nwarnign = 70\n"), #"c.toml:3:1: unknown key "warnign"; did you mean "warning"?"#)
        XCTAssertEqual(error("[[block]]\nblock = \"disk\"\nmonut = \"/home\"\n"), #"c.toml:3:1: unknown key "monut"; did you mean "mount"?"#)
        XCTAssertEqual(error("[[block]]\nblock = \"exited\"\nmin_fred = 10\n"), #"c.toml:3:1: unknown key "min_fred"; did you mean "min_freed"?"#)
        XCTAssertEqual(error("[theme]\nseperator = \" \"\n"), #"c.toml:2:1: unknown key "seperator"; did you mean "separator"?"#)
        XCTAssertEqual(error("[[block]]\nblock = \"cpu\"\n[[block.click]]\nbuton = 1\ncmd = \"x\"\n"),
                       #"c.toml:4:1: unknown key "buton"; did you mean "button"?"#)
        XCTAssertEqual(error("[[block]]\nblock = \"command\"\ncomand = \"date\"\n"), #"c.toml:3:1: unknown key "comand"; did you mean "command"?"#)
        // A key of another block is no misspelling of this one's.
        XCTAssertEqual(error("[[block]]\nblock = \"cpu\"\nmount = \"/\"\n"), #"c.toml:3:1: unknown key "mount" in this block (man sysstats-config)"#)
    }

    func testEveryExampleInTheDocsLoads() throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        let examples = doc.components(separatedBy: "```toml\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        XCTAssertGreaterThanOrEqual(examples.count, 2)
        for example in examples {
            XCTAssertNoThrow(try parse(example).get(), example)
        }
    }

    func testEveryConfigFileTheProjectShipsIsTOMLForPython() throws {
        let files = ["assets/config.toml", "Tests/Fixtures/config/full.toml"]
        for file in files {
            let check = Process()
            check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            check.arguments = ["python3", "-c", "import sys, tomllib; tomllib.load(open(sys.argv[1], 'rb'))",
                               Self.root.appendingPathComponent(file).path]
            try check.run()
            check.waitUntilExit()
            XCTAssertEqual(check.terminationStatus, 0, "tomllib refuses \(file)")
        }
    }
}

extension ConfigTests {
    func testOnlyASimpleCommandIsRunWithExecSoThatSignalsReachIt() {
        for simple in ["i3status", "i3status -c ~/.config/i3status/config", "/usr/bin/i3status -c \"$HOME/x y\" 2>/dev/null"] {
            XCTAssertTrue(BarConfig.isSimpleCommand(Array(simple.utf8)), simple)
        }
        for compound in ["i3status | sed s/a/b/", "cd /tmp; i3status", "i3status && x", "(i3status)", "FOO=1 i3status",
                         "while true; do date; done", "! i3status", "a\nb", ""] {
            XCTAssertFalse(BarConfig.isSimpleCommand(Array(compound.utf8)), compound)
        }
    }
}

extension ConfigTests {
    /// The bar's notice of a config mistake: the file's name, not its path, and at most
    /// 64 bytes, cut on a character boundary (i3bar falls back to short texts when too wide).
    func testAConfigNoticeNamesTheFileAndLineAndStaysShort() {
        let path = Array("/home/someone/.config/sysstats/config.toml".utf8)
        let short = configNotice(path + Array(":3:11: out of range: 0 to 100".utf8), path: path)
        XCTAssertEqual(String(decoding: short, as: UTF8.self), "config.toml:3:11: out of range: 0 to 100")
        let long = configNotice(path + Array(":27:12: interval is seconds, \"once\" or \"persist\", not ««««««««".utf8), path: path)
        XCTAssertEqual(long.count, maximumConfigNoticeLength)
        XCTAssertEqual(String(decoding: long, as: UTF8.self), "config.toml:27:12: interval is seconds, \"once\" or \"persist\", …")
        // Cut inside a two-byte character: the whole character goes.
        let accents = configNotice(path + Array(":1:1: \(String(repeating: "é", count: 40))".utf8), path: path)
        XCTAssertEqual(String(decoding: accents, as: UTF8.self), "config.toml:1:1: " + String(repeating: "é", count: 22) + "…")
        XCTAssertEqual(String(decoding: configNotice(Array("other: reason".utf8), path: path), as: UTF8.self), "other: reason",
                       "a message that names no path is kept as it is")
        XCTAssertEqual(String(decoding: configNotice(Array("/home/someone/.config/i3blocks/config:3:1: not a key".utf8), path: path),
                              as: UTF8.self), "config:3:1: not a key", "an i3blocks file the config names: its name too")
    }
}
