import Foundation
import XCTest
import TestSupport
import AllocationCounter
@testable import ProcFS

/// Netlink bytes laid out as the kernel headers say (<linux/netlink.h>, <linux/rtnetlink.h>,
/// <linux/if_addr.h>), little-endian, written independently of the parser under test.
enum NL {
    static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
    static func pad(_ b: [UInt8]) -> [UInt8] { b + [UInt8](repeating: 0, count: (4 - b.count % 4) % 4) }

    /// struct nlattr: u16 len (4 + value), u16 type, value, padding to 4.
    static func attr(_ type: UInt16, _ value: [UInt8]) -> [UInt8] { pad(le(UInt16(4 + value.count)) + le(type) + value) }
    static func u8(_ type: UInt16, _ v: UInt8) -> [UInt8] { attr(type, [v]) }
    static func u16(_ type: UInt16, _ v: UInt16) -> [UInt8] { attr(type, le(v)) }
    static func u32(_ type: UInt16, _ v: UInt32) -> [UInt8] { attr(type, le(v)) }
    static func string(_ type: UInt16, _ s: String) -> [UInt8] { attr(type, Array(s.utf8) + [0]) }
    static func nest(_ type: UInt16, flagged: Bool = false, _ children: [UInt8]...) -> [UInt8] {
        attr(type | (flagged ? 0x8000 : 0), children.flatMap { $0 })
    }

    /// struct nlmsghdr: u32 len, u16 type, u16 flags, u32 seq, u32 pid; then the payload, padded.
    static func message(_ type: UInt16, flags: UInt16 = 0, seq: UInt32 = 1, pid: UInt32 = 0, _ payload: [UInt8]) -> [UInt8] {
        pad(le(UInt32(16 + payload.count)) + le(type) + le(flags) + le(seq) + le(pid) + payload)
    }
    static func done(seq: UInt32 = 1) -> [UInt8] { message(3, flags: 2, seq: seq, le(Int32(0))) }
    static func error(_ errno: Int32, seq: UInt32 = 1) -> [UInt8] { message(2, seq: seq, le(-errno) + [UInt8](repeating: 0, count: 16)) }

    // rtnetlink
    static let up: UInt32 = 0x1, loopback: UInt32 = 0x8, running: UInt32 = 0x40
    /// struct ifinfomsg: u8 family, u8 pad, u16 type, s32 index, u32 flags, u32 change.
    static func ifinfo(family: UInt8 = 0, arphrd: UInt16 = 1, index: Int32, flags: UInt32) -> [UInt8] {
        [family, 0] + le(arphrd) + le(index) + le(flags) + le(UInt32(0))
    }
    static func link(_ index: Int32, _ name: String?, flags: UInt32 = up | running, kind: String? = nil,
                     arphrd: UInt16 = 1, delete: Bool = false, family: UInt8 = 0) -> [UInt8] {
        var payload = ifinfo(family: family, arphrd: arphrd, index: index, flags: flags)
        if let name { payload += string(3, name) }
        if let kind { payload += nest(18, string(1, kind)) }
        return message(delete ? 17 : 16, payload)
    }
    /// struct ifaddrmsg: u8 family, u8 prefixlen, u8 flags, u8 scope, u32 index.
    static func address(_ index: UInt32, _ family: UInt8, _ bytes: [UInt8], prefix: UInt8, scope: UInt8 = 0,
                        local: [UInt8]? = nil, flags: UInt32? = nil, delete: Bool = false) -> [UInt8] {
        var payload = [family, prefix, 0, scope] + le(index) + attr(1, bytes)
        if let local { payload += attr(2, local) }
        if let flags { payload += u32(8, flags) }
        return message(delete ? 21 : 20, payload)
    }
    /// struct rtmsg: family, dst_len, src_len, tos, table, protocol, scope, type (u8 each), u32 flags.
    static func route(_ family: UInt8, oif: UInt32?, priority: UInt32? = nil, dstLength: UInt8 = 0, table: UInt8 = 254,
                      type: UInt8 = 1, tableAttribute: UInt32? = nil, extra: [UInt8] = [], delete: Bool = false) -> [UInt8] {
        var payload = [family, dstLength, 0, 0, table, 3, 0, type] + le(UInt32(0))
        if let tableAttribute { payload += u32(15, tableAttribute) }
        if let priority { payload += u32(6, priority) }
        if let oif { payload += u32(4, oif) }
        return message(delete ? 25 : 24, payload + extra)
    }
}

