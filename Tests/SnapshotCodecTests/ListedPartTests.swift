@testable import SnapshotCodec
import XCTest

/// The listed parts: one identity per part, one section layout made from each part's table,
/// readers of other versions skipping what they do not know.
final class ListedPartTests: XCTestCase {
    func testEachPartsBitIsDerivedFromItsTagAndTheNamedBitsAgree() {
        let named: [(SectionTag, SnapshotSections)] = [
            (.uptime, .uptime), (.cpu, .cpu), (.memory, .memory), (.load, .load), (.processes, .processes),
            (.battery, .battery), (.top, .top), (.exits, .exits), (.sampler, .sampler), (.network, .network),
            (.disks, .disks), (.diskIO, .diskIO), (.temperature, .temperature), (.frequency, .frequency), (.gpu, .gpu),
        ]
        for (tag, bit) in named { XCTAssertEqual(SnapshotSections(tag: tag), bit, "\(tag)") }
        XCTAssertNil(SnapshotSections(tag: .meta))
        XCTAssertNil(SnapshotSections(tag: .pressure))
        let bits = SectionTag.allCases.compactMap { SnapshotSections(tag: $0)?.rawValue }
        XCTAssertEqual(Set(bits).count, bits.count, "no two parts share a bit")
        XCTAssertEqual(ListedPart.all.map(\.part), ListedPart.all.map { SnapshotSections(tag: $0.tag)! })
    }

    func testReadingsCompareOnlyGivenFiguresAndKeepTheirLimits() {
        var a = PartReading(), b = PartReading()
        a.reset(source: Array("x".utf8), label: Array("y".utf8))
        b.reset(source: Array("x".utf8), label: Array("y".utf8))
        a[1] = 5
        b[1] = 5
        b[0] = 7
        b[0] = nil
        XCTAssertEqual(a, b, "a value set then forgotten is not given")
        a[PartReading.maximumFigures] = 3
        XCTAssertNil(a[PartReading.maximumFigures], "past the table's room: ignored")
        var long = PartReading()
        long.reset(source: [UInt8](repeating: 0x61, count: 40), label: [UInt8](repeating: 0x62, count: 100))
        XCTAssertEqual(long.source.count, Snapshot.maximumInterfaceNameLength)
        XCTAssertEqual(long.label.count, Snapshot.maximumPathLength)
    }
}
