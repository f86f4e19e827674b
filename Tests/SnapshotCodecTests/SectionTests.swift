@testable import SnapshotCodec
import XCTest

/// Format v3: sections a reader does not know are skipped, a damaged section costs only its
/// own part, and a part that was not measured is absent rather than written as 0.
final class SectionTests: XCTestCase {
    struct Section: Equatable {
        var tag: UInt16
        var version: UInt16
        var payload: [UInt8]
    }

    /// The sections of an encoded v3 file, in order.
    func sections(_ bytes: [UInt8]) -> [Section] {
        var out: [Section] = []
        var i = 32
        while i < bytes.count {
            let tag = UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8
            let version = UInt16(bytes[i + 2]) | UInt16(bytes[i + 3]) << 8
            let length = (0..<4).reduce(0) { $0 | Int(bytes[i + 4 + $1]) << (8 * $1) }
            out.append(Section(tag: tag, version: version, payload: Array(bytes[(i + 8)..<(i + 8 + length)])))
            i += 8 + length
        }
        return out
    }

    /// A v3 file with `header`'s first 32 bytes and these sections (length and checksum fixed).
    func file(header: [UInt8], _ sections: [Section]) -> [UInt8] {
        var body: [UInt8] = []
        for s in sections {
            body.appendLE(s.tag); body.appendLE(s.version); body.appendLE(UInt32(s.payload.count))
            body += s.payload
        }
        var out = Array(header[..<32]) + body
        storeU32(UInt32(out.count), at: 12, in: &out)
        fixChecksum(&out)
        return out
    }

    let full = fullSnapshot()
    var bytes: [UInt8] { encoded(full) }

    /// The maximum size counts a header per tag up to the highest: tags run from 1 without a
    /// gap, and a new section's tag must become the highest.
    func testTagsRunFromOneWithoutAGapUpToTheHighest() {
        XCTAssertEqual(SectionTag.allCases.map(\.rawValue), Array(1...SectionTag.highest.rawValue))
    }

    func testTheDescriptorTableListsEveryTagOnceInTagOrder() {
        XCTAssertEqual(SectionTag.descriptors.map(\.tag), SectionTag.allCases)
        // Every part but the required meta and the optional pressure has its own section.
        XCTAssertEqual(SectionTag.descriptors.compactMap(\.part).reduce(SnapshotSections()) { $0.union($1) }, .all)
        XCTAssertEqual(SectionTag.descriptors.filter { $0.part == nil }.map(\.tag), [.meta, .pressure])
    }

    func testTheEncoderWritesOneSectionPerPartInTagOrder() {
        XCTAssertEqual(sections(bytes).map(\.tag), Array(1...SectionTag.highest.rawValue))
        XCTAssertEqual(sections(bytes).filter { $0.version != 1 }.map(\.tag),
                       [SectionTag.processes.rawValue, SectionTag.top.rawValue, SectionTag.network.rawValue, SectionTag.gpu.rawValue],
                       "processes (the thread count), top (the GPU list), network (the link speeds) and gpu (the power limit) are version 2, the rest version 1")
    }

    /// A sampler that wrote version 1 of the processes section (no thread count): its counts
    /// are read, the thread count is 0.
    func testAProcessesSectionOfVersionOneReadsItsCountsAndNoThreadCount() throws {
        var parts = sections(bytes)
        let processes = parts.firstIndex { $0.tag == SectionTag.processes.rawValue }!
        parts[processes].version = 1
        parts[processes].payload.removeLast(4)
        let decoded = try decodeResult(file(header: bytes, parts)).get()
        var expected = full
        expected.threadCount = 0
        XCTAssertEqual(decoded, expected)
        XCTAssertTrue(decoded.available.contains(.processes))
    }

    /// A sampler that wrote version 1 of the network section (no link speeds): its
    /// interfaces are read, each link speed unreadable (`?`, not 0).
    func testANetworkSectionOfVersionOneReadsItsInterfacesAndNoLinkSpeed() throws {
        var parts = sections(bytes)
        let network = parts.firstIndex { $0.tag == SectionTag.network.rawValue }!
        parts[network].version = 1
        parts[network].payload.removeLast(1 + 4 * full.interfaces.count)
        let decoded = try decodeResult(file(header: bytes, parts)).get()
        var expected = full
        for i in 0..<expected.interfaces.count { expected.interfaces[i].linkSpeedMbps = Snapshot.unreadableLinkSpeed }
        XCTAssertEqual(decoded, expected)
        XCTAssertNotEqual(full.interfaces.first?.linkSpeedMbps, Snapshot.unreadableLinkSpeed, "the full snapshot has speeds to lose")
    }