extension Array where Element == UInt8 {
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R { withUnsafeBytes(body) }
}

func fixtureBytes(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("netlink/" + name))))
}

final class NetlinkTests: XCTestCase {
    // MARK: - Message and attribute walks

    private func messages(_ bytes: [UInt8]) -> [(type: UInt16, flags: UInt16, seq: UInt32, pid: UInt32, payload: [UInt8])] {
        bytes.withBytes { NetlinkMessages($0).map { ($0.type, $0.flags, $0.sequence, $0.portID, Array($0.payload)) } }
    }

    private func attributes(_ bytes: [UInt8]) -> [(type: UInt16, nested: Bool, value: [UInt8])] {
        bytes.withBytes { NetlinkAttributes($0).map { ($0.type, $0.isFlaggedNested, Array($0.payload)) } }
    }

    func testMessagesAreWalkedWithTheirHeaderFieldsAndUnpaddedPayloads() {
        let bytes = NL.message(16, flags: 2, seq: 7, pid: 4242, [1, 2, 3]) + NL.done(seq: 7)
        let m = messages(bytes)
        XCTAssertEqual(m.count, 2)
        XCTAssertEqual(m[0].type, 16)
        XCTAssertEqual(m[0].flags, 2)
        XCTAssertEqual(m[0].seq, 7)
        XCTAssertEqual(m[0].pid, 4242)
        XCTAssertEqual(m[0].payload, [1, 2, 3])  // the padding byte is not payload
        XCTAssertEqual(m[1].type, 3)
    }

    func testAMessageLongerThanTheBufferEndsTheWalk() {
        let whole = NL.message(16, [1, 2, 3, 4]) + NL.message(16, [5, 6, 7, 8, 9, 10, 11, 12])
        XCTAssertEqual(messages(Array(whole.dropLast(1))).count, 1)
        XCTAssertEqual(messages(Array(whole.prefix(10))).count, 0)  // not even a header
        var lying = NL.message(16, [1, 2, 3, 4])
        lying[0] = 200  // nlmsg_len past the end
        XCTAssertEqual(messages(lying).count, 0)
        var huge = NL.message(16, [])
        huge.replaceSubrange(0..<4, with: NL.le(UInt32.max))
        XCTAssertEqual(messages(huge).count, 0)
    }

    func testZeroOrBelowHeaderLengthEndsTheWalkInsteadOfLooping() {
        var zero = NL.message(16, [1, 2, 3, 4]) + NL.message(16, [9, 9, 9, 9])
        zero.replaceSubrange(20..<24, with: NL.le(UInt32(0)))  // the second message's nlmsg_len
        XCTAssertEqual(messages(zero).count, 1)
        var short = NL.message(16, [1, 2, 3, 4])
        short.replaceSubrange(0..<4, with: NL.le(UInt32(15)))
        XCTAssertEqual(messages(short).count, 0)
        XCTAssertEqual(messages([]).count, 0)
    }

    func testAFinalMessageWithoutItsPaddingStillCounts() {
        let bytes = NL.message(16, [1])  // 17 bytes of message, 3 of padding
        XCTAssertEqual(messages(Array(bytes.prefix(17))).map(\.payload), [[1]])
    }

    func testAttributesMaskTheNestedFlagAndAreFourByteAligned() {
        let bytes = NL.u8(16, 6) + NL.nest(18, flagged: true, NL.string(1, "veth")) + NL.u32(33, 0xDEADBEEF)
        let a = attributes(bytes)
        XCTAssertEqual(a.map(\.type), [16, 18, 33])
        XCTAssertEqual(a[0].value, [6])
        XCTAssertTrue(a[1].nested)
        XCTAssertFalse(a[0].nested)
        bytes.withBytes { raw in
            var walk = NetlinkAttributes(raw)
            XCTAssertEqual(walk.next()?.uint8, 6)
            let kind = walk.next()!.nested.first(1)!
            XCTAssertEqual(Array(kind.string), Array("veth".utf8))
            XCTAssertEqual(walk.next()?.uint32, 0xDEADBEEF)
            XCTAssertNil(walk.next())
        }
    }

