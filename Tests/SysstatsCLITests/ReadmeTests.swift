import BarCore
import Foundation
import SnapshotCodec
import SysstatsCLI
import XCTest

/// What README.md shows a newcomer works as shown: its config file example is one the bar
/// takes, with the blocks it names, and its `sysstats report` line (docs/usage.md's too) is
/// what `report` prints for a committed snapshot, read from its file as the command reads it
/// (written there by SYSSTATS_UPDATE_MANUAL=1, scripts/generate-manual.sh).
final class ReadmeTests: XCTestCase {
    static let readme: String = {
        let url = ConfigCommandTests.root.appendingPathComponent("README.md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    /// The station of the bar's golden tests: a desktop on Wi-Fi with a sensor, disks and a GPU.
    static let reportSnapshot = "Tests/BarCoreTests/Golden/station.snapshot"

    /// The fenced blocks of `language` (the text between ```language and ```).
    func blocks(_ language: String) -> [String] {
        Self.readme.components(separatedBy: "```" + language + "\n").dropFirst().map { $0.components(separatedBy: "```").first ?? "" }
    }

    func testTheConfigExampleIsOneTheBarTakesWithTheBlocksItNames() throws {
        let examples = blocks("toml")
        XCTAssertEqual(examples.count, 1, "README.md has one config example")
        let text = try XCTUnwrap(examples.first)
        let config = Array(text.utf8).withUnsafeBytes { BarConfig.parse($0) }
        switch config {
        case .success(let c):
            XCTAssertEqual(c.blocks?.map { "\($0.kind.name)" }, ["cpu", "disk", "time"])
            XCTAssertEqual(c.blocks?[1].argument, Array("/home".utf8))
        case .failure(let e):
            XCTFail("README.md's config example: line \(e.line): \(String(decoding: e.reason, as: UTF8.self))")
        }
    }

    func testTheReportLineIsWhatReportPrintsForACommittedSnapshot() throws {
        // The command reads only from a private directory (mode 0700), as the sampler's.
        let directory = try TemporaryDirectory()
        let bytes = try Data(contentsOf: ConfigCommandTests.root.appendingPathComponent(Self.reportSnapshot))
        try directory.write([UInt8](bytes), to: "snapshot")
        let path = directory.file("snapshot")
        let snapshot = try SnapshotFile.read(path: path).get()
        let out = Report.run(path: path, json: false, nowMs: snapshot.timestampMs)
        XCTAssertEqual(out.status, 0, "\(out.stderr)")
        XCTAssertEqual(out.stderr, [], "a current snapshot")
        let line = try XCTUnwrap(out.stdout.first)
        XCTAssertEqual(out.stdout.count, 1)
        for file in ["README.md", "docs/usage.md"] {
            let differing = try ReferenceSections.differing([("report line", "```\n" + line + "\n```\n")], in: file)
            XCTAssertEqual(differing, [], "\(file) does not show `sysstats report` as it prints:\n\(line)\nrun scripts/generate-manual.sh")
        }
    }
}
