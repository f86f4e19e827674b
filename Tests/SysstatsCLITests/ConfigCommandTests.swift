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

extension ConfigCommandTests {
    /// The bar runs a config file's commands: `config check` refuses one that someone else
    /// could have written, as the bar and the sampler do (one check, CTrustedFile).
    func testAFileOthersCouldHaveWrittenIsRefusedWithTheReason() throws {
        let folder = NSTemporaryDirectory() + "sysstats-trust-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/config.toml"
        try "[[block]]\nblock = \"load\"\n".write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(file, 0o644), 0)
        XCTAssertEqual(ConfigCommands.check(path: file).status, 0)

        XCTAssertEqual(chmod(file, 0o664), 0)
        XCTAssertEqual(ConfigCommands.check(path: file).stderr, ["\(file): writable by group or others: refused (chmod go-w it)"])
        XCTAssertEqual(chmod(file, 0o644), 0)

        XCTAssertEqual(chmod(folder, 0o777), 0)
        XCTAssertEqual(ConfigCommands.check(path: file).stderr,
                       ["\(file): in a directory others can write: refused (chmod o-w it, or the sticky bit)"])
        XCTAssertEqual(chmod(folder, 0o1777), 0)
        XCTAssertEqual(ConfigCommands.check(path: file).status, 0, "the sticky bit keeps others from replacing our file")
        XCTAssertEqual(chmod(folder, 0o755), 0)

        // Through a symbolic link (dotfiles): the link's directory and the file's are both checked.
        let linkFolder = folder + "/links"
        try FileManager.default.createDirectory(atPath: linkFolder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o777])
        XCTAssertEqual(chmod(linkFolder, 0o777), 0)
        XCTAssertEqual(symlink(file, linkFolder + "/config.toml"), 0)
        XCTAssertEqual(ConfigCommands.check(path: linkFolder + "/config.toml").stderr,
                       ["\(linkFolder)/config.toml: in a directory others can write: refused (chmod o-w it, or the sticky bit)"])

        if geteuid() == 0 {
            XCTAssertEqual(chown(file, 65534, 65534), 0)
            XCTAssertEqual(ConfigCommands.check(path: file).stderr, ["\(file): owned by another user: refused (its commands would run as you)"])
        }
    }
}
