import Foundation
import HistoryStore
import SnapshotCodec
import TestSupport
import XCTest

/// Bookmarks through the built programs: a process whose comm the kernel cut at 15 bytes
/// (`gnome-control-c`, no exe link, no cmdline: only a `truncated` rule can name it) shows
/// its friendly name in `sysstats top` and, through sysstatsd's snapshot, in `sysstats-bar`;
/// a running sysstatsd picks up a rule added while it runs.
final class BookmarksProgramTests: XCTestCase {
    var directory: TemporaryDirectory!
    var data: String { directory.file("data") }
    var runtime: String { directory.file("run") }
    let tree = Fixtures.root.appendingPathComponent("sampler-bookmarks/2")
    var procRoot: String { tree.appendingPathComponent("proc").path }
    var sysRoot: String { tree.appendingPathComponent("sys").path }

    override func setUpWithError() throws {
        directory = try TemporaryDirectory("bookmarks-e2e")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
    }
    override func tearDownWithError() throws { directory = nil }

    /// Runs one of the built programs with stdin from /dev/null (never a terminal).
    func run(_ name: String, _ arguments: [String]) throws -> Programs.Output {
        try Programs.capture(try Programs.path(name), arguments)
    }

    func addRule(_ name: String) throws {
        let added = try run("sysstats", ["bookmarks", "add", "--truncated", "gnome-control-center", "--name", name, "--data-dir", data])
        XCTAssertEqual(added.status, 0, added.stderr)
    }

    func snapshot() throws -> Snapshot? {
        guard let data = FileManager.default.contents(atPath: runtime + "/snapshot") else { return nil }
        return try? [UInt8](data).withUnsafeBytes { try Snapshot.decode($0) }
    }

    func testTopAndTheBarShowTheFriendlyNameOfATruncatedComm() throws {
        // Without a database: the built-in rule.
        let builtin = try run("sysstats", ["top", "--proc-root", procRoot, "--data-dir", data, "--interval-ms", "0", "--sort", "memory"])
        XCTAssertEqual(builtin.status, 0, builtin.stderr)
        XCTAssertTrue(builtin.stdout.split(separator: "\n").dropFirst().first?.contains("Settings") ?? false, builtin.stdout)

        try addRule("Control Center")
        let top = try run("sysstats", ["top", "--proc-root", procRoot, "--data-dir", data, "--interval-ms", "0", "--sort", "memory"])
        XCTAssertEqual(top.status, 0, top.stderr)
        let first = top.stdout.split(separator: "\n").dropFirst().first ?? ""
        XCTAssertTrue(first.contains("500") && first.contains("Control Center"), top.stdout)
        XCTAssertFalse(top.stdout.contains("gnome-control-c"), top.stdout)

        let sampled = try run("sysstatsd", ["--once", "--interval", "0.05", "--proc-root", procRoot, "--sys-root", sysRoot,
                                            "--runtime-dir", runtime, "--data-dir", data])
        XCTAssertEqual(sampled.status, 0, sampled.stderr)
        XCTAssertEqual(sampled.stderr, "")
        let bar = try run("sysstats-bar", ["--output", "text", "--once", "--blocks", "top", "--runtime-dir", runtime])
        XCTAssertEqual(bar.status, 0, bar.stderr)
        XCTAssertTrue(bar.stdout.hasPrefix("top Control Center "), bar.stdout)
    }

