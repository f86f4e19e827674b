import XCTest
import ProcFS

final class KernelReleaseTests: XCTestCase {
    private func release(_ text: String) throws -> KernelRelease {
        try XCTUnwrap(KernelRelease(text), "\(text) should parse")
    }

    func testDistributionReleaseParsesNumbersAndKeepsTheFullTextForDisplay() throws {
        let k = try release("6.1.0-13-amd64")
        XCTAssertEqual([k.major, k.minor, k.patch], [6, 1, 0])
        XCTAssertEqual(k.description, "6.1.0-13-amd64")
    }

    func testReleaseCandidateSuffixDoesNotTakePartInComparison() throws {
        let rc = try release("5.10.0-rc3")
        XCTAssertEqual([rc.major, rc.minor, rc.patch], [5, 10, 0])
        XCTAssertEqual(rc, try release("5.10.0"))
        XCTAssertEqual(rc.description, "5.10.0-rc3")
    }

    func testAReleaseMadeFromNumbersReadsAsThem() {
        XCTAssertEqual(KernelRelease(major: 4, minor: 20).description, "4.20.0")
        XCTAssertEqual(KernelRelease(major: 0, minor: 0, patch: 0).description, "0.0.0")
        XCTAssertEqual(KernelRelease(major: 6, minor: 18, patch: 4_294_967_295).description, "6.18.4294967295")
    }

    func testJoinPathPutsExactlyOneSlashBetweenRootAndPath() {
        XCTAssertEqual(joinPath("/tmp/tree/proc", "stat"), "/tmp/tree/proc/stat")
        XCTAssertEqual(joinPath("/tmp/tree/proc//", "/stat"), "/tmp/tree/proc/stat")
        XCTAssertEqual(joinPath("/", "stat"), "/stat")
        XCTAssertEqual(joinPath("///", "/stat"), "/stat")
        XCTAssertEqual(joinPath("", "stat"), "/stat")
        XCTAssertEqual(joinPath("/tmp/caf\u{E9}", "\u{1F600}/x"), "/tmp/caf\u{E9}/\u{1F600}/x")
    }

    func testTwoPartReleaseHasPatchZero() throws {
        let k = try release("4.9")
        XCTAssertEqual([k.major, k.minor, k.patch], [4, 9, 0])
        XCTAssertEqual(k, KernelRelease(major: 4, minor: 9))
    }

    func testThreeAndFourPartReleasesParse() throws {
        XCTAssertEqual(try release("3.14.79-foo"), KernelRelease(major: 3, minor: 14, patch: 79))
        XCTAssertEqual(try release("2.6.32"), KernelRelease(major: 2, minor: 6, patch: 32))
        XCTAssertEqual(try release("4.20.0"), KernelRelease(major: 4, minor: 20, patch: 0))
        XCTAssertEqual(try release("2.6.32.71"), KernelRelease(major: 2, minor: 6, patch: 32))
        XCTAssertEqual(try release("4.19.0+"), KernelRelease(major: 4, minor: 19, patch: 0))
    }

    func testKernel4_10IsNewerThan4_9() throws {
        XCTAssertGreaterThan(try release("4.10"), try release("4.9"))
        XCTAssertLessThan(try release("4.9.337"), try release("4.10.0"))
        XCTAssertLessThan(try release("2.6.39"), try release("3.0"))
        XCTAssertLessThan(try release("5.4.0"), try release("5.4.1"))
    }

    func testPressureStallNeeds4_20() throws {
        XCTAssertFalse(try release("4.19.255").supportsPressureStall)
        XCTAssertTrue(try release("4.20").supportsPressureStall)
        XCTAssertTrue(try release("5.10.0-rc3").supportsPressureStall)
        XCTAssertFalse(try release("3.10.0").supportsPressureStall)
    }

    func testMemAvailableNeeds3_14() throws {
        XCTAssertFalse(try release("3.13.11").supportsMemAvailable)
        XCTAssertTrue(try release("3.14.79-foo").supportsMemAvailable)
        XCTAssertFalse(try release("2.6.32").supportsMemAvailable)
        XCTAssertTrue(try release("4.9").supportsMemAvailable)
    }

    func testGarbageIsNil() {
        for text in ["", "\n", "abc", "4", "4.", ".4", "4.x", "v4.9", " 4.9", "4.9 extra", "4.9.", "4.9.x",
                     "4.9\u{0}", "5.10-ünïcode", "99999999999.1", String(repeating: "9", count: 100)] {
            XCTAssertNil(KernelRelease(text), "\(text.debugDescription) should not parse")
        }
    }

    func testTrailingNewlineFromTheFileIsDropped() throws {
        let k = try release("6.18.44-fc-v657\n")
        XCTAssertEqual(k.description, "6.18.44-fc-v657")
    }

    func testReadFromFixtureTrees() throws {
        let modern = try XCTUnwrap(KernelRelease.read(procRoot: fixtureProcRoot("procsys-modern")))
        XCTAssertEqual(modern, KernelRelease(major: 6, minor: 18, patch: 44))
        XCTAssertEqual(modern.description, "6.18.44-fc-v657")
        let old = try XCTUnwrap(KernelRelease.read(procRoot: fixtureProcRoot("procsys-old-kernel")))
        XCTAssertEqual(old, KernelRelease(major: 3, minor: 10, patch: 0))
        XCTAssertFalse(old.supportsMemAvailable)
        XCTAssertFalse(old.supportsPressureStall)
    }

    func testMissingOsreleaseGivesNil() {
        XCTAssertNil(KernelRelease.read(procRoot: missingProcRoot))
    }
}