    func testAnUnknownSectionIsSkippedAndTheRestDecodesAsWithoutIt() throws {
        var parts = sections(bytes)
        parts.insert(Section(tag: 999, version: 7, payload: Array(repeating: 0xAB, count: 300)), at: 3)
        parts.append(Section(tag: 0xFFFF, version: 1, payload: []))
        XCTAssertEqual(try decodeResult(file(header: bytes, parts)).get(), full)
    }

    func testANewerVersionOfASectionWithAppendedFieldsIsReadForTheFieldsThisReaderKnows() throws {
        var parts = sections(bytes)
        let load = parts.firstIndex { $0.tag == SectionTag.load.rawValue }!
        parts[load].version = 2
        parts[load].payload += [1, 2, 3, 4, 5]
        XCTAssertEqual(try decodeResult(file(header: bytes, parts)).get(), full)
    }

    func testADamagedSectionLeavesOnlyItsOwnPartOutAndResetsItsFields() throws {
        var parts = sections(bytes)
        let memory = parts.firstIndex { $0.tag == SectionTag.memory.rawValue }!
        parts[memory].payload.removeLast(10)   // the history runs past the section's end
        let top = parts.firstIndex { $0.tag == SectionTag.top.rawValue }!
        parts[top].payload[0] = 6              // more entries than the limit
        let d = try decodeResult(file(header: bytes, parts)).get()
        XCTAssertEqual(d.available, SnapshotSections.all.subtracting([.memory, .top]))
        XCTAssertEqual(d.memory, MemoryFigures())
        XCTAssertEqual(d.memoryHistory, [])
        XCTAssertEqual(d.topCPU, [])
        XCTAssertEqual(d.cpuBusy, full.cpuBusy)
        XCTAssertEqual(d.exits, full.exits)
    }

    func testEachNewerSectionCutShortOrOverItsLimitsLeavesOnlyItsPartOut() throws {
        let cases: [(SectionTag, SnapshotSections, (inout [UInt8]) -> Void)] = [
            (.network, .network, { $0[0] = UInt8(Snapshot.maximumInterfaces + 1) }),
            (.network, .network, { $0[1] = 16 }),                      // a 16-byte interface name
            (.network, .network, { $0.removeLast(3) }),
            (.disks, .disks, { $0[1] = 65 }),                          // a 65-byte mount point
            (.disks, .disks, { $0.removeLast(1) }),
            (.diskIO, .diskIO, { $0[0] = 9 }),
            (.temperature, .temperature, { $0.removeLast(2) }),
            (.temperature, .temperature, { $0[0] = 200 }),
            (.frequency, .frequency, { $0.removeLast(1) }),
            (.gpu, .gpu, { $0[0] = UInt8(Snapshot.maximumGPUs + 1) }),
            (.gpu, .gpu, { $0[2] = 16 }),                               // a 16-byte driver name
            (.gpu, .gpu, { $0.removeLast(1) }),
        ]
        for (tag, part, damage) in cases {
            var parts = sections(bytes)
            let i = parts.firstIndex { $0.tag == tag.rawValue }!
            damage(&parts[i].payload)
            let d = try decodeResult(file(header: bytes, parts)).get()
            XCTAssertEqual(d.available, SnapshotSections.all.subtracting(part), "\(tag)")
            var expected = full
            expected.available.remove(part)
            switch tag {
            case .network: expected.interfaces = []; expected.rxHistory = []; expected.txHistory = []
            case .disks: expected.disks = []
            case .diskIO: expected.diskIO = []
            case .temperature: expected.temperatures = []
            case .gpu: expected.gpus = []
            default: expected.cpuMHzAverage = 0; expected.cpuMHzMaximum = 0
            }
            XCTAssertEqual(d, expected, "\(tag): the rest decodes as it was")
        }
    }

