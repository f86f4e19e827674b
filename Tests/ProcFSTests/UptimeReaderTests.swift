import XCTest
import ProcFS

final class UptimeReaderTests: XCTestCase {
    private func parse(_ text: String) -> Uptime? {
        var uptime = Uptime()
        return withBytes(text) { UptimeReader.parse($0, into: &uptime) } ? uptime : nil
    }

    func testSecondsWithTwoDecimalsBecomeCentiseconds() throws {
        let uptime = try XCTUnwrap(parse("12345.67 23456.78\n"))
        XCTAssertEqual(uptime.uptimeCentiseconds, 1234567)
        XCTAssertEqual(uptime.idleCentiseconds, 2345678)
    }

    func testWholeSecondsAndOneDecimalAreScaled() throws {
        let uptime = try XCTUnwrap(parse("5 7.5\n"))
        XCTAssertEqual(uptime.uptimeCentiseconds, 500)
        XCTAssertEqual(uptime.idleCentiseconds, 750)
    }

    func testMissingIdleFieldOrGarbageIsUnparsable() {
        XCTAssertNil(parse("12345.67\n"))
        XCTAssertNil(parse("up 1.00\n"))
        XCTAssertNil(parse(""))
    }

    func testFixturesReadFromTheirTrees() throws {
        let modern = try XCTUnwrap(UptimeReader(procRoot: fixtureProcRoot("procsys-modern")).update(ReadBuffer()))
        XCTAssertEqual(modern.uptimeCentiseconds, 192114)
        XCTAssertEqual(modern.idleCentiseconds, 350812)
        let old = try XCTUnwrap(UptimeReader(procRoot: fixtureProcRoot("procsys-old-kernel")).update(ReadBuffer()))
        XCTAssertEqual(old.uptimeCentiseconds, 9254127)
        XCTAssertEqual(old.idleCentiseconds, 36451804)
    }

    func testUpdatingTwiceGivesTheSameReading() throws {
        let reader = UptimeReader(procRoot: fixtureProcRoot("procsys-modern"))
        let buffer = ReadBuffer()
        let first = try XCTUnwrap(reader.update(buffer))
        XCTAssertEqual(reader.update(buffer), first)
        XCTAssertEqual(reader.reading, first)
    }

    func testMissingFileGivesNilNotACrash() {
        XCTAssertNil(UptimeReader(procRoot: missingProcRoot).update(ReadBuffer()))
    }
}
