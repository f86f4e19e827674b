import Foundation
import SnapshotCodec
import SysstatsCLI
import XCTest

/// `sysstats report` and `report --json` of the test snapshots and the bar's golden snapshots,
/// byte for byte: a part's members are made from its figure table, and moving a part onto one
/// must not change a byte. Regenerate only for a deliberate change:
///     SYSSTATS_UPDATE_GOLDEN=1 swift test --filter ReportGoldenTests
final class ReportGoldenTests: XCTestCase {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let barGolden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("BarCoreTests/Golden")

    private func check(_ snapshot: Snapshot, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let out = ReportLine.format(snapshot) + "\n" + ReportJSON.format(snapshot, stale: false) + "\n"
        let url = Self.directory.appendingPathComponent(name + ".report")
        if ProcessInfo.processInfo.environment["SYSSTATS_UPDATE_GOLDEN"] == "1" { try Data(out.utf8).write(to: url) }
        XCTAssertEqual(out, String(decoding: try Data(contentsOf: url), as: UTF8.self), name, file: file, line: line)
    }

    func testTheSampleSnapshotsReportsAreTheGoldenReports() throws {
        try check(Samples.laptop, "laptop-sample")
        try check(Samples.desktop, "desktop-sample")
        try check(Samples.laptopWithEveryPart, "every-part-sample")
        var none = Samples.laptopWithEveryPart
        none.available = []
        none.memoryPressure = nil
        try check(none, "unmeasured-sample")
    }

    func testTheBarGoldenSnapshotsReportsAreTheGoldenReports() throws {
        for name in ["station", "laptop", "desktop", "hostile"] {
            let bytes = [UInt8](try Data(contentsOf: Self.barGolden.appendingPathComponent(name + ".snapshot")))
            try check(try bytes.withUnsafeBytes { raw throws(SnapshotDecodeError) in try Snapshot.decode(raw) }, name)
        }
    }
}

/// Figures at the top of their fields come out of `report --json` as the hand-written members
/// wrote them, not squeezed through a signed 64-bit value, and the batteries' charge as the
/// snapshot holds it (the section and the report keep it; Prometheus says a whole at most).
final class ReportExtremeFiguresTests: XCTestCase {
    func testFiguresAtTheTopOfTheirFieldsAreWrittenWhole() throws {
        var s = Samples.laptopWithEveryPart
        s.memory.total = .max
        s.uptimeCentiseconds = .max
        s.battery.count = 1
        s.battery.percent = 20_000
        s.topMemory = [ProcessEntry(pid: 7, cpu: .max, privateKiB: .max, name: Array("big".utf8))]
        let text = ReportJSON.format(s, stale: false)
        XCTAssertTrue(text.contains("\"uptime_seconds\":184467440737095516"), text)
        XCTAssertTrue(text.contains("\"total\":1.8014398509481984e+16"), text)
        XCTAssertTrue(text.contains("\"percent\":200"), text)
        XCTAssertTrue(text.contains("\"cpu_percent\":655.35"), text)
        XCTAssertTrue(text.contains("\"private_mib\":1.8014398509481984e+16"), text)
    }
}
