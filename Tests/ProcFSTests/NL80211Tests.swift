import XCTest
import AllocationCounter
@testable import ProcFS

/// nl80211 messages as <linux/nl80211.h> and <linux/genetlink.h> lay them out.
private enum WiFi {
    static let family: UInt16 = 0x1c
    /// struct genlmsghdr: u8 cmd, u8 version, u16 reserved; then attributes.
    static func genl(_ command: UInt8, flags: UInt16 = 0, seq: UInt32 = 1, _ attributes: [UInt8]...) -> [UInt8] {
        NL.message(family, flags: flags, seq: seq, [command, 1, 0, 0] + attributes.flatMap { $0 })
    }
    static func interface(ssid: [UInt8]?, type: UInt32 = 2) -> [UInt8] {
        var attributes = NL.u32(3, 3) + NL.u32(5, type)  // NL80211_ATTR_IFINDEX, _IFTYPE
        if let ssid { attributes += NL.attr(52, ssid) }  // NL80211_ATTR_SSID
        return genl(7, attributes)                        // NL80211_CMD_NEW_INTERFACE
    }
    /// NL80211_CMD_NEW_STATION with NL80211_ATTR_STA_INFO holding `info`.
    static func station(_ info: [UInt8]..., flags: UInt16 = 2) -> [UInt8] {
        genl(19, flags: flags, NL.u32(3, 3), NL.attr(21, info.flatMap { $0 }))
    }
    static func signal(_ dBm: Int8) -> [UInt8] { NL.u8(7, UInt8(bitPattern: dBm)) }
    static func signalAverage(_ dBm: Int8) -> [UInt8] { NL.u8(13, UInt8(bitPattern: dBm)) }
    static func txRate(_ rate: [UInt8]...) -> [UInt8] { NL.attr(8, rate.flatMap { $0 }) }
}

final class NL80211Tests: XCTestCase {
    private func interface(_ bytes: [UInt8]) -> (NetlinkReplyState, WirelessLink) {
        var link = WirelessLink()
        let state = bytes.withBytes { WirelessQuery.parseInterfaceReply($0, into: &link) }
        return (state, link)
    }

    private func station(_ bytes: [UInt8]) -> (NetlinkReplyState, WirelessLink) {
        var link = WirelessLink()
        let state = bytes.withBytes { WirelessQuery.parseStationReply($0, into: &link) }
        return (state, link)
    }

    private func ssid(_ link: WirelessLink) -> [UInt8] {
        var out: [UInt8] = []
        link.appendSSID(into: &out)
        return out
    }

    // MARK: - Committed replies

    func testFamilyReplyFixtureGivesTheNL80211FamilyID() throws {
        let bytes = try fixtureBytes("genl-family-nl80211.bin")
        XCTAssertEqual(bytes.withBytes { GenericNetlinkSocket.parseFamilyID($0, name: "nl80211") }, 0x1c)
        XCTAssertNil(bytes.withBytes { GenericNetlinkSocket.parseFamilyID($0, name: "nl802") })
        XCTAssertEqual(bytes.withBytes { walkNetlinkReply($0, sequence: 4) { _ in } }, .done)
    }

    func testInterfaceReplyFixtureKeepsA32ByteSSIDWithControlBytesAndInvalidUTF8Raw() throws {
        let (state, link) = interface(try fixtureBytes("nl80211-interface.bin"))
        XCTAssertEqual(state, .done)
        var expected: [UInt8] = Array("Caf".utf8) + [0xC3, 0xA9, 0x00, 0x07, 0x1B] + Array("[31m".utf8)
            + [0xFF, 0xFE, 0x80, 0x09] + Array("net".utf8) + [0x7F, 0x0D, 0x0A]
        expected += [UInt8](repeating: UInt8(ascii: "-"), count: 32 - expected.count)
        XCTAssertEqual(link.ssidLength, 32)
        XCTAssertEqual(ssid(link), expected)
        XCTAssertEqual(link.interfaceType, 2)
        XCTAssertNil(link.signalDBm)
    }

