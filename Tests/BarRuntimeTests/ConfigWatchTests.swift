import BarCore
@testable import BarRuntime
import Foundation
import SnapshotCodec
import XCTest

/// The config watcher in-process: the inotify watch on the config file's folder, what of its
/// events is a change of the config, and the reload a change brings (good file, bad file).
final class ConfigWatchTests: RuntimeDirectoryHarness {
    var configFolder: URL!
    var config: URL { configFolder.appendingPathComponent("config.toml") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        configFolder = directory.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: configFolder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try publish()
    }

    func publish() throws {
        try publish { s in
            s.load1 = 52; s.load5 = 48; s.load15 = 40
            s.processCount = 300
        }
    }

    /// Replaced by rename, as editors do: the watch sees IN_MOVED_TO.
    func write(_ text: String, to file: URL? = nil) throws {
        try text.write(to: file ?? config, atomically: true, encoding: .utf8)
    }

    /// A text bar over `--config`, its inotify descriptor and the config's watch set up as
    /// the loop's start does.
    func bar(config path: URL? = nil) throws -> Bar<Sink> {
        var b = try bar(["--output", "text", "--config", (path ?? config).path])
        giveInotify(&b)
        b.addConfigWatch()
        XCTAssertGreaterThanOrEqual(b.configWatch, 0, "the config's folder is watched")
        return b
    }

    /// What the loop does when inotify is ready: read the events, reload on a config change.
    /// Returns whether the snapshot changed.
    @discardableResult
    func step(_ b: inout Bar<Sink>) -> Bool {
        let snapshotChanged = b.readInotify()
        if b.configChanged { b.configChanged = false; b.reloadConfig() }
        return snapshotChanged
    }

    func testWritingTheConfigFileIsSeenByItsWatchAndItsBlocksReplaceTheDefaults() throws {
        var b = try bar()
        _ = b.load()
        try write("[[block]]\nblock = \"load\"\n[[block]]\nblock = \"procs\"\nformat = \"P{count}\"\n")
        _ = b.readInotify()
        XCTAssertTrue(b.configChanged, "the rename into place is a change of the config")
        b.configChanged = false
        b.reloadConfig()
        XCTAssertEqual(b.sink.lines.last, "load 0.52 0.48 0.40 | P300\n")
    }

    func testABadFileKeepsTheLastGoodBlocksAndShowsWhyUntilItIsFixed() throws {
        var b = try bar()
        _ = b.load()
        try write("[[block]]\nblock = \"load\"\n")
        step(&b)
        XCTAssertEqual(b.sink.lines.last, "load 0.52 0.48 0.40\n")
        try write("[[block]]\nblock = \"cpu\"\nwarning = 300\n")
        step(&b)
        XCTAssertEqual(b.sink.lines.last, "config.toml:3:11: out of range: 0 to 100 | load 0.52 0.48 0.40\n",
                       "the last good blocks, the mistake first")
        try write("[[block]]\nblock = \"procs\"\n")
        step(&b)
        XCTAssertEqual(b.sink.lines.last, "procs 300 (0 run)\n", "the fixed file at once, the notice gone")
    }

    /// `--config /dev/null` (no config) is not watched: its folder is /dev, and every write to
    /// /dev/null on the machine would have read the config again.
    func testTheNullDeviceAsTheConfigIsNotWatched() throws {
        var b = try bar(["--output", "text", "--config", "/dev/null"])
        giveInotify(&b)
        b.addConfigWatch()
        XCTAssertEqual(b.configWatch, -1)
        let device = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/null"))
        device.write(Data("x".utf8))
        try device.close()
        _ = b.readInotify()
        XCTAssertFalse(b.configChanged, "a write to /dev/null is no change of the config")
    }

    func testAnotherFileInTheConfigsFolderIsNoChange() throws {
        var b = try bar()
        _ = b.load()
        try write("[[block]]\nblock = \"load\"\n", to: configFolder.appendingPathComponent("config.toml.bak"))
        try write("x", to: configFolder.appendingPathComponent("other"))
        _ = b.readInotify()
        XCTAssertFalse(b.configChanged)
    }

    /// The config file in the runtime directory: one inotify watch serves both (IN_MASK_ADD),
    /// and each event is told apart by its name.
    func testInTheRuntimeDirectoryASnapshotIsNotAConfigChangeNorTheConfigASnapshot() throws {
        let inRuntime = directory.appendingPathComponent("bar.toml")
        var b = try bar(config: inRuntime)
        XCTAssertTrue(b.addWatch(), "the runtime directory is watched")
        XCTAssertEqual(b.watch, b.configWatch, "one watch for the one folder")
        _ = b.load()
        try publish()
        XCTAssertTrue(b.readInotify(), "the snapshot's rename")
        XCTAssertFalse(b.configChanged)
        try write("[[block]]\nblock = \"procs\"\n", to: inRuntime)
        XCTAssertFalse(b.readInotify(), "the config's rename is not a snapshot")
        XCTAssertTrue(b.configChanged)
    }

