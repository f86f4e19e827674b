@testable import SnapshotCodec
import XCTest

/// The GPU and network sections' payloads, byte for byte, for values at the ends of their
/// fields' ranges: their layouts are made from tables now, and these are the bytes the
/// hand-written layouts wrote (and what a renderer of any version reads).
final class SectionBytesTests: XCTestCase {
    /// The payload of section `tag` of `s`'s encoding.
    func payload(_ tag: SectionTag, of s: Snapshot) -> [UInt8] {
        let bytes = encoded(s)
        var i = 32
        while i < bytes.count {
            let t = UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8
            let length = (0..<4).reduce(0) { $0 | Int(bytes[i + 4 + $1]) << (8 * $1) }
            if t == tag.rawValue { return Array(bytes[(i + 8)..<(i + 8 + length)]) }
            i += 8 + length
        }
        return []
    }

    func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] { (0..<(T.bitWidth / 8)).map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) } }

    func extremeCard() -> GPUFigures {
        var g = GPUFigures()
        g.index = 255; g.driver = Array("amdgpu".utf8); g.name = [0xFF, 0x00, 0x41]
        g.known = GPUFigures.Known(rawValue: 0xFFFF)
        g.busy = 12_000; g.memoryBusy = .max
        g.vramUsedBytes = .max; g.vramTotalBytes = 1 << 63; g.gttUsedBytes = 0; g.gttTotalBytes = 7
        g.milliCelsius = .min; g.milliwatts = .max; g.clockMHz = 1; g.fan = .max
        g.powerLimitMilliwatts = .max
        return g
    }

    func testTheGPUSectionKeepsEachFigureAtItsWidthAndClampsShares() throws {
        var s = Snapshot()
        s.available = [.gpu]
        s.gpus = [extremeCard()]
        var expected: [UInt8] = [1, 255, 6] + Array("amdgpu".utf8) + [3, 0xFF, 0x00, 0x41] + le(UInt16(0xFFFF))
        expected += le(UInt16(10_000)) + le(UInt16(10_000))
        expected += le(UInt64.max) + le(UInt64(1) << 63) + le(UInt64(0)) + le(UInt64(7))
        expected += le(Int32.min) + le(UInt32.max) + le(UInt32(1)) + le(UInt32.max)
        expected += [1] + le(Int64(UInt32.max))
        XCTAssertEqual(payload(.gpu, of: s), expected)

        let decoded = try decodeResult(encoded(s)).get()
        var clamped = extremeCard()
        clamped.busy = 10_000; clamped.memoryBusy = 10_000
        XCTAssertEqual(decoded.gpus, [clamped])
    }

    func testAGPUFigureAppendedWithANegativeValueReadsAsZeroWhereUnsigned() throws {
        var s = Snapshot()
        s.available = [.gpu]
        s.gpus = [extremeCard()]
        var bytes = encoded(s)
        bytes = withBody(of: bytes) { body in
            // The GPU section's last 8 bytes are the card's power limit.
            let tagAt = sectionOffset(.gpu, in: body)
            let at = tagAt + 8 + (0..<4).reduce(0) { $0 | Int(body[tagAt + 4 + $1]) << (8 * $1) } - 8
            for k in 0..<8 { body[at + k] = le(Int64(-5))[k] }
        }
        XCTAssertEqual(try decodeResult(bytes).get().gpus.first?.powerLimitMilliwatts, 0)
    }

    func interface(_ name: String) -> InterfaceFigures {
        var n = InterfaceFigures()
        n.name = Array(name.utf8)
        n.flags = InterfaceFigures.Flags(rawValue: 0xFF)
        n.rxBytesPerSecond = .max; n.txBytesPerSecond = 1; n.rxBytes = 1 << 63; n.txBytes = 0
        n.ipv4 = Array("10.0.0.1".utf8); n.ipv6 = []
        n.wifi.ssid = [0x00, 0xFF]; n.wifi.signalDBm = .min; n.wifi.qualityPercent = 200; n.wifi.bitrateKbps = .max
        n.linkSpeedMbps = 10_000
        return n
    }

    func testTheNetworkSectionInterleavesTextsAndFiguresThenTheHistoryThenTheLinkSpeeds() throws {
        var s = Snapshot()
        s.available = [.network]
        s.interfaces = [interface("wlan0"), interface("e")]
        s.interfaces[1].linkSpeedMbps = Snapshot.unreadableLinkSpeed
        s.rxHistory = [1, 2, 3]
        s.txHistory = [UInt32.max, 5]
        func entry(_ name: String) -> [UInt8] {
            [UInt8(name.utf8.count)] + Array(name.utf8) + [0xFF] + le(UInt64.max) + le(UInt64(1)) + le(UInt64(1) << 63) + le(UInt64(0))
                + [8] + Array("10.0.0.1".utf8) + [0] + [2, 0x00, 0xFF] + le(Int16.min) + [200] + le(UInt32.max)
        }
        var expected: [UInt8] = [2] + entry("wlan0") + entry("e")
        expected += [2] + le(UInt32(2)) + le(UInt32(3)) + le(UInt32.max) + le(UInt32(5))
        expected += [2] + le(UInt32(10_000)) + le(Snapshot.unreadableLinkSpeed)
        XCTAssertEqual(payload(.network, of: s), expected)

        let decoded = try decodeResult(encoded(s)).get()
        var want = s.interfaces
        for i in want.indices { want[i].wifi.qualityPercent = 100 }   // over 100 (not 255, unknown) reads as 100
        XCTAssertEqual(decoded.interfaces, want)
        XCTAssertEqual(decoded.rxHistory, [2, 3])
        XCTAssertEqual(decoded.txHistory, [UInt32.max, 5])
    }

    func testAVersionOneNetworkSectionReadsEveryLinkSpeedAsUnreadable() throws {
        var s = Snapshot()
        s.available = [.network]
        s.interfaces = [interface("eth0")]
        let bytes = withBody(of: encoded(s)) { body in
            // The network section's last 5 bytes: the link speeds' count and the one speed.
            let tagAt = sectionOffset(.network, in: body)
            let length = (0..<4).reduce(0) { $0 | Int(body[tagAt + 4 + $1]) << (8 * $1) }
            body.removeSubrange((tagAt + 8 + length - 5)..<(tagAt + 8 + length))
            body[tagAt + 2] = 1
            for k in 0..<4 { body[tagAt + 4 + k] = le(UInt32(length - 5))[k] }
        }
        XCTAssertEqual(try decodeResult(bytes).get().interfaces.first?.linkSpeedMbps, Snapshot.unreadableLinkSpeed)
    }

    /// Where section `tag`'s header starts in a body (the bytes after the file header).
    func sectionOffset(_ tag: SectionTag, in body: [UInt8]) -> Int {
        var i = 0
        while i < body.count {
            let t = UInt16(body[i]) | UInt16(body[i + 1]) << 8
            if t == tag.rawValue { return i }
            i += 8 + (0..<4).reduce(0) { $0 | Int(body[i + 4 + $1]) << (8 * $1) }
        }
        return body.count
    }
}
