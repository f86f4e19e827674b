import AllocationCounter
@testable import Bookmarks
import XCTest

final class MatchingTests: XCTestCase {
    // MARK: - Each kind of match

    func testCommMatchesOnlyTheExactName() {
        let resolver = NameResolver(rules: [rule(.comm, "Xorg", "X server")])
        XCTAssertEqual(resolver.name(comm: "Xorg"), "X server")
        XCTAssertNil(resolver.name(comm: "Xorg2"))
        XCTAssertNil(resolver.name(comm: "xorg"))
        XCTAssertNil(resolver.name(comm: "Xor"))
        XCTAssertNil(resolver.name(comm: "other", exe: "Xorg"), "comm rules do not look at the executable")
    }

    func testExecutableMatchesTheBasenameOfAPathAndIgnoresADeletedMark() {
        let resolver = NameResolver(rules: [rule(.executable, "firefox", "Firefox")])
        XCTAssertEqual(resolver.name(comm: "GeckoMain", exe: "firefox"), "Firefox")
        XCTAssertEqual(resolver.name(comm: "x", exe: "/usr/lib/firefox/firefox"), "Firefox")
        XCTAssertEqual(resolver.name(comm: "x", exe: "/usr/lib/firefox/firefox (deleted)"), "Firefox")
        XCTAssertNil(resolver.name(comm: "firefox", exe: ""), "no executable, no match")
        XCTAssertNil(resolver.name(comm: "x", exe: "/usr/lib/firefox/firefox-bin"))
        XCTAssertNil(resolver.name(comm: "x", exe: "/usr/bin/firefox/"), "a trailing slash leaves an empty basename")
    }

    func testGlobMatchesCommAndFailingThatTheExecutable() {
        let resolver = NameResolver(rules: [rule(.glob, "kworker/*", "kernel worker"), rule(.glob, "gsd-*", "")])
        XCTAssertEqual(resolver.name(comm: "kworker/3:1-events"), "kernel worker")
        XCTAssertEqual(resolver.name(comm: "kworker/"), "kernel worker")
        XCTAssertNil(resolver.name(comm: "kworker"))
        XCTAssertEqual(resolver.name(comm: "gsd-power"), "gsd-power", "an empty friendly name shows the matched name")
        XCTAssertEqual(resolver.name(comm: "weird", exe: "/usr/libexec/gsd-color"), "gsd-color")
    }

    func testCommandLineMatchesASubstringAnywhere() {
        let resolver = NameResolver(rules: [rule(.commandLine, "--type=renderer", "web renderer")])
        XCTAssertEqual(resolver.name(comm: "chrome", cmdline: "/opt/chrome/chrome --type=renderer --lang=en"), "web renderer")
        XCTAssertEqual(resolver.name(comm: "chrome", cmdline: "--type=renderer"), "web renderer")
        XCTAssertNil(resolver.name(comm: "chrome", cmdline: "/opt/chrome/chrome --type=render"))
        XCTAssertNil(resolver.name(comm: "kthreadd", cmdline: ""), "kernel threads have no command line")
    }

    func testCommandLineRuleWithoutFriendlyNameShowsTheStrippedComm() {
        let resolver = NameResolver(rules: [rule(.commandLine, "serve.py", "", strip: .after(UInt8(ascii: "~")))])
        XCTAssertEqual(resolver.name(comm: "python3~x", cmdline: "python3 serve.py"), "python3")
    }

    func testARuleThatWouldShowAnEmptyNameLetsTheNextRuleTry() {
        let resolver = NameResolver(rules: [rule(.commandLine, "--daemon", ""), rule(.commandLine, "--da", "Daemon")])
        XCTAssertEqual(resolver.name(comm: "", cmdline: "x --daemon"), "Daemon")
        XCTAssertEqual(resolver.name(comm: "svc", cmdline: "x --daemon"), "svc")
    }

    // MARK: - 15-byte truncation

    func testTruncatedMatchesACommOfExactly15BytesThatIsThePatternsPrefix() {
        let resolver = NameResolver(rules: [rule(.truncated, "gnome-control-center", "")])
        XCTAssertEqual(Array("gnome-control-c".utf8).count, NameResolver.commLength)
        XCTAssertEqual(resolver.name(comm: "gnome-control-c"), "gnome-control-center",
                       "an empty friendly name shows the full name, not the kernel's cut")
        XCTAssertEqual(resolver.name(comm: "gnome-control-center"), "gnome-control-center", "the full name matches too")
    }