    func testInterfaceReplyENODEVFixtureMeansNotWiFi() throws {
        let (state, link) = interface(try fixtureBytes("nl80211-interface-enodev.bin"))
        XCTAssertEqual(state, .failed(errno: 19))
        XCTAssertEqual(link, WirelessLink())
    }

    func testStationReplyFixtureGivesSignalAndBitrate() throws {
        let (state, link) = station(try fixtureBytes("nl80211-station.bin"))
        XCTAssertEqual(state, .done)
        XCTAssertEqual(link.signalDBm, -52)
        XCTAssertEqual(link.bitrateKbps, 866_700)
        XCTAssertEqual(link.qualityPercent, 96)
    }

    func testAStationDumpWithoutItsDoneIsPending() throws {
        let bytes = try fixtureBytes("nl80211-station.bin")
        let firstMessage = Array(bytes.prefix(Int(bytes[0]) | Int(bytes[1]) << 8))
        XCTAssertEqual(station(firstMessage).0, .pending)
        XCTAssertEqual(station(firstMessage).1.signalDBm, -52)
    }

    // MARK: - SSIDs

    func testSSIDsOfZeroToThirtyTwoBytesAreKeptAndLongerOnesRejected() {
        let thirtyTwo = [UInt8](repeating: 0x41, count: 32)
        XCTAssertEqual(ssid(interface(WiFi.interface(ssid: thirtyTwo)).1), thirtyTwo)
        let (state, long) = interface(WiFi.interface(ssid: thirtyTwo + [0x42]))
        XCTAssertEqual(state, .done)
        XCTAssertEqual(long.ssidLength, 0)  // 33 bytes: malformed, not shown
        XCTAssertEqual(long.interfaceType, 2)
        XCTAssertEqual(interface(WiFi.interface(ssid: [])).1.ssidLength, 0)
        XCTAssertEqual(interface(WiFi.interface(ssid: nil)).1.ssidLength, 0)

        var link = WirelessLink()
        XCTAssertTrue([1, 2, 3].withBytes { link.setSSID($0) })
        XCTAssertFalse([UInt8](repeating: 1, count: 40).withBytes { link.setSSID($0) })
        XCTAssertEqual(link.ssidLength, 0)
        XCTAssertEqual(link.ssid, SIMD32<UInt8>())
    }

    func testMessagesOfOtherCommandsAreIgnored() {
        let station = WiFi.station(WiFi.signal(-40), flags: 0)
        let (state, link) = interface(station)  // a NEW_STATION is not a NEW_INTERFACE
        XCTAssertEqual(state, .done)
        XCTAssertEqual(link, WirelessLink())
        XCTAssertNil(self.station(WiFi.interface(ssid: [1])).1.signalDBm)
    }

    // MARK: - Stations

    func testBitrateFallsBackToTheSixteenBitFieldAndSaturates() {
        let narrow = station(WiFi.station(WiFi.txRate(NL.u16(1, 540))) + NL.done())
        XCTAssertEqual(narrow.1.bitrateKbps, 54_000)
        XCTAssertNil(narrow.1.signalDBm)
        let huge = station(WiFi.station(WiFi.txRate(NL.u32(5, .max))) + NL.done())
        XCTAssertEqual(huge.1.bitrateKbps, .max)
        let zero = station(WiFi.station(WiFi.txRate(NL.u32(5, 0), NL.u16(1, 10))) + NL.done())
        XCTAssertEqual(zero.1.bitrateKbps, 1_000)
        XCTAssertNil(station(WiFi.station(WiFi.txRate()) + NL.done()).1.bitrateKbps)
    }

    func testTheAverageSignalIsUsedWhenThereIsNoSignal() {
        XCTAssertEqual(station(WiFi.station(WiFi.signalAverage(-70)) + NL.done()).1.signalDBm, -70)
        XCTAssertEqual(station(WiFi.station(WiFi.signalAverage(-70), WiFi.signal(-60)) + NL.done()).1.signalDBm, -60)
    }

