import Foundation
@testable import ProcFS
import XCTest

/// The cgroup files' readers (CgroupUnits): hostile or odd content gives no figure or a
/// saturated one, never a trap. The tree itself: SysstatsCLITests' TopUnitsTests.
final class CgroupUnitsTests: XCTestCase {
    func testOddFilesGiveNoFigureOrASaturatedOneNeverATrap() {
        func bytes(_ text: String, _ body: (UnsafeRawBufferPointer) -> Void) { Array(text.utf8).withUnsafeBytes(body) }
        bytes("8:0 rbytes=18446744073709551615 wbytes=1\n8:16 rbytes=5 wbytes=2 dbytes=9\n") {
            let (r, w) = CgroupUnits.ioTotals($0)
            XCTAssertEqual(r, .max, "saturated, not wrapped")
            XCTAssertEqual(w, 3)
        }
        bytes("") { XCTAssertTrue(CgroupUnits.ioTotals($0) == (nil, nil), "no device: no figure, not 0") }
        bytes("full avg10=1.00\n") { XCTAssertNil(CgroupUnits.someAverage10($0)) }
        bytes("some avg10=x\n") { XCTAssertNil(CgroupUnits.someAverage10($0)) }
        bytes("some avg10=12.5 avg60=0\n") { XCTAssertEqual(CgroupUnits.someAverage10($0), 1250) }
        bytes("user_usec 5\nusage_usec\n") { XCTAssertNil(CgroupUnits.keyedValue($0, "usage_usec")) }
        bytes("usage_usec_x 5\nusage_usec 7\n") { XCTAssertEqual(CgroupUnits.keyedValue($0, "usage_usec"), 7) }
    }

}

/// docs/metrics.md says the tree's bounds as the reader keeps them.
final class CgroupUnitsDocTests: XCTestCase {
    func testTheDocsSayTheReadersBounds() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/metrics.md")
        let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "\n", with: " ")
        XCTAssertTrue(text.contains("at most 4,096 of them, \(CgroupUnits.maximumDepth) levels deep"), "docs/metrics.md, \"Units\"")
        XCTAssertEqual(CgroupUnits.maximumUnits, 4096)
    }
}
