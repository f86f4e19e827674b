import Foundation
import ProcFS
import TestSupport
import XCTest

/// Paths that are not UTF-8 (legal on Linux: any byte but NUL) kept byte for byte through the
/// Strings the programs hold them in (issue 59, defect 9: HOME=/home/jos\xe9 made the sampler
/// fill /home/jos\u{FFFD}, a folder of its own making).
final class PathBytesTests: XCTestCase {
    func exact(_ bytes: [UInt8]) -> [UInt8] { pathBytes(pathString(bytes: bytes)) }
    func syscallBytes(_ string: String) -> [UInt8] { cPath(string).dropLast().map { UInt8(bitPattern: $0) } }

    func testBytesThatAreNotUTF8ComeBackExactlyForTheSystemCall() {
        let cases: [[UInt8]] = [
            Array("/home/jos".utf8) + [0xE9],                  // Latin-1 é
            [0x2F, 0xFF, 0x2F, 0x80, 0xBF],                     // invalid lead, lone continuations
            [0x2F, 0xC0, 0xAF, 0xED, 0xA0, 0x80],               // overlong "/", a surrogate
            [0x2F, 0xE2, 0x82],                                  // truncated at the end
            [0x2F, 0xF4, 0x90, 0x80, 0x80],                     // above U+10FFFF
            [0xF4, 0x8F, 0xBF, 0xBF, 0x2F, 0xF4, 0x8F, 0xBE, 0x80],   // the carrying scalars themselves, valid
        ]
        for bytes in cases {
            XCTAssertEqual(exact(bytes), bytes, "\(bytes)")
            XCTAssertEqual(syscallBytes(pathString(bytes: bytes)), bytes, "cPath gives the bytes back: \(bytes)")
        }
    }

    func testEveryShortByteStringRoundTrips() {
        // Every string of up to two bytes, and random longer ones: the carriage is exact for all.
        for a in 0...255 {
            XCTAssertEqual(exact([UInt8(a)]), [UInt8(a)])
            for b in stride(from: 0, through: 255, by: 3) { XCTAssertEqual(exact([UInt8(a), UInt8(b)]), [UInt8(a), UInt8(b)]) }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 1...24, using: &generator)).map { _ in UInt8.random(in: 1...255, using: &generator) }
            XCTAssertEqual(exact(bytes), bytes, "\(bytes)")
        }
    }

    func testAPathThatIsUTF8IsTheStringItAlwaysWas() {
        let text = "/run/user/1000/Café 日本 😀"
        XCTAssertEqual(pathString(bytes: Array(text.utf8)), text)
        XCTAssertEqual(syscallBytes(text), Array(text.utf8))
    }

    func testAFileWhoseNameIsNotUTF8IsOpenedByItsOwnName() throws {
        let directory = try TemporaryDirectory("path-bytes")
        let name: [UInt8] = Array(directory.path.utf8) + [0x2F, 0x66, 0xFF]   // <dir>/f\xff
        let nameC = name.map { CChar(bitPattern: $0) } + [0]
        let fd = open(nameC, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        let content: [UInt8] = [0x78]
        XCTAssertEqual(write(fd, content, 1), 1)
        close(fd)
        defer { unlink(nameC) }
        XCTAssertEqual(try readRegularFile(pathString(bytes: name), limit: 16).get(), [0x78])
        XCTAssertThrowsError(try readRegularFile(String(decoding: name, as: UTF8.self), limit: 16).get(),
                             "the repaired name is another file, which is not there")
    }
}