    func testARunningSamplerPicksUpARuleAddedWhileItRuns() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Programs.path("sysstatsd"))
        process.arguments = ["--interval", "0.1", "--no-history", "--proc-root", procRoot, "--sys-root", sysRoot,
                             "--runtime-dir", runtime, "--data-dir", data]
        try process.run()
        defer { process.terminate(); process.waitUntilExit() }
        func waitForName(_ name: String) -> Bool {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if let s = try? snapshot(), s.topMemory.first.map({ String(decoding: $0.name, as: UTF8.self) }) == name { return true }
                usleep(20_000)
            }
            return false
        }
        XCTAssertTrue(waitForName("Settings"), "the built-in name first: \(String(describing: try? snapshot()?.topMemory))")
        try addRule("Renamed While Running")
        XCTAssertTrue(waitForName("Renamed While Running"), "\(String(describing: try? snapshot()?.topMemory))")
        let removed = try run("sysstats", ["bookmarks", "remove", "--truncated", "gnome-control-center", "--data-dir", data])
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertTrue(waitForName("Settings"), "back to the built-in name")
    }

    func testAnExitKeepsItsFriendlyNameInHistoryAndTopExitedShowsIt() throws {
        let live = try LiveTree()
        try live.mirror("sampler-desktop/1")
        let added = try run("sysstats", ["bookmarks", "add", "--exe", "firefox-esr", "--name", "My Browser", "--data-dir", data])
        XCTAssertEqual(added.status, 0, added.stderr)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Programs.path("sysstatsd"))
        process.arguments = ["--interval", "0.05", "--runtime-dir", runtime, "--data-dir", data,
                             "--proc-root", live.url.appendingPathComponent("proc").path,
                             "--sys-root", live.url.appendingPathComponent("sys").path]
        try process.run()
        var deadline = Date().addingTimeInterval(10)
        while (try? snapshot())?.sequence ?? 0 < 3, Date() < deadline { usleep(20_000) }
        try live.mirror("sampler-desktop/2")   // firefox-esr exits
        deadline = Date().addingTimeInterval(10)
        while (try? snapshot())?.exits.isEmpty ?? true, Date() < deadline { usleep(20_000) }
        kill(process.processIdentifier, SIGTERM)   // the last batch carries the exit
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        // Contains, not equals: the live tree rewrites each stat file in place (truncate, then
        // write), so a scan that lands mid-rewrite can also see another process come and go.
        let exitNames = try snapshot()?.exits.map { String(decoding: $0.name, as: UTF8.self) } ?? []
        XCTAssertTrue(exitNames.contains("My Browser"), "\(exitNames)")
        XCTAssertFalse(exitNames.contains("firefox-esr"), "\(exitNames)")

        // The snapshot still holds the exit the last batch wrote: listed once, as history has it.
        let exited = try run("sysstats", ["top", "--exited", "--data-dir", data, "--runtime-dir", runtime])
        XCTAssertEqual(exited.status, 0, exited.stderr)
        XCTAssertTrue(exited.stdout.contains("firefox-esr (My Browser)"), exited.stdout)
        XCTAssertFalse(exited.stdout.split(separator: "\n").contains { $0.hasSuffix("  My Browser") },
                       "the snapshot's copy of the exit is listed too: \(exited.stdout)")
    }

    func testImportAsksAndWithoutATerminalNeedsYes() throws {
        let file = directory.file("shared.sysstats-bookmarks")
        try Data("sysstats-bookmarks 1\nexe\tfoo\tFoo\n".utf8).write(to: URL(fileURLWithPath: file))
        let refused = try run("sysstats", ["bookmarks", "import", file, "--data-dir", data])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stdout, "\(file): adds 1, changes 0, skips 0\n")
        XCTAssertEqual(refused.stderr, "sysstats: not imported: give --yes to import without asking\n")
        let listed = try run("sysstats", ["bookmarks", "list", "--source", "imported", "--data-dir", data])
        XCTAssertEqual(listed.stdout.split(separator: "\n").count, 1, "only the header: \(listed.stdout)")

        let inbox = try run("sysstats", ["bookmarks", "import", "--inbox", "--yes", file, "--data-dir", data])
        XCTAssertEqual(inbox.status, 0, inbox.stderr)
        XCTAssertTrue(inbox.stdout.contains("copied \(file) to \(data)/Inbox/shared.sysstats-bookmarks"), inbox.stdout)
        let after = try run("sysstats", ["bookmarks", "list", "--source", "imported", "--data-dir", data])
        XCTAssertTrue(after.stdout.contains("Foo"), after.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: data + "/bookmarks.rules"))
    }

    func testInboxImportRefusedWithoutATerminalLeavesNoCopyHoweverOftenItIsTried() throws {
        let file = directory.file("shared.sysstats-bookmarks")
        try Data("sysstats-bookmarks 1\nexe\tfoo\tFoo\n".utf8).write(to: URL(fileURLWithPath: file))
        let garbage = directory.file("photo.sysstats-bookmarks")
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: URL(fileURLWithPath: garbage))
        for _ in 1...3 {
            let refused = try run("sysstats", ["bookmarks", "import", "--inbox", file, "--data-dir", data])
            XCTAssertEqual(refused.status, 1)
            XCTAssertEqual(refused.stdout, "\(file): adds 1, changes 0, skips 0\n", "nothing said about a copy")
            XCTAssertEqual(refused.stderr, "sysstats: not imported: give --yes to import without asking\n")
            let notBookmarks = try run("sysstats", ["bookmarks", "import", "--inbox", "--yes", garbage, "--data-dir", data])
            XCTAssertEqual(notBookmarks.status, 1)
        }
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: data + "/Inbox")) ?? [], [])
        let imported = try run("sysstats", ["bookmarks", "import", "--inbox", "--yes", file, "--data-dir", data])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: data + "/Inbox"), ["shared.sysstats-bookmarks"])
    }

    func testAFileThatIsNotBookmarksIsRefusedInOneLine() throws {
        let file = directory.file("photo.sysstats-bookmarks")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: URL(fileURLWithPath: file))
        let out = try run("sysstats", ["bookmarks", "import", "--yes", file, "--data-dir", data])
        XCTAssertEqual(out.status, 1)
        XCTAssertEqual(out.stderr.filter { $0 == "\n" }.count, 1, out.stderr)
        XCTAssertTrue(out.stderr.contains("not a sysstats bookmarks file"), out.stderr)
    }
}
