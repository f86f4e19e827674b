import BarCore
import Foundation
import TestSupport
import XCTest

/// Every document that gives the default bar or the blocks `--blocks` takes gives the code's:
/// ``BlockKind/defaults`` as `--blocks` writes it, and the registry's names. Hand-written lists
/// drifted three times (issue 58: README without `exited`, integrations.md with a bar that
/// was never the default); each one now sits in a code span this test reads.
final class DefaultBarDocsTests: XCTestCase {
    /// Where a document gives the default bar: the words before its code span, and whether
    /// the sentence says how much an exit must free to be shown.
    static let defaultBarMentions: [(file: String, leadIn: String, exitFloor: Bool)] = [
        ("README.md", "Without a config file the bar is i3status's default one", true),
        ("docs/usage.md", "Without a config file the bar is i3status's default one", true),
        ("docs/integrations.md", "Every snippet shows the default blocks", false),
        ("docs/renderer.md", "i3status's default bar,", true),
    ]

    func testEveryDocumentThatGivesTheDefaultBarGivesTheCodes() throws {
        let defaults = BlockKind.defaults.map { "\($0.name)" }.joined(separator: ",")
        let freed = "\(BarBlock.notableExitKiB / 1024) MiB"
        for mention in Self.defaultBarMentions {
            let after = try XCTUnwrap(try Self.text(after: mention.leadIn, in: mention.file), "\(mention.file) no longer says “\(mention.leadIn)”")
            XCTAssertEqual(Self.firstCodeSpan(after), defaults, "\(mention.file): the default bar after “\(mention.leadIn)”")
            if mention.exitFloor {
                XCTAssertTrue(after.prefix(400).contains(freed), "\(mention.file): the default bar shows an exit that freed \(freed)")
            }
        }
    }

    func testTheRenderersBlockListIsTheRegistrys() throws {
        let after = try XCTUnwrap(try Self.text(after: "comma-separated, in display order, from", in: "docs/renderer.md"))
        let listed = try XCTUnwrap(Self.firstCodeSpan(after)).components(separatedBy: ", ")
        let names = BlockKind.allCases.filter(\.isNamedInBlocksOption).map { "\($0.name)" }
        XCTAssertEqual(Set(listed), Set(names), "docs/renderer.md's --blocks list")
    }

    /// A lead-in found in a planted sentence is read as the documents are.
    func testTheReaderTakesTheCodeSpanAfterTheLeadInAcrossLines() {
        let text = Self.normalized("Not `this`. Without a config\n  file the bar is `wifi,net,\n disk`: that.")
        let after = text.components(separatedBy: "Without a config file the bar is").dropFirst().joined()
        XCTAssertEqual(Self.firstCodeSpan(after), "wifi,net, disk")
        XCTAssertNil(Self.firstCodeSpan(" no span here"))
    }

    /// `file`'s text after the first `leadIn`, whitespace runs read as one space (a sentence
    /// wraps anywhere); nil when it does not say `leadIn`.
    static func text(after leadIn: String, in file: String) throws -> String? {
        let text = normalized(try String(contentsOf: Fixtures.packageRoot.appendingPathComponent(file), encoding: .utf8))
        guard let start = text.range(of: leadIn)?.upperBound else { return nil }
        return String(text[start...])
    }

    static func normalized(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The text of the first `…` code span in `text`.
    static func firstCodeSpan(_ text: String) -> String? {
        let parts = text.components(separatedBy: "`")
        return parts.count > 2 ? parts[1] : nil
    }
}