    func testHostileSSIDsAndSignedFiguresRoundTripByteForByte() throws {
        var s = Snapshot()
        s.available = .all
        var n = InterfaceFigures()
        n.name = [0x1B, 0x5B, 0x33, 0x31, 0x6D, 0xFF, 0x22]   // ESC [31m, an invalid byte, a quote
        n.wifi.ssid = [0, 0x22, 0x5C, 0x3C, 0xC3, 0x28, 0xE2, 0x80, 0xAE] + Array(repeating: 0xFF, count: 23)
        n.wifi.signalDBm = -128
        s.interfaces = [n]
        var t = TemperatureFigures()
        t.milliCelsius = -40_000
        t.criticalMilliCelsius = .max
        s.temperatures = [t]
        XCTAssertEqual(try decodeResult(encoded(s)).get(), s)
    }

    func testAnUnknownBatteryStateLeavesOnlyTheBatteryOut() throws {
        var parts = sections(bytes)
        let battery = parts.firstIndex { $0.tag == SectionTag.battery.rawValue }!
        parts[battery].payload[1] = 9
        let d = try decodeResult(file(header: bytes, parts)).get()
        XCTAssertEqual(d.available, SnapshotSections.all.subtracting(.battery))
        XCTAssertEqual(d.battery, BatteryFigures())
    }

    func testARepeatedSectionCountsOnce() throws {
        var parts = sections(bytes)
        var second = parts.first { $0.tag == SectionTag.load.rawValue }!
        second.payload = Array(repeating: 0xFF, count: 12)
        parts.append(second)
        XCTAssertEqual(try decodeResult(file(header: bytes, parts)).get(), full)
    }

    func testASectionRunningPastTheEndOfTheBodyIsMalformed() {
        var damaged = bytes
        storeU32(100_000, at: 32 + 4, in: &damaged)   // the meta section's length
        fixChecksum(&damaged)
        XCTAssertEqual(decodeError(damaged), .malformed(.sectionRunsPastEnd))
        // A section header cut short.
        let cut = file(header: bytes, sections(bytes)) + [1, 0, 1]
        var fixed = cut
        storeU32(UInt32(fixed.count), at: 12, in: &fixed)
        fixChecksum(&fixed)
        XCTAssertEqual(decodeError(fixed), .malformed(.bodyTooShort))
    }

    func testAFileWithoutTheMetaSectionOrWithADamagedOneIsMalformed() {
        let parts = sections(bytes)
        XCTAssertEqual(decodeError(file(header: bytes, Array(parts.dropFirst()))), .malformed(.missingMetaSection))
        var short = parts
        short[0].payload.removeLast()
        XCTAssertEqual(decodeError(file(header: bytes, short)), .malformed(.bodyTooShort))
    }

    func testAPartThatWasNotMeasuredIsNotWrittenAndDecodesAsNotAvailable() throws {
        var s = full
        s.available.remove(.memory)
        s.available.remove(.battery)
        let written = encoded(s)
        XCTAssertFalse(sections(written).contains { $0.tag == SectionTag.memory.rawValue })
        let d = try decodeResult(written).get()
        XCTAssertEqual(d.available, SnapshotSections.all.subtracting([.memory, .battery]))
        XCTAssertEqual(d.memory, MemoryFigures(), "never the figures of a part that was not measured")
        XCTAssertEqual(d.battery, BatteryFigures())
    }

    func testDecodingIntoAReusedSnapshotResetsAPartTheNewFileLacks() throws {
        var s = Snapshot()
        try decode(bytes, into: &s)
        var lacking = full
        lacking.available.remove(.top)
        try decode(encoded(lacking), into: &s)
        XCTAssertEqual(s.topCPU, [])
        XCTAssertFalse(s.available.contains(.top))
    }

    func testV1AndV2FilesHaveEveryPartOfTheirLayoutAvailableAndNoneOfTheNewer() throws {
        let v2 = encodedV2(full)
        XCTAssertEqual(try decodeResult(v2).get().available, .fixedLayout)
        XCTAssertEqual(try decodeResult(v1Bytes(fromV2: v2)).get().available, .fixedLayout)
    }
}
