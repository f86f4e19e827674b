import XCTest
import ProcFS

final class PressureReaderTests: XCTestCase {
    private func parse(_ text: String) -> MemoryPressure? {
        var pressure = MemoryPressure()
        return withBytes(text) { PressureReader.parse($0, into: &pressure) } ? pressure : nil
    }

    func testSomeAndFullAveragesAreTimes100AndTotalIsIgnored() throws {
        let p = try XCTUnwrap(parse("""
            some avg10=12.34 avg60=0.58 avg300=100.00 total=98765432
            full avg10=1.00 avg60=0.05 avg300=0.00 total=123

            """))
        XCTAssertEqual([p.someAvg10, p.someAvg60, p.someAvg300], [1234, 58, 10000])
        XCTAssertEqual([p.fullAvg10, p.fullAvg60, p.fullAvg300], [100, 5, 0])
    }

    func testMissingFullLineLeavesFullAveragesZero() throws {
        let p = try XCTUnwrap(parse("some avg10=1.00 avg60=2.00 avg300=3.00 total=0\n"))
        XCTAssertEqual([p.someAvg10, p.someAvg60, p.someAvg300], [100, 200, 300])
        XCTAssertEqual([p.fullAvg10, p.fullAvg60, p.fullAvg300], [0, 0, 0])
    }

    func testMissingSomeLineOrMalformedAveragesAreUnparsable() {
        XCTAssertNil(parse("full avg10=1.00 avg60=2.00 avg300=3.00 total=0\n"))
        XCTAssertNil(parse("some avg10=1.00 avg300=3.00 total=0\n"))
        XCTAssertNil(parse("some avg10=x avg60=2.00 avg300=3.00 total=0\n"))
        XCTAssertNil(parse(""))
    }

    func testModernFixtureReadsMemoryPressure() throws {
        let reader = PressureReader(procRoot: fixtureProcRoot("procsys-modern"),
                                    kernel: KernelRelease("6.18.44-fc-v657"))
        XCTAssertTrue(reader.isEnabled)
        let p = try XCTUnwrap(reader.update(ReadBuffer()))
        XCTAssertEqual([p.someAvg10, p.someAvg60, p.someAvg300], [123, 45, 10])
        XCTAssertEqual([p.fullAvg10, p.fullAvg60, p.fullAvg300], [50, 20, 5])
        XCTAssertEqual(reader.reading, p)
    }

    func testPressureReaderDoesNotOpenFileOnKernelOlderThan4_20() throws {
        // The modern tree has the file; a kernel known to be 4.19 must not even look at it.
        let reader = PressureReader(procRoot: fixtureProcRoot("procsys-modern"),
                                    kernel: KernelRelease(major: 4, minor: 19, patch: 250))
        XCTAssertFalse(reader.isEnabled)
        XCTAssertNil(reader.update(ReadBuffer()))
    }

    func testPressureReaderReadsOnExactly4_20() throws {
        let reader = PressureReader(procRoot: fixtureProcRoot("procsys-modern"), kernel: KernelRelease("4.20.0"))
        XCTAssertNotNil(reader.update(ReadBuffer()))
    }

    func testUnknownKernelStillTriesTheFile() throws {
        let reader = PressureReader(procRoot: fixtureProcRoot("procsys-modern"), kernel: nil)
        XCTAssertTrue(reader.isEnabled)
        XCTAssertNotNil(reader.update(ReadBuffer()))
    }

    func testOldKernelFixtureWithoutPressureDirectoryGivesNil() throws {
        let root = fixtureProcRoot("procsys-old-kernel")
        XCTAssertNil(PressureReader(procRoot: root, kernel: KernelRelease.read(procRoot: root)).update(ReadBuffer()))
        // Even when the kernel is not known, the absent file gives nil, not a crash.
        XCTAssertNil(PressureReader(procRoot: root, kernel: nil).update(ReadBuffer()))
    }

    func testNewKernelBuiltWithoutPSIGivesNil() {
        let reader = PressureReader(procRoot: missingProcRoot, kernel: KernelRelease("6.1.0-13-amd64"))
        XCTAssertTrue(reader.isEnabled)
        XCTAssertNil(reader.update(ReadBuffer()))
        XCTAssertNil(reader.update(ReadBuffer()))
    }

    func testUpdatingTwiceGivesTheSameReading() throws {
        let reader = PressureReader(procRoot: fixtureProcRoot("procsys-modern"), kernel: nil)
        let buffer = ReadBuffer()
        let first = try XCTUnwrap(reader.update(buffer))
        XCTAssertEqual(reader.update(buffer), first)
    }
}
