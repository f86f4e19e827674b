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

    func temporaryFolder() throws -> String {
        let folder = NSTemporaryDirectory() + "sysstats-atomic-\(UUID().uuidString)"
        XCTAssertEqual(mkdir(folder, 0o755), 0)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        return folder
    }

    /// Root writing `measure --output /tmp/report` where another user had linked that name to
    /// a block device overwrote the device: a link at the path is replaced, never written through.
    func testALinkAtThePathIsReplacedAndItsTargetIsNotWrittenThrough() throws {
        let folder = try temporaryFolder()
        let fifo = folder + "/fifo", target = folder + "/target", link = folder + "/report"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertEqual(symlink(fifo, link), 0)
        XCTAssertNil(writeFileAtomically(Array("report".utf8), to: link, mode: 0o644), "no hang on the FIFO, no error")
        var info = stat()
        XCTAssertEqual(lstat(link, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFREG, "the link is replaced by the report")
        XCTAssertEqual(lstat(fifo, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "the FIFO is untouched")
        // A link to a regular file: the file keeps its bytes.
        try Data("theirs".utf8).write(to: URL(fileURLWithPath: target))
        unlink(link)
        XCTAssertEqual(symlink(target, link), 0)
        XCTAssertNil(writeFileAtomically(Array("report".utf8), to: link, mode: 0o644))
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "theirs")
        XCTAssertEqual(try String(contentsOfFile: link, encoding: .utf8), "report")
        XCTAssertEqual(lstat(link, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFREG)
        // A link to a character device (as /dev/null): the device is not opened, the link goes.
        if geteuid() == 0 {
            let device = folder + "/device"
            XCTAssertEqual(mknod(device, S_IFCHR | 0o666, dev_t(1 << 8 | 3)), 0)
            unlink(link)
            XCTAssertEqual(symlink(device, link), 0)
            XCTAssertNil(writeFileAtomically(Array("report".utf8), to: link, mode: 0o644))
            XCTAssertEqual(lstat(device, &info), 0)
            XCTAssertEqual(info.st_mode & S_IFMT, S_IFCHR)
            XCTAssertEqual(lstat(link, &info), 0)
            XCTAssertEqual(info.st_mode & S_IFMT, S_IFREG)
        }
    }

    /// A FIFO at the path hung `measure` and `budget check --junit`: the user's own FIFO with
    /// no reader is an error at once, another user's FIFO or a device node is refused.
    func testAFIFOWithoutAReaderOrOfAnotherUserIsAnErrorNotAHang() throws {
        let folder = try temporaryFolder()
        let fifo = folder + "/report"
        XCTAssertEqual(mkfifo(fifo, 0o666), 0)
        let unread = try XCTUnwrap(writeFileAtomically(Array("report".utf8), to: fifo, mode: 0o644))
        XCTAssertEqual(unread.errno.rawValue, ENXIO, unread.description)
        XCTAssertTrue(unread.description.contains("no process reads the FIFO"), unread.description)
        // With a reader, the user's own FIFO gets the bytes.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        XCTAssertGreaterThanOrEqual(reader, 0)
        XCTAssertNil(writeFileAtomically(Array("report".utf8), to: fifo, mode: 0o644))
        var buffer = [UInt8](repeating: 0, count: 16)
        XCTAssertEqual(read(reader, &buffer, 16), 6)
        close(reader)
        if geteuid() == 0 {
            XCTAssertEqual(chown(fifo, 65534, 65534), 0)
            let foreign = try XCTUnwrap(writeFileAtomically(Array("report".utf8), to: fifo, mode: 0o644))
            XCTAssertTrue(foreign.description.contains("a FIFO of another user: not written"), foreign.description)
            let device = folder + "/disk"
            XCTAssertEqual(mknod(device, S_IFBLK | 0o600, dev_t(7 << 8 | 200)), 0)
            let refused = try XCTUnwrap(writeFileAtomically(Array("report".utf8), to: device, mode: 0o644))
            XCTAssertTrue(refused.description.contains("is a device: not written"), refused.description)
        }
    }

    /// `-`, /dev/stdout and /dev/fd/N are the user naming a descriptor: written as they are.
    func testTheUsersOwnDescriptorsAreWrittenAsTheyAre() throws {
        XCTAssertEqual(writtenInPlace("-"), 1)
        XCTAssertEqual(writtenInPlace("/dev/stdout"), 1)
        XCTAssertEqual(writtenInPlace("/dev/stderr"), 2)
        XCTAssertNil(writtenInPlace("/dev/fd/987"), "not open")
        XCTAssertNil(writtenInPlace("/tmp/report"))
        let pipe = Pipe()
        let path = "/dev/fd/\(pipe.fileHandleForWriting.fileDescriptor)"
        XCTAssertNil(writeFileAtomically(Array("fd".utf8), to: path, mode: 0o644))
        try pipe.fileHandleForWriting.close()
        XCTAssertEqual(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "fd")
    }
}