    func testAnAttributeLengthPastTheEndOrBelowFourStopsTheWalk() {
        var past = NL.u32(1, 1) + NL.u32(2, 2)
        past[8] = 40  // second attribute claims 40 bytes
        XCTAssertEqual(attributes(past).map(\.type), [1])
        var zero = NL.u32(1, 1) + NL.u32(2, 2)
        zero[8] = 0; zero[9] = 0
        XCTAssertEqual(attributes(zero).map(\.type), [1])
        var three = NL.u32(1, 1)
        three[0] = 3
        XCTAssertEqual(attributes(three).count, 0)
        XCTAssertEqual(attributes([4, 0]).count, 0)  // a header cut in half
    }

    func testANestedAttributeThatOverrunsItsNestStopsOnlyTheInnerWalk() {
        var inner = NL.u32(1, 5)
        inner[0] = 60  // claims more than the nest holds
        let bytes = NL.attr(18, inner) + NL.u8(33, 1)
        bytes.withBytes { raw in
            var walk = NetlinkAttributes(raw)
            let nest = walk.next()!
            XCTAssertEqual(Array(nest.nested).count, 0)
            XCTAssertEqual(walk.next()?.type, 33)  // the outer walk goes on
        }
    }

    func testShortValuesGiveNilNotAnOverread() {
        NL.attr(1, [1]).withBytes { raw in
            let a = NetlinkAttributes(raw).first(1)!
            XCTAssertEqual(a.uint8, 1)
            XCTAssertNil(a.uint16)
            XCTAssertNil(a.uint32)
        }
        NL.attr(1, []).withBytes { raw in
            XCTAssertNil(NetlinkAttributes(raw).first(1)!.uint8)
        }
    }

    func testErrorMessagesGiveAPositiveErrnoAndAnAckIsZero() {
        NL.error(19).withBytes { XCTAssertEqual(Array(NetlinkMessages($0)).first?.errorCode, 19) }
        NL.error(0).withBytes { XCTAssertEqual(Array(NetlinkMessages($0)).first?.errorCode, 0) }
        NL.message(2, [1, 2]).withBytes { XCTAssertNil(Array(NetlinkMessages($0)).first?.errorCode) }
        NL.message(2, NL.le(Int32.min)).withBytes { XCTAssertEqual(Array(NetlinkMessages($0)).first?.errorCode, .max) }
    }

    func testReplyWalkStopsAtDoneOrErrorAndSkipsOtherSequences() {
        var seen: [UInt32] = []
        let dump = NL.message(0x1c, flags: 2, seq: 9, [0, 0, 0, 0]) + NL.message(0x1c, flags: 2, seq: 8, [])
            + NL.message(0x1c, flags: 2, seq: 9, [1, 0, 0, 0])
        XCTAssertEqual(dump.withBytes { walkNetlinkReply($0, sequence: 9) { seen.append($0.sequence) } }, .pending)
        XCTAssertEqual(seen, [9, 9])
        XCTAssertEqual((dump + NL.done(seq: 9)).withBytes { walkNetlinkReply($0, sequence: 9) { _ in } }, .done)
        XCTAssertEqual(NL.done(seq: 8).withBytes { walkNetlinkReply($0, sequence: 9) { _ in } }, .pending)
        XCTAssertEqual(NL.error(19, seq: 9).withBytes { walkNetlinkReply($0, sequence: 9) { _ in } }, .failed(errno: 19))
        XCTAssertEqual(NL.error(0, seq: 9).withBytes { walkNetlinkReply($0, sequence: 9) { _ in } }, .done)
        // A reply without NLM_F_MULTI is complete by itself.
        XCTAssertEqual(NL.message(0x1c, seq: 9, []).withBytes { walkNetlinkReply($0, sequence: 9) { _ in } }, .done)
        XCTAssertEqual(NL.message(4, seq: 9, []).withBytes { walkNetlinkReply($0, sequence: nil) { _ in } }, .failed(errno: 75))
    }

    // MARK: - Interface table from the committed dumps

    private func fixtureTable() throws -> InterfaceTable {
        var table = InterfaceTable()
        let links = try fixtureBytes("link-dump.bin"), rest = try fixtureBytes("addr-route-dump.bin")
        XCTAssertTrue(links.withBytes { table.apply(messages: $0) })
        XCTAssertTrue(rest.withBytes { table.apply(messages: $0) })
        return table
    }

