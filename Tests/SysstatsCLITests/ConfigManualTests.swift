import BarCore
import Foundation
import XCTest
@testable import SysstatsCLI

/// assets/man/sysstats-config.5, where the bar's errors and `--help` send the user (issue 29,
/// item 9), names every key the config file's parsers take, every kind of block and each
/// block's placeholders, and its examples load. The keys of [theme], [sampler], a click and
/// an i3bar block come from the parsers themselves (their "unknown key" errors list them);
/// the [[block]] and command-block keys, which no error lists, are written here and each is
/// checked against the parser: a key it knows is refused for a value of the wrong type, not
/// as an unknown key (nor, in a command block, taken for the command's environment).
final class ConfigManualTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "sysstats-config-manual-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    func page() throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent("assets/man/sysstats-config.5"), encoding: .utf8)
    }

    /// What `sysstats config check` finds wrong in a file of `text`: one line per problem.
    func problems(_ text: String) throws -> [String] {
        let file = folder + "/config.toml"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(file, 0o600), 0)
        return ConfigCommands.check(path: file).stderr
    }

    /// The keys the "unknown key" error for `text` (which has `bogus` in the table) lists in
    /// its last parentheses.
    func listedKeys(_ text: String) throws -> [String] {
        let line = try XCTUnwrap(try problems(text).first, text)
        XCTAssertTrue(line.contains("unknown key \"bogus\""), line)
        let open = try XCTUnwrap(line.lastIndex(of: "("), line)
        let close = try XCTUnwrap(line.lastIndex(of: ")"), line)
        XCTAssertLessThan(open, close, line)
        return String(line[line.index(after: open)..<close]).components(separatedBy: ", ")
    }

    func testThePageNamesEveryKeyTheParsersTake() throws {
        let text = try page()
        /// A key the page describes is set in bold: `.B key` on its own line or `\fBkey\fR`.
        func named(_ key: String) -> Bool { text.contains(".B \(key)\n") || text.contains("\\fB\(key)\\fR") }

        let tables = try XCTUnwrap(try problems("bogus = 1\n").first)
        XCTAssertTrue(tables.contains("[theme], [sampler] and [[block]]"), tables)
        for table in ["[theme]", "[sampler]", "[[block]]"] {
            XCTAssertTrue(text.contains("\n.SH \(table)\n"), "no section for \(table)")
        }

        // The lists the parsers give in their errors.
        let theme = try listedKeys("[theme]\nbogus = 1\n")
        XCTAssertEqual(theme.first, "separator", "\(theme)")
        let sampler = try listedKeys("[sampler]\nbogus = 1\n")
        XCTAssertEqual(sampler.first, "interval", "\(sampler)")
        let click = try listedKeys("[[block]]\nblock = \"cpu\"\n[[block.click]]\nbogus = 1\n")
        XCTAssertEqual(click.first, "button", "\(click)")
        let i3bar = try listedKeys("[[block]]\nblock = \"i3bar\"\ncommand = \"x\"\nbogus = 1\n")
        XCTAssertEqual(i3bar.first, "command", "\(i3bar)")
        var keys = theme + sampler + click + i3bar

        // [[block]]'s keys, each on a block that takes it: an array is refused for its type.
        let blockKeys: [(block: String, key: String)] = [
            ("cpu", "format"), ("cpu", "format_short"), ("cpu", "warning"), ("cpu", "critical"),
            ("temp", "warning"), ("battery", "critical"), ("cpu", "hide_missing"), ("cpu", "click"),
            ("net", "interface"), ("wifi", "interface"), ("disk", "mount"), ("diskio", "device"),
            ("temp", "sensor"), ("gpu", "card"), ("time", "timezone"), ("exited", "min_freed"), ("top", "list"),
            ("fan", "fan"), ("power", "source"), ("backlight", "device"),
            ("volume", "device"), ("microphone", "device"), ("media", "player"), ("media", "format_paused"), ("unit", "unit"),
            ("volume", "format_muted"), ("volume", "step"), ("volume", "max"), ("backlight", "step"),
            ("run_watch", "pidfile"), ("path_exists", "path"), ("read_file", "path"), ("run_watch", "title"),
            ("path_exists", "format_down"), ("read_file", "format_bad"),
        ]
        for (block, key) in blockKeys {
            let found = try problems("[[block]]\nblock = \"\(block)\"\n\(key) = [1]\n")
            XCTAssertEqual(found.count, 1, "\(block) \(key): \(found)")
            XCTAssertFalse(found.joined().contains("unknown key"), "\(block) takes no \(key): \(found)")
            keys.append(key)
        }
        XCTAssertTrue(try problems("[[block]]\nblock = \"cpu\"\nbogus = [1]\n").joined().contains("unknown key \"bogus\""),
                      "an unknown key is refused as unknown: the check above can fail")
        // Every block that takes an argument (disk:/home) has its argument's key above.
        let argumentKeys: Set<String> = ["interface", "mount", "device", "sensor", "card", "timezone", "list", "fan", "source",
                                         "pidfile", "path", "player", "unit"]
        for kind in BlockKind.allCases where kind.takesArgument {
            XCTAssertTrue(blockKeys.contains { $0.block == "\(kind.name)" && argumentKeys.contains($0.key) },
                          "the \(kind.name) block's argument key is not in the list")
        }

        // A command block's keys (i3blocks'): one it knows is refused for an array; any other
        // key would be the command's environment, which takes no array.
        let commandKeys = ["command", "interval", "signal", "persist", "format", "timeout", "name", "instance", "label",
                           "full_text", "short_text", "color", "background", "border", "border_top", "border_right",
                           "border_bottom", "border_left", "min_width", "align", "separator", "separator_block_width",
                           "urgent", "markup"]
        let environmentOnly = "a command block's key holds text, a whole number or true/false"
        for key in commandKeys {
            let file = key == "command" ? "[[block]]\nblock = \"command\"\ncommand = [1]\n"
                                        : "[[block]]\nblock = \"command\"\n\(key) = [1]\ncommand = \"true\"\n"
            let found = try problems(file)
            XCTAssertEqual(found.count, 1, "\(key): \(found)")
            XCTAssertFalse(found.joined().contains(environmentOnly), "\(key) is not a command block's own key: \(found)")
        }
        XCTAssertTrue(try problems("[[block]]\nblock = \"command\"\nbogus = [1]\ncommand = \"true\"\n").joined().contains(environmentOnly),
                      "an environment key with an array is refused as such: the check above can fail")
        keys += commandKeys

        for key in Set(keys).sorted() {
            XCTAssertTrue(named(key), "assets/man/sysstats-config.5 does not describe the key \(key)")
        }
    }

    func testThePageNamesEveryBlockAndItsPlaceholders() throws {
        let text = try page()
        for kind in BlockKind.allCases {
            XCTAssertTrue(text.contains("\n.B \(kind.name)\n"), "no entry for the \(kind.name) block")
            for spec in kind.placeholders {
                XCTAssertTrue(text.contains("{\(spec.name)}"), "\(kind.name)'s {\(spec.name)} is missing")
            }
        }
    }

    func testThePagesExamplesLoad() throws {
        let text = try page()
        let displays = text.components(separatedBy: "\n.nf\n").dropFirst().map { $0.components(separatedBy: "\n.fi\n")[0] }
        let examples = displays.filter { $0.contains("[[block]]") }
        XCTAssertGreaterThanOrEqual(examples.count, 4, "a block, clicks, a command block, wrapping i3status")
        for example in examples {
            // The roff escapes the examples use, back to what they stand for.
            let toml = example.replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\(aq", with: "'")
                .replacingOccurrences(of: "\\(dq", with: "\"").replacingOccurrences(of: "\\e", with: "\\")
            XCTAssertEqual(try problems(toml + "\n"), [], toml)
        }
    }
}
