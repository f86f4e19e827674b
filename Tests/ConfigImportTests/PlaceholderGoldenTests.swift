import Foundation
import XCTest
@testable import ConfigImport

/// Every placeholder of every module each import knows, written in its program's own
/// language and translated: one golden file per program
/// (`SYSSTATS_REGENERATE_GOLDEN=1` writes them again after a deliberate change).
final class PlaceholderGoldenTests: XCTestCase {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    /// `module: FORMAT → TRANSLATED` for each rule with placeholders, FORMAT holding each of its
    /// placeholders between two bars, as `spell` writes one.
    static func lines(_ rules: [ModuleRule], spell: (String) -> String, tokens: (String, ModuleRule) -> [FormatToken]) -> String {
        var out = ""
        for rule in rules where !rule.placeholderPairs().isEmpty {
            let format = rule.placeholderPairs().map { "|" + spell($0.0) }.joined() + "|"
            var missing: [String] = []
            let translated = translate(tokens(format, rule), rule.placeholders, missing: &missing)
            out += "\(rule.module): \(format) → \(translated.replacingOccurrences(of: sizedMark, with: ""))\n"
            XCTAssertEqual(missing, [], "\(rule.module): its own table misses \(missing)")
        }
        return out
    }

    func check(_ name: String, _ text: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let url = Self.golden.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["SYSSTATS_REGENERATE_GOLDEN"] == "1" {
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        XCTAssertEqual(text, expected, "\(name) differs (SYSSTATS_REGENERATE_GOLDEN=1 after a deliberate change)", file: file, line: line)
    }

    func testEveryI3statusPlaceholderTranslates() throws {
        let text = Self.lines(I3statusRules.rules, spell: { "%" + $0 }) { format, rule in
            i3statusTokens(format, names: I3statusRules.knownNames[rule.module] ?? rule.placeholders.names)
        }
        try check("i3status.txt", text)
    }

    func testEveryI3statusRustPlaceholderTranslatesInBothLanguages() throws {
        let dollars = Self.lines(I3statusRustRules.rules, spell: { "$" + $0 + ".eng(w:2)" }) { format, _ in dollarTokens(format) }
        let braces = Self.lines(I3statusRustRules.rules, spell: { "{" + $0 + "}" }) { format, _ in braceTokens(format) }
        try check("i3status-rust.txt", "# 0.30 and later ($name)\n" + dollars + "# before 0.30 ({name})\n" + braces)
    }

    func testEveryWaybarPlaceholderTranslates() throws {
        let text = Self.lines(WaybarRules.rules, spell: { $0.isEmpty ? "{}" : "{" + $0 + "}" }) { format, _ in braceTokens(format) }
            + "network (format-wifi): " + Self.lines([ModuleRule("network", "wifi", WaybarRules.wifiPlaceholders)], spell: { "{" + $0 + "}" }) { f, _ in braceTokens(f) }
        try check("waybar.txt", text)
    }

    func testEveryPolybarPlaceholderTranslates() throws {
        let text = Self.lines(PolybarRules.rules, spell: { "%" + $0 + "%" }) { format, _ in polybarTokens(format) }
            + "internal/network (wireless): " + Self.lines([ModuleRule("internal/network", "wifi", PolybarRules.wifiPlaceholders)], spell: { "%" + $0 + "%" }) { f, _ in polybarTokens(f) }
        try check("polybar.txt", text)
    }
}
