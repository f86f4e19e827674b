import Foundation
import XCTest

/// The vendored swift-argument-parser is upstream's tag plus sysstats.patch and nothing else
/// (Vendor/swift-argument-parser/README.sysstats.md): scripts/vendor-argument-parser.py
/// --check takes the patch back out of the vendored files and compares them with the
/// tag's SHA-256s in upstream.sha256, offline, without a copy of upstream.
final class VendoredParserTests: XCTestCase {
    static let script = "scripts/vendor-argument-parser.py"
    static let vendored = "Vendor/swift-argument-parser"

    /// `python3 <root>/scripts/vendor-argument-parser.py --check`: its status and output.
    func check(root: URL) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root.appendingPathComponent(Self.script).path, "--check"]
        process.currentDirectoryURL = root
        process.standardInput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    func testVendoredArgumentParserIsUpstreamTagPlusPatch() throws {
        let result = try check(root: Fixtures.packageRoot)
        XCTAssertEqual(result.status, 0, "the vendored parser is not upstream's tag plus sysstats.patch:\n" + result.output)
        XCTAssertTrue(result.output.hasPrefix("vendor-argument-parser: \(Self.vendored) is swift-argument-parser "), result.output)
    }

    /// The check sees a one-character change in a copy of the tree (the script and the
    /// vendored folder), outside the patch and inside the lines it changes.
    func testTheCheckNamesAFileChangedByOneCharacter() throws {
        let directory = try TemporaryDirectory("vendored-parser")
        let files = FileManager.default
        try files.createDirectory(at: directory.url.appendingPathComponent("scripts"), withIntermediateDirectories: true)
        try files.createDirectory(at: directory.url.appendingPathComponent("Vendor"), withIntermediateDirectories: true)
        for path in [Self.script, Self.vendored] {
            try files.copyItem(at: Fixtures.packageRoot.appendingPathComponent(path), to: directory.url.appendingPathComponent(path))
        }
        XCTAssertEqual(try check(root: directory.url).status, 0, "the copy passes before the change")
        let changes = [("Sources/ArgumentParser/Parsing/ArgumentSet.swift", "struct ArgumentSet", "struct ArgumentSeT"),
                       ("Sources/ArgumentParser/Utilities/Foundation.swift", "String(describing: self)", "String(describing: selF)")]
        for (file, from, to) in changes {
            let url = directory.url.appendingPathComponent(Self.vendored + "/" + file)
            let original = try String(contentsOf: url, encoding: .utf8)
            XCTAssertTrue(original.contains(from), file)
            try original.replacingOccurrences(of: from, with: to).write(to: url, atomically: true, encoding: .utf8)
            let result = try check(root: directory.url)
            XCTAssertEqual(result.status, 1, result.output)
            XCTAssertTrue(result.output.contains("\(Self.vendored)/\(file): "), result.output)
            try original.write(to: url, atomically: true, encoding: .utf8)
        }
    }
}
