import ConfigImport
import Foundation
import XCTest
@testable import SysstatsCLI

/// `sysstats config import` on the corpus of real configs from public dotfiles
/// (Tests/Fixtures/import-corpus, where each came from in SOURCES.tsv).
final class ImportCorpusTests: XCTestCase {
    static let corpus = ConfigCommandTests.root.appendingPathComponent("Tests/Fixtures/import-corpus")

    /// The corpus's files the programs themselves refuse, and where: the import refuses them there too.
    static let refused = ["i3status-rust/02-Crandel-home.toml": "78:8: key already holds a value, not a table"]

    struct Entry { let file: String; let source: ImportSource; let path: String }

    static func entries() throws -> [Entry] {
        let tsv = try String(contentsOf: corpus.appendingPathComponent("SOURCES.tsv"), encoding: .utf8)
        return tsv.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 4, let kind = fields[0].split(separator: "/").first, let source = ImportSource(rawValue: String(kind)) else { return nil }
            return Entry(file: fields[0], source: source, path: corpus.appendingPathComponent(fields[0]).path)
        }
    }

    func testTheCorpusHoldsTenRealConfigsOfEachKindWithWhereEachCameFrom() throws {
        let entries = try Self.entries()
        for source in ImportSource.allCases {
            XCTAssertGreaterThanOrEqual(entries.filter { $0.source == source }.count, 10, "\(source.rawValue): fewer than 10 configs")
        }
        let tsv = try String(contentsOf: Self.corpus.appendingPathComponent("SOURCES.tsv"), encoding: .utf8)
        for line in tsv.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t")
            XCTAssertEqual(fields.count, 4, "\(line)")
            XCTAssertEqual(fields.last?.count, 40, "a commit: \(line)")
        }
        for source in ImportSource.allCases {
            let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.appendingPathComponent(source.rawValue).path)
            for f in files { XCTAssertTrue(entries.contains { $0.file == "\(source.rawValue)/\(f)" }, "\(f) is not in SOURCES.tsv") }
        }
    }

    /// Each file imports into a config the bar loads, the same bytes each time; every module
    /// not carried over is named on stderr; of the modules with a sysstats block, at least
    /// 95 % keep every figure of their formats (the share is printed per program).
    func testEveryCorpusConfigImportsLoadsAndKeepsItsModules() throws {
        var native = 0, complete = 0
        var shares: [String] = []
        for source in ImportSource.allCases {
            var n = 0, c = 0
            for entry in try Self.entries() where entry.source == source {
                let out = ConfigCommands.importBar(source, path: entry.path)
                if let refusal = Self.refused[entry.file] {
                    XCTAssertEqual(out.status, 1, entry.file)
                    XCTAssertEqual(out.stderr, ["\(entry.path):\(refusal)"], entry.file)
                    continue
                }
                XCTAssertEqual(out.status, 0, "\(entry.file): \(out.stderr)")
                XCTAssertEqual(ConfigCommands.importBar(source, path: entry.path), out, "\(entry.file): not the same bytes twice")
                XCTAssertNil(ConfigCommands.loadProblem(Array((out.stdout.first ?? "").utf8))?.reason, entry.file)
                // And as a user checks it: written to a file, `sysstats config check FILE`.
                let written = NSTemporaryDirectory() + "sysstats-import-\(UUID().uuidString).toml"
                try (out.stdout.first ?? "").write(toFile: written, atomically: true, encoding: .utf8)
                defer { try? FileManager.default.removeItem(atPath: written) }
                let check = ConfigCommands.check(path: written)
                XCTAssertEqual(check.status, 0, "\(entry.file): \(check.stderr)")
                let imported = try ConfigImporter.convert(String(contentsOfFile: entry.path, encoding: .utf8), from: source)
                for note in imported.notes {
                    XCTAssertTrue(out.stderr.contains { $0.contains(":\(note.line): \"\(note.module)\": ") }, "\(entry.file): \(note.module) is not named")
                }
                for item in imported.items {
                    guard case .native(let whole) = item.outcome else { continue }
                    n += 1
                    if whole { c += 1 }
                }
            }
            native += n; complete += c
            shares.append("\(source.rawValue) \(c)/\(n)")
        }
        let share = Double(complete) / Double(max(native, 1))
        print("import corpus: modules with a sysstats block that keep every figure: \(shares.joined(separator: ", ")); all \(complete)/\(native) = \(String(format: "%.1f", share * 100))%")
        XCTAssertGreaterThanOrEqual(share, 0.95)
    }
}
