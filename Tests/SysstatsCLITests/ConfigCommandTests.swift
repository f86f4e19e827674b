import Foundation
import XCTest
@testable import SysstatsCLI

/// `sysstats config check` and `sysstats config example`.
final class ConfigCommandTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testTheExampleIsTheAssetByteForByte() throws {
        let asset = try String(contentsOf: Self.root.appendingPathComponent("assets/config.toml"), encoding: .utf8)
        XCTAssertEqual(ExampleConfig.text + "\n", asset, "copy assets/config.toml into ExampleConfig.swift")
    }

    func testAGoodFileIsOkAndABadOneNamesEachProblem() throws {
        let good = ConfigCommands.check(path: Self.root.appendingPathComponent("Tests/Fixtures/config/full.toml").path)
        XCTAssertEqual(good.status, 0)
        XCTAssertTrue(good.stdout.first?.hasSuffix("full.toml: ok") == true, "\(good)")
        let bad = NSTemporaryDirectory() + "sysstats-bad-\(UUID().uuidString).toml"
        defer { try? FileManager.default.removeItem(atPath: bad) }
        try "[sampler]\nhistory = \"yes\"\n[[block]]\nblock = \"cpu\"\nwarning = 200\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let result = ConfigCommands.check(path: bad)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, ["\(bad):5:11: out of range: 0 to 100",
                                       "\(bad):2:11: expected true or false, found string"])
        try "a = [1,\n".write(toFile: bad, atomically: true, encoding: .utf8)
        XCTAssertEqual(ConfigCommands.check(path: bad).stderr.count, 1)
        XCTAssertEqual(ConfigCommands.check(path: "/nonexistent/c.toml").status, 1)
    }
}
