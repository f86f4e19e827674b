import BarCore
import CommandOptions
import Foundation
import TestSupport
import XCTest

/// sysstats-bar(1)'s SYNOPSIS and OPTIONS are what the option table writes, and the default
/// bar in it and in sysstats-config(5) is ``BarBlock/defaults`` (scripts/generate-manual.sh
/// writes them). Its Outputs and Blocks sections are prose, so a test holds them to the
/// output table and the block registry: a block or an output added to the code and not to
/// the page (the gpu block, the Wayland panel were) fails here (issue 58).
final class BarManualTests: XCTestCase {
    static let path = "assets/man/sysstats-bar.1"

    func testTheManualsSynopsisAndOptionsAreTheOptionTables() throws {
        let differing = try ManualSections.differing(Self.path, from: BarOptions.table)
        XCTAssertEqual(differing, [], "assets/man/sysstats-bar.1 differs from BarOptions.table: run scripts/generate-manual.sh")
    }

    func testTheManualPagesGiveTheDefaultBarAsTheCodeHasIt() throws {
        for page in [Self.path, "assets/man/sysstats-config.5"] {
            let differing = try ReferenceSections.differing([("default blocks", Self.defaultBlocksText())], in: page, markers: .roff)
            XCTAssertEqual(differing, [], "\(page) differs from BarBlock.defaults: run scripts/generate-manual.sh")
        }
    }

    func testTheBlocksSectionDescribesEveryBlockAndShowsTheArgumentOfThoseThatTakeOne() throws {
        let section = try XCTUnwrap(Self.subsection("Blocks", of: try Self.page()), "\(Self.path) has no Blocks section")
        let items = Self.items(section)
        let kinds = BlockKind.allCases.filter(\.isNamedInBlocksOption)
        XCTAssertEqual(items.names, Set(kinds.map { "\($0.name)" }), "the blocks \(Self.path) describes are not the registry's")
        XCTAssertEqual(items.withArgument, Set(kinds.filter(\.takesArgument).map { "\($0.name)" }),
                       "the blocks \(Self.path) shows with an argument (`.BR net \", \" net:\\c`) are not those that take one")
    }

    func testTheOutputsSectionDescribesEveryOutput() throws {
        let section = try XCTUnwrap(Self.subsection("Outputs", of: try Self.page()), "\(Self.path) has no Outputs section")
        XCTAssertEqual(Self.items(section).names, Set(OutputKind.allCases.map { "\($0.name)" }),
                       "the outputs \(Self.path) describes are not OutputKind's")
    }

    /// The option table's own prose (its `--help` and the manual's OPTIONS) names every
    /// block, the default bar, the arguments and every output.
    func testTheBlocksAndOutputOptionsNameEveryBlockEveryOutputAndTheDefaultBar() throws {
        func option(_ name: String) throws -> CommandOption {
            try XCTUnwrap(BarOptions.table.options.first { "\($0.name)" == name }, name)
        }
        func words(_ text: StaticString) -> String { "\(text)".split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        let blocks = try option("--blocks")
        let manual = words(blocks.manual), help = words(blocks.help)
        let kinds = BlockKind.allCases.filter(\.isNamedInBlocksOption)
        let listed = manual.components(separatedBy: "Comma-separated blocks: ").dropFirst().first?.components(separatedBy: ".").first
        XCTAssertEqual(Set(try XCTUnwrap(listed, manual).components(separatedBy: ", ")), Set(kinds.map { "\($0.name)" }),
                       "--blocks' manual text does not list the registry's blocks")
        let defaults = BlockKind.defaults.map { "\($0.name)" }.joined(separator: ",")
        XCTAssertTrue(manual.contains(" \(defaults),"), "--blocks' manual text does not give the default bar \(defaults): \(manual)")
        XCTAssertTrue(manual.contains("freed \(BarBlock.notableExitKiB / 1024) MiB"), manual)
        for kind in kinds where kind.takesArgument {
            XCTAssertTrue(manual.contains(" \(kind.name):"), "--blocks' manual text does not show \(kind.name)'s argument")
            XCTAssertTrue(help.contains(" \(kind.name):"), "--blocks' help does not show \(kind.name)'s argument")
        }
        let output = try option("--output")
        let outputs = "\(output.value)".components(separatedBy: "|").map { $0.components(separatedBy: ":")[0] }
        XCTAssertEqual(Set(outputs), Set(OutputKind.allCases.map { "\($0.name)" }), "--output's value does not name every output")
    }

    /// The default bar as both pages give it: its blocks, those left out where the machine
    /// lacks what they show, and the least an exit must free to be shown.
    static func defaultBlocksText() -> String {
        let defaults = BarBlock.defaults
        var text = defaults.map { "\($0.kind.name)" }.joined(separator: ", ") + ".\n"
        text += "Of these, " + spoken(defaults.filter(\.hideMissing).map { "\($0.kind.name)" })
            + " are left out where this machine\nlacks what they show"
        for block in defaults where block.minimumFreedKiB > 0 {
            text += ", and \(block.kind.name) shows only an exit that freed \(block.minimumFreedKiB / 1024) MiB or more"
        }
        return text + ".\n"
    }

    /// `a, b and c`.
    static func spoken(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }

    static func page() throws -> String {
        try String(contentsOf: Fixtures.packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// The text of `.SS NAME` up to the next subsection or section.
    static func subsection(_ name: String, of page: String) -> String? {
        guard let start = page.range(of: "\n.SS \(name)\n")?.upperBound else { return nil }
        let rest = page[start...]
        let end = [rest.range(of: "\n.SS "), rest.range(of: "\n.SH ")].compactMap { $0?.lowerBound }.min() ?? rest.endIndex
        return String(rest[..<end])
    }

    /// The names a section's `.TP` items set in bold (`.B cpu`, `.BR net ", " net:\c`,
    /// `.BI png: FILE`), each without its argument, and those shown with one (`net:`).
    static func items(_ section: String) -> (names: Set<String>, withArgument: Set<String>) {
        var names: Set<String> = [], withArgument: Set<String> = []
        let lines = section.components(separatedBy: "\n")
        for i in lines.indices where lines[i] == ".TP" && i + 1 < lines.count {
            let words = roffWords(lines[i + 1])
            guard let macro = words.first, [".B", ".BR", ".BI"].contains(macro) else { continue }
            // .B sets every word in bold; .BR and .BI alternate, the first in bold.
            let rest = Array(words.dropFirst())
            let bold = macro == ".B" ? rest : rest.indices.filter { $0 % 2 == 0 }.map { rest[$0] }
            for word in bold {
                let plain = word.replacingOccurrences(of: "\\c", with: "").replacingOccurrences(of: "\\-", with: "-")
                let name = String(plain.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)[0])
                names.insert(name)
                if plain.contains(":") { withArgument.insert(name) }
            }
        }
        return (names, withArgument)
    }

    /// A request line's words; a double-quoted one is one word, without its quotes.
    static func roffWords(_ line: String) -> [String] {
        var words: [String] = [], word = "", quoted = false, inWord = false
        for c in line {
            if c == "\"" {
                quoted.toggle()
                inWord = true
            } else if c == " " && !quoted {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(c)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }
}
