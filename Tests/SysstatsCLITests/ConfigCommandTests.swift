import Foundation
import BarCore
import XCTest
@testable import SysstatsCLI

/// `sysstats config check` and `sysstats config example`.
final class ConfigCommandTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testTheExampleIsTheAssetByteForByte() throws {
        let asset = try String(contentsOf: Self.root.appendingPathComponent("assets/config.toml"), encoding: .utf8)
        XCTAssertEqual(ExampleConfig.text + "\n", asset, "copy assets/config.toml into ExampleConfig.swift")
    }

    /// Every block of the registry is in the example, as a `[[block]]` or in the comment that
    /// names the others: a block added without it fails here (the list was written by hand).
    func testTheExampleNamesEveryBlockOfTheRegistry() throws {
        let text = ExampleConfig.text
        let others = try XCTUnwrap(text.components(separatedBy: "the other blocks are ").dropFirst().first?
            .components(separatedBy: " (sysstats-bar --help").first)
        let named = Set(others.replacingOccurrences(of: "\n# ", with: " ").components(separatedBy: ", "))
        for kind in BlockKind.allCases where kind.isNamedInBlocksOption {
            let name = kind.name.description
            XCTAssertTrue(named.contains(name) || text.contains("block = \"\(name)\""),
                          "the example names no \(name) block")
        }
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

    /// Another user made /proc/PID/cmdline of a program she started read like a config, and
    /// replaced the victim's file in a shared group folder with a link to it. A link owned by
    /// someone else, a folder a shared group can write, and a file under /proc are refused.
    func testALinkOfAnotherUserAGroupWritableFolderAndProcAreRefused() throws {
        guard geteuid() == 0 else { throw XCTSkip("needs root to give files to another user") }
        let folder = NSTemporaryDirectory() + "sysstats-trust-\(UUID().uuidString)"
        XCTAssertEqual(mkdir(folder, 0o755), 0)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/config.toml"
        try "[[block]]\nblock = \"load\"\n".write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(file, 0o644), 0)

        // A link of another user's, in a folder of ours: she could point it anywhere.
        let link = folder + "/linked.toml"
        XCTAssertEqual(symlink(file, link), 0)
        XCTAssertEqual(ConfigCommands.check(path: link).status, 0, "our own link")
        XCTAssertEqual(lchown(link, 65534, 65534), 0)
        XCTAssertEqual(ConfigCommands.check(path: link).stderr,
                       ["\(link): reached through a symbolic link owned by another user: refused"])
        // A link on the way to the folder, too.
        let folderLink = folder + "/dotfiles"
        XCTAssertEqual(symlink(folder, folderLink), 0)
        XCTAssertEqual(lchown(folderLink, 65534, 65534), 0)
        XCTAssertEqual(ConfigCommands.check(path: folderLink + "/config.toml").stderr,
                       ["\(folderLink)/config.toml: reached through a symbolic link owned by another user: refused"])

        // A folder its group can write (root:nogroup 2775), unless the sticky bit keeps others
        // to their own entries or the group is the user's private one.
        let shared = folder + "/team"
        XCTAssertEqual(mkdir(shared, 0o755), 0)
        let inShared = shared + "/blocks.toml"
        try "[[block]]\nblock = \"load\"\n".write(toFile: inShared, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(inShared, 0o644), 0)
        XCTAssertEqual(chown(shared, 0, 65534), 0)
        XCTAssertEqual(chmod(shared, 0o2775), 0)
        XCTAssertEqual(ConfigCommands.check(path: inShared).stderr,
                       ["\(inShared): in a directory its group can write: refused (chmod g-w it, or the sticky bit)"])
        XCTAssertEqual(chmod(shared, 0o3775), 0)
        XCTAssertEqual(ConfigCommands.check(path: inShared).status, 0, "sticky: nobody else can replace our entry")
        XCTAssertEqual(chmod(shared, 0o2775), 0)
        if rootsGroupIsPrivate() {
            XCTAssertEqual(chown(shared, 0, 0), 0)
            XCTAssertEqual(ConfigCommands.check(path: inShared).status, 0, "the user's private group (root:root, no members)")
        }

        // /proc: what a process's cmdline or environ says is its own choice.
        XCTAssertEqual(ConfigCommands.check(path: "/proc/self/cmdline").stderr,
                       ["/proc/self/cmdline: a file under /proc, which a process writes: refused"])
        let procLink = folder + "/proc.toml"
        XCTAssertEqual(symlink("/proc/self/environ", procLink), 0)
        XCTAssertEqual(ConfigCommands.check(path: procLink).stderr,
                       ["\(procLink): a file under /proc, which a process writes: refused"])
    }

    /// `config import i3blocks battery.conf` wrote `cd -- '.'`: pasted into config.toml, the
    /// bar ran a `./battery` from its own working folder. The folder is made absolute.
    func testARelativeImportPathRunsTheCommandsFromTheFilesFolderAsAnAbsolutePath() throws {
        XCTAssertEqual(absoluteFolder(of: "battery.conf", currentDirectory: "/home/me/i3"), "/home/me/i3")
        XCTAssertEqual(absoluteFolder(of: "./battery.conf", currentDirectory: "/home/me/i3"), "/home/me/i3")
        XCTAssertEqual(absoluteFolder(of: "blocks/i3.conf", currentDirectory: "/home/me"), "/home/me/blocks")
        XCTAssertEqual(absoluteFolder(of: "/etc/i3blocks.conf", currentDirectory: "/home/me"), "/etc")
        XCTAssertEqual(absoluteFolder(of: "/i3blocks.conf", currentDirectory: "/home/me"), "/")
        let dir = try TemporaryDirectory()
        try Data("[bat]\ncommand=./battery\n".utf8).write(to: URL(fileURLWithPath: dir.path + "/blocks.conf"))
        let here = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(dir.path))
        defer { FileManager.default.changeCurrentDirectoryPath(here) }
        let out = ConfigCommands.importI3blocks(path: "blocks.conf")
        XCTAssertEqual(out.status, 0, "\(out.stderr)")
        let real = FileManager.default.currentDirectoryPath
        XCTAssertTrue(out.stdout.joined().contains("command = \"cd -- '\(real)' && ./battery\""), out.stdout.joined())
        // A name whose bytes were not UTF-8 reaches us with U+FFFD: said so, not "No such file".
        let bad = ConfigCommands.importI3blocks(path: "blocks\u{FFFD}.conf")
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.first?.contains("the file's name is not valid UTF-8") ?? false, "\(bad.stderr)")
    }

    /// Whether root's group 0 has no member and is no other account's primary group here.
    func rootsGroupIsPrivate() -> Bool {
        let passwd = (try? String(contentsOfFile: "/etc/passwd", encoding: .utf8)) ?? ""
        let group = (try? String(contentsOfFile: "/etc/group", encoding: .utf8)) ?? ""
        let sharers = passwd.split(separator: "\n").filter { line in
            let f = line.split(separator: ":", omittingEmptySubsequences: false)
            return f.count > 3 && f[3] == "0" && f[2] != "0"
        }
        let members = group.split(separator: "\n").first { $0.hasPrefix("root:") }?.split(separator: ":", omittingEmptySubsequences: false)
        return sharers.isEmpty && (members.map { $0.count < 4 || $0[3].isEmpty || $0[3] == "root" } ?? false)
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

    /// The bar shows a missing or broken i3blocks file as one block in its place; `config
    /// check` still names it, by its resolved path, and exits 1.
    func testConfigCheckNamesAMissingOrBrokenI3blocksFileAndFails() throws {
        let dir = try TemporaryDirectory()
        let file = dir.path + "/config.toml"
        try Data("[[block]]\nblock = \"i3blocks\"\nfile = \"blocks.conf\"\n".utf8).write(to: URL(fileURLWithPath: file))
        let missing = ConfigCommands.check(path: file)
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr.count, 1)
        XCTAssertTrue(missing.stderr.first?.hasPrefix(dir.path + "/blocks.conf: ") ?? false, "\(missing.stderr)")
        try Data("[a]\nfull_text=A\n[b\n".utf8).write(to: URL(fileURLWithPath: dir.path + "/blocks.conf"))
        let broken = ConfigCommands.check(path: file)
        XCTAssertEqual(broken.status, 1)
        XCTAssertEqual(broken.stderr, [dir.path + "/blocks.conf:3:1: a section header needs its closing ]"])
        try Data("[a]\nfull_text=A\n".utf8).write(to: URL(fileURLWithPath: dir.path + "/blocks.conf"))
        XCTAssertEqual(ConfigCommands.check(path: file).status, 0)
    }

    /// `sysstats exited` lists the newest first, as `top --exited` does; `--oldest-first`
    /// gives a log's order.
    func testExitedListsTheNewestFirstUnlessAskedForTheOldest() throws {
        XCTAssertTrue(try ExitedCommand.parse([]).newestFirst)
        XCTAssertFalse(try ExitedCommand.parse(["--oldest-first"]).newestFirst)
    }

    /// The folder of a path as NSString's deletingLastPathComponent gave it, which the CLI
    /// used until it dropped swift-corelibs-foundation (and ICU's 34 MB of data with it).
    func testTheFolderOfAPathIsWhatNSStringGave() {
        for path in ["a/b", "/a", "/", "a/b/", "/a/b//", "a//b", "./battery.conf", "../x/y", "//a"] {
            XCTAssertEqual(folderOf(path), (path as NSString).deletingLastPathComponent, "'\(path)'")
        }
        // The test runner's libFoundation traps on a path of one component and on "".
        XCTAssertEqual(folderOf("battery.conf"), "")
        XCTAssertEqual(folderOf(""), "")
        XCTAssertEqual(absoluteFolder(of: "battery.conf", currentDirectory: "/home/u"), "/home/u")
        XCTAssertEqual(trimmed("'\"x\"'", of: ["'", "\""]), "x")
        XCTAssertEqual(trimmed("\"\"", of: ["\""]), "")
    }
}

extension ConfigCommandTests {
    /// `/dev/null` is the common way to say "no config at all" (`i3status -c /dev/null`;
    /// issue 58: `config check` said it was a device, as the bar and the sampler refused it):
    /// checked as an empty file, ok. Told by fstat, not by the name: a link to it is the same,
    /// and every other device is still refused.
    func testTheNullDeviceIsAnEmptyFileAndOtherDevicesAreStillRefused() throws {
        let null = ConfigCommands.check(path: "/dev/null")
        XCTAssertEqual(null.status, 0, "\(null)")
        XCTAssertEqual(null.stdout, ["/dev/null: ok"])
        XCTAssertEqual(null.stderr, [])
        let link = NSTemporaryDirectory() + "sysstats-null-\(UUID().uuidString).toml"
        XCTAssertEqual(symlink("/dev/null", link), 0)
        defer { unlink(link) }
        XCTAssertEqual(ConfigCommands.check(path: link).stdout, ["\(link): ok"], "a link to it, as a dotfiles manager makes")
        let zero = ConfigCommands.check(path: "/dev/zero")
        XCTAssertEqual(zero.status, 1)
        XCTAssertEqual(zero.stderr, ["/dev/zero: is a device, not a regular file"])
    }
}
