import BarCore
@testable import BarRuntime
import Foundation
import SnapshotCodec
import XCTest

/// A config file whose folder does not exist when the bar starts (a new user's
/// `~/.config/sysstats`): the bar watches the nearest folder that does and follows the
/// folders down as they appear, so creating the file, a mistake and its fix each show at
/// once, without a signal; and a folder that goes is watched for again.
final class ConfigFolderWatchTests: RuntimeDirectoryHarness {
    /// `config-home/sysstats/config.toml` under the runtime directory, neither folder made.
    var configHome: URL { directory.appendingPathComponent("config-home") }
    var configFolder: URL { configHome.appendingPathComponent("sysstats") }
    var config: URL { configFolder.appendingPathComponent("config.toml") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try publish { s in
            s.load1 = 52; s.load5 = 48; s.load15 = 40
            s.processCount = 300
        }
    }

    /// A text bar over the default config path (XDG_CONFIG_HOME: `config-home`), started
    /// as the loop starts it.
    func bar() throws -> Bar<Sink> {
        var b = try program(["--output", "text", "--blocks", "load"])
        giveInotify(&b)
        b.addConfigWatch()
        _ = b.load()
        return b
    }

    /// What the loop does when inotify is ready: read the events, reload on a config change.
    func step(_ b: inout Bar<Sink>) {
        _ = b.readInotify()
        if b.configChanged { b.configChanged = false; b.reloadConfig() }
    }

    func mkdir(_ url: URL) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    func write(_ text: String) throws { try text.write(to: config, atomically: true, encoding: .utf8) }

    func testWithoutItsFoldersTheNearestFolderIsWatchedForTheNextOne() throws {
        let b = try bar()
        XCTAssertGreaterThanOrEqual(b.configWatch, 0, "a watch, on the runtime directory")
        XCTAssertEqual(b.configWatchNext, Array("config-home".utf8))
    }

    func testTheFoldersMadeOneByOneThenTheFileItsMistakeAndItsFixEachShowAtOnce() throws {
        var b = try bar()
        try mkdir(configHome)
        step(&b)
        XCTAssertEqual(b.configWatchNext, Array("sysstats".utf8), "one level down")
        try mkdir(configFolder)
        step(&b)
        XCTAssertEqual(b.configWatchNext, [], "the config's own folder")
        XCTAssertFalse(b.configChanged, "no file yet: nothing to read")
        XCTAssertEqual(b.sink.lines, [], "nor to say")
        // The blocks are --blocks': the file's theme shows it was read.
        try write("[theme]\nseparator = \" / \"\n")
        step(&b)
        XCTAssertEqual(b.sink.lines.last, "load 0.52 0.48 0.40\n")
        XCTAssertEqual(b.options.theme.separator, Array(" / ".utf8), "the new file was read")
        try write("[theme]\nseparator = 3\n")
        step(&b)
        XCTAssertTrue(b.sink.lines.last?.hasPrefix("config.toml:2:13: ") == true, "the mistake at once: \(b.sink.lines)")
        try write("[theme]\nseparator = \" + \"\n")
        step(&b)
        XCTAssertEqual(b.sink.lines.last, "load 0.52 0.48 0.40\n", "the fix at once: \(b.sink.lines)")
        XCTAssertEqual(b.options.theme.separator, Array(" + ".utf8))
    }

    func testFoldersAndFileMadeAtOnceAreReadAtTheFirstEvent() throws {
        var b = try bar()
        try FileManager.default.createDirectory(at: configFolder, withIntermediateDirectories: true)
        try write("[theme]\nseparator = \" / \"\n")
        step(&b)
        XCTAssertEqual(b.configWatchNext, [])
        XCTAssertEqual(b.options.theme.separator, Array(" / ".utf8), "read although written before its folder was watched")
    }

    func testAFolderThatGoesIsWatchedForAgainAndTheFileInItsReturnIsRead() throws {
        var b = try bar()
        try FileManager.default.createDirectory(at: configFolder, withIntermediateDirectories: true)
        step(&b)
        XCTAssertEqual(b.configWatchNext, [])
        try FileManager.default.removeItem(at: configHome)
        step(&b)
        XCTAssertEqual(b.configWatchNext, Array("config-home".utf8), "back to the nearest folder left")
        try FileManager.default.createDirectory(at: configFolder, withIntermediateDirectories: true)
        try write("[theme]\nseparator = \" ~ \"\n")
        step(&b)
        XCTAssertEqual(b.options.theme.separator, Array(" ~ ".utf8))
    }

    func testAFileWhereTheFolderShouldBeKeepsTheWatchWaitingAbove() throws {
        var b = try bar()
        try "not a folder".write(to: configHome, atomically: true, encoding: .utf8)
        step(&b)
        XCTAssertGreaterThanOrEqual(b.configWatch, 0)
        XCTAssertEqual(b.configWatchNext, Array("config-home".utf8), "still waiting for a folder of that name")
    }
}