    func testTruncatedDoesNotTreatAShorterCommAsTruncated() {
        let resolver = NameResolver(rules: [rule(.truncated, "gnome-control-center", "Settings")])
        XCTAssertNil(resolver.name(comm: "gnome-control-"), "14 bytes: the kernel did not cut this name")
        XCTAssertNil(resolver.name(comm: "gnome"))
        XCTAssertNil(resolver.name(comm: "gnome-control-x"), "15 bytes but not the prefix")
    }

    func testTruncatedWithAPatternOf15BytesOrLessIsAnExactMatch() {
        let fifteen = NameResolver(rules: [rule(.truncated, "systemd-userdbd", "user database")])
        XCTAssertEqual(fifteen.name(comm: "systemd-userdbd"), "user database")
        XCTAssertNil(fifteen.name(comm: "systemd-userdb"))
        let short = NameResolver(rules: [rule(.truncated, "sshd", "SSH server")])
        XCTAssertEqual(short.name(comm: "sshd"), "SSH server")
        XCTAssertNil(short.name(comm: "sshd-session"))
    }

    func testTruncatedComparesBytesEvenWhenTheCutSplitsACharacter() {
        // "Präferenzen-Dienst": the kernel cut falls inside "ä"? No: keep it general, cut a 2-byte char in half.
        let full: [UInt8] = Array("abcdefghijklmn".utf8) + [0xC3, 0xA4] + Array("xyz".utf8)   // 14 ASCII, "ä", 3 ASCII
        let comm = Array(full[0..<15])   // ends with the lone lead byte 0xC3
        let resolver = NameResolver(rules: [BookmarkRule(kind: .truncated, pattern: full, friendlyName: b("Umlaut"))])
        XCTAssertEqual(resolver.resolve(comm: comm, executable: [], commandLine: []), b("Umlaut"))
    }

    // MARK: - Suffix stripping

    func testStripAfterAByteCutsFromItsFirstOccurrence() {
        let strip = SuffixStrip.after(UInt8(ascii: "~"))
        XCTAssertEqual(strip.strip(b("Web Content~2")), b("Web Content"))
        XCTAssertEqual(strip.strip(b("a~b~c")), b("a"))
        XCTAssertEqual(strip.strip(b("plain")), b("plain"), "nothing to strip")
        XCTAssertEqual(strip.strip(b("~leading")), b("~leading"), "a strip that would leave nothing keeps the name")
        let resolver = NameResolver(rules: [rule(.comm, "Web Content", "Firefox content", strip: strip)])
        XCTAssertEqual(resolver.name(comm: "Web Content~12"), "Firefox content")
        XCTAssertEqual(resolver.name(comm: "Web Content"), "Firefox content")
        XCTAssertNil(resolver.name(comm: "Web Contents~1"))
    }

    func testStripVersionForms() {
        let cases: [(String, String)] = [
            ("firefox-128.0.2", "firefox"), ("gimp-2.10", "gimp"), ("foo_3", "foo"), ("foo 2.1", "foo"),
            ("foo.1.2", "foo"), ("python3.11", "python3"), ("perl5.36.0", "perl5"),
            ("python3", "python3"), ("kwin_x11", "kwin_x11"), ("x11", "x11"), ("emacs", "emacs"),
            ("2.0", "2.0"), ("foo-", "foo-"), ("foo-.", "foo-."), ("", ""),
        ]
        for (name, expected) in cases {
            XCTAssertEqual(text(SuffixStrip.version.strip(b(name))), expected, name)
        }
        let resolver = NameResolver(rules: [rule(.executable, "emacs", "", strip: .version)])
        XCTAssertEqual(resolver.name(comm: "emacs-29.1", exe: "/usr/bin/emacs-29.1"), "emacs")
        XCTAssertEqual(resolver.name(comm: "emacs", exe: "/usr/bin/emacs"), "emacs")
    }

    func testStripAppliesBeforeComparingForGlobs() {
        let resolver = NameResolver(rules: [rule(.glob, "tracker-miner-*", "indexer", strip: .version)])
        XCTAssertEqual(resolver.name(comm: "tracker-miner-fs-3"), "indexer")
        let exact = NameResolver(rules: [rule(.glob, "app-[0-9]", "app", strip: .version)])
        XCTAssertNil(exact.name(comm: "app-2"), "the version was stripped before the glob saw it")
    }

