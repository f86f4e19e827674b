import Foundation
import PrometheusText
import SnapshotCodec
import XCTest

/// The whole Prometheus text of the full snapshot and of the bar's golden snapshots, byte for
/// byte: a part's families are made from its figure table, and moving a part onto one must not
/// change a byte (an order, a help text, a decimal). Regenerate only for a deliberate change:
///     SYSSTATS_UPDATE_GOLDEN=1 swift test --filter PrometheusGoldenTests
final class PrometheusGoldenTests: XCTestCase {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let barGolden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("BarCoreTests/Golden")

    private func check(_ out: [UInt8], _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let url = Self.directory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["SYSSTATS_UPDATE_GOLDEN"] == "1" { try Data(out).write(to: url) }
        let expected = [UInt8](try Data(contentsOf: url))
        XCTAssertEqual(String(decoding: out, as: UTF8.self), String(decoding: expected, as: UTF8.self), name, file: file, line: line)
    }

    func testTheFullSnapshotsTextIsTheGoldenText() throws {
        try check(format(fullSnapshot(), fullCounters()), "full.prom")
    }

    func testTheBarGoldenSnapshotsTextsAreTheGoldenTexts() throws {
        for name in ["station", "laptop", "desktop", "hostile"] {
            let bytes = [UInt8](try Data(contentsOf: Self.barGolden.appendingPathComponent(name + ".snapshot")))
            let snapshot = try bytes.withUnsafeBytes { raw throws(SnapshotDecodeError) in try Snapshot.decode(raw) }
            try check(format(snapshot), name + ".prom")
        }
    }

    func testAnUnmeasuredSnapshotsTextIsTheGoldenText() throws {
        var s = fullSnapshot()
        s.available = []
        s.memoryPressure = nil
        try check(format(s), "unmeasured.prom")
    }
}

/// The batteries' charge says a whole at most in Prometheus, as it always did, whatever the
/// snapshot holds; the snapshot keeps it as it is.
final class PrometheusBatteryChargeTests: XCTestCase {
    func testAChargeOverTheWholeIsWrittenAsOne() {
        var s = fullSnapshot()
        s.battery.count = 1
        s.battery.percent = 20_000
        XCTAssertTrue(lines(format(s)).contains("sysstats_battery_charge_ratio 1"))
    }
}
