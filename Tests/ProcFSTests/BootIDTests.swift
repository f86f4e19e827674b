import XCTest
import ProcFS

final class BootIDTests: XCTestCase {
    func testUUIDTextWithTrailingNewlineGivesExactly36Bytes() throws {
        let id = try XCTUnwrap(BootID("1eddd26a-bed7-45c3-88ca-11e106c23142\n"))
        XCTAssertEqual(id.bytes.count, 36)
        XCTAssertEqual(id.bytes, Array("1eddd26a-bed7-45c3-88ca-11e106c23142".utf8))
        XCTAssertEqual(id.description, "1eddd26a-bed7-45c3-88ca-11e106c23142")
    }

    func testUppercaseHexIsAcceptedAndKeptLowercase() throws {
        let id = try XCTUnwrap(BootID("1EDDD26A-BED7-45C3-88CA-11E106C23142"))
        XCTAssertEqual(id, BootID("1eddd26a-bed7-45c3-88ca-11e106c23142"))
    }

    func testWrongLengthMisplacedDashesOrNonHexAreNil() {
        for text in ["", "\n",
                     "1eddd26a-bed7-45c3-88ca-11e106c2314",        // 35
                     "1eddd26a-bed7-45c3-88ca-11e106c231420",      // 37
                     "1eddd26abed7-45c3-88ca-11e106c23142-",       // dash moved
                     "1eddd26a-bed7-45c3-88ca-11e106c2314g",       // not hex
                     "1eddd26a-bed7-45c3-88ca 11e106c23142",       // blank for dash
                     "1eddd26a-bed7-45c3-88ca-11e106c23142\n\n",   // two newlines
                     "{eddd26a-bed7-45c3-88ca-11e106c23142}"] {
            XCTAssertNil(BootID(text), "\(text.debugDescription) should not be a boot id")
        }
    }

    func testReadFromFixtureTrees() throws {
        XCTAssertEqual(BootID.read(procRoot: fixtureProcRoot("procsys-modern"))?.description,
                       "1eddd26a-bed7-45c3-88ca-11e106c23142")
        XCTAssertEqual(BootID.read(procRoot: fixtureProcRoot("procsys-old-kernel"))?.description,
                       "5b2f2d0e-9c41-4f7a-8a3e-2d6b1c9e0f47")
    }

    func testMissingFileGivesNil() {
        XCTAssertNil(BootID.read(procRoot: missingProcRoot))
    }

    func testOversizedFileGivesNil() throws {
        let root = try makeTemporaryProcRoot()
        XCTAssertEqual(mkdir(root + "/sys", 0o700), 0)
        XCTAssertEqual(mkdir(root + "/sys/kernel", 0o700), 0)
        XCTAssertEqual(mkdir(root + "/sys/kernel/random", 0o700), 0)
        try writeFile(root + "/sys/kernel/random/boot_id",
                      "1eddd26a-bed7-45c3-88ca-11e106c23142" + String(repeating: "x", count: 200))
        XCTAssertNil(BootID.read(procRoot: root))
    }
}
