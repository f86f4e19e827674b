import SnapshotCodec
import XCTest

/// Shares (‱) are clamped to 100 % when a snapshot is decoded: another local user may write
/// a valid snapshot whose CPU busy and battery read 65535 ‱, and every reader (the bar's
/// outputs, `sysstats report` and its JSON) would show `655%`.
final class ShareClampTests: XCTestCase {
    /// Every share the format carries at 65535 ‱ (memory pressure one below its v1/v2 "none"),
    /// Wi-Fi quality at 254 %.
    func overfull() -> Snapshot {
        var s = fullSnapshot()
        s.cpuBusy = .max; s.cpuIOWait = .max
        s.coreBusy = Array(repeating: .max, count: s.coreBusy.count)
        s.samplerCPU = .max
        s.memoryPressure = .max - 1
        s.battery.percent = .max
        s.cpuHistory = Array(repeating: .max, count: s.cpuHistory.count)
        s.iowaitHistory = Array(repeating: .max, count: s.cpuHistory.count)
        s.memoryHistory = Array(repeating: .max, count: s.cpuHistory.count)
        if !s.interfaces.isEmpty { s.interfaces[0].wifi.qualityPercent = 254 }
        return s
    }

    func assertEveryShareWithinAHundredPercent(_ s: Snapshot, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let whole = Snapshot.wholeShare
        XCTAssertEqual(s.cpuBusy, whole, what, file: file, line: line)
        XCTAssertEqual(s.cpuIOWait, whole, what, file: file, line: line)
        XCTAssertEqual(s.samplerCPU, whole, what, file: file, line: line)
        XCTAssertEqual(s.memoryPressure, whole, what, file: file, line: line)
        XCTAssertEqual(s.battery.percent, whole, what, file: file, line: line)
        XCTAssertFalse(s.coreBusy.isEmpty, what, file: file, line: line)
        for (name, series) in [("cores", s.coreBusy), ("cpu history", s.cpuHistory),
                               ("iowait history", s.iowaitHistory), ("memory history", s.memoryHistory)] {
            XCTAssertFalse(series.isEmpty, "\(what): \(name)", file: file, line: line)
            XCTAssertTrue(series.allSatisfy { $0 == whole }, "\(what): \(name) \(series.prefix(3))", file: file, line: line)
        }
    }

    func testEveryShareOfAV3SnapshotIsClampedToAHundredPercent() throws {
        let decoded = try decodeResult(encoded(overfull())).get()
        assertEveryShareWithinAHundredPercent(decoded, "v3")
        XCTAssertFalse(decoded.interfaces.isEmpty)
        XCTAssertEqual(decoded.interfaces[0].wifi.qualityPercent, 100, "Wi-Fi quality is a percentage")
    }

    func testEveryShareOfAV2SnapshotIsClampedToAHundredPercent() throws {
        assertEveryShareWithinAHundredPercent(try decodeResult(encodedV2(overfull())).get(), "v2")
    }

    func testSharesWithinRangeAndUnknownWifiQualityAreKept() throws {
        var s = fullSnapshot()
        s.cpuBusy = 10_000; s.battery.percent = 9_999
        if !s.interfaces.isEmpty { s.interfaces[0].wifi.qualityPercent = 255 }
        let decoded = try decodeResult(encoded(s)).get()
        XCTAssertEqual(decoded.cpuBusy, 10_000)
        XCTAssertEqual(decoded.battery.percent, 9_999)
        XCTAssertEqual(decoded.interfaces.first?.wifi.qualityPercent, 255, "255 says unknown")
    }
}
