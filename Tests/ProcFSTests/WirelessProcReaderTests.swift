import Foundation
import XCTest
import ProcFS

final class WirelessProcReaderTests: XCTestCase {
    private let header = """
        Inter-| sta-|   Quality        |   Discarded packets               | Missed | WE
         face | tus | link level noise |  nwid  crypt   frag  retry   misc | beacon | 22

        """

    private func parse(_ text: String, _ name: String) -> WirelessProcReading? {
        withBytes(text) { bytes in ShortName(name).withBytes { WirelessProcReader.parse(bytes, interface: $0) } }
    }

    func testTheInterfacesLineGivesLinkAndLevel() throws {
        let text = header + " wlan0: 0000   70.  -40.  -256        0      0      0      0      0        0\n"
        let r = try XCTUnwrap(parse(text, "wlan0"))
        XCTAssertEqual(r.link, 70)
        XCTAssertEqual(r.levelDBm, -40)
        XCTAssertEqual(r.qualityPercent, 100)
    }

    func testTheRightLineIsChosenAmongSeveralAndNamesMatchExactly() throws {
        let text = header
            + "wlan0: 0000   35.  -75.  -256        0      0      0      0      0        0\n"
            + "wlan01: 0000   10.  -90.  -256        0      0      0      0      0        0\n"
        XCTAssertEqual(parse(text, "wlan0"), WirelessProcReading(link: 35, levelDBm: -75))
        XCTAssertEqual(parse(text, "wlan0")?.qualityPercent, 50)
        XCTAssertEqual(parse(text, "wlan01")?.link, 10)
        XCTAssertNil(parse(text, "wlan"))
        XCTAssertNil(parse(text, "eth0"))
        XCTAssertNil(parse(text, ""))
    }

    func testValuesWithoutTheUpdatedMarkAreRead() {
        let text = header + "  wlp2s0: 0000   52   -58   -256        0      0      0      0      0        0\n"
        XCTAssertEqual(parse(text, "wlp2s0"), WirelessProcReading(link: 52, levelDBm: -58))
    }

    func testLevelsAreDBmOrNil() {
        func level(_ field: String) -> Int8?? {
            parse(header + "wlan0: 0000   40.  \(field)  -256  0 0 0 0 0  0\n", "wlan0").map(\.levelDBm)
        }
        XCTAssertEqual(level("-256."), .some(nil))  // 0 − 256: no level
        XCTAssertEqual(level("-300."), .some(nil))
        XCTAssertEqual(level("-200."), .some(-128))  // clamped
        XCTAssertEqual(level("216."), .some(-40))    // an old driver's raw u8
        XCTAssertEqual(level("50."), .some(nil))     // relative units, not dBm
        XCTAssertEqual(level("0."), .some(nil))
    }

    func testOddLinkValuesClampAndGarbageIsNil() {
        XCTAssertEqual(parse(header + "wlan0: 0000 99999. -40. -256\n", "wlan0")?.link, 255)
        XCTAssertEqual(parse(header + "wlan0: 0000 99999. -40. -256\n", "wlan0")?.qualityPercent, 100)
        XCTAssertEqual(parse(header + "wlan0: 0000 -5. -40. -256\n", "wlan0")?.link, 0)
        XCTAssertNil(parse(header + "wlan0: 0000 x. -40.\n", "wlan0"))
        XCTAssertNil(parse(header + "wlan0:", "wlan0"))
        XCTAssertNil(parse("", "wlan0"))
    }

    func testReaderReadsTheFileUnderItsProcRoot() throws {
        let root = try makeTemporaryProcRoot()
        try FileManager.default.createDirectory(atPath: root + "/net", withIntermediateDirectories: true)
        try writeFile(root + "/net/wireless", header + " wlan0: 0000   63.  -47.  -256        0      0      0      0      0        0\n")
        let reader = WirelessProcReader(procRoot: root)
        let buffer = ReadBuffer(capacity: 64)
        XCTAssertEqual(reader.update(buffer, interface: ShortName("wlan0")), WirelessProcReading(link: 63, levelDBm: -47))
        XCTAssertNil(reader.update(buffer, interface: ShortName("eth0")))
        XCTAssertNil(reader.update(buffer, interface: ShortName()))
        // Kept open: a new line is seen on the next update.
        try writeFile(root + "/net/wireless", header + " wlan0: 0000   21.  -85.  -256        0      0      0      0      0        0\n")
        XCTAssertEqual(reader.update(buffer, interface: ShortName("wlan0"))?.link, 21)
    }

    func testMissingFileGivesNil() {
        XCTAssertNil(WirelessProcReader(procRoot: missingProcRoot).update(ReadBuffer(), interface: ShortName("wlan0")))
    }
}
