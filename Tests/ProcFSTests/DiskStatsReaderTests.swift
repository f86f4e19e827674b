import XCTest
import TestSupport
import ProcFS

final class DiskStatsReaderTests: XCTestCase {
    private func reader(_ fixture: String, names: [String] = [],
                        excluding prefixes: [String] = DiskStatsReader.defaultExcludedPrefixes) -> DiskStatsReader {
        DiskStatsReader(procRoot: Fixtures.path(fixture + "/proc"), sysRoot: Fixtures.path(fixture + "/sys"),
                        names: names, excludedPrefixes: prefixes)
    }

    private func parse(_ text: String, _ devices: [String]) -> DiskStats? {
        var stats = DiskStats()
        let names = devices.map { FixedName($0) }
        return withBytes(text) { DiskStatsReader.parse($0, devices: names, into: &stats) } ? stats : nil
    }

    private let expected = [
        DiskCounters(name: FixedName("sda"), readBytes: 512_000, writtenBytes: 1_024_000),
        DiskCounters(name: FixedName("nvme0n1"), readBytes: 2 << 30, writtenBytes: 4 << 30),
        DiskCounters(name: FixedName("dm-0"), readBytes: 153_600, writtenBytes: 307_200),
        DiskCounters(name: FixedName("sdb"), readBytes: .max, writtenBytes: 512),  // 2^55 sectors saturate
    ]

    func testWholeDisksOnlyInFileOrderWithSectorsTimes512() throws {
        let r = reader("disks-modern")
        // Partitions are not in /sys/block; loop, sr and zram are excluded by name.
        XCTAssertEqual(r.devices.map { $0.description }, ["sda", "nvme0n1", "dm-0", "sdb"])
        XCTAssertEqual(try XCTUnwrap(r.update(ReadBuffer())).disks, expected)
    }

    func testTheOldFourteenFieldFormatReadsTheSame() throws {
        let r = reader("disks-old-kernel")
        XCTAssertEqual(try XCTUnwrap(r.update(ReadBuffer())).disks, expected)
    }

    func testLookupByName() throws {
        let stats = try XCTUnwrap(reader("disks-modern").update(ReadBuffer()))
        XCTAssertEqual(stats.disk(named: FixedName("nvme0n1"))?.writtenBytes, 4 << 30)
        XCTAssertNil(stats.disk(named: FixedName("sda1")))
    }

    func testExcludedPrefixesAreConfigurable() {
        let r = reader("disks-modern", excluding: ["dm-", "sd"])
        XCTAssertEqual(r.devices.map { $0.description }, ["loop0", "loop1", "nvme0n1", "sr0", "zram0"])
    }

    func testNamedDevicesNeedNotBeWholeDisks() throws {
        let r = reader("disks-modern", names: ["sda1", "loop0", "nonexistent"])
        XCTAssertEqual(r.devices.map { $0.description }, ["sda1", "loop0", "nonexistent"])
        let stats = try XCTUnwrap(r.update(ReadBuffer()))
        XCTAssertEqual(stats.disks, [DiskCounters(name: FixedName("loop0"), readBytes: 1_024_000, writtenBytes: 0),
                                     DiskCounters(name: FixedName("sda1"), readBytes: 460_800, writtenBytes: 972_800)])
    }

    func testAtMostEightDisks() throws {
        let root = try makeTemporaryProcRoot()
        var text = ""
        for i in 0..<12 {
            text += "8 \(i * 16) sd\(i) 1 0 \(i) 0 1 0 \(i) 0 0 0 0\n"
            try writeFile(root, "sys/block/sd\(i)/dev", "8:\(i * 16)\n")
        }
        try writeFile(root, "proc/diskstats", text)
        let r = DiskStatsReader(procRoot: root + "/proc", sysRoot: root + "/sys")
        XCTAssertEqual(r.devices.count, 8)
        XCTAssertEqual(try XCTUnwrap(r.update(ReadBuffer())).disks.last?.readBytes, 7 * 512)
    }

