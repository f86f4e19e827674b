#if canImport(Glibc)
import Glibc
#endif
import Foundation
import XCTest

extension TemporaryDirectory {
    /// `text` into `name` under the folder, folders made, the file rewritten in place (not
    /// replaced): the tree sampler keeps statm open, as on /proc, and must read the new text.
    public func rewrite(_ text: String, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let path = self.file(name)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0, path, file: file, line: line)
        defer { close(fd) }
        XCTAssertEqual(text.utf8.count, Array(text.utf8).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }, file: file, line: line)
    }
}

/// Runs `command` with /bin/sh, its output discarded; its exit status, -1 when it could not start.
@discardableResult
public func quietShell(_ command: String) -> Int32 {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/sh")
    p.arguments = ["-c", command]
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    guard (try? p.run()) != nil else { return -1 }
    p.waitUntilExit()
    return p.terminationStatus
}
