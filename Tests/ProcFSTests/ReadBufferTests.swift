import Foundation
@testable import ProcFS
import XCTest

/// A whole file in one buffer: a seq_file gives about a page per read, however large the
/// buffer (one pread of /proc/self/smaps gave 4,037 of 29,173 bytes), so the reads go on
/// from where one stopped.
final class ReadBufferTests: XCTestCase {
    func testASeqFileLongerThanAPageIsReadWhole() throws {
        let buffer = ReadBuffer(capacity: 256 * 1024)
        guard case .success(let bytes) = buffer.fill(path: "/proc/self/maps") else { return XCTFail("no /proc/self/maps") }
        let whole = try XCTUnwrap(FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile())
        // The mappings may change between the two reads (an allocation); the lines are whole.
        XCTAssertGreaterThan(bytes.count, 4096, "this test process maps more than a page of lines")
        XCTAssertEqual(Double(bytes.count), Double(whole.count), accuracy: Double(whole.count) * 0.1)
        XCTAssertEqual(bytes.last, 0x0A, "ends at a line's end, not a page's")
    }

    func testAFileLargerThanTheBufferIsReadAgainWholeAfterItGrows() throws {
        let dir = NSTemporaryDirectory() + "readbuffer-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = (0..<2000).map { "line \($0)\n" }.joined()
        try text.write(toFile: dir + "/f", atomically: true, encoding: .utf8)
        let buffer = ReadBuffer(capacity: 1024, maximumCapacity: 1 << 20)
        guard case .success(let bytes) = buffer.fill(path: dir + "/f") else { return XCTFail("not read") }
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), text)
        let capped = ReadBuffer(capacity: 1024, maximumCapacity: 4096)
        guard case .success(let cut) = capped.fill(path: dir + "/f") else { return XCTFail("not read") }
        XCTAssertEqual(cut.count, 4096, "at most the cap")
    }
}