    func testNamesThatCannotBeADirectoryAreNeverChosen() throws {
        let root = try makeTemporaryProcRoot()
        try writeFile(root, "sys/block/sda/dev", "8:0\n")
        try writeFile(root, "sys/block/cciss!c0d0/dev", "104:0\n")
        try writeFile(root, "proc/diskstats", """
            8 0 .. 0 0 1 0 0 0 1 0 0 0 0
            8 0 sda\u{1}x 0 0 1 0 0 0 1 0 0 0 0
            104 0 cciss/c0d0 0 0 2 0 0 0 2 0 0 0 0
            8 0 sda 0 0 3 0 0 0 3 0 0 0 0

            """)
        let r = DiskStatsReader(procRoot: root + "/proc", sysRoot: root + "/sys")
        XCTAssertEqual(r.devices.map { $0.description }, ["cciss/c0d0", "sda"])
        XCTAssertEqual(r.update(ReadBuffer())?.disks.map { $0.readBytes }, [1024, 1536])
    }

    func testMalformedLinesAreUnparsable() {
        XCTAssertNil(parse("garbage\n", ["sda"]))
        XCTAssertNil(parse("8 0 sda 1 2 3 4 5 6 7 8 9 10\n", ["sda"]), "10 counters")
        XCTAssertNil(parse("8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n8 1 sda1 1 2\n", ["sda"]), "any bad line")
        XCTAssertNil(parse("8 0\n", ["sda"]))
        XCTAssertEqual(parse("", ["sda"])?.disks, [])
        XCTAssertEqual(parse("\n  \n", ["sda"])?.disks, [])
    }

    func testOnlyTheFirstLineOfADuplicatedNameCounts() throws {
        let stats = try XCTUnwrap(parse("8 0 sda 0 0 1 0 0 0 1 0 0 0 0\n8 0 sda 0 0 2 0 0 0 2 0 0 0 0\n", ["sda"]))
        XCTAssertEqual(stats.disks, [DiskCounters(name: FixedName("sda"), readBytes: 512, writtenBytes: 512)])
    }

    func testMissingFilesGiveNilAndNoDevices() {
        let r = DiskStatsReader(procRoot: missingProcRoot, sysRoot: "/nonexistent-sysstats-fixture-root/sys")
        XCTAssertEqual(r.devices, [])
        XCTAssertNil(r.update(ReadBuffer()))
    }

    func testAKeptOpenFileSeesNewContentsAndRescanFindsANewDisk() throws {
        let root = try makeTemporaryProcRoot()
        try writeFile(root, "sys/block/sda/dev", "8:0\n")
        try writeFile(root, "proc/diskstats", "8 0 sda 0 0 10 0 0 0 20 0 0 0 0\n8 16 sdb 0 0 1 0 0 0 1 0 0 0 0\n")
        let r = DiskStatsReader(procRoot: root + "/proc", sysRoot: root + "/sys")
        let buffer = ReadBuffer(capacity: 32)
        XCTAssertEqual(r.update(buffer)?.disks.map { $0.readBytes }, [5120])
        try writeFile(root + "/proc/diskstats", "8 0 sda 0 0 30 0 0 0 40 0 0 0 0\n8 16 sdb 0 0 1 0 0 0 1 0 0 0 0\n")
        XCTAssertEqual(r.update(buffer)?.disks.map { $0.writtenBytes }, [20480])
        try writeFile(root, "sys/block/sdb/dev", "8:16\n")
        XCTAssertEqual(r.update(buffer)?.disks.count, 1, "decided at the scan, not per update")
        r.rescan(buffer)
        XCTAssertEqual(r.update(buffer)?.disks.map { $0.name.description }, ["sda", "sdb"])
        try writeFile(root + "/proc/diskstats", "garbage\n")
        XCTAssertNil(r.update(buffer))
        XCTAssertEqual(r.reading.disks.count, 2, "the last good reading stays")
    }
}
