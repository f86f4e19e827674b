import XCTest
import Foundation
import Glibc
import ProcFS

/// pread and pwrite are bare system calls (CDirect): their errors come back as the kernel's
/// negative return, not errno, and must still reach the caller as the right Errno.
final class FileDescriptorTests: XCTestCase {
    func testReadAtAnOffsetReadsFromThereAndAnErrorIsTheKernelsErrno() throws {
        let root = try makeTemporaryProcRoot()
        try writeFile(root + "/file", "0123456789")
        let fd = try FileDescriptor.open(root + "/file").get()
        defer { fd.close() }
        var bytes = [UInt8](repeating: 0, count: 4)
        let n = try bytes.withUnsafeMutableBytes { try fd.read(into: $0, at: 3).get() }
        XCTAssertEqual(n, 4)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "3456")
        let past = try bytes.withUnsafeMutableBytes { try fd.read(into: $0, at: 100).get() }
        XCTAssertEqual(past, 0, "past the end: nothing, no error")
        let closed = FileDescriptor(rawValue: -1)
        let result = bytes.withUnsafeMutableBytes { closed.read(into: $0, at: 0) }
        XCTAssertEqual(result.failureValue, Errno(rawValue: EBADF))
    }

    func testWriteAtAnOffsetWritesThereAndAnErrorIsTheKernelsErrno() throws {
        let root = try makeTemporaryProcRoot()
        let path = root + "/file"
        try writeFile(path, "..........")
        let raw = Glibc.open(path, O_RDWR | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(raw, 0)
        let fd = FileDescriptor(rawValue: raw)
        XCTAssertNil(Array("abc".utf8).withUnsafeBytes { fd.writeAll($0, atOffset: 4) })
        fd.close()
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "....abc...")
        let readOnly = try FileDescriptor.open(path).get()
        defer { readOnly.close() }
        XCTAssertEqual(Array("x".utf8).withUnsafeBytes { readOnly.writeAll($0, atOffset: 0) }, Errno(rawValue: EBADF))
    }
}

private extension Result {
    var failureValue: Failure? {
        if case .failure(let e) = self { return e }
        return nil
    }
}
