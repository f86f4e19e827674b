import Foundation
import XCTest
@testable import Sampler

final class RuntimeDirectoryTests: XCTestCase {
    var base: URL!

    override func setUpWithError() throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("sysstats-rt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: base) }

    func testDefaultIsUnderXDGRuntimeDirElseTmpWithUID() {
        XCTAssertEqual(RuntimeDirectory.defaultPath(environment: "/run/user/1000", uid: 1000), "/run/user/1000/sysstats")
        XCTAssertEqual(RuntimeDirectory.defaultPath(environment: nil, uid: 1000), "/tmp/sysstats-1000")
        XCTAssertEqual(RuntimeDirectory.defaultPath(environment: "relative/dir", uid: 7), "/tmp/sysstats-7")
        XCTAssertEqual(RuntimeDirectory.defaultPath(environment: "", uid: 7), "/tmp/sysstats-7")
    }

    func testPrepareCreatesAPrivateDirectory() throws {
        let dir = base.appendingPathComponent("new").path
        XCTAssertNoThrow(try RuntimeDirectory.prepare(dir).get())
        let mode = try FileManager.default.attributesOfItem(atPath: dir)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o700)
    }

    func testSymlinkIsRefused() throws {
        let target = base.appendingPathComponent("target")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let link = base.appendingPathComponent("link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target.path)
        guard case .failure(let e) = RuntimeDirectory.prepare(link) else { return XCTFail("symlink accepted") }
        XCTAssertTrue(e.description.contains("symbolic link"), e.description)
    }

    func testGroupOrWorldAccessibleDirectoryIsRefusedWithTheFix() throws {
        let dir = base.appendingPathComponent("open")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        guard case .failure(let e) = RuntimeDirectory.prepare(dir.path) else { return XCTFail("0755 accepted") }
        XCTAssertEqual(e.description, "runtime directory \(dir.path) has mode 0755; it must be 0700 (chmod 700 \(dir.path))")
    }

    func testDirectoryOwnedBySomeoneElseIsRefused() throws {
        let dir = base.appendingPathComponent("theirs")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        guard case .failure(let e) = RuntimeDirectory.check(dir.path, uid: geteuid() &+ 1) else { return XCTFail("foreign owner accepted") }
        XCTAssertTrue(e.description.contains("is owned by uid"), e.description)
    }

    func testAPlainFileIsRefused() throws {
        let file = base.appendingPathComponent("file")
        FileManager.default.createFile(atPath: file.path, contents: Data())
        guard case .failure(let e) = RuntimeDirectory.prepare(file.path) else { return XCTFail("file accepted") }
        XCTAssertTrue(e.description.contains("not a directory"), e.description)
    }

    func testAnXDGRuntimeDirThatIsNotUTF8IsCreatedUnderItsOwnName() throws {
        // XDG_RUNTIME_DIR=<base>/u\xff: the sampler made <base>/u\u{FFFD}/sysstats, or failed
        // to, and the bar (which keeps bytes) watched the real one (issue 59, defect 9).
        let xdg: [UInt8] = Array(base.path.utf8) + [0x2F, 0x75, 0xFF]
        let xdgC = xdg.map { CChar(bitPattern: $0) } + [0]
        XCTAssertEqual(mkdir(xdgC, 0o700), 0)
        setenv("SYSSTATS_TEST_XDG_RUNTIME_DIR", xdgC, 1)
        defer { unsetenv("SYSSTATS_TEST_XDG_RUNTIME_DIR") }
        let path = RuntimeDirectory.defaultPath(environment: environmentValue("SYSSTATS_TEST_XDG_RUNTIME_DIR"), uid: 1000)
        XCTAssertNoThrow(try RuntimeDirectory.prepare(path).get())
        let madeC = Array(xdgC.dropLast()) + Array("/sysstats".utf8CString)
        defer { rmdir(madeC); rmdir(xdgC) }   // FileManager cannot name them to remove them
        var info = stat()
        XCTAssertEqual(stat(madeC, &info), 0, "made inside the folder named")
        let repaired = base.appendingPathComponent("u\u{FFFD}").path
        XCTAssertFalse(FileManager.default.fileExists(atPath: repaired), "no folder of the repaired name")
    }
}
