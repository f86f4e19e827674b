import Bookmarks
import Foundation
import HistoryStore
import XCTest
@testable import SysstatsCLI

/// `sysstats bookmarks …` on temporary data directories: what each command changes in the
/// database and the rules cache, and that every refused file leaves both as they were.
final class BookmarkCommandsTests: XCTestCase {
    var temporary: TemporaryDirectory!
    var data: String { temporary.file("data") }

    override func setUpWithError() throws { temporary = try TemporaryDirectory() }
    override func tearDown() { temporary = nil }

    static let header = "sysstats-bookmarks 1\n"

    func rules(_ directory: String? = nil, _ source: RuleSource? = nil) throws -> [BookmarkRule] {
        try BookmarkCommands.readRules(directory: directory ?? data).get().filter { source == nil || $0.source == source }
    }

    func file(_ name: String, _ text: String) throws -> String {
        try temporary.write(Array(text.utf8), to: name)
        return temporary.file(name)
    }

    func add(_ kind: MatchKind, _ pattern: String, _ name: String, strip: SuffixStrip = .none) -> CommandOutput {
        BookmarkCommands.add(directory: data, kind: kind, pattern: pattern, name: name, strip: strip)
    }

    // MARK: add, list, remove

    func testAddedRuleIsListedAsTheUsersAndWrittenToTheRulesCache() throws {
        let out = add(.truncated, "gnome-control-center", "System Settings")
        XCTAssertEqual(out.status, 0, "\(out.stderr)")
        XCTAssertEqual(out.stdout, [#"added --truncated gnome-control-center → "System Settings""#])
        let user = try rules(nil, .user)
        XCTAssertEqual(user.map { String(decoding: $0.friendlyName, as: UTF8.self) }, ["System Settings"])
        XCTAssertEqual(user.first?.kind, .truncated)

        let cache = try [UInt8](Data(contentsOf: URL(fileURLWithPath: BookmarkCommands.rulesCachePath(in: data))))
        let parsed = try BookmarkFile.parse(cache)
        XCTAssertTrue(parsed.rules.contains { $0.source == .user && $0.friendlyName == Array("System Settings".utf8) })
        XCTAssertTrue(parsed.rules.contains { $0.source == .builtin }, "the cache holds the built-in rules too")

        let listed = BookmarkCommands.list(directory: data, source: .user, json: false)
        XCTAssertEqual(listed.stdout.count, 2)
        XCTAssertTrue(listed.stdout.dropFirst().first?.contains("gnome-control-center") ?? false, "\(listed.stdout)")
        let json = BookmarkCommands.list(directory: data, source: .user, json: true).stdout.joined()
        XCTAssertTrue(json.contains(#""friendly_name":"System Settings""#), json)
    }

    func testAddingTheSameSelectorAgainRenamesTheRule() throws {
        XCTAssertEqual(add(.executable, "code", "Editor").status, 0)
        let again = add(.executable, "code", "VS Code")
        XCTAssertEqual(again.stdout.first?.hasPrefix("changed"), true, "\(again)")
        XCTAssertEqual(try rules(nil, .user).map(\.friendlyName), [Array("VS Code".utf8)])
    }

    func testARuleThatWouldMatchEveryProcessIsRefusedAndNothingIsStored() throws {
        XCTAssertEqual(add(.comm, "keep", "Kept").status, 0)
        let before = try rules()
        for (kind, pattern) in [(MatchKind.glob, "*"), (.glob, "?*"), (.commandLine, " "), (.commandLine, "a"), (.comm, "")] {
            let out = add(kind, pattern, "Everything")
            XCTAssertEqual(out.status, 1, "\(kind) '\(pattern)'")
            XCTAssertEqual(out.stderr.count, 1)
        }
        XCTAssertEqual(try rules(), before)
    }

    func testRemoveTakesAwayTheUsersRuleAndSaysSoWhenThereIsNone() throws {
        XCTAssertEqual(add(.glob, "kworker/*", "Kernel worker").status, 0)
        XCTAssertEqual(BookmarkCommands.remove(directory: data, kind: .glob, pattern: "kworker/*", strip: .none).status, 0)
        XCTAssertTrue(try rules(nil, .user).isEmpty)
        let again = BookmarkCommands.remove(directory: data, kind: .glob, pattern: "kworker/*", strip: .none)
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.stderr.first?.contains("no bookmark of yours or imported one") ?? false, "\(again.stderr)")
    }

    func testWithoutADatabaseTheBuiltInRulesAreListed() throws {
        let listed = try rules()
        XCTAssertFalse(listed.isEmpty)
        XCTAssertTrue(listed.allSatisfy { $0.source == .builtin })
        XCTAssertFalse(FileManager.default.fileExists(atPath: HistoryDatabase.databasePath(in: data)), "list creates nothing")
    }

    // MARK: export, import

    func testExportThenImportIntoAnotherDatabaseGivesEqualRules() throws {
        XCTAssertEqual(add(.truncated, "gnome-control-center", "Settings!").status, 0)
        XCTAssertEqual(add(.comm, "Web Content", "", strip: .after(UInt8(ascii: "~"))).status, 0)
        XCTAssertEqual(add(.executable, "python3", "Python", strip: .version).status, 0)
        XCTAssertEqual(add(.commandLine, "--type=renderer", "Chrome tab").status, 0)
        let exported = temporary.file("mine.sysstats-bookmarks")
        XCTAssertEqual(BookmarkCommands.export(directory: data, to: exported, all: false, force: false).status, 0)

        let other = temporary.file("other")
        let imported = BookmarkCommands.importFile(directory: other, file: exported)
        XCTAssertEqual(imported.status, 0, "\(imported.stderr)")
        XCTAssertEqual(imported.stdout.first, "\(exported): adds 4, changes 0, skips 0")
        func comparable(_ r: [BookmarkRule]) -> [RuleKey: [UInt8]] {
            Dictionary(uniqueKeysWithValues: r.map { ($0.key, $0.friendlyName) })
        }
        XCTAssertEqual(comparable(try rules(other, .imported)), comparable(try rules(nil, .user)))
    }

    func testExportRefusesToOverwriteWithoutForceAndAllAddsTheBuiltIns() throws {
        XCTAssertEqual(add(.comm, "foo", "Foo").status, 0)
        let path = try file("taken.sysstats-bookmarks", "keep me")
        XCTAssertEqual(BookmarkCommands.export(directory: data, to: path, all: false, force: false).status, 1)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "keep me")
        XCTAssertEqual(BookmarkCommands.export(directory: data, to: path, all: true, force: true).status, 0)
        let parsed = try BookmarkFile.parse([UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
        XCTAssertEqual(parsed.rules.count, try rules().count)
    }

    func testImportingTheSameFileTwiceChangesNothingTheSecondTime() throws {
        let path = try file("shared.sysstats-bookmarks", Self.header + "exe\tfoo\tFoo\ncomm\tbar\tBar\n")
        XCTAssertEqual(BookmarkCommands.importFile(directory: data, file: path).stdout.first, "\(path): adds 2, changes 0, skips 0")
        let after = try rules()
        XCTAssertEqual(BookmarkCommands.importFile(directory: data, file: path).stdout.first, "\(path): adds 0, changes 0, skips 2")
        XCTAssertEqual(try rules(), after)
        let renamed = try file("renamed.sysstats-bookmarks", Self.header + "exe\tfoo\tFoo 2\ncomm\tbaz\tBaz\n")
        XCTAssertEqual(BookmarkCommands.importFile(directory: data, file: renamed).stdout.first,
                       "\(renamed): adds 1, changes 1, skips 0")
    }

    func testEachBadFileIsRefusedWithOneLineAndTheBookmarksUnchanged() throws {
        XCTAssertEqual(add(.comm, "keep", "Kept").status, 0)
        let good = try file("good.sysstats-bookmarks", Self.header + "comm\tother\tOther\n")
        XCTAssertEqual(BookmarkCommands.importFile(directory: data, file: good).status, 0)
        let before = try rules()
        let cacheBefore = try Data(contentsOf: URL(fileURLWithPath: BookmarkCommands.rulesCachePath(in: data)))
        let huge = Self.header + String(repeating: "# a comment line to make the file large\n", count: 8000)
        let bad: [(String, String, String)] = [
            ("too-large", huge, "too large"),
            ("not-the-format", "just some text\ncomm\tx\ty\n", "not a sysstats bookmarks file"),
            ("empty", "", "not a sysstats bookmarks file"),
            ("newer", "sysstats-bookmarks 2\ncomm\tx\ty\n", "newer"),
            ("everything-glob", Self.header + "comm\tfine\tFine\nglob\t*\tEverything\n", ":3:"),
            ("everything-cmdline", Self.header + "cmdline\t \tSpace\n", ":2:"),
            ("binary", "sysstats-bookmarks 1\n\u{0}\u{1}\u{2}\u{ff}", "binary:2:"),
        ]
        for (name, text, expected) in bad {
            let path = try file(name, text)
            let out = BookmarkCommands.importFile(directory: data, file: path)
            XCTAssertEqual(out.status, 1, name)
            XCTAssertEqual(out.stderr.count, 1, name)
            XCTAssertTrue(out.stderr.first?.contains(expected) ?? false, "\(name): \(out.stderr)")
            XCTAssertEqual(try rules(), before, name)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: BookmarkCommands.rulesCachePath(in: data))), cacheBefore)
    }

    func testAHugeFileIsRefusedAsTooLargeWithoutReadingItWhole() throws {
        // A sparse 1 TiB file: reading it whole would never end; at most 256 KiB + 1 are read.
        // (A FIFO, which could feed bytes forever, is refused before any read: HostileFileTests.)
        let huge = temporary.file("huge.sysstats-bookmarks")
        XCTAssertTrue(FileManager.default.createFile(atPath: huge, contents: Data(Self.header.utf8)))
        XCTAssertEqual(truncate(huge, 1 << 40), 0)
        let out = BookmarkCommands.importFile(directory: data, file: huge)
        XCTAssertEqual(out.status, 1)
        XCTAssertTrue(out.stderr.first?.contains("too large") ?? false, "\(out.stderr)")
    }

    func testHostileNamesAreImportedSanitizedAndCounted() throws {
        let long = String(repeating: "é", count: 40)   // 80 bytes
        let path = try file("hostile.sysstats-bookmarks",
                            Self.header + "comm\ta\tbad\\x1bname\ncomm\tb\t<b>markup</b>\ncomm\tc\t\(long)\n")
        let out = BookmarkCommands.importFile(directory: data, file: path)
        XCTAssertEqual(out.status, 0, "\(out.stderr)")
        XCTAssertEqual(out.stdout.first, "\(path): adds 3, changes 0, skips 0, 2 names sanitized")
        let names = try rules(nil, .imported).map { String(decoding: $0.friendlyName, as: UTF8.self) }
        XCTAssertFalse(names.contains { $0.unicodeScalars.contains { $0.value < 0x20 } }, "\(names)")
        XCTAssertTrue(names.contains("<b>markup</b>"), "markup is kept as text")
        XCTAssertTrue(names.allSatisfy { $0.utf8.count <= BookmarkFile.maximumNameLength }, "\(names)")
    }

    // MARK: inbox

    func testInboxCopiesIntoAPrivateFolderAndAClashGetsANumber() throws {
        let path = try file("friends.sysstats-bookmarks", Self.header + "exe\tfoo\tFoo\n")
        let first = try BookmarkCommands.copyToInbox(directory: data, file: path).get()
        let second = try BookmarkCommands.copyToInbox(directory: data, file: path).get()
        XCTAssertEqual(first, data + "/Inbox/friends.sysstats-bookmarks")
        XCTAssertEqual(second, data + "/Inbox/friends-1.sysstats-bookmarks")
        var info = stat()
        XCTAssertEqual(stat(data + "/Inbox", &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: second)), try Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertEqual(BookmarkCommands.importFile(directory: data, file: second).status, 0)
    }

    func testInboxKeepsThePlannedBytesNotWhatTheFileHoldsLater() throws {
        let path = try file("friends.sysstats-bookmarks", Self.header + "exe\tfoo\tFoo\n")
        let plan = try BookmarkCommands.planImport(directory: data, file: path).get()
        XCTAssertNil(try? FileManager.default.contentsOfDirectory(atPath: data + "/Inbox"), "planning copies nothing")
        _ = try file("friends.sysstats-bookmarks", Self.header + "exe\tbar\tSwapped\n")
        let copy = try BookmarkCommands.keepInInbox(directory: data, plan: plan).get()
        XCTAssertEqual(copy, data + "/Inbox/friends.sysstats-bookmarks")
        XCTAssertEqual(try String(contentsOfFile: copy, encoding: .utf8), Self.header + "exe\tfoo\tFoo\n")
    }

    func testInboxRefusesATooLargeFileWithoutCopyingIt() throws {
        let path = try file("big.sysstats-bookmarks", Self.header + String(repeating: "#\n", count: 140_000))
        guard case .failure(let problem) = BookmarkCommands.copyToInbox(directory: data, file: path) else {
            return XCTFail("copied a file that is too large")
        }
        XCTAssertTrue(problem.message.contains("too large"), problem.message)
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: data + "/Inbox")) ?? [], [])
    }

    // MARK: suggest, quoting

    func testSuggestListsUnbookmarkedProcessesWithACommandToAddEach() throws {
        let procRoot = Fixtures.path("sampler-bookmarks/1/proc")
        let out = BookmarkCommands.suggest(directory: data, procRoot: procRoot, count: 5, intervalMs: 0)
        XCTAssertEqual(out.status, 0)
        let text = out.stdout.joined(separator: "\n")
        XCTAssertTrue(text.contains("sysstats bookmarks add --exe webcontent --name webcontent"), text)
        // gnome-control-c has a built-in rule: not suggested.
        XCTAssertFalse(text.contains("gnome-control-c"), text)
    }

    func testSuggestGroupsProcessesTheSameRuleWouldNameAndAddsUpTheirMemory() throws {
        // Three copies of the webcontent process (pids 501, 601, 602): one suggestion.
        let temporary = try TemporaryDirectory()
        let proc = temporary.file("proc")
        try FileManager.default.copyItem(atPath: Fixtures.path("sampler-bookmarks/1/proc"), toPath: proc)
        for pid in ["601", "602"] {
            try FileManager.default.copyItem(atPath: proc + "/501", toPath: proc + "/" + pid)
        }
        let out = BookmarkCommands.suggest(directory: data, procRoot: proc, count: 5, intervalMs: 0)
        XCTAssertEqual(out.status, 0)
        let lines = out.stdout.filter { $0.contains("sysstats bookmarks add --exe webcontent") }
        XCTAssertEqual(lines.count, 1, out.stdout.joined(separator: "\n"))
        let summary = try XCTUnwrap(out.stdout.first { $0.contains("3 processes") }, out.stdout.joined(separator: "\n"))
        let single = BookmarkCommands.suggest(directory: data, procRoot: Fixtures.path("sampler-bookmarks/1/proc"),
                                              count: 5, intervalMs: 0)
        let one = try XCTUnwrap(single.stdout.first { $0.contains("pid 501") }, single.stdout.joined(separator: "\n"))
        func mib(_ line: String) -> Double? {
            line.split(separator: " ").firstIndex(of: "MiB").flatMap { i in Double(line.split(separator: " ")[i - 1]) }
        }
        let total = try XCTUnwrap(mib(summary)), each = try XCTUnwrap(mib(one))
        XCTAssertEqual(total, each * 3, accuracy: 0.11, "\(summary) vs \(one)")
    }

    func testShellQuotingKeepsPlainNamesQuotesTheRestAndWritesControlsAndBidiAsDollarQuotes() {
        XCTAssertEqual(ShellQuote.quote(Array("firefox-esr".utf8)), "firefox-esr")
        XCTAssertEqual(ShellQuote.quote(Array("Web Content".utf8)), "'Web Content'")
        XCTAssertEqual(ShellQuote.quote(Array("it's".utf8)), #"'it'\''s'"#)
        XCTAssertEqual(ShellQuote.quote(Array("日本 é".utf8)), "'日本 é'", "visible characters stay as they are")
        XCTAssertEqual(ShellQuote.quote([0x61, 0x0A]), #"$'a\x0a'"#)
        XCTAssertEqual(ShellQuote.quote(Array("a\u{9B}2J b\u{202E}c'd\\".utf8)), #"$'a\xc2\x9b2J b\xe2\x80\xaec\'d\\'"#)
        XCTAssertNil(ShellQuote.quote([0xFF]), "invalid UTF-8 cannot come back through an argument")
    }

    func testSuggestPrintsNoControlOrBidiCharacterOfAHostileProcessName() throws {
        let temporary = try TemporaryDirectory()
        let proc = temporary.file("proc")
        try FileManager.default.copyItem(atPath: Fixtures.path("sampler-bookmarks/1/proc"), toPath: proc)
        let hostile = "we\u{9B}2J\u{202E}tnetnoc"
        try FileManager.default.removeItem(atPath: proc + "/501/exe")
        try FileManager.default.createSymbolicLink(atPath: proc + "/501/exe", withDestinationPath: "/opt/web/" + hostile)
        let out = BookmarkCommands.suggest(directory: data, procRoot: proc, count: 5, intervalMs: 0)
        XCTAssertEqual(out.status, 0)
        let text = out.stdout.joined(separator: "\n")
        for scalar in text.unicodeScalars {
            XCTAssertFalse((0x80...0x9F).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
                           || scalar.value < 0x0A || (0x0B..<0x20).contains(scalar.value), "U+\(String(scalar.value, radix: 16)) in \(text)")
        }
        XCTAssertTrue(text.contains(#"sysstats bookmarks add --exe $'we\xc2\x9b2J\xe2\x80\xaetnetnoc' --name $'we"#), text)
    }

    func testFileNamesWithEscapesArePrintedEscapedByImportAndExport() throws {
        let path = try file("a\u{1B}[2Jb\u{202E}.sysstats-bookmarks", Self.header + "comm\ta\tA\n")
        let shown = TerminalText.escape(path)
        XCTAssertFalse(shown.contains("\u{1B}") || shown.contains("\u{202E}"))
        let imported = BookmarkCommands.importFile(directory: data, file: path)
        XCTAssertEqual(imported.stdout.first, "\(shown): adds 1, changes 0, skips 0")
        XCTAssertEqual(imported.stdout.last, "imported \(shown): added 1, changed 0, skipped 0")
        let bad = try file("bad\u{1B}]0;title\u{7}.sysstats-bookmarks", "not bookmarks\n")
        let refused = BookmarkCommands.importFile(directory: data, file: bad)
        XCTAssertEqual(refused.status, 1)
        let missing = BookmarkCommands.importFile(directory: data, file: temporary.file("gone\u{1B}[31m"))
        let exported = BookmarkCommands.export(directory: data, to: temporary.file("out\u{9B}31m"), all: false, force: false)
        let existing = BookmarkCommands.export(directory: data, to: path, all: false, force: false)
        let lines = refused.stderr + missing.stderr + exported.stdout + existing.stderr
        XCTAssertEqual(lines.count, 4, "\(lines)")
        for line in lines {
            XCTAssertFalse(line.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B || $0.value == 0x202E }, line)
        }
        XCTAssertTrue(refused.stderr[0].contains(#"bad\x1b]0;title\x07"#), refused.stderr[0])
        XCTAssertTrue(exported.stdout[0].contains(#"out\u{9b}31m"#), exported.stdout[0])
    }
}

/// `sysstats top` on a fixture tree: friendly names from the database, else the built-in ones.
final class TopTests: XCTestCase {
    let procRoot = Fixtures.path("sampler-bookmarks/1/proc")

    func testTopShowsTheBuiltInFriendlyNameOfATruncatedCommWithoutADatabase() throws {
        let temporary = try TemporaryDirectory()
        let out = Top.run(procRoot: procRoot, directory: temporary.file("none"), count: 10, sort: .memory,
                          intervalMs: 0, json: false)
        XCTAssertEqual(out.status, 0)
        XCTAssertEqual(out.stdout.count, 4)
        guard out.stdout.count == 4 else { return }
        XCTAssertTrue(out.stdout[0].contains("PID") && out.stdout[0].contains("NAME"))
        XCTAssertTrue(out.stdout[1].contains("500") && out.stdout[1].contains("Settings"), out.stdout[1])
    }

    func testTopUsesTheUsersRuleFromTheDatabaseAndPrintsJSON() throws {
        let temporary = try TemporaryDirectory()
        let data = temporary.file("data")
        XCTAssertEqual(BookmarkCommands.add(directory: data, kind: .truncated, pattern: "gnome-control-center",
                                            name: "Control\u{1b}Panel", strip: .none).status, 0)
        let out = Top.run(procRoot: procRoot, directory: data, count: 1, sort: .memory, intervalMs: 0, json: true)
        let json = out.stdout.joined()
        XCTAssertTrue(json.contains(#""bookmarked":true"#), json)
        XCTAssertTrue(json.contains(#""name":"Control?Panel""#), json)
        XCTAssertTrue(json.contains(#""process_name":"gnome-control-c""#), json)
    }

    /// Issue 58: the column was `MEM MiB` and held private memory, so Xvfb's 23.1 read as a
    /// wrong RSS beside ps's 74 MiB: it is `PRIV MiB`, and the resident set has its own column.
    func testTopNamesPrivateMemoryPrivAndShowsTheResidentSetAsRSS() {
        let rows = [
            Top.Row(pid: 812, comm: [], executable: [], commandLine: [], name: Array("Xvfb".utf8), friendlyName: nil,
                    isKernelThread: false, cpuPermyriad: 150, privateKiB: 23_654, residentKiB: 75_776),
            Top.Row(pid: 4, comm: [], executable: [], commandLine: [], name: Array("kworker/0:0".utf8), friendlyName: nil,
                    isKernelThread: true, cpuPermyriad: 0, privateKiB: 0),
        ]
        XCTAssertEqual(Top.lines(rows), [
            "     PID  NAME                          CPU %  PRIV MiB   RSS MiB",
            "     812  Xvfb                            1.5      23.1      74.0",
            "       4  kworker/0:0                     0.0       0.0       0.0",
        ])
    }

    /// RSS is the scan's resident pages (stat's rss, statm's resident), private memory statm's
    /// resident less shared; `--sort memory` orders by private memory; `--json` has both.
    func testTopReadsEachProcesssResidentSetBesideItsPrivateMemory() throws {
        let temporary = try TemporaryDirectory()
        let out = Top.run(procRoot: procRoot, directory: temporary.file("none"), count: 10, sort: .memory,
                          intervalMs: 0, json: true)
        XCTAssertEqual(out.status, 0)
        let items = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(out.stdout.joined().utf8)) as? [[String: Any]])
        let pageBytes = UInt64(max(sysconf(Int32(_SC_PAGESIZE)), 0))
        let pageKiB: UInt64 = pageBytes >= 1024 ? pageBytes / 1024 : 4
        func mib(_ pages: UInt64) -> Double { (Double(pages * pageKiB) / 1024 * 10).rounded() / 10 }
        XCTAssertEqual(items.map { $0["pid"] as? Int }, [500, 501, 1], "by private memory")
        let settings = try XCTUnwrap(items.first)
        XCTAssertEqual(settings["private_mib"] as? Double, mib(210_000 - 10_000), "statm's resident less shared")
        XCTAssertEqual(settings["rss_mib"] as? Double, mib(210_000), "the resident pages, as ps's RSS")
        let systemd = try XCTUnwrap(items.last)
        XCTAssertEqual(systemd["private_mib"] as? Double, mib(3000 - 2000))
        XCTAssertEqual(systemd["rss_mib"] as? Double, mib(3000))
    }

    func testSortingByCPUThenMemoryThenPid() {
        func row(_ pid: Int32, _ cpu: UInt64, _ mem: UInt64) -> Top.Row {
            Top.Row(pid: pid, comm: [], executable: [], commandLine: [], name: [], friendlyName: nil,
                    isKernelThread: false, cpuPermyriad: cpu, privateKiB: mem)
        }
        let rows = [row(3, 0, 10), row(1, 500, 1), row(2, 0, 10), row(4, 0, 99)]
        XCTAssertEqual(Top.sorted(rows, by: .cpu).map(\.pid), [1, 4, 2, 3])
        XCTAssertEqual(Top.sorted(rows, by: .memory).map(\.pid), [4, 2, 3, 1])
    }
}
