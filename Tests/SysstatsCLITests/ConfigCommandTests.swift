import Foundation
import XCTest
@testable import SysstatsCLI

/// `sysstats config check` and `sysstats config example`.
final class ConfigCommandTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testTheExampleIsTheAssetByteForByte() throws {
        let asset = try String(contentsOf: Self.root.appendingPathComponent("assets/config.toml"), encoding: .utf8)
        XCTAssertEqual(ExampleConfig.text + "\n", asset, "copy assets/config.toml into ExampleConfig.swift")
    }

    func testAGoodFileIsOkAndABadOneNamesEachProblem() throws {
        let good = ConfigCommands.check(path: Self.root.appendingPathComponent("Tests/Fixtures/config/full.toml").path)
        XCTAssertEqual(good.status, 0)
        XCTAssertTrue(good.stdout.first?.hasSuffix("full.toml: ok") == true, "\(good)")
        let bad = NSTemporaryDirectory() + "sysstats-bad-\(UUID().uuidString).toml"
        defer { try? FileManager.default.removeItem(atPath: bad) }
        try "[sampler]\nhistory = \"yes\"\n[[block]]\nblock = \"cpu\"\nwarning = 200\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let result = ConfigCommands.check(path: bad)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, ["\(bad):5:11: out of range: 0 to 100",
                                       "\(bad):2:11: expected true or false, found string"])
        try "a = [1,\n".write(toFile: bad, atomically: true, encoding: .utf8)
        XCTAssertEqual(ConfigCommands.check(path: bad).stderr.count, 1)
        XCTAssertEqual(ConfigCommands.check(path: "/nonexistent/c.toml").status, 1)
    }
}

extension ConfigCommandTests {
    /// The bar runs a config file's commands: `config check` refuses one that someone else
    /// could have written, as the bar and the sampler do (one check, CTrustedFile).
    func testAFileOthersCouldHaveWrittenIsRefusedWithTheReason() throws {
        let folder = NSTemporaryDirectory() + "sysstats-trust-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/config.toml"
        try "[[block]]\nblock = \"load\"\n".write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(file, 0o644), 0)
        XCTAssertEqual(ConfigCommands.check(path: file).status, 0)

        XCTAssertEqual(chmod(file, 0o664), 0)
        XCTAssertEqual(ConfigCommands.check(path: file).stderr, ["\(file): writable by group or others: refused (chmod go-w it)"])
        XCTAssertEqual(chmod(file, 0o644), 0)

        XCTAssertEqual(chmod(folder, 0o777), 0)
        XCTAssertEqual(ConfigCommands.check(path: file).stderr,
                       ["\(file): in a directory others can write: refused (chmod o-w it, or the sticky bit)"])
        XCTAssertEqual(chmod(folder, 0o1777), 0)
        XCTAssertEqual(ConfigCommands.check(path: file).status, 0, "the sticky bit keeps others from replacing our file")
        XCTAssertEqual(chmod(folder, 0o755), 0)

