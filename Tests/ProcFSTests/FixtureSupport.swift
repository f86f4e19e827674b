import Foundation

/// Fixture trees live in `Tests/Fixtures/<case>/`, beside this test target.
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func path(_ relative: String) -> String {
        root.appendingPathComponent(relative).path
    }
}

/// A temporary directory whose contents a test replaces between two scans, so one
/// reader (which keeps the directory open) sees two states of the same tree.
final class MutableTree {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("procfs-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    var path: String { url.path }

    /// Empties the tree, then copies every entry of the fixture folder into it.
    func replaceContents(withFixture relative: String) throws {
        let fm = FileManager.default
        for name in try fm.contentsOfDirectory(atPath: url.path) {
            try fm.removeItem(at: url.appendingPathComponent(name))
        }
        let source = Fixtures.root.appendingPathComponent(relative)
        for name in try fm.contentsOfDirectory(atPath: source.path) {
            try fm.copyItem(at: source.appendingPathComponent(name), to: url.appendingPathComponent(name))
        }
    }
}

extension Array where Element == UInt8 {
    /// The bytes as text, for readable assertions.
    var text: String { String(decoding: self, as: UTF8.self) }
}