    /// i3blocks files the config names (`block = "i3blocks"`): each is watched in its own
    /// folder, and writing one reloads the bar.
    func testAnIncludedI3blocksFileIsWatchedAndWritingItReloads() throws {
        let blocklets = directory.appendingPathComponent("blocklets")
        try FileManager.default.createDirectory(at: blocklets, withIntermediateDirectories: false)
        let included = blocklets.appendingPathComponent("i3blocks.conf")
        try write("[hello]\ncommand=echo hi\ninterval=once\n", to: included)
        try write("[[block]]\nblock = \"i3blocks\"\nfile = \"\(included.path)\"\n")
        var b = try bar()
        _ = b.load()
        b.reloadConfig()
        XCTAssertEqual(b.options.includedFiles, [Array(included.path.utf8)])
        b.sink.lines.removeAll()
        try write("[hello]\ncommand=echo bye\ninterval=once\n", to: included)
        _ = b.readInotify()
        XCTAssertTrue(b.configChanged, "a change of the included file is a change of the config")

        // An edit made while the bar reloads (queued before the reload's watches are set up
        // again) is still seen: the folder keeps its watch, and the event's number is its.
        b.configChanged = false
        try write("[hello]\ncommand=echo again\ninterval=once\n", to: included)
        b.reloadConfig()
        _ = b.readInotify()
        XCTAssertTrue(b.configChanged, "the edit queued during the reload")
    }
}

extension ConfigWatchTests {
    /// A mistake at start (issue 29) runs the built-in blocks with the mistake first; the
    /// running bar takes the fixed file at once.
    func testABarStartedOverABadFileShowsTheDefaultsAndTakesTheFixedFile() throws {
        try write("[[block]]\nblock = \"cpu\"\nwarning = 300\n")
        var b = try capturingStderr { try program(["--output", "text", "--config", config.path, "--blocks", "load"]) }.0
        begin(&b)
        XCTAssertEqual(b.sink.lines.last, "config.toml:3:11: out of range: 0 to 100 | load 0.52 0.48 0.40\n")
        try write("[[block]]\nblock = \"procs\"\n")
        XCTAssertTrue(turns(&b, seconds: 3, until: { $0.sink.lines.last == "load 0.52 0.48 0.40\n" }),
                      "the fixed file at once, --blocks still winning: \(b.sink.lines)")
    }
}

extension ConfigWatchTests {
    /// `rm ~/.config/sysstats/config.toml` while the bar ran kept the deleted config, and a
    /// SIGHUP then showed a lasting `config.toml: no such file` block: the file at the default
    /// place removed (or renamed away), the built-in defaults apply at once and no mistake shows.
    func testRemovingTheConfigAtItsDefaultPlaceBringsTheDefaultsBackAtOnce() throws {
        let home = directory.appendingPathComponent("xdg")
        let folder = home.appendingPathComponent("sysstats")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let saved = getenv("XDG_CONFIG_HOME").map { String(cString: $0) }
        setenv("XDG_CONFIG_HOME", home.path, 1)
        defer { if let saved { setenv("XDG_CONFIG_HOME", saved, 1) } else { unsetenv("XDG_CONFIG_HOME") } }
        let file = folder.appendingPathComponent("config.toml")
        for removal in ["delete", "rename"] {
            try write("[[block]]\nblock = \"load\"\n", to: file)
            let options = try BarOptions.parse([Array("--output".utf8), Array("text".utf8)])
            var b = Bar(options: options, runtimeDir: Array(directory.path.utf8), sink: Sink())
            giveInotify(&b)
            b.addConfigWatch()
            _ = b.load()
            b.reloadConfig()
            XCTAssertEqual(b.sink.lines.last, "load 0.52 0.48 0.40\n", "the file's one block")
            if removal == "delete" {
                try FileManager.default.removeItem(at: file)
            } else {
                try FileManager.default.moveItem(at: file, to: folder.appendingPathComponent("config.toml.bak"))
            }
            step(&b)
            let line = try XCTUnwrap(b.sink.lines.last)
            XCTAssertTrue(line.hasPrefix("load 0.52 0.48 0.40 | "), "\(removal): the default bar (load, then more): \(line)")
            XCTAssertFalse(line.contains("config"), "\(removal): no mistake shown: \(line)")
            try? FileManager.default.removeItem(at: folder.appendingPathComponent("config.toml.bak"))
        }
    }
}
