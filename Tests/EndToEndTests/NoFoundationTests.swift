import Foundation
import TestSupport
import XCTest

/// No program links Foundation of any kind (README, docs/packaging.md): one import of
/// Foundation, FoundationEssentials or FoundationInternationalization in a module a program
/// links makes its static link carry that library whole (FoundationEssentials was 5 MB of
/// the CLI). The vendored swift-argument-parser is checked with the rest; its
/// generate-manual tool, which only the manual's script runs, may use Foundation.
final class NoFoundationTests: XCTestCase {
    static let importLine = try! NSRegularExpression(
        pattern: #"^\s*(@_implementationOnly\s+|@_exported\s+|(internal|public|package|private|fileprivate)\s+)?import\s+(Foundation\w*|_Foundation\w*)\b"#,
        options: [.anchorsMatchLines])

    /// Every line of a Swift file under `folders` that imports a Foundation module.
    func foundationImports(under folders: [String], skipping skipped: [String] = []) throws -> [String] {
        var found: [String] = []
        for folder in folders {
            let root = Programs.packageRoot.appendingPathComponent(folder).path
            let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
            XCTAssertFalse(files.isEmpty, folder)
            for file in files where file.hasSuffix(".swift") && !skipped.contains(where: { file.hasPrefix($0) }) {
                let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
                for match in Self.importLine.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    found.append("\(folder)/\(file): " + (text as NSString).substring(with: match.range).trimmingCharacters(in: .whitespaces))
                }
            }
        }
        return found
    }

    func testNoModuleAProgramLinksImportsFoundation() throws {
        let found = try foundationImports(under: ["Sources", "Vendor/swift-argument-parser/Sources"])
        XCTAssertEqual(found, [], "a Foundation import: the programs must not link it (docs/packaging.md)")
    }

    func testTheCheckFindsAnImportOfEachFoundationModule() throws {
        for line in ["import Foundation", "internal import FoundationEssentials", "@_implementationOnly import FoundationInternationalization",
                     "  public import _FoundationCShims"] {
            XCTAssertEqual(Self.importLine.numberOfMatches(in: line, range: NSRange(line.startIndex..., in: line)), 1, line)
        }
        for line in ["// import Foundation", "let imported = 1", "import Glibc"] {
            XCTAssertEqual(Self.importLine.numberOfMatches(in: line, range: NSRange(line.startIndex..., in: line)), 0, line)
        }
        // The generate-manual tool does import Foundation: the scan sees it there.
        XCTAssertFalse(try foundationImports(under: ["Vendor/swift-argument-parser/Tools"]).isEmpty)
    }
}