    private func text(_ address: InterfaceAddress?) -> String? {
        guard let address else { return nil }
        var out: [UInt8] = []
        address.appendAddressWithPrefix(into: &out)
        return out.text
    }

    func testLinkDumpFixtureFillsTheTableSortedByIndex() throws {
        let table = try fixtureTable()
        XCTAssertEqual(table.interfaces.map(\.index), [1, 2, 3, 5, 6, 7])
        XCTAssertEqual(table.interfaces.map(\.name.string), ["lo", "eth0", "wlan0", "docker0", "wg0", "veth3f2a1b9"])
        XCTAssertEqual(table.interfaces.map(\.kind.string), ["", "", "", "bridge", "wireguard", "veth"])
        XCTAssertEqual(table.interfaces.map(\.isVirtual), [true, false, false, true, true, true])

        let lo = try XCTUnwrap(table.interface(index: 1))
        XCTAssertTrue(lo.isLoopback)
        XCTAssertEqual(lo.hardwareType, 772)
        XCTAssertEqual(lo.operationalState, .unknown)
        let eth0 = try XCTUnwrap(table.interface(named: ShortName("eth0")))
        XCTAssertTrue(eth0.isUp && eth0.isRunning && !eth0.isLoopback)
        XCTAssertEqual(eth0.operationalState, .up)
        XCTAssertEqual(eth0.carrier, true)
        let docker = try XCTUnwrap(table.interface(index: 5))
        XCTAssertTrue(docker.isUp)
        XCTAssertFalse(docker.isRunning)
        XCTAssertEqual(docker.operationalState, .down)
        XCTAssertEqual(docker.carrier, false)
        XCTAssertEqual(table.interface(index: 6)?.hardwareType, 65534)
    }

    func testAddressDumpKeepsTheFirstIPv4AndTheFirstGlobalIPv6() throws {
        let table = try fixtureTable()
        XCTAssertEqual(text(table.interface(index: 1)?.ipv4), "127.0.0.1/8")
        XCTAssertNil(table.interface(index: 1)?.ipv6)  // ::1 is host scope
        XCTAssertEqual(text(table.interface(index: 2)?.ipv4), "192.168.1.20/24")
        XCTAssertEqual(text(table.interface(index: 2)?.ipv6), "2001:db8::20/64")  // not fe80::
        XCTAssertEqual(text(table.interface(index: 3)?.ipv4), "10.0.0.5/24")
        XCTAssertEqual(text(table.interface(index: 6)?.ipv4), "10.8.0.2/32")  // IFA_LOCAL, not the peer
        XCTAssertNil(table.interface(index: 5)?.ipv4)
    }

    func testDefaultRouteIsTheLowestMetricIPv4RouteOfTheMainTable() throws {
        let table = try fixtureTable()
        XCTAssertEqual(table.defaultInterfaceIndex, 2)  // metric 100 beats wlan0's 600
        XCTAssertEqual(table.defaultInterface?.name.string, "eth0")
    }

    func testDefaultRouteFollowsRouteChanges() throws {
        var table = try fixtureTable()
        NL.route(2, oif: 2, priority: 100, delete: true).withBytes { _ = table.apply(messages: $0) }
        XCTAssertEqual(table.defaultInterfaceIndex, 3)
        NL.route(2, oif: 2, priority: 20).withBytes { _ = table.apply(messages: $0) }
        XCTAssertEqual(table.defaultInterfaceIndex, 2)
        // Deleting a route that does not exist changes nothing.
        XCTAssertFalse(NL.route(2, oif: 3, priority: 999, delete: true).withBytes { table.apply(messages: $0) })
        XCTAssertEqual(table.defaultInterfaceIndex, 2)
        // Without IPv4 default routes, the IPv6 one (via eth0) is used.
        NL.route(2, oif: 2, priority: 20, delete: true).withBytes { _ = table.apply(messages: $0) }
        NL.route(2, oif: 3, priority: 600, delete: true).withBytes { _ = table.apply(messages: $0) }
        XCTAssertEqual(table.defaultInterfaceIndex, 2)
        NL.route(10, oif: 2, priority: 1024, delete: true).withBytes { _ = table.apply(messages: $0) }
        XCTAssertNil(table.defaultInterfaceIndex)
    }

