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

import XCTest

/// `Tests/Fixtures/<name>/proc`, found from this source file's path (no Foundation needed).
func fixtureProcRoot(_ name: String, filePath: String = #filePath) -> String {
    var path = Substring(filePath)
    // …/Tests/ProcFSTests/FixtureSupport.swift → …/Tests
    for _ in 0..<2 { path = path[..<path.lastIndex(of: "/")!] }
    return path + "/Fixtures/" + name + "/proc"
}

/// A root where nothing exists: every reader must answer nil, not crash.
let missingProcRoot = "/nonexistent-sysstats-fixture-root/proc"

/// Runs `body` on the UTF-8 bytes of `text`, like a file's contents in the read buffer.
func withBytes<R>(_ text: String, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    var text = text
    return text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
}

extension XCTestCase {
    /// A fresh empty directory under /tmp to stand in for a proc root, removed after the test.
    func makeTemporaryProcRoot() throws -> String {
        var template = Array("/tmp/sysstats-procfs-test-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        let root = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: root) }
        return root
    }
}

/// Writes `text` to `path`, truncating the same inode (so an open descriptor sees the new text).
func writeFile(_ path: String, _ text: String) throws {
    guard let f = fopen(path, "w") else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    defer { fclose(f) }
    guard fputs(text, f) >= 0 else { throw POSIXError(.EIO) }
}
