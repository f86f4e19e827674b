import Foundation
import ProcFS
import XCTest

/// The one atomic writer: a regular file is replaced whole; a device or a pipe is written to
/// as it is and never replaced (a file renamed over /dev/null, as root, broke the machine).
final class AtomicWriteTests: XCTestCase {
    func testARegularFileIsReplacedWhole() throws {
        let path = NSTemporaryDirectory() + "sysstats-atomic-\(UUID().uuidString)"
        defer { unlink(path) }
        XCTAssertNil(writeFileAtomically(Array("one".utf8), to: path, mode: 0o600))
        XCTAssertNil(writeFileAtomically(Array("two".utf8), to: path, mode: 0o600))
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "two")
    }

    func testDevNullIsWrittenToAndStaysADevice() {
        XCTAssertNil(writeFileAtomically(Array("report".utf8), to: "/dev/null", mode: 0o644))
        var info = stat()
        XCTAssertEqual(stat("/dev/null", &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFCHR, "/dev/null is still a character device")
    }

    func testAPipeGetsTheBytesAndADirectoryIsRefused() throws {
        let pipe = Pipe()
        let path = "/proc/self/fd/\(pipe.fileHandleForWriting.fileDescriptor)"
        XCTAssertNil(writeFileAtomically(Array("through".utf8), to: path, mode: 0o644))
        try pipe.fileHandleForWriting.close()
        XCTAssertEqual(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "through")
        XCTAssertNotNil(writeFileAtomically([1], to: NSTemporaryDirectory(), mode: 0o644))
    }
}