    func testARouteThroughAnInterfaceWithoutCarrierLosesToARunningOne() throws {
        var table = try fixtureTable()
        NL.link(2, "eth0", flags: NL.up).withBytes { _ = table.apply(messages: $0) }  // up, no carrier
        XCTAssertEqual(table.defaultInterfaceIndex, 3)
    }

    func testALinkGoingDownDropsItsRoutesAndDeletingALinkRemovesIt() throws {
        var table = try fixtureTable()
        NL.link(3, "wlan0", flags: 0).withBytes { _ = table.apply(messages: $0) }
        NL.link(2, nil, delete: true).withBytes { XCTAssertTrue(table.apply(messages: $0)) }
        XCTAssertNil(table.interface(index: 2))
        XCTAssertEqual(table.interfaces.map(\.index), [1, 3, 5, 6, 7])
        // eth0's routes went with it, wlan0's when it went down: nothing is left.
        XCTAssertNil(table.defaultInterfaceIndex)
        // Coming back up does not invent a route: the next RTM_NEWROUTE brings it.
        NL.link(3, "wlan0").withBytes { _ = table.apply(messages: $0) }
        XCTAssertNil(table.defaultInterfaceIndex)
        NL.route(2, oif: 3, priority: 600).withBytes { _ = table.apply(messages: $0) }
        XCTAssertEqual(table.defaultInterfaceIndex, 3)
    }

    func testBridgePortMessagesDoNotDeleteTheLink() throws {
        var table = try fixtureTable()
        let bridgeFamily: UInt8 = 7  // AF_BRIDGE
        NL.link(7, "veth3f2a1b9", delete: true, family: bridgeFamily).withBytes { _ = table.apply(messages: $0) }
        XCTAssertNotNil(table.interface(index: 7))
    }

    func testOnlyDefaultUnicastRoutesOfTheMainTableCount() {
        var table = InterfaceTable()
        let routes = NL.route(2, oif: 4, dstLength: 24) + NL.route(2, oif: 4, table: 255)
            + NL.route(2, oif: 4, type: 6) /* RTN_PROHIBIT */ + NL.route(2, oif: 4, table: 252, tableAttribute: 1000)
            + NL.route(2, oif: nil) + NL.route(7, oif: 4)
        XCTAssertFalse(routes.withBytes { table.apply(messages: $0) })
        XCTAssertNil(table.defaultInterfaceIndex)
        // RTA_TABLE overrides rtm_table (a table id above 255 does not fit the u8).
        NL.route(2, oif: 4, table: 252, tableAttribute: 254).withBytes { _ = table.apply(messages: $0) }
        XCTAssertEqual(table.defaultInterfaceIndex, 4)
    }

    func testAMultipathDefaultRouteUsesItsFirstNexthop() {
        var table = InterfaceTable()
        // struct rtnexthop: u16 len, u8 flags, u8 hops, s32 ifindex (+ attributes).
        let nexthops = NL.le(UInt16(8)) + [0, 0] + NL.le(Int32(9)) + NL.le(UInt16(8)) + [0, 0] + NL.le(Int32(4))
        NL.route(2, oif: nil, priority: 10, extra: NL.attr(9, nexthops)).withBytes { _ = table.apply(messages: $0) }
        XCTAssertEqual(table.defaultInterfaceIndex, 9)
        var broken = nexthops
        broken[0] = 0  // a zero-length nexthop ends the walk
        var other = InterfaceTable()
        NL.route(2, oif: nil, extra: NL.attr(9, broken)).withBytes { _ = other.apply(messages: $0) }
        XCTAssertNil(other.defaultInterfaceIndex)
    }

    func testAddressChangesKeepTheFirstAndADeletionAsksForADump() throws {
        var table = try fixtureTable()
        let second = NL.address(2, 2, [192, 168, 1, 99], prefix: 24)
        XCTAssertFalse(second.withBytes { table.apply(messages: $0) })
        XCTAssertEqual(text(table.interface(index: 2)?.ipv4), "192.168.1.20/24")
        NL.address(2, 2, [192, 168, 1, 20], prefix: 24, delete: true).withBytes { _ = table.apply(messages: $0) }
        XCTAssertNil(table.interface(index: 2)?.ipv4)
        XCTAssertTrue(table.needsAddressDump)
        table.acknowledgeAddressDump()
        XCTAssertFalse(table.needsAddressDump)
        second.withBytes { _ = table.apply(messages: $0) }
        XCTAssertEqual(text(table.interface(index: 2)?.ipv4), "192.168.1.99/24")
    }

