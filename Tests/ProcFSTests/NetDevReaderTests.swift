import XCTest
import TestSupport
import ProcFS

final class NetDevReaderTests: XCTestCase {
    private let header = """
        Inter-|   Receive                                                |  Transmit
         face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed

        """

    private func parse(_ text: String) -> NetDevStats? {
        var stats = NetDevStats()
        return withBytes(text) { NetDevReader.parse($0, into: &stats) } ? stats : nil
    }

    private func line(_ name: String, _ rx: UInt64, _ tx: UInt64) -> String {
        "\(name): \(rx) 1 0 0 0 0 0 0 \(tx) 2 0 0 0 0 0 0\n"
    }

    func testFixtureGivesEveryInterfaceInFileOrderWithReceiveAndTransmitBytes() throws {
        let stats = try XCTUnwrap(NetDevReader(procRoot: fixtureProcRoot("net-dev")).update(ReadBuffer()))
        XCTAssertEqual(stats.interfaces.map { $0.name.description },
                       ["lo", "enp3s0", "wlp2s0", "docker0", "vethabcdef01234", "br-0123456789ab"])
        XCTAssertEqual(stats.interfaces.map { $0.rxBytes },
                       [3947, 123_456_789, 5_000_000_000, 0, 1500, UInt64.max])
        XCTAssertEqual(stats.interfaces.map { $0.txBytes }, [3947, 98_765_432, 250_000_000, 0, 2500, 7])
        XCTAssertEqual(stats.omittedCount, 0)
    }

    func testLookupByName() throws {
        let stats = try XCTUnwrap(NetDevReader(procRoot: fixtureProcRoot("net-dev")).update(ReadBuffer()))
        XCTAssertEqual(stats.interface(named: FixedName("wlp2s0")),
                       NetInterfaceCounters(name: FixedName("wlp2s0"), rxBytes: 5_000_000_000, txBytes: 250_000_000))
        XCTAssertNil(stats.interface(named: FixedName("wlp2s")))
        XCTAssertNil(stats.interface(named: FixedName("eth0")))
    }

    func testHeaderOnlyIsAnEmptyReadingNotAFailure() throws {
        let stats = try XCTUnwrap(parse(header))
        XCTAssertTrue(stats.interfaces.isEmpty)
    }

    func testMissingHeaderOrMalformedLinesAreUnparsable() {
        XCTAssertNil(parse(""))
        XCTAssertNil(parse("Inter-|\n"))
        XCTAssertNil(parse("garbage\ngarbage\ngarbage\n"))
        XCTAssertNil(parse(header + "eth0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"), "no colon")
        XCTAssertNil(parse(header + ": 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"), "no name")
        XCTAssertNil(parse(header + "eth0: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n"), "15 counters")
        XCTAssertNil(parse(header + "eth0: 1 2 3 x 5 6 7 8 9 10 11 12 13 14 15 16\n"))
        XCTAssertNil(parse(header + line("eth0", 1, 2) + "eth1"), "a cut last line")
    }

    func testHugeCountersSaturate() throws {
        let stats = try XCTUnwrap(parse(header + line("eth0", 0, 0).replacingOccurrences(
            of: ": 0 ", with: ": 99999999999999999999999999 ")))
        XCTAssertEqual(stats.interfaces.first?.rxBytes, .max)
        XCTAssertEqual(stats.interfaces.first?.txBytes, 0)
    }

    func testLongNamesAreCutAndOddBytesKeptRaw() throws {
        let stats = try XCTUnwrap(parse(header + line("averyveryverylonginterfacename", 1, 2)
                                        + line("e\u{1b}[31m\u{7f}", 3, 4)))
        XCTAssertEqual(stats.interfaces[0].name.description, "averyveryverylo")
        XCTAssertEqual(stats.interfaces[0].name.count, 15)
        XCTAssertEqual(stats.interfaces[1].name.bytes, [0x65, 0x1B, 0x5B, 0x33, 0x31, 0x6D, 0x7F])
        XCTAssertEqual(stats.interfaces[1].rxBytes, 3)
    }

    func testAtMostSixteenInterfacesAreKeptAndTheRestCounted() throws {
        var text = header
        for i in 0..<20 { text += line("veth\(i)", UInt64(i), UInt64(i)) }
        let stats = try XCTUnwrap(parse(text))
        XCTAssertEqual(stats.interfaces.count, 16)
        XCTAssertEqual(stats.interfaces.last?.name, FixedName("veth15"))
        XCTAssertEqual(stats.omittedCount, 4)
    }

    func testNoBlankAfterTheColonAndBlankLinesAreAccepted() throws {
        let stats = try XCTUnwrap(parse(header + "eth0:12 1 0 0 0 0 0 0 34 2 0 0 0 0 0 0\n\n"))
        XCTAssertEqual(stats.interfaces, [NetInterfaceCounters(name: FixedName("eth0"), rxBytes: 12, txBytes: 34)])
    }

    func testMissingFileGivesNil() {
        XCTAssertNil(NetDevReader(procRoot: missingProcRoot).update(ReadBuffer()))
    }

    func testAKeptOpenFileSeesNewContentsAndGarbageGivesNilButKeepsTheLastReading() throws {
        let root = try makeTemporaryProcRoot()
        try writeFile(root, "net/dev", header + line("eth0", 100, 200))
        let reader = NetDevReader(procRoot: root)
        let buffer = ReadBuffer(capacity: 64)
        XCTAssertEqual(reader.update(buffer)?.interfaces.first?.rxBytes, 100)
        try writeFile(root + "/net/dev", header + line("eth0", 1100, 1200) + line("wlan0", 5, 6))
        let second = try XCTUnwrap(reader.update(buffer))
        XCTAssertEqual(second.interface(named: FixedName("eth0"))?.txBytes, 1200)
        XCTAssertEqual(second.interfaces.count, 2)
        try writeFile(root + "/net/dev", "garbage\n")
        XCTAssertNil(reader.update(buffer))
        XCTAssertEqual(reader.reading, second)
    }
}

final class FixedNameTests: XCTestCase {
    func testEqualityHashingAndCutting() {
        XCTAssertEqual(FixedName("sda"), FixedName("sda"))
        XCTAssertNotEqual(FixedName("sda"), FixedName("sdb"))
        XCTAssertNotEqual(FixedName("sda"), FixedName("sda1"))
        XCTAssertEqual(Set([FixedName("a"), FixedName("a"), FixedName("b")]).count, 2)
        let long = String(repeating: "x", count: 40)
        XCTAssertEqual(FixedName(long).count, FixedName.capacity)
        XCTAssertEqual(FixedName(long, maximumCount: 15), FixedName(String(repeating: "x", count: 15)))
        XCTAssertTrue(FixedName().isEmpty)
        XCTAssertTrue(FixedName("loop7").hasPrefix("loop"))
        XCTAssertFalse(FixedName("lo").hasPrefix("loop"))
    }
}
