@testable import Bookmarks
import Foundation
import TestSupport
import XCTest

final class BookmarkFileTests: XCTestCase {
    private let header = "sysstats-bookmarks 1\n"

    private func parse(_ text: String) throws(BookmarkFileError) -> BookmarkFile { try BookmarkFile.parse(b(text)) }

    private func refusal(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> BookmarkFileError? {
        do {
            let parsed = try BookmarkFile.parse(bytes)
            XCTFail("accepted: \(parsed.rules.count) rules", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }
    private func refusal(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> BookmarkFileError? {
        refusal(b(text), file: file, line: line)
    }

    // MARK: - What parses

    func testAFileWithCommentsBlankLinesOptionsAndEscapes() throws {
        let file = try parse(header + """
            # a comment

            comm\tXorg\tX server
            truncated\tgnome-control-center\tSettings
            exe\temacs\tEmacs\tstrip=version
            glob\tkworker/*\tkernel worker
            cmdline\t--type=renderer\t
            comm\tWeb Content\tFirefox content\tstrip=after:~
            comm\ta\\tb\\\\c\\x01\\xff\ttab name\tstrip=after:\\t\tsource=user
            \t  \t
            """)
        XCTAssertEqual(file.rules, [
            rule(.comm, "Xorg", "X server", source: .imported),
            rule(.truncated, "gnome-control-center", "Settings", source: .imported),
            rule(.executable, "emacs", "Emacs", strip: .version, source: .imported),
            rule(.glob, "kworker/*", "kernel worker", source: .imported),
            rule(.commandLine, "--type=renderer", "", source: .imported),
            rule(.comm, "Web Content", "Firefox content", strip: .after(UInt8(ascii: "~")), source: .imported),
            BookmarkRule(kind: .comm, pattern: [0x61, 0x09, 0x62, 0x5C, 0x63, 0x01, 0xFF], friendlyName: b("tab name"),
                         strip: .after(0x09), source: .user),
        ])
        XCTAssertEqual(file.sanitizedNames, 0)
    }

    func testCRLFLineEndsAndAMissingFinalNewlineAreAccepted() throws {
        let file = try parse("sysstats-bookmarks 1\r\ncomm\tXorg\tX server\r\ncomm\tsway\tSway")
        XCTAssertEqual(file.rules.map(\.friendlyName), [b("X server"), b("Sway")])
    }

    func testAHeaderOnlyFileHasNoRules() throws {
        XCTAssertEqual(try parse("sysstats-bookmarks 1").rules, [])
        XCTAssertEqual(try parse(header).rules, [])
    }

    // MARK: - Refused files

    func testAFileLargerThanTheLimitIsRefusedBeforeParsing() {
        var bytes = b(header)
        bytes += [UInt8](repeating: UInt8(ascii: "#"), count: BookmarkFile.maximumSize - bytes.count)
        XCTAssertNoThrow(try BookmarkFile.parse(bytes), "exactly the limit is fine")
        bytes.append(0x0A)
        XCTAssertEqual(refusal(bytes), .tooLarge(size: BookmarkFile.maximumSize + 1))
        XCTAssertEqual(BookmarkFileError.tooLarge(size: 300_000).message(file: "x.sysstats-bookmarks"),
                       "x.sysstats-bookmarks: 300000 bytes is too large for a bookmarks file (at most 262144)")
    }

    func testFilesThatAreNotInTheFormatAreRefused() {
        for text in ["", "\n", "hello\n", "sysstats-bookmarks\n", "sysstats-bookmarks \n", "sysstats-bookmarks x\n",
                     "Sysstats-bookmarks 1\n", "sysstats-bookmarks  1\n", "sysstats-bookmarks 1 \n", "sysstats-bookmarks 0\n",
                     "sysstats-bookmarks 1.\n", "sysstats-bookmarks 1.x\n", "\u{FEFF}sysstats-bookmarks 1\n",
                     "sysstats-bookmarks 1234567890\n", "# sysstats-bookmarks 1\n", "{\"rules\": []}"] {
            XCTAssertEqual(refusal(text), .notBookmarks, text.debugDescription)
        }
        XCTAssertEqual(refusal([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x00, 0xFF]), .notBookmarks, "a binary")
    }

    func testANewerMajorVersionIsRefusedAndANewerMinorIsRead() throws {
        XCTAssertEqual(refusal("sysstats-bookmarks 2\ncomm\tx\ty\n"), .newerVersion(2))
        XCTAssertEqual(refusal("sysstats-bookmarks 17.3\n"), .newerVersion(17))
        XCTAssertEqual(BookmarkFileError.newerVersion(2).message(file: "f"),
                       "f: bookmarks format version 2 is newer than this sysstats reads (1); update sysstats")
        let newer = try parse("sysstats-bookmarks 1.4\ncomm\tx\ty\tcolor=red\tstrip=version\n")
        XCTAssertEqual(newer.rules, [rule(.comm, "x", "y", strip: .version, source: .imported)],
                       "a 1.x file's unknown options are ignored; known ones still apply")
        XCTAssertEqual(refusal("sysstats-bookmarks 1.0\ncomm\tx\ty\tcolor=red\n"),
                       .syntax(line: 2, reason: "unknown option 'color' (this version knows strip= and source=)"))
    }

    func testRulesThatWouldMatchEverythingAreRefusedWithTheirLine() {
        let cases = ["comm\t\tname", "exe\t\tname", "glob\t*\tall", "glob\t**\tall", "glob\t?\tone byte", "glob\t[a-z]*\tletters",
                     "cmdline\t-\tdash", "cmdline\t  \tspaces", "cmdline\t a \tone letter", "truncated\t\tx"]
        for body in cases {
            XCTAssertEqual(refusal(header + "# first\n" + body + "\n"), .matchesEverything(line: 3), body)
        }
        XCTAssertEqual(BookmarkFileError.matchesEverything(line: 3).message(file: "f"),
                       "f:3: this rule would match every process; refused")
    }

    func testSyntaxErrorsNameTheLineAndTheProblem() {
        let cases: [(String, String)] = [
            ("comm Xorg X server", "expected KIND<TAB>PATTERN<TAB>FRIENDLY NAME, found 1 field (fields are separated by tabs)"),
            ("comm\tXorg", "expected KIND<TAB>PATTERN<TAB>FRIENDLY NAME, found 2 fields (fields are separated by tabs)"),
            ("regex\t.*\tall", "unknown kind 'regex' (comm, truncated, exe, glob or cmdline)"),
            ("Comm\tx\ty", "unknown kind 'Comm' (comm, truncated, exe, glob or cmdline)"),
            ("comm\ta\\qb\ty", "unknown escape \\q (escapes are \\t \\n \\r \\\\ \\xHH)"),
            ("comm\tab\\\ty", "a backslash at the end of a field (write \\\\ for a backslash)"),
            ("comm\tab\\x4\ty", "\\x must be followed by two hexadecimal digits"),
            ("comm\tab\\xZZ\ty", "\\x must be followed by two hexadecimal digits"),
            ("comm\tx\ty\tstrip", "option 'strip' is not key=value"),
            ("comm\tx\ty\t", "an empty option (a stray tab at the end of the line?)"),
            ("comm\tx\ty\tstrip=after:ab", "strip=after: takes one byte, e.g. strip=after:~"),
            ("comm\tx\ty\tstrip=after:", "unknown strip 'after:' (none, version or after:X)"),
            ("comm\tx\ty\tstrip=semver", "unknown strip 'semver' (none, version or after:X)"),
            ("comm\tx\ty\tstrip=version\tstrip=none", "strip= given twice"),
            ("comm\tx\ty\tsource=root", "unknown source 'root' (user, imported or builtin)"),
            ("comm\t" + String(repeating: "p", count: 257) + "\ty", "the pattern is 257 bytes, more than 256"),
            ("\u{1B}[31m\tx\ty", "unknown kind '\\x1b[31m' (comm, truncated, exe, glob or cmdline)"),
        ]
        for (body, reason) in cases {
            XCTAssertEqual(refusal(header + "\n" + body + "\n"), .syntax(line: 3, reason: reason), body.debugDescription)
        }
        XCTAssertEqual(BookmarkFileError.syntax(line: 3, reason: "oops").message(file: "f"), "f:3: oops")
        XCTAssertNoThrow(try parse(header + "comm\t" + String(repeating: "p", count: 256) + "\ty\n"))
    }

    func testMoreRulesThanTheLimitAreRefused() {
        let line = "comm\tsome-process\tSome name\n"
        let exactly = header + String(repeating: line, count: BookmarkFile.maximumRules)
        XCTAssertLessThanOrEqual(exactly.utf8.count, BookmarkFile.maximumSize)
        XCTAssertEqual(try? parse(exactly).rules.count, BookmarkFile.maximumRules)
        XCTAssertEqual(refusal(exactly + "comm\tx\ty\n"), .tooManyRules)
    }

    func testTheFirstProblemInFileOrderIsTheOneReported() {
        XCTAssertEqual(refusal(header + "glob\t*\tall\nregex\tx\ty\n"), .matchesEverything(line: 2))
    }

    // MARK: - Hostile friendly names

    func testControlCharactersInNamesBecomeQuestionMarksAndAreCounted() throws {
        let file = try parse(header + "comm\ta\tevil\\x1B[2Jname\\x07\ncomm\tb\tline\\nbreak\ncomm\tc\tplain\n")
        XCTAssertEqual(file.rules.map { text($0.friendlyName) }, ["evil?[2Jname?", "line break", "plain"])
        XCTAssertEqual(file.sanitizedNames, 2)
    }

    func testMarkupInNamesIsKeptAsText() throws {
        let file = try parse(header + "comm\ta\t<span color=\"red\">&amp;</span>\n")
        XCTAssertEqual(text(file.rules[0].friendlyName), "<span color=\"red\">&amp;</span>")
        XCTAssertEqual(file.sanitizedNames, 0)
    }

    func testATenKilobyteNameIsCutTo48BytesOnACharacterBoundary() throws {
        let long = String(repeating: "ä", count: 5_000)   // 10,000 bytes
        let file = try parse(header + "comm\ta\t" + long + "\n")
        XCTAssertEqual(file.rules[0].friendlyName, b(String(repeating: "ä", count: 24)))
        XCTAssertEqual(file.sanitizedNames, 1)
        let odd = try parse(header + "comm\ta\tx" + long + "\n")   // 1 + 2n: the cut falls inside a character
        XCTAssertEqual(odd.rules[0].friendlyName, b("x" + String(repeating: "ä", count: 23)))
    }

    func testInvalidUTF8InANameBecomesTheReplacementCharacter() throws {
        let file = try BookmarkFile.parse(b(header) + b("comm\ta\tbad") + [0xFF, 0xC3] + b(" end\n"))
        XCTAssertEqual(text(file.rules[0].friendlyName), "bad\u{FFFD}\u{FFFD} end")
        XCTAssertEqual(file.sanitizedNames, 1)
    }

    func testANameOfOnlySpacesBecomesEmptyMeaningTheProcesssOwnName() throws {
        let file = try parse(header + "comm\ta\t   \n")
        XCTAssertEqual(file.rules[0].friendlyName, [])
        XCTAssertEqual(file.sanitizedNames, 1)
    }

    // MARK: - Encoding

    func testEncodeWritesTheTagEscapesAndOptions() {
        let rules = [
            rule(.comm, "Xorg", "X server"),
            BookmarkRule(kind: .glob, pattern: [0x61, 0x09, 0x5C, 0xFF, 0x0A, 0x20], friendlyName: b(" x\u{1B}"),
                         strip: .after(0x7E), source: .builtin),
            rule(.executable, "emacs", "Emacs", strip: .version, source: .imported),
        ]
        let expected = """
            sysstats-bookmarks 1
            # sysstats bookmarks (application/x-sysstats-bookmarks): KIND<TAB>PATTERN<TAB>FRIENDLY NAME[<TAB>OPTION]...; see docs/bookmarks-format.md
            comm\tXorg\tX server
            glob\ta\\t\\\\\\xFF\\n\\x20\t\\x20x\\x1B\tstrip=after:~
            exe\temacs\tEmacs\tstrip=version

            """
        XCTAssertEqual(text(BookmarkFile.encode(rules)), expected)
        XCTAssertTrue(text(BookmarkFile.encode(rules, withSource: true)).contains("\tstrip=after:~\tsource=builtin\n"))
    }

    func testEncodeThenParseRoundTripsEveryByteOfPatternsAndIsByteExact() throws {
        var rules: [BookmarkRule] = []
        for (i, kind) in MatchKind.allCases.enumerated() {
            let source = RuleSource.allCases[i % 3]
            rules.append(BookmarkRule(kind: kind, pattern: b("pat-\(i)-") + [UInt8(i)], friendlyName: b("Name \(i) ✓"),
                                      strip: [.none, .version, .after(0x09), .after(0xFF), .after(0x20)][i], source: source))
        }
        // Every byte value in a pattern, and the hostile ones in a row.
        rules.append(BookmarkRule(kind: .comm, pattern: (1...255).map { UInt8($0) } + [0], friendlyName: [], source: .user))
        rules.append(BookmarkRule(kind: .executable, pattern: [0xC2, 0x85, 0xED, 0xA0, 0x80, 0xF4, 0x90, 0x80, 0x80, 0xE2, 0x82],
                                  friendlyName: b("<b>&</b>"), source: .imported))
        let encoded = BookmarkFile.encode(rules, withSource: true)
        XCTAssertTrue(encoded.allSatisfy { $0 == 0x0A || $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }, "no control bytes but the separators")
        XCTAssertNotNil(String(validatingUTF8: encoded.map { CChar(bitPattern: $0) } + [0]), "the file is valid UTF-8")
        let parsed = try BookmarkFile.parse(encoded)
        XCTAssertEqual(parsed.rules, rules)
        XCTAssertEqual(parsed.sanitizedNames, 0)
        XCTAssertEqual(BookmarkFile.encode(parsed.rules, withSource: true), encoded)

        let shared = try BookmarkFile.parse(BookmarkFile.encode(rules))
        XCTAssertTrue(shared.rules.allSatisfy { $0.source == .imported }, "without source= every rule reads as imported")
        XCTAssertEqual(shared.rules.map(\.key), rules.map(\.key))
    }

    func testStripTextRoundTrips() {
        for strip in [SuffixStrip.none, .version, .after(0x7E), .after(0x09), .after(0xFF), .after(0x5C)] {
            XCTAssertEqual(SuffixStrip(text: strip.text), strip)
        }
        XCTAssertNil(SuffixStrip(text: b("after:")))
        XCTAssertNil(SuffixStrip(text: b("bogus")))
    }

    // MARK: - The built-in defaults

    func testTheGeneratedBuiltinFileIsWhatTheGeneratorWrites() throws {
        let root = Fixtures.packageRoot.path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root + "/scripts/make-builtin-bookmarks.py", "--stdout"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let committed = try Data(contentsOf: URL(fileURLWithPath: root + "/Sources/Bookmarks/BuiltinBookmarks+Generated.swift"))
        XCTAssertEqual(String(decoding: output, as: UTF8.self), String(decoding: committed, as: UTF8.self),
                       "run scripts/make-builtin-bookmarks.py after editing assets/bookmarks/defaults.sysstats-bookmarks")
    }

    func testTheCompiledDefaultsAreTheAssetParsedByTheSwiftReader() throws {
        let asset = try Data(contentsOf: URL(fileURLWithPath: Fixtures.packageRoot.path + "/assets/bookmarks/defaults.sysstats-bookmarks"))
        let file = try BookmarkFile.parse([UInt8](asset))
        XCTAssertEqual(file.sanitizedNames, 0)
        var expected = file.rules
        for i in expected.indices { expected[i].source = .builtin }
        XCTAssertEqual(BuiltinBookmarks.rules, expected)
        XCTAssertEqual(Set(expected.map(\.key)).count, expected.count, "no duplicate keys")
        XCTAssertTrue((80...150).contains(expected.count), "\(expected.count) rules")
    }

    func testTheExampleInTheFormatDocumentParses() throws {
        let doc = try String(contentsOfFile: Fixtures.packageRoot.path + "/docs/bookmarks-format.md", encoding: .utf8)
        let afterHeading = try XCTUnwrap(doc.range(of: "## Example")).upperBound
        let open = try XCTUnwrap(doc.range(of: "```\n", range: afterHeading..<doc.endIndex))
        let close = try XCTUnwrap(doc.range(of: "```\n", range: open.upperBound..<doc.endIndex))
        let example = doc[open.upperBound..<close.lowerBound].replacingOccurrences(of: "→", with: "\t")
        let file = try BookmarkFile.parse(b(example))
        XCTAssertEqual(file.rules.count, 8)
        XCTAssertEqual(file.rules[6], rule(.executable, "my tool", "", source: .imported))
        XCTAssertEqual(file.rules[7].pattern, b("odd\u{1B}name"))
        XCTAssertEqual(file.rules[7].friendlyName, b("Odd <b>one</b>"))
        XCTAssertEqual(NameResolver(rules: file.rules).name(comm: "Web Content~3"), "Firefox content")
    }
}
