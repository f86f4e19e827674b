import Foundation
import XCTest
import TestSupport

extension Array where Element == UInt8 {
    /// The bytes as text, for readable assertions.
    var text: String { String(decoding: self, as: UTF8.self) }
}


/// `Tests/Fixtures/<name>/proc`.
func fixtureProcRoot(_ name: String) -> String { Fixtures.path(name + "/proc") }

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

/// Writes `text` to `root/relative`, creating the directories on the way.
func writeFile(_ root: String, _ relative: String, _ text: String) throws {
    let path = root + "/" + relative
    try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                            withIntermediateDirectories: true)
    try writeFile(path, text)
}
