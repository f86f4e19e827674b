import XCTest
import ProcFS

final class LoadAverageReaderTests: XCTestCase {
    private func parse(_ text: String) -> LoadAverage? {
        var load = LoadAverage()
        return withBytes(text) { LoadAverageReader.parse($0, into: &load) } ? load : nil
    }

    func testAveragesAreTimes100AndEntitiesAreSplitAtTheSlash() throws {
        let load = try XCTUnwrap(parse("0.52 0.58 12.59 2/345 12345\n"))
        XCTAssertEqual(load.load1, 52)
        XCTAssertEqual(load.load5, 58)
        XCTAssertEqual(load.load15, 1259)
        XCTAssertEqual(load.runnable, 2)
        XCTAssertEqual(load.entities, 345)
    }

    func testTruncatedOrMalformedLineIsUnparsable() {
        XCTAssertNil(parse("0.52 0.58 0.59\n"))
        XCTAssertNil(parse("0.52 0.58 0.59 2 345 12345\n"))
        XCTAssertNil(parse("0.52 x 0.59 2/345 12345\n"))
        XCTAssertNil(parse(""))
    }

    func testFixturesReadFromTheirTrees() throws {
        let modern = try XCTUnwrap(LoadAverageReader(procRoot: fixtureProcRoot("procsys-modern")).update(ReadBuffer()))
        XCTAssertEqual([modern.load1, modern.load5, modern.load15, modern.runnable, modern.entities],
                       [114, 61, 27, 1, 86])
        let old = try XCTUnwrap(LoadAverageReader(procRoot: fixtureProcRoot("procsys-old-kernel")).update(ReadBuffer()))
        XCTAssertEqual([old.load1, old.load5, old.load15, old.runnable, old.entities],
                       [107, 86, 61, 3, 512])
    }

    func testUpdatingTwiceGivesTheSameReading() throws {
        let reader = LoadAverageReader(procRoot: fixtureProcRoot("procsys-modern"))
        let buffer = ReadBuffer()
        let first = try XCTUnwrap(reader.update(buffer))
        XCTAssertEqual(reader.update(buffer), first)
        XCTAssertEqual(reader.reading, first)
    }

    func testMissingFileGivesNilNotACrash() {
        XCTAssertNil(LoadAverageReader(procRoot: missingProcRoot).update(ReadBuffer()))
    }
}