        // Through a symbolic link (dotfiles): the link's directory and the file's are both checked.
        let linkFolder = folder + "/links"
        try FileManager.default.createDirectory(atPath: linkFolder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o777])
        XCTAssertEqual(chmod(linkFolder, 0o777), 0)
        XCTAssertEqual(symlink(file, linkFolder + "/config.toml"), 0)
        XCTAssertEqual(ConfigCommands.check(path: linkFolder + "/config.toml").stderr,
                       ["\(linkFolder)/config.toml: in a directory others can write: refused (chmod o-w it, or the sticky bit)"])

        if geteuid() == 0 {
            XCTAssertEqual(chown(file, 65534, 65534), 0)
            XCTAssertEqual(ConfigCommands.check(path: file).stderr, ["\(file): owned by another user: refused (its commands would run as you)"])
        }
    }

    /// `config check` says when a running bar's flags override the file it checks: found by
    /// the bars' wants files and their command lines.
    func testARunningBarsFlagsThatOverrideTheCheckedFileAreNamed() throws {
        let dir = try TemporaryDirectory()
        let runtime = dir.path + "/run", proc = dir.path + "/proc"
        try FileManager.default.createDirectory(atPath: runtime + "/wants", withIntermediateDirectories: true)
        func process(_ pid: Int32, _ words: [String]) throws {
            try FileManager.default.createDirectory(atPath: "\(proc)/\(pid)", withIntermediateDirectories: true)
            try Data(words.joined(separator: "\0").utf8 + [0]).write(to: URL(fileURLWithPath: "\(proc)/\(pid)/cmdline"))
            try Data("1\n".utf8).write(to: URL(fileURLWithPath: "\(runtime)/wants/\(pid)"))
        }
        let file = dir.path + "/config.toml"
        try Data("[theme]\nna = \"-\"\n".utf8).write(to: URL(fileURLWithPath: file))
        try process(300, ["/usr/bin/sysstats-bar", "--output", "i3bar", "--blocks", "cpu,mem", "--config", file])
        try process(200, ["/usr/bin/sysstats-bar", "--config=" + dir.path + "/other.toml", "--blocks=cpu"])
        try process(100, ["/usr/bin/i3status"])
        try process(400, ["sysstats-bar", "--output", "i3bar"])
        let bars = RunningBars.list(runtimeDirectory: runtime, procRoot: proc)
        XCTAssertEqual(bars.map(\.pid), [200, 300, 400], "bars only, by pid")
        let out = ConfigCommands.check(path: file, runningBars: bars)
        XCTAssertEqual(out.status, 0)
        XCTAssertEqual(out.stdout, ["\(file): ok",
                                    "note: the running sysstats-bar (pid 300) was started with flags: --blocks replaces the file's [[block]] list, so edits to it change nothing"])
        XCTAssertEqual(RunningBars.overrideNotes(configFile: file, defaultPath: file, bars: [bars[2]]), [],
                       "a bar of the default file without overriding flags")
        XCTAssertEqual(RunningBars.overrideNotes(configFile: file, defaultPath: file,
                                                 bars: [RunningBars.Bar(pid: 9, arguments: ["--format", "cpu=x"])]).count, 1,
                       "a bar without --config reads the default place")
    }

    /// A wrapped i3status whose config lacks `output_format = "i3bar"` prints plain text under
    /// the bar (it picks its output by its parent's name): `config check` says so.
    func testConfigCheckSaysWhenAWrappedI3statusConfigLacksTheI3barOutput() throws {
        let dir = try TemporaryDirectory()
        let stock = dir.path + "/i3status.conf", fixed = dir.path + "/fixed.conf"
        try Data("general {\n    colors = true\n    interval = 5\n}\norder += \"tztime local\"\n".utf8).write(to: URL(fileURLWithPath: stock))
        try Data("general {\n    output_format = \"i3bar\"\n}\n".utf8).write(to: URL(fileURLWithPath: fixed))
        let file = dir.path + "/config.toml"
        try Data("[[block]]\nblock = \"i3bar\"\ncommand = \"i3status -c \(stock)\"\n".utf8).write(to: URL(fileURLWithPath: file))
        let out = ConfigCommands.check(path: file)
        XCTAssertEqual(out.status, 0)
        XCTAssertEqual(out.stdout.count, 2, "\(out.stdout)")
        XCTAssertTrue(out.stdout.last?.contains("does not set output_format = \"i3bar\"") ?? false, "\(out.stdout)")
        XCTAssertNil(ConfigCommands.i3statusOutputNote("i3status -c \(fixed)"))
        XCTAssertNil(ConfigCommands.i3statusOutputNote("i3status -c \(dir.path)/none.conf"), "no file: nothing to say")
    }

    /// `sysstats exited` lists the newest first, as `top --exited` does; `--oldest-first`
    /// gives a log's order.
    func testExitedListsTheNewestFirstUnlessAskedForTheOldest() throws {
        XCTAssertTrue(try ExitedCommand.parse([]).newestFirst)
        XCTAssertFalse(try ExitedCommand.parse(["--oldest-first"]).newestFirst)
    }
}
