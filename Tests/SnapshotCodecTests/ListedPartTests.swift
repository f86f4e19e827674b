@testable import SnapshotCodec
import XCTest

/// The listed parts (fans, power, …): one identity per part, one section layout made from each
/// part's table, readers of other versions skipping what they do not know.
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
        XCTAssertEqual(ListedPart.all.map(\.part), [SnapshotSections(tag: .fans)!, SnapshotSections(tag: .power)!,
                                                   SnapshotSections(tag: .backlight)!, SnapshotSections(tag: .volume)!,
                                                   SnapshotSections(tag: .microphone)!])
    }

    func testEveryListedPartHasATagOfItsOwnAndATableThatFits() {
        XCTAssertEqual(ListedPart.all.map(\.tag), [.fans, .power, .backlight, .volume, .microphone])
        for part in ListedPart.all {
            XCTAssertFalse(part.figures.isEmpty, "\(part.name)")
            XCTAssertLessThanOrEqual(part.figures.count, PartReading.maximumFigures, "\(part.name)")
            XCTAssertEqual(ListedPart.index(of: part.tag).map { ListedPart.all[$0].tag }, part.tag)
        }
        XCTAssertNil(ListedPart.index(of: .gpu), "a part of its own layout is not a listed one")
    }

    /// Fans with one reading (`nct/fan1`): F figures declared, the bits given and F values.
    private func fansFile(declaring figures: Int, given: UInt16, values: [Int64], readings: UInt8 = 1) throws -> Snapshot {
        var payload: [UInt8] = [UInt8(figures), readings, 3] + Array("nct".utf8) + [4] + Array("fan1".utf8)
        payload += [UInt8(given & 0xFF), UInt8(given >> 8)]
        for v in values { for b in 0..<8 { payload.append(UInt8(truncatingIfNeeded: UInt64(bitPattern: v) >> (8 * UInt64(b)))) } }
        return try fansFile(payload)
    }

    /// A file whose fans section has `payload` (the rest as a snapshot with only fans writes it).
    private func fansFile(_ payload: [UInt8]) throws -> Snapshot {
        var s = Snapshot()
        s.available = SnapshotSections(tag: .fans)!
        var bytes: [UInt8] = []
        s.encode(into: &bytes)
        var out = Array(bytes[..<32])
        var i = 32
        while i < bytes.count {
            let tag = UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8
            let length = (0..<4).reduce(0) { $0 | Int(bytes[i + 4 + $1]) << (8 * $1) }
            if tag == SectionTag.fans.rawValue {
                out += bytes[i..<(i + 4)]
                out.appendLE(UInt32(payload.count))
                out += payload
            } else {
                out += bytes[i..<(i + 8 + length)]
            }
            i += 8 + length
        }
        storeU32(UInt32(out.count), at: 12, in: &out)
        fixChecksum(&out)
        return try decodeResult(out).get()
    }

    func testAReaderSkipsFiguresItsTableLacksAndReadsTheRest() throws {
        // A newer writer with four figures: the reader keeps its two and skips two.
        let s = try fansFile(declaring: 4, given: 0b1111, values: [1200, 1300, 7, 8])
        XCTAssertTrue(s.available.contains(SnapshotSections(tag: .fans)!))
        let r = try XCTUnwrap(s.listed[.fans].first)
        XCTAssertEqual(r.source, Array("nct".utf8))
        XCTAssertEqual(r.label, Array("fan1".utf8))
        XCTAssertEqual(r[FansPart.rpm], 1200)
        XCTAssertEqual(r[FansPart.target], 1300)
        XCTAssertNil(r[2], "a figure of a newer table is not kept")
    }

    func testAFigureAnOlderWriterLacksIsNotGiven() throws {
        let s = try fansFile(declaring: 1, given: 0b1, values: [900])
        let r = try XCTUnwrap(s.listed[.fans].first)
        XCTAssertEqual(r[FansPart.rpm], 900)
        XCTAssertNil(r[FansPart.target])
        let notGiven = try fansFile(declaring: 2, given: 0b10, values: [5, 6])
        XCTAssertNil(notGiven.listed[.fans].first?[FansPart.rpm], "a value whose bit is clear is not given, whatever its bytes")
        XCTAssertEqual(notGiven.listed[.fans].first?[FansPart.target], 6)
    }

    func testAListedSectionOverItsLimitsOrCutShortLeavesOnlyItsPartOut() throws {
        let fans = SnapshotSections(tag: .fans)!
        XCTAssertTrue(try fansFile(declaring: 2, given: 0b11, values: [1, 2]).available.contains(fans))
        XCTAssertFalse(try fansFile(declaring: 17, given: 0, values: Array(repeating: 0, count: 17)).available.contains(fans),
                       "more figures than any table may declare")
        XCTAssertFalse(try fansFile(declaring: 2, given: 0b11, values: [1, 2], readings: 9).available.contains(fans),
                       "more readings than the part keeps")
        XCTAssertFalse(try fansFile(declaring: 2, given: 0b11, values: [1]).available.contains(fans), "cut short")
        let s = try fansFile(declaring: 2, given: 0b11, values: [1])
        XCTAssertEqual(s.listed[.fans], [], "a damaged part's readings are cleared")
        XCTAssertEqual(s.available, [], "the file decodes, without its one part")
    }

    func testReadingsRoundTripAndEqualityComparesOnlyGivenFigures() {
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