    func testTheFirstStationWithFiguresWins() {
        let bytes = WiFi.station() + WiFi.station(WiFi.signal(-61)) + WiFi.station(WiFi.signal(-40)) + NL.done()
        XCTAssertEqual(station(bytes).1.signalDBm, -61)
    }

    func testMalformedStationInfoIsSkippedWithoutACrash() {
        var overrun = WiFi.signal(-50)
        overrun[0] = 90  // claims more than the nest
        let (state, link) = station(WiFi.station(overrun) + NL.done())
        XCTAssertEqual(state, .done)
        XCTAssertNil(link.signalDBm)
        // A station without NL80211_ATTR_STA_INFO, a short genlmsghdr, an empty signal.
        let odd = WiFi.genl(19, flags: 2, NL.u32(3, 3)) + NL.message(WiFi.family, flags: 2, [19, 1])
            + WiFi.station(NL.attr(7, []), WiFi.txRate(NL.attr(5, [1, 2]))) + NL.done()
        XCTAssertEqual(station(odd).0, .done)
        XCTAssertNil(station(odd).1.signalDBm)
        XCTAssertNil(station(odd).1.bitrateKbps)
    }

    // MARK: - Quality

    func testQualityIsLinearFromMinus100ToMinus50DBm() {
        XCTAssertEqual(WirelessLink.qualityPercent(signalDBm: -128), 0)
        XCTAssertEqual(WirelessLink.qualityPercent(signalDBm: -100), 0)
        XCTAssertEqual(WirelessLink.qualityPercent(signalDBm: -99), 2)
        XCTAssertEqual(WirelessLink.qualityPercent(signalDBm: -75), 50)
        XCTAssertEqual(WirelessLink.qualityPercent(signalDBm: -51), 98)
        XCTAssertEqual(WirelessLink.qualityPercent(signalDBm: -50), 100)
        XCTAssertEqual(WirelessLink.qualityPercent(signalDBm: 0), 100)
        XCTAssertEqual(WirelessLink.qualityPercent(signalDBm: 127), 100)
        XCTAssertNil(WirelessLink().qualityPercent)
    }

    // MARK: - The real kernel

    func testARealGenericNetlinkExchangeResolvesTheControllerWithoutAllocating() throws {
        // "nlctrl" is generic netlink's own controller: its id is GENL_ID_CTRL (0x10) on every kernel.
        guard case .success(let socket) = GenericNetlinkSocket.open() else { throw XCTSkip("no NETLINK_GENERIC socket here") }
        let buffer = ReadBuffer()
        XCTAssertEqual(socket.resolveFamily("nlctrl", buffer: buffer, timeoutMilliseconds: 50), 0x10)
        XCTAssertNil(socket.resolveFamily("no-such-family", buffer: buffer, timeoutMilliseconds: 50))  // ENOENT
        allocation_counter_start()
        var ids = 0
        for _ in 0..<20 where socket.resolveFamily("nlctrl", buffer: buffer, timeoutMilliseconds: 50) == 0x10 { ids += 1 }
        let allocations = allocation_counter_stop()
        XCTAssertEqual(ids, 20)
        XCTAssertEqual(allocations, 0, "20 exchanges allocated \(allocations) times")
    }

    func testAskingAboutTheLoopbackInterfaceGivesNilPromptly() {
        // lo is never Wi-Fi: ENODEV, or no nl80211 at all on this machine; either way nil, fast.
        let query = WirelessQuery(timeoutMilliseconds: 50)
        let buffer = ReadBuffer()
        let start = monotonicMilliseconds()
        XCTAssertNil(query.link(interfaceIndex: 1, buffer: buffer))
        XCTAssertNil(query.link(interfaceIndex: 1, buffer: buffer))
        XCTAssertNil(query.link(interfaceIndex: -1, buffer: buffer))
        XCTAssertLessThan(monotonicMilliseconds() - start, 500)
    }
}
