import BarCore
import XCTest

final class FormatTests: XCTestCase {
    func written(_ body: (inout ByteWriter) -> Void) -> String {
        var w = ByteWriter(capacity: 64)
        body(&w)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    func testDecimalsPadAndHandleZeroAndMaximum() {
        XCTAssertEqual(written { $0.appendDecimal(0) }, "0")
        XCTAssertEqual(written { $0.appendDecimal(7, minimumDigits: 2) }, "07")
        XCTAssertEqual(written { $0.appendDecimal(UInt64.max) }, "18446744073709551615")
        XCTAssertEqual(written { $0.appendDecimal(-42) }, "-42")
    }

    func testFixedPointRoundsHalfUp() {
        XCTAssertEqual(written { $0.appendFixed(52, scaleDigits: 2, fractionDigits: 2) }, "0.52")
        XCTAssertEqual(written { $0.appendFixed(1234, scaleDigits: 2, fractionDigits: 1) }, "12.3")
        XCTAssertEqual(written { $0.appendFixed(1235, scaleDigits: 2, fractionDigits: 1) }, "12.4")
        XCTAssertEqual(written { $0.appendFixed(5, scaleDigits: 0, fractionDigits: 1) }, "5.0")
    }

    func testSizesUseBinaryUnitsWithOneDecimalWhenSmall() {
        XCTAssertEqual(written { $0.appendSize(kib: 512) }, "512K")
        XCTAssertEqual(written { $0.appendSize(kib: 1024) }, "1.0M")
        XCTAssertEqual(written { $0.appendSize(kib: 3482) }, "3.4M")
        XCTAssertEqual(written { $0.appendSize(kib: 350_208) }, "342M")
        XCTAssertEqual(written { $0.appendSize(kib: 16_252_928) }, "15.5G")
        XCTAssertEqual(written { $0.appendSize(kib: 125_829_120) }, "120G")
        XCTAssertEqual(written { $0.appendSize(kib: 1_610_612_736) }, "1.5T")
    }

    func testCompactSizesNeverTakeMoreThanFourCharacters() {
        let cases: [(UInt64, String)] = [
            (0, "0K"), (512, "512K"), (999, "999K"), (1000, "1.0M"), (1023, "1.0M"), (1024, "1.0M"),
            (3482, "3.4M"), (102_348, "100M"), (350_208, "342M"), (1_022_976, "999M"), (1_023_488, "1.0G"),
            (16_252_928, "16G"), (125_829_120, "120G"), (1_047_527_424, "999G"), (1_610_612_736, "1.5T"),
            (1 << 50, "1.0E"), (UInt64.max, "15Z"),
        ]
        for (kib, text) in cases {
            XCTAssertEqual(written { $0.appendCompactSize(kib: kib) }, text, "\(kib) KiB")
        }
        // Every power of two and its neighbours: at most four characters, a digit first, a unit last.
        for shift in 0..<64 {
            for kib in [(UInt64(1) << shift) - 1, UInt64(1) << shift, (UInt64(1) << shift) &+ (UInt64(1) << shift) / 2] {
                let text = written { $0.appendCompactSize(kib: kib) }
                XCTAssertLessThanOrEqual(text.count, 4, "\(kib) KiB: \(text)")
                XCTAssertTrue(text.first!.isNumber && "KMGTPEZ".contains(text.last!), text)
            }
        }
    }

    func testPercentRoundsPermyriad() {
        XCTAssertEqual(written { $0.appendPercent(permyriad: 1249) }, "12%")
        XCTAssertEqual(written { $0.appendPercent(permyriad: 1250) }, "13%")
        XCTAssertEqual(written { $0.appendPercent(permyriad: 10000) }, "100%")
    }

    func testDurationsShowTheTwoLargestUnits() {
        XCTAssertEqual(written { $0.appendDuration(seconds: 45) }, "45s")
        XCTAssertEqual(written { $0.appendDuration(seconds: 720) }, "12m")
        XCTAssertEqual(written { $0.appendDuration(seconds: 5 * 3600 + 12 * 60) }, "5h 12m")
        XCTAssertEqual(written { $0.appendDuration(seconds: 3 * 86400 + 4 * 3600 + 59) }, "3d 4h")
    }

    func testSparklineSpansEightLevels() {
        let line = written { w in for p in [0, 1250, 2500, 3750, 5000, 6250, 7500, 10000] { w.appendSparkline(permyriad: UInt64(p)) } }
        XCTAssertEqual(line, "▁▂▃▄▅▆▇█")
        XCTAssertEqual(written { $0.appendSparkline(permyriad: 65535) }, "█")
    }
}
