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
                                                   SnapshotSections(tag: .microphone)!, SnapshotSections(tag: .media)!,
                                                   SnapshotSections(tag: .units)!])
    }

    func testEveryListedPartHasATagOfItsOwnAndATableThatFits() {
        XCTAssertEqual(ListedPart.all.map(\.tag), [.fans, .power, .backlight, .volume, .microphone, .media, .units])
        for part in ListedPart.all {
            XCTAssertFalse(part.figures.isEmpty, "\(part.name)")
            XCTAssertLessThanOrEqual(part.figures.count, PartReading.maximumFigures, "\(part.name)")
            XCTAssertLessThanOrEqual(part.texts.count, PartReading.maximumTexts, "\(part.name)")
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

    /// A file whose `tag` section has `payload` (the rest as a snapshot with only that part writes it).
    private func fansFile(_ payload: [UInt8], tag sectionTag: SectionTag = .fans) throws -> Snapshot {
        var s = Snapshot()
        s.available = SnapshotSections(tag: sectionTag)!
        var bytes: [UInt8] = []
        s.encode(into: &bytes)
        var out = Array(bytes[..<32])
        var i = 32
        while i < bytes.count {
            let tag = UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8
            let length = (0..<4).reduce(0) { $0 | Int(bytes[i + 4 + $1]) << (8 * $1) }
            if tag == sectionTag.rawValue {
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

    /// A media section of one reading (`mpv`/`mpv`, playing, no length) and then `texts`
    /// (nil: a writer whose part had no texts yet).
    private func mediaFile(texts: [[UInt8]]?) throws -> Snapshot {
        var payload: [UInt8] = [2, 1, 3] + Array("mpv".utf8) + [3] + Array("mpv".utf8) + [0b01, 0]
        payload += [1, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 0]
        if let texts {
            payload.append(UInt8(texts.count))
            for t in texts { payload.append(UInt8(t.count)); payload += t }
        }
        return try fansFile(payload, tag: .media)
    }

    func testTextsRoundTripAndASectionWithoutThemLeavesThemEmpty() throws {
        var s = Snapshot()
        s.available = SnapshotSections(tag: .media)!
        var r = PartReading()
        r.reset(source: Array("spotify".utf8), label: Array("Spotify".utf8))
        r[MediaPart.playing] = 1
        r.setText(MediaPart.title, Array("Song ☃".utf8))
        r.setText(MediaPart.artist, Array("Artist".utf8))
        r.setText(MediaPart.status, Array("playing".utf8))
        _ = s.listed.update(.media) { $0 = [r] }
        let back = try decodeResult(encoded(s)).get()
        XCTAssertEqual(back.listed[.media], [r])
        XCTAssertEqual(back.listed[.media].first?.text(MediaPart.title), Array("Song ☃".utf8))
        XCTAssertEqual(back.listed[.media].first?.text(MediaPart.album), [], "a text not given is empty")

        let older = try mediaFile(texts: nil)
        XCTAssertTrue(older.available.contains(SnapshotSections(tag: .media)!))
        XCTAssertEqual(older.listed[.media].first?[MediaPart.playing], 1)
        XCTAssertEqual(older.listed[.media].first?.text(MediaPart.title), [])
    }

    func testAReaderSkipsTextsItsTableLacksAndAnOverlongTextLeavesThePartOut() throws {
        let newer = try mediaFile(texts: [Array("T".utf8), Array("A".utf8), [], Array("paused".utf8), Array("x".utf8), Array("y".utf8)])
        let r = try XCTUnwrap(newer.listed[.media].first)
        XCTAssertEqual(r.text(MediaPart.title), Array("T".utf8))
        XCTAssertEqual(r.text(MediaPart.status), Array("paused".utf8))
        XCTAssertEqual(r.text(4), [], "a text of a newer table is not kept")
        let media = SnapshotSections(tag: .media)!
        XCTAssertFalse(try mediaFile(texts: [Array(repeating: 0x41, count: 129)]).available.contains(media), "a text over 128 bytes")
        XCTAssertFalse(try mediaFile(texts: Array(repeating: [], count: 9)).available.contains(media), "more texts than any table may declare")
        XCTAssertTrue(try mediaFile(texts: [Array(repeating: 0x41, count: 128)]).available.contains(media))
    }

    func testATextIsCutAtItsLimitWhereACharacterStarts() {
        var r = PartReading()
        r.setText(0, Array(repeating: 0x41, count: 126) + Array("☃x".utf8))
        XCTAssertEqual(r.text(0), Array(repeating: 0x41, count: 126), "the snowman (3 bytes) would be cut: it goes")
        r.setText(0, Array(repeating: 0x41, count: 125) + Array("☃x".utf8))
        XCTAssertEqual(r.text(0), Array(repeating: 0x41, count: 125) + Array("☃".utf8))
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
