import Foundation
import XCTest

/// docs/architecture.md's module table says what each module may use; Package.swift says what
/// it does use. The table once said SnapshotCodec used nothing while Package.swift gave it
/// UTF8Text, CCRC32 and CDirect (issue 58): each row about one module is compared here with
/// that module's dependency list, read from Package.swift's text.
final class ArchitectureTableTests: XCTestCase {
    /// What the "may use" column names that is not a module of the package.
    static let outside: Set<String> = ["libc", "libwayland-client", "the standard library", "nothing"]

    func testEachModulesMayUseIsItsDependencyListInPackageSwift() throws {
        let manifest = try Self.text("Package.swift")
        let dependencies = Self.dependencies(inManifest: manifest)
        let rows = Self.moduleRows(try Self.text("docs/architecture.md"))
        XCTAssertFalse(rows.isEmpty, "docs/architecture.md has no module table")
        var checked: Set<String> = []
        for row in rows {
            guard let listed = dependencies[row.module] else {
                XCTFail("docs/architecture.md has a row for \(row.module), which Package.swift does not declare")
                continue
            }
            XCTAssertEqual(row.mayUse.sorted(), listed.sorted(), "docs/architecture.md: what \(row.module) may use is not Package.swift's list")
            checked.insert(row.module)
        }
        let twins = Self.twinNames(inManifest: manifest)
        XCTAssertFalse(twins.isEmpty, "Package.swift declares no twin")
        XCTAssertEqual(twins.subtracting(checked), [], "modules compiled twice without their row in docs/architecture.md")
    }

    func testTheManifestReaderTakesEachFormOfDependencyList() {
        let manifest = """
            ] + twin("A", ["B", "C"], normal: x, embedded: y) + [
            ] + twin("D", normal: x, embedded: y) + [
                .target(name: "E", dependencies: [
                    "A", "ArgumentParser",
                ], swiftSettings: z),
                .target(name: "F", cSettings: [.define("X", to: "1")]),
                .executableTarget(name: "g-h", dependencies: embeddedDependencies(["D"]), swiftSettings: z),
                .systemLibrary(name: "CS", pkgConfig: "s"),
            """
        XCTAssertEqual(Self.dependencies(inManifest: manifest), ["A": ["B", "C"], "D": [], "E": ["A", "ArgumentParser"], "F": [],
                                                                 "g-h": ["D"], "CS": []])
        XCTAssertEqual(Self.twinNames(inManifest: manifest), ["A", "D"])
    }

    func testTheTableReaderTakesRowsAboutOneModuleAndLeavesOutWhatIsNotAModule() {
        let table = """
            | module | what | may use |
            |---|---|---|
            | `A` | a | B, C (Embedded-clean) |
            | `prog` (`CProg`) | p | libc |
            | `X`, `Y` (vendored) | both | JSONCoding |
            | `Z` | z | nothing |

            | `after` | the table | W |
            """
        let rows = Self.moduleRows(table)
        XCTAssertEqual(rows.map { $0.module }, ["A", "CProg", "Z"])
        XCTAssertEqual(rows.map { $0.mayUse }, [["B", "C"], [], []])
    }

    static func text(_ file: String) throws -> String {
        try String(contentsOf: Fixtures.packageRoot.appendingPathComponent(file), encoding: .utf8)
    }

    /// Each target's dependencies by name, from `twin("Name", [ … ])` and `.target(name: "Name",
    /// dependencies: [ … ])` (or `embeddedDependencies([ … ])`); none where it gives no list.
    static func dependencies(inManifest text: String) -> [String: [String]] {
        let pattern = #"(?:twin\(|\.(?:target|executableTarget|testTarget|systemLibrary)\(name:\s*)"([\w-]+)""#
            + #"(?:,\s*(?:dependencies:\s*)?(?:embeddedDependencies\()?\[([^\]]*)\])?"#
        let regex = try! NSRegularExpression(pattern: pattern)
        let ns = text as NSString
        var found: [String: [String]] = [:]
        for match in regex.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
            let list = match.range(at: 2).location == NSNotFound ? "" : ns.substring(with: match.range(at: 2))
            found[ns.substring(with: match.range(at: 1))] = quoted(list)
        }
        return found
    }

    /// The modules Package.swift compiles twice (`twin("Name", …)`).
    static func twinNames(inManifest text: String) -> Set<String> {
        let regex = try! NSRegularExpression(pattern: #"twin\("([\w-]+)""#)
        let ns = text as NSString
        return Set(regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { ns.substring(with: $0.range(at: 1)) })
    }

    /// The table's rows about one module: its name, and the modules of the package it may use.
    static func moduleRows(_ text: String) -> [(module: String, mayUse: [String])] {
        let lines = text.components(separatedBy: "\n")
        guard let header = lines.firstIndex(of: "| module | what | may use |") else { return [] }
        var rows: [(module: String, mayUse: [String])] = []
        for line in lines.dropFirst(header + 2) {
            guard line.hasPrefix("| ") && line.hasSuffix(" |") else { break }
            let cells = line.dropFirst(2).dropLast(2).components(separatedBy: " | ")
            guard cells.count == 3, let module = moduleName(cells[0]) else { continue }
            let used = withoutParentheses(cells[2]).replacingOccurrences(of: "`", with: "").components(separatedBy: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !outside.contains($0) }
            rows.append((module, used))
        }
        return rows
    }

    /// The module a row is about: the one in its parentheses (`sysstatsd-gpu` (`CGPUHelper`),
    /// whose code is the C module), else the one it names; nil for a row about several.
    static func moduleName(_ cell: String) -> String? {
        let inside = codeSpans(parenthesised(cell))
        let names = inside.isEmpty ? codeSpans(withoutParentheses(cell)) : inside
        return names.count == 1 ? names[0] : nil
    }

    /// The strings between double quotes in `text`.
    static func quoted(_ text: String) -> [String] {
        text.components(separatedBy: "\"").enumerated().filter { $0.offset % 2 == 1 }.map { $0.element }
    }

    static func codeSpans(_ text: String) -> [String] {
        text.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map { $0.element }
    }

    static func withoutParentheses(_ text: String) -> String {
        var out = "", depth = 0
        for c in text {
            if c == "(" { depth += 1 } else if c == ")" { depth = max(0, depth - 1) } else if depth == 0 { out.append(c) }
        }
        return out
    }

    /// What `text` says between parentheses, each part set off by a space.
    static func parenthesised(_ text: String) -> String {
        var out = "", depth = 0
        for c in text {
            if c == "(" {
                depth += 1
                out.append(" ")
            } else if c == ")" {
                depth = max(0, depth - 1)
            } else if depth > 0 {
                out.append(c)
            }
        }
        return out
    }
}
