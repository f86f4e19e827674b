@testable import BarCore
import CommandOptions
import TestSupport
import XCTest

/// docs/reference.md's sysstats-bar parts are what the code says: the option table's
/// `--help` text, and every block of the registry with its argument, marks and
/// placeholders (scripts/generate-manual.sh writes them).
final class BarReferenceTests: XCTestCase {
    func testTheReferenceHasTheBarsOptionsAndEveryBlockAsTheCodeHasThem() throws {
        var options: [UInt8] = []
        BarOptions.table.writeUsage(into: &options)
        options.append(0x0A)
        BarOptions.table.writeOptions(into: &options, column: 19)
        let optionsText = "```text\n" + String(decoding: options, as: UTF8.self) + "```\n"
        let differing = try ReferenceSections.differing([("sysstats-bar options", optionsText), ("blocks", Self.blocksTable())])
        XCTAssertEqual(differing, [], "docs/reference.md differs from the code: run scripts/generate-manual.sh")
    }

    /// One row per block: its name (and argument), its default marks, its placeholders.
    static func blocksTable() -> String {
        var out = "| block | argument (config key) | default marks | placeholders for `format` |\n|---|---|---|---|\n"
        for kind in BlockKind.allCases {
            let d = kind.descriptor
            var name = "`\(d.name)`"
            if !kind.isNamedInBlocksOption { name += " (config file only)" }
            if BlockKind.defaults.contains(kind) { name += " (default bar)" }
            let argument = d.argumentKey.map { "`\(d.name):…` (`\($0)`)" } ?? "–"
            let placeholders = d.placeholders.isEmpty
                ? (d.helpNote.map { "\($0)" } ?? "–")
                : d.placeholders.map { "`{\($0.name)}` \($0.help)" }.joined(separator: "; ")
            out += "| \(name) | \(argument) | \(marks(d.marks)) | \(ReferenceSections.cell(placeholders)) |\n"
        }
        return out
    }

    static func marks(_ marks: LevelMarks?) -> String {
        guard let marks else { return "–" }
        if marks.warning == nil && marks.critical == nil, let decides = marks.decides {
            return "\(decides) (\(unit(marks.unit)))"
        }
        func shown(_ v: UInt64?) -> String {
            guard let v else { return "–" }
            return marks.unit == .percent ? "\(v / 100) %" : "\(v / 1000) °C"
        }
        return "warning \(shown(marks.warning)), critical \(shown(marks.critical))"
    }

    static func unit(_ unit: LevelMarks.Unit) -> String {
        switch unit {
        case .percent: "whole percent"
        case .celsius: "°C"
        case .load: "a load average"
        }
    }
}
