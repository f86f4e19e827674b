import Foundation
import XCTest

/// Every program the tests run comes from a package install/deps.sh installs (or an essential
/// one), listed in install/test-programs.txt, which install/test.sh checks before the tests:
/// on a bare machine a missing program is named with its package instead of failing a test
/// after its timeout with a misleading message.
final class TestProgramsTests: XCTestCase {
    static let root = Programs.packageRoot

    /// install/test-programs.txt: program path → package.
    func listed() throws -> [String: String] {
        let text = try String(contentsOf: Self.root.appendingPathComponent("install/test-programs.txt"), encoding: .utf8)
        var out: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2 else { continue }
            out[String(fields[0])] = String(fields[1])
        }
        return out
    }

    /// The absolute program paths the test sources run: as a process's executable, through
    /// the helpers that start a tool, or checked to be executable.
    func programsTheTestsRun() throws -> Set<String> {
        let pattern = try NSRegularExpression(pattern: #"(URL\(fileURLWithPath: |run\(|tool\(|requireTool\(|isExecutableFile\(atPath: |start\(|capture\()"(/(usr/)?s?bin/[A-Za-z0-9_.-]+)""#)
        var found = Set<String>()
        let tests = Self.root.appendingPathComponent("Tests")
        let files = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)!
        for case let file as URL in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                found.insert(String(text[Range(match.range(at: 2), in: text)!]))
            }
        }
        return found
    }

    func testEveryProgramTheTestsRunIsListedWithItsPackage() throws {
        let list = try listed()
        let run = try programsTheTestsRun()
        XCTAssertGreaterThan(run.count, 20, "the scan finds the programs: \(run.sorted())")
        for program in run.sorted() {
            XCTAssertNotNil(list[program], "\(program) is run by a test: add it and its package to install/test-programs.txt (and the package to install/deps.sh)")
        }
    }

    func testEveryListedPackageIsInstalledByDepsOrEssential() throws {
        let deps = try String(contentsOf: Self.root.appendingPathComponent("install/deps.sh"), encoding: .utf8)
        // The words of the package arrays: `build_packages=(…)` and `test_packages=(…)`.
        var installed = Set<String>()
        for name in ["build_packages", "test_packages"] {
            guard let start = deps.range(of: "\(name)=("), let end = deps[start.upperBound...].firstIndex(of: ")") else {
                XCTFail("install/deps.sh has no \(name)"); continue
            }
            installed.formUnion(deps[start.upperBound..<end].split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init))
        }
        let text = try String(contentsOf: Self.root.appendingPathComponent("install/test-programs.txt"), encoding: .utf8)
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard fields.count >= 2 else { continue }
            let essential = fields.count >= 3 && fields[2] == "(essential)"
            XCTAssertTrue(essential || installed.contains(fields[1]), "\(fields[0]): its package \(fields[1]) is not in install/deps.sh")
        }
    }
}