    // MARK: - Precedence

    func testUserRulesWinOverImportedOverBuiltinWhateverTheInputOrder() {
        let rules = [
            rule(.comm, "code", "builtin name", source: .builtin),
            rule(.comm, "code", "imported name", source: .imported),
            rule(.comm, "code", "user name", source: .user),
        ]
        XCTAssertEqual(NameResolver(rules: rules).name(comm: "code"), "user name")
        XCTAssertEqual(NameResolver(rules: Array(rules.reversed())).name(comm: "code"), "user name")
        XCTAssertEqual(NameResolver(rules: Array(rules.prefix(2))).name(comm: "code"), "imported name")
        XCTAssertEqual(NameResolver(rules: [rules[0]]).name(comm: "code"), "builtin name")
        XCTAssertEqual(NameResolver(rules: rules).rules.map(\.source), [.user, .imported, .builtin])
    }

    func testWithinASourceTheEarlierRuleWins() {
        let resolver = NameResolver(rules: [
            rule(.comm, "x", "builtin", source: .builtin),
            rule(.glob, "ab*", "first"),
            rule(.comm, "abc", "second"),
            rule(.glob, "a*", "third", source: .imported),
        ])
        XCTAssertEqual(resolver.name(comm: "abc"), "first")
        XCTAssertEqual(resolver.name(comm: "axe"), "third")
    }

    func testResolveRuleNamesTheMatchingRuleInPrecedenceOrderAndWhetherItsNameIsFixed() {
        let resolver = NameResolver(rules: [
            rule(.glob, "kworker/*", "Kernel worker", source: .builtin),
            rule(.glob, "python*", "", strip: .version),
            rule(.comm, "code", "VS Code", source: .imported),
        ])
        func match(_ comm: String) -> (index: Int, fixedName: Bool, name: String)? {
            var out: [UInt8] = []
            let found = b(comm).withUnsafeBytes { c in
                resolver.resolveRule(comm: c, executable: UnsafeRawBufferPointer(start: nil, count: 0),
                                     commandLine: UnsafeRawBufferPointer(start: nil, count: 0), into: &out)
            }
            return found.map { ($0.index, $0.fixedName, text(out)) }
        }
        XCTAssertEqual(resolver.ruleCount, 3)
        let python = match("python3.11"), code = match("code"), worker = match("kworker/0:1")
        XCTAssertEqual(python?.index, 0); XCTAssertEqual(python?.fixedName, false); XCTAssertEqual(python?.name, "python3")
        XCTAssertEqual(code?.index, 1); XCTAssertEqual(code?.fixedName, true); XCTAssertEqual(code?.name, "VS Code")
        XCTAssertEqual(worker?.index, 2); XCTAssertEqual(worker?.fixedName, true)
        XCTAssertEqual(resolver.rules[2].friendlyName, b("Kernel worker"), "indices are positions in rules")
        XCTAssertNil(match("bash"))
    }

    func testRulesComeBackWhole() {
        let rules = [rule(.comm, "a", "A", strip: .after(0x7E), source: .imported),
                     rule(.executable, "b\u{FF}", "", strip: .version, source: .builtin),
                     rule(.commandLine, "--x", "X")]
        XCTAssertEqual(NameResolver(rules: rules).rules, [rules[2], rules[0], rules[1]])
    }

    func testAnUnknownProcessResolvesToNothingAndLeavesTheBufferEmpty() {
        let resolver = NameResolver(rules: [rule(.comm, "a", "A")])
        var out = b("left over")
        let found = b("zzz").withUnsafeBytes { c in
            resolver.resolve(comm: c, executable: UnsafeRawBufferPointer(start: nil, count: 0),
                             commandLine: UnsafeRawBufferPointer(start: nil, count: 0), into: &out)
        }
        XCTAssertFalse(found)
        XCTAssertEqual(out, [])
    }

    // MARK: - Hostile bytes

    func testInvalidUTF8AndControlBytesInCommAreMatchedAsBytes() {
        let hostile: [UInt8] = [0xFF, 0xFE, 0x1B, 0x5B, 0x00, 0x0A]
        let resolver = NameResolver(rules: [
            BookmarkRule(kind: .comm, pattern: hostile, friendlyName: b("odd")),
            rule(.glob, "?\u{FF}*", "never"),
        ])
        XCTAssertEqual(resolver.resolve(comm: hostile, executable: hostile, commandLine: hostile), b("odd"))
        XCTAssertNil(resolver.resolve(comm: [0xC3], executable: [0xFF], commandLine: [0xE2, 0x82]))
        XCTAssertNil(NameResolver.builtin.resolve(comm: hostile, executable: hostile, commandLine: hostile))
    }

