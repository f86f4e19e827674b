import BarCore
import Foundation
import SnapshotCodec
import SysstatsCLI
import XCTest

/// What README.md shows a newcomer works as shown: its config file example is one the bar
/// takes, with the blocks it names, and its `sysstats report` line is what the report
/// prints for a snapshot with those figures.
final class ReadmeTests: XCTestCase {
    static let readme: String = {
        let url = ConfigCommandTests.root.appendingPathComponent("README.md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

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

    func testTheReportLineIsWhatTheReportPrints() {
        let line = ReportLine.format(Samples.readme, columns: 80)
        XCTAssertTrue(Self.readme.contains("```\n" + line + "\n```"), "README.md shows `sysstats report` as:\n\(line)")
    }
}

extension Samples {
    /// The laptop of the README's report line, with a sensor at 52 °C.
    static var readme: Snapshot {
        var s = Samples.laptop
        s.available.insert(.temperature)
        var t = TemperatureFigures()
        t.chip = Array("coretemp".utf8); t.label = Array("Package id 0".utf8); t.milliCelsius = 52_000
        s.temperatures = [t]
        return s
    }
}