    func testTentativeOrNonGlobalIPv6AddressesAreNotShown() {
        var table = InterfaceTable()
        NL.link(4, "eth1").withBytes { _ = table.apply(messages: $0) }
        let address: [UInt8] = [0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [5]
        NL.address(4, 10, address, prefix: 64, flags: 0x40).withBytes { _ = table.apply(messages: $0) }
        XCTAssertNil(table.interface(index: 4)?.ipv6)
        NL.address(4, 10, address, prefix: 64, scope: 200).withBytes { _ = table.apply(messages: $0) }
        XCTAssertNil(table.interface(index: 4)?.ipv6)
        NL.address(4, 10, address, prefix: 64, flags: 0).withBytes { _ = table.apply(messages: $0) }
        XCTAssertEqual(text(table.interface(index: 4)?.ipv6), "2001:db8::5/64")
    }

    func testHostileLinkAndAddressMessagesAreSkipped() {
        var table = InterfaceTable()
        let garbage = NL.message(16, [0, 0, 1, 0]) /* short ifinfomsg */ + NL.link(0, "zero") + NL.link(-3, "neg")
            + NL.address(99, 2, [1, 2, 3, 4], prefix: 8) /* unknown interface */
        XCTAssertFalse(garbage.withBytes { table.apply(messages: $0) })
        XCTAssertTrue(table.interfaces.isEmpty)
        NL.link(4, "eth1").withBytes { _ = table.apply(messages: $0) }
        let wrongSize = NL.address(4, 2, [1, 2, 3], prefix: 8) + NL.address(4, 10, [1, 2, 3, 4], prefix: 64)
            + NL.address(4, 2, [1, 2, 3, 4], prefix: 200)
        wrongSize.withBytes { _ = table.apply(messages: $0) }
        XCTAssertEqual(text(table.interface(index: 4)?.ipv4), "1.2.3.4/32")  // prefix clamped
        XCTAssertNil(table.interface(index: 4)?.ipv6)
    }

    func testAnOverlongNameIsCutAndBytesAfterANulAreDropped() {
        var table = InterfaceTable()
        NL.link(4, "abcdefghijklmnopqrstuvwxyz").withBytes { _ = table.apply(messages: $0) }
        XCTAssertEqual(table.interface(index: 4)?.name.string, "abcdefghijklmno")
        XCTAssertEqual(table.interface(index: 4)?.name.count, 15)
        let nul = NL.message(16, NL.ifinfo(index: 5, flags: 1) + NL.attr(3, Array("et\0h9".utf8)))
        nul.withBytes { _ = table.apply(messages: $0) }
        XCTAssertEqual(table.interface(index: 5)?.name.string, "et")
    }

    func testWithoutAKindTheNameDecidesWhetherAnInterfaceIsVirtual() {
        var table = InterfaceTable()
        let names = ["docker0", "br-1a2b3c", "virbr0", "enp3s0", "wlp2s0", "tun0", "bridge", "wwan0"]
        for (i, name) in names.enumerated() {
            NL.link(Int32(i + 10), name).withBytes { _ = table.apply(messages: $0) }
        }
        XCTAssertEqual(table.interfaces.map(\.isVirtual), [true, true, true, false, false, true, false, false])
        // A kind wins over the name: a "bond" named like a container bridge is real.
        NL.link(30, "docker9", kind: "bond").withBytes { _ = table.apply(messages: $0) }
        XCTAssertEqual(table.interface(index: 30)?.isVirtual, false)
    }

    func testAFullTableIgnoresASeventeenthVirtualInterfaceButMakesRoomForARealOne() {
        var table = InterfaceTable()
        for i in 1...16 { NL.link(Int32(i + 100), "veth\(i)", kind: "veth").withBytes { _ = table.apply(messages: $0) } }
        XCTAssertEqual(table.interfaces.count, 16)
        XCTAssertFalse(NL.link(200, "veth17", kind: "veth").withBytes { table.apply(messages: $0) })
        XCTAssertEqual(table.interfaces.count, 16)
        XCTAssertNil(table.interface(index: 200))
        XCTAssertEqual(table.ignoredInterfaces, 1)
        // Existing entries still update.
        NL.link(101, "veth1", flags: 0, kind: "veth").withBytes { _ = table.apply(messages: $0) }
        XCTAssertEqual(table.interface(index: 101)?.isUp, false)
        // A real interface evicts the newest virtual one.
        NL.link(3, "wlan0").withBytes { _ = table.apply(messages: $0) }
        XCTAssertEqual(table.interfaces.count, 16)
        XCTAssertEqual(table.interfaces.first?.name.string, "wlan0")
        XCTAssertNil(table.interface(index: 116))
        XCTAssertEqual(table.ignoredInterfaces, 2)
    }

    func testAFullTableOfRealInterfacesNeverCrashes() {
        var table = InterfaceTable(capacity: 2)
        for i in 1...40 { NL.link(Int32(i), "eth\(i)").withBytes { _ = table.apply(messages: $0) } }
        XCTAssertEqual(table.interfaces.map(\.index), [1, 2])
        XCTAssertEqual(table.ignoredInterfaces, 38)
        for i in 1...40 { NL.route(2, oif: UInt32(i), priority: UInt32(i)).withBytes { _ = table.apply(messages: $0) } }
        XCTAssertEqual(table.defaultInterfaceIndex, 1)  // 8 routes kept; the rest ignored
    }

    func testRemoveAllEmptiesTheTableForAReDump() throws {
        var table = try fixtureTable()
        table.removeAll()
        XCTAssertTrue(table.interfaces.isEmpty)
        XCTAssertNil(table.defaultInterfaceIndex)
        try fixtureBytes("link-dump.bin").withBytes { _ = table.apply(messages: $0) }
        XCTAssertEqual(table.interfaces.count, 6)
    }

    // MARK: - Address text

    private func ipv6(_ groups: [UInt16]) -> String {
        let bytes = groups.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        var out: [UInt8] = []
        bytes.withBytes { InterfaceAddress(family: .ipv6, bytes: $0, prefixLength: 64)!.appendAddress(into: &out) }
        return out.text
    }

    func testIPv6TextIsCompressedAsRFC5952Says() {
        XCTAssertEqual(ipv6([0, 0, 0, 0, 0, 0, 0, 1]), "::1")
        XCTAssertEqual(ipv6([0, 0, 0, 0, 0, 0, 0, 0]), "::")
        XCTAssertEqual(ipv6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]), "2001:db8::1")
        XCTAssertEqual(ipv6([0xfe80, 0, 0, 0, 0x5054, 0xff, 0xfe12, 0x3456]), "fe80::5054:ff:fe12:3456")
        XCTAssertEqual(ipv6([1, 0, 0, 0, 0, 0, 0, 0]), "1::")
        // A single zero group is not compressed.
        XCTAssertEqual(ipv6([0x2001, 0xdb8, 0, 1, 1, 1, 1, 1]), "2001:db8:0:1:1:1:1:1")
        // The longest run is compressed; on a tie, the first.
        XCTAssertEqual(ipv6([0x2001, 0, 0, 1, 0, 0, 0, 1]), "2001:0:0:1::1")
        XCTAssertEqual(ipv6([0x2001, 0xdb8, 0, 0, 1, 0, 0, 1]), "2001:db8::1:0:0:1")
        // Lowercase, no leading zeros.
        XCTAssertEqual(ipv6([0x2001, 0x0DB8, 0xABCD, 0x000F, 0x0100, 0, 0xFFFF, 0x0a0b]), "2001:db8:abcd:f:100:0:ffff:a0b")
        XCTAssertEqual(ipv6([0, 0, 0, 0, 0, 0xffff, 0xc000, 0x0201]), "::ffff:192.0.2.1")
    }

    func testIPv4TextIsADottedQuad() {
        var out: [UInt8] = []
        [0, 10, 100, 255].withBytes { InterfaceAddress(family: .ipv4, bytes: $0, prefixLength: 0)!.appendAddressWithPrefix(into: &out) }
        XCTAssertEqual(out.text, "0.10.100.255/0")
        XCTAssertNil([1, 2, 3, 4, 5].withBytes { InterfaceAddress(family: .ipv4, bytes: $0, prefixLength: 8) })
        XCTAssertNil([1, 2, 3, 4].withBytes { InterfaceAddress(family: .ipv6, bytes: $0, prefixLength: 8) })
    }

    func testShortNameComparesAndCuts() {
        let name = ShortName("wlan0")
        XCTAssertTrue(name.equals("wlan0"))
        XCTAssertFalse(name.equals("wlan"))
        XCTAssertTrue(name.hasPrefix("wlan"))
        XCTAssertFalse(name.hasPrefix("wlan00"))
        XCTAssertEqual(ShortName("a-very-long-interface-name").count, 15)
        XCTAssertEqual(name.withBytes { Array($0) }, Array("wlan0".utf8))
        XCTAssertTrue(ShortName().isEmpty)
    }

    // MARK: - Steady state

    func testSteadyStateParsingAndFormattingAllocateNothing() throws {
        var table = InterfaceTable()
        let links = try fixtureBytes("link-dump.bin"), rest = try fixtureBytes("addr-route-dump.bin")
        let station = try fixtureBytes("nl80211-station.bin"), interface = try fixtureBytes("nl80211-interface.bin")
        let events = NL.link(7, nil, delete: true) + NL.link(7, "veth3f2a1b9", kind: "veth")
            + NL.route(2, oif: 2, priority: 100, delete: true) + NL.route(2, oif: 2, priority: 100)
            + NL.address(2, 2, [192, 168, 1, 20], prefix: 24, delete: true) + NL.address(2, 2, [192, 168, 1, 20], prefix: 24)
        var text: [UInt8] = []
        text.reserveCapacity(256)
        var link = WirelessLink()
        func round() {
            links.withBytes { _ = table.apply(messages: $0) }
            rest.withBytes { _ = table.apply(messages: $0) }
            events.withBytes { _ = table.apply(messages: $0) }
            text.removeAll(keepingCapacity: true)
            for i in 0..<table.interfaces.count {  // for-in over an array allocates in debug builds
                let entry = table.interfaces[i]
                entry.name.append(to: &text)
                entry.ipv4?.appendAddressWithPrefix(into: &text)
                entry.ipv6?.appendAddressWithPrefix(into: &text)
                _ = entry.isVirtual
            }
            _ = table.defaultInterfaceIndex
            link = WirelessLink()
            _ = interface.withBytes { WirelessQuery.parseInterfaceReply($0, into: &link) }
            _ = station.withBytes { WirelessQuery.parseStationReply($0, into: &link) }
        }
        round()
        allocation_counter_start()
        for _ in 0..<50 { round() }
        let allocations = allocation_counter_stop()
        XCTAssertEqual(allocations, 0, "50 rounds allocated \(allocations) times")
        XCTAssertEqual(table.interfaces.count, 6)
        XCTAssertEqual(link.signalDBm, -52)
    }

    func testDrainingARealSocketAllocatesNothing() throws {
        guard case .success(let socket) = RouteNetlinkSocket.open() else { throw XCTSkip("no NETLINK_ROUTE socket here") }
        var table = InterfaceTable()
        let buffer = ReadBuffer(capacity: 32 * 1024)
        func dump() {
            socket.requestDump(.all)
            for _ in 0..<200 where socket.isDumping {
                _ = socket.drain(into: buffer) { table.apply(messages: $0) }
            }
        }
        dump()
        allocation_counter_start()
        for _ in 0..<5 { dump() }
        let allocations = allocation_counter_stop()
        XCTAssertEqual(allocations, 0, "5 full dumps allocated \(allocations) times")
        XCTAssertFalse(socket.isDumping)
    }

    // MARK: - The real kernel

    func testARealLinkDumpListsTheLoopbackInterface() throws {
        let socket: RouteNetlinkSocket
        switch RouteNetlinkSocket.open() {
        case .success(let s): socket = s
        case .failure(let e): throw XCTSkip("no NETLINK_ROUTE socket here: \(e)")
        }
        XCTAssertNil(socket.requestDump(.all))
        XCTAssertTrue(socket.isDumping)
        var table = InterfaceTable()
        let buffer = ReadBuffer(capacity: 32 * 1024)
        for _ in 0..<200 where socket.isDumping {
            let result = socket.drain(into: buffer) { table.apply(messages: $0) }
            XCTAssertNil(result.error)
            if socket.isDumping { usleep(5_000) }
        }
        XCTAssertFalse(socket.isDumping, "the three dumps did not complete")
        let lo = try XCTUnwrap(table.interfaces.first { $0.name.equals("lo") })
        XCTAssertTrue(lo.isLoopback)
        XCTAssertTrue(lo.isVirtual)
    }
}
