import Foundation
import TestSupport
import TOML
import XCTest

/// Python's tomllib as a second opinion on every case of TOMLCases.swift: it reads each
/// valid case as the same values (floats to the bit), refuses each invalid case, and reads
/// the cases refused here on purpose (dates, integers beyond 64 bits) while this parser
/// refuses them. The one case accepted here on purpose (a byte order mark) it refuses.
final class TOMLPythonTests: XCTestCase {
    func testTomllibAgreesOnEveryCase() throws {
        let directory = try TemporaryDirectory("toml")
        var files: [(name: String, file: String, bytes: [UInt8])] = []
        func add(_ prefix: String, _ index: Int, _ name: String, _ bytes: [UInt8]) throws {
            let file = "\(prefix)-\(index).toml"
            try directory.write(bytes, to: file)
            files.append((name, directory.file(file), bytes))
        }
        for (i, c) in TOMLCases.valid.enumerated() { try add("valid", i, c.name, Array(c.text.utf8)) }
        for (i, c) in TOMLCases.acceptedOnPurpose.enumerated() { try add("accepted", i, c.name, Array(c.text.utf8)) }
        for (i, c) in TOMLCases.invalid.enumerated() { try add("invalid", i, c.name, c.bytes) }
        for (i, c) in TOMLCases.refusedOnPurpose.enumerated() { try add("refused", i, c.name, c.bytes) }

        let verdicts = try tomllib(files.map(\.file))
        XCTAssertEqual(verdicts.count, files.count)
        var counts: [String: Int] = [:]
        for f in files {
            guard let verdict = verdicts[f.file] else {
                XCTFail("\(f.name): no verdict from tomllib")
                continue
            }
            let kind = URL(fileURLWithPath: f.file).lastPathComponent.split(separator: "-")[0]
            counts[String(kind), default: 0] += 1
            switch kind {
            case "valid":
                XCTAssertEqual(verdict.accepted ? verdict.dump : "refused: " + verdict.dump, try ours(f.bytes), f.name)
            case "accepted":
                XCTAssertFalse(verdict.accepted, "\(f.name): tomllib reads it")
                XCTAssertNoThrow(try TOMLDocument.parse(f.bytes), f.name)
            case "invalid":
                XCTAssertFalse(verdict.accepted, "\(f.name): tomllib reads it as \(verdict.dump)")
            default:
                XCTAssertTrue(verdict.accepted, "\(f.name): tomllib refuses it: \(verdict.dump)")
                XCTAssertThrowsError(try TOMLDocument.parse(f.bytes), f.name)
            }
        }
        XCTAssertEqual(counts, ["valid": TOMLCases.valid.count, "accepted": TOMLCases.acceptedOnPurpose.count,
                                "invalid": TOMLCases.invalid.count, "refused": TOMLCases.refusedOnPurpose.count])
    }

    private func ours(_ bytes: [UInt8]) throws -> String {
        Dump.canonical(try TOMLDocument.parse(bytes).root.value)
    }

    /// scripts/tomllib-dump.py over `paths`: per file, whether tomllib read it and its
    /// dump (or its message).
    private func tomllib(_ paths: [String]) throws -> [String: (accepted: Bool, dump: String)] {
        let script = Fixtures.packageRoot.appendingPathComponent("scripts/tomllib-dump.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + paths
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "python3 scripts/tomllib-dump.py failed (Python 3.11 or later is needed)")
        var verdicts: [String: (Bool, String)] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            verdicts[String(fields[0])] = (fields[1] == "OK", String(fields[2]))
        }
        return verdicts
    }
}
