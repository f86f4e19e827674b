import BarCore
import ConfigImport
import Foundation
import XCTest
@testable import SysstatsCLI

/// `sysstats config import PROGRAM`: where it looks, `--strict`, `--write`, and that every
/// placeholder its tables write is one the bar takes.
final class ImportCommandTests: XCTestCase {
    func temporaryDirectory() throws -> String {
        let dir = NSTemporaryDirectory() + "sysstats-import-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        return dir
    }

    /// Every sysstats placeholder a table names is one its block takes (BlockFormat parses it).
    func testEveryTranslationIsAFormatItsBlockTakes() throws {
        let tables: [[ModuleRule]] = [ConfigImporter.rules(for: .i3status), ConfigImporter.rules(for: .i3statusRust),
                                      ConfigImporter.rules(for: .waybar), ConfigImporter.rules(for: .polybar)]
        for rule in tables.joined() {
            guard let name = rule.block, name != "command", name != "time" else { continue }
            let kind = try XCTUnwrap(BlockKind.allCases.first { $0.name.description == name }, name)
            for (source, ours) in rule.placeholderPairs() where !ours.isEmpty {
                let text = ours.replacingOccurrences(of: "\u{1}", with: "")
                XCTAssertNoThrow(try BlockFormat(Array(text.utf8)[...], for: kind), "\(rule.module) \(source) → \(text)")
            }
        }
    }

    func testEachProgramIsLookedForWhereItLooksItself() throws {
        let home = try temporaryDirectory()
        let env = ["HOME": home]
        XCTAssertNil(ConfigCommands.defaultPath(of: .i3status, environment: env, etc: home + "/etc"))
        FileManager.default.createFile(atPath: home + "/.i3status.conf", contents: Data())
        XCTAssertEqual(ConfigCommands.defaultPath(of: .i3status, environment: env, etc: home + "/etc"), home + "/.i3status.conf")
        try FileManager.default.createDirectory(atPath: home + "/.config/i3status", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: home + "/.config/i3status/config", contents: Data())
        XCTAssertEqual(ConfigCommands.defaultPath(of: .i3status, environment: env, etc: home + "/etc"), home + "/.config/i3status/config")
        try FileManager.default.createDirectory(atPath: home + "/.config/waybar", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: home + "/.config/waybar/config.jsonc", contents: Data())
        XCTAssertEqual(ConfigCommands.defaultPath(of: .waybar, environment: env, etc: home + "/etc"), home + "/.config/waybar/config.jsonc")
        let none = ConfigCommands.importBar(.polybar, path: ConfigCommands.defaultPath(of: .polybar, environment: env, etc: home + "/etc"))
        XCTAssertEqual(none.status, 1)
        XCTAssertEqual(none.stderr, ["sysstats: no polybar config found where polybar looks for one; name the file"])
    }

    func testStrictFailsWhenSomethingWasLeftBehindAndABadFileNamesItsLine() throws {
        let dir = try temporaryDirectory()
        let file = dir + "/i3status.conf"
        try "order += \"cpu_usage\"\n".write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(ConfigCommands.importBar(.i3status, path: file, strict: true).status, 0)
        try "order += \"cpu_usage\"\norder += \"ddate\"\n".write(toFile: file, atomically: true, encoding: .utf8)
        let lost = ConfigCommands.importBar(.i3status, path: file, strict: true)
        XCTAssertEqual(lost.status, 1)
        XCTAssertEqual(lost.stderr.first, "\(file):2: \"ddate\": no sysstats block shows it; a command block would: `command = \"ddate\"`, `interval = 60`")
        XCTAssertEqual(lost.stderr.last, "\(file): 2 module(s): 1 as sysstats blocks (1 with every figure), 0 as command blocks, 1 not carried over")
        XCTAssertEqual(ConfigCommands.importBar(.i3status, path: file).status, 0)
        try "cpu_usage {\n  format = \"%usage\n}\n".write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(ConfigCommands.importBar(.i3status, path: file).stderr, ["\(file):2:1: a string has no closing \""])
    }

    func testWriteKeepsTheOldConfigAsABackupAndWritesOneThatLoads() throws {
        let home = try temporaryDirectory()
        let env = ["HOME": home]
        let first = ConfigCommands.writeImported("[[block]]\nblock = \"cpu\"", summary: ["s"], environment: env)
        XCTAssertEqual(first.status, 0, "\(first)")
        XCTAssertEqual(first.stderr, ["s", "wrote \(home)/.config/sysstats/config.toml; the running bar reads it at once"])
        let second = ConfigCommands.writeImported("[[block]]\nblock = \"mem\"", summary: [], environment: env)
        XCTAssertEqual(second.stderr.first, "kept the old \(home)/.config/sysstats/config.toml as \(home)/.config/sysstats/config.toml.bak")
        XCTAssertEqual(try String(contentsOfFile: home + "/.config/sysstats/config.toml.bak", encoding: .utf8), "[[block]]\nblock = \"cpu\"\n")
        XCTAssertEqual(try String(contentsOfFile: home + "/.config/sysstats/config.toml", encoding: .utf8), "[[block]]\nblock = \"mem\"\n")
    }

    func testAnUnknownProgramOrABarForOneWithoutBarsIsABadCommandLine() {
        XCTAssertThrowsError(try ConfigImport.parse(["sway", "x"]))
        XCTAssertThrowsError(try ConfigImport.parse(["i3status", "--bar", "top"]))
        XCTAssertNoThrow(try ConfigImport.parse(["polybar", "--bar", "top", "--strict", "--write"]))
    }
}