    // MARK: - Built-in defaults

    func testBuiltinDefaultsNameCommonDesktopProcesses() {
        let resolver = NameResolver.builtin
        XCTAssertGreaterThanOrEqual(resolver.rules.count, 80)
        XCTAssertTrue(resolver.rules.allSatisfy { $0.source == .builtin })
        XCTAssertEqual(resolver.name(comm: "Isolated Web Co", exe: "firefox"), "Firefox tab")
        XCTAssertEqual(resolver.name(comm: "firefox", exe: "/usr/lib/firefox/firefox"), "Firefox")
        XCTAssertEqual(resolver.name(comm: "chrome", exe: "chrome", cmdline: "/opt/google/chrome/chrome --type=renderer --x"), "Chrome tab")
        XCTAssertEqual(resolver.name(comm: "code", exe: "code", cmdline: "/usr/share/code/code --type=renderer"), "VS Code")
        XCTAssertEqual(resolver.name(comm: "slack", exe: "slack", cmdline: "/usr/lib/slack/slack --type=renderer"), "web renderer")
        XCTAssertEqual(resolver.name(comm: "kworker/0:1H"), "kernel worker")
        XCTAssertEqual(resolver.name(comm: "gnome-control-c"), "Settings")
        XCTAssertEqual(resolver.name(comm: "systemd-journal"), "journal")
        XCTAssertEqual(resolver.name(comm: "pipewire-pulse"), "PipeWire (PulseAudio)")
        XCTAssertEqual(resolver.name(comm: "xdg-desktop-por", exe: "xdg-desktop-portal-gnome"), "desktop portal (GNOME)")
        XCTAssertEqual(resolver.name(comm: "xdg-desktop-por", exe: ""), "desktop portal")
        XCTAssertNil(resolver.name(comm: "bash", exe: "bash", cmdline: "bash"))
    }

    // MARK: - Cost

    private func copyBytes(_ bytes: [UInt8]) -> UnsafeMutableRawBufferPointer {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        buffer.copyBytes(from: bytes)
        return buffer
    }

    func testResolvingAllocatesNothingOnceTheOutputHasCapacity() {
        let resolver = NameResolver(rules: BuiltinBookmarks.rules + [
            rule(.comm, "mine", "Mine", strip: .version), rule(.glob, "a[b-d]*", "glob", source: .imported),
            rule(.truncated, "a-very-long-program-name", "", source: .imported),
        ])
        let inputs: [([UInt8], [UInt8], [UInt8])] = [
            (b("mine-1.2"), b("mine"), b("mine --x")), (b("Isolated Web Co"), b("firefox"), b("")),
            (b("a-very-long-pro"), b(""), b("")), (b("acx"), b(""), b("")), (b("nothing"), b("nothing"), b("nothing at all")),
            (b("chrome"), b("/opt/chrome/chrome (deleted)"), b("/opt/google/chrome/chrome --type=utility")),
        ]
        // Raw views made up front: iterating an array of tuples of arrays allocates in debug builds.
        let views = inputs.map { (comm, exe, line) in
            (UnsafeRawBufferPointer(copyBytes(comm)), UnsafeRawBufferPointer(copyBytes(exe)), UnsafeRawBufferPointer(copyBytes(line)))
        }
        defer { for (c, e, l) in views { c.deallocate(); e.deallocate(); l.deallocate() } }
        var out: [UInt8] = []
        out.reserveCapacity(64)
        // Warm up: the first resolution pays the runtime's one-time metadata (which an earlier
        // test in the same process may or may not have paid: alone, this test counted 1).
        for view in views { _ = resolver.resolve(comm: view.0, executable: view.1, commandLine: view.2, into: &out) }
        var found = 0
        allocation_counter_start()
        for _ in 0..<100 {
            var i = 0
            while i < views.count {
                if resolver.resolve(comm: views[i].0, executable: views[i].1, commandLine: views[i].2, into: &out) { found += 1 }
                i += 1
            }
        }
        let allocations = allocation_counter_stop()
        XCTAssertEqual(allocations, 0, "600 resolutions allocated \(allocations) times")
        XCTAssertEqual(found, 500)
    }
}
