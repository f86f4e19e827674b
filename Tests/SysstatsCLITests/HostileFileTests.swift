import Foundation
import XCTest
@testable import SysstatsCLI

/// Files named on the command line are the user's, but may be anything: a FIFO (which
/// would block an open forever), a directory, a device. They are refused in one line, at once.
final class HostileFileTests: XCTestCase {
    func testImportingAFIFOIsRefusedAtOnceAndChangesNothing() throws {
        let temporary = try TemporaryDirectory()
        let fifo = temporary.file("pipe.sysstats-bookmarks")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let data = temporary.file("data")
        let out = BookmarkCommands.importFile(directory: data, file: fifo)
        XCTAssertEqual(out.status, 1)
        XCTAssertEqual(out.stderr, ["sysstats: \(fifo) is a FIFO, not a regular file"])
        guard case .failure(let problem) = BookmarkCommands.copyToInbox(directory: data, file: fifo) else {
            return XCTFail("a FIFO was copied into the inbox")
        }
        XCTAssertEqual(problem.message, "\(fifo) is a FIFO, not a regular file")
        XCTAssertFalse(FileManager.default.fileExists(atPath: data + "/Inbox"), "nothing copied into Inbox/")
    }

    func testAFIFOAtThePictureTemporaryNameIsReplacedNotWrittenInto() throws {
        let temporary = try TemporaryDirectory()
        let target = temporary.file("chart.png")
        XCTAssertEqual(mkfifo(target + ".tmp-\(getpid())", 0o600), 0)
        XCTAssertNil(PNG.writeFile([1, 2, 3], to: target))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: target)), Data([1, 2, 3]))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary.path), ["chart.png"])
    }
}

extension HostileFileTests {
    func testRestoringFromAFIFOIsRefusedAtOnceAndChangesNothing() throws {
        let temporary = try TemporaryDirectory()
        let fifo = temporary.file("backup.sqlite")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let runtime = try TemporaryDirectory()
        let out = HistoryCommands.checkRestore(candidate: fifo, directory: temporary.file("data"), runtimeDirectory: runtime.path)
        XCTAssertEqual(out.status, 1)
        XCTAssertTrue(out.stderr.first?.contains("is not a regular file") == true, "\(out.stderr)")
    }
}
