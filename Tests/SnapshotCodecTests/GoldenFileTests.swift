import Foundation
import SnapshotCodec
import XCTest

/// The committed file Golden/full-v2.snapshot is the encoding of `fullSnapshot()` in the
/// current format. It pins the format: if this test fails, the encoding changed, and a
/// changed encoding needs a new format version, not a new golden file.
///
/// Golden/full-v1.snapshot is the same snapshot as a v1 writer wrote it (no iowait
/// history). It is never regenerated: it pins that v1 files still decode.
///
/// To regenerate full-v2.snapshot (only when `fullSnapshot()` itself changes), run
///     SYSSTATS_REGENERATE_GOLDEN=1 swift test --filter GoldenFileTests
/// and commit the file.
final class GoldenFileTests: XCTestCase {
    static let goldenDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("Golden")
    static let goldenURL = goldenDirectory.appendingPathComponent("full-v2.snapshot")
    static let goldenV1URL = goldenDirectory.appendingPathComponent("full-v1.snapshot")

    static func golden() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: goldenURL))
    }

    static func goldenV1() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: goldenV1URL))
    }

    func testEncodingTheFullSnapshotGivesTheGoldenBytes() throws {
        let bytes = encoded(fullSnapshot())
        if ProcessInfo.processInfo.environment["SYSSTATS_REGENERATE_GOLDEN"] == "1" {
            try Data(bytes).write(to: Self.goldenURL)
        }
        XCTAssertEqual(formatVersion(bytes), 2)
        XCTAssertEqual(bytes, try Self.golden())
    }

    func testDecodingTheGoldenBytesGivesTheFullSnapshot() throws {
        XCTAssertEqual(try decodeResult(Self.golden()).get(), fullSnapshot())
    }

    func testTheV1GoldenFileDecodesToTheFullSnapshotWithoutIowaitHistory() throws {
        var expected = fullSnapshot()
        expected.iowaitHistory = []
        let v1 = try Self.goldenV1()
        XCTAssertEqual(formatVersion(v1), 1)
        XCTAssertEqual(v1.count, SnapshotFormat.maximumV1Size)
        XCTAssertEqual(try decodeResult(v1).get(), expected)
    }

    func testV2IsV1WithTheIowaitHistoryInsertedAfterTheCPUHistory() throws {
        // The tests' v1 writer (drop the series, set version 1) reproduces the committed v1 file.
        XCTAssertEqual(v1Bytes(fromV2: try Self.golden()), try Self.goldenV1())
    }

    func testCRC32MatchesZlibCheckValues() {
        XCTAssertEqual(Array("123456789".utf8).withUnsafeBytes { CRC32.checksum($0) }, 0xCBF4_3926)
        XCTAssertEqual([UInt8]().withUnsafeBytes { CRC32.checksum($0) }, 0)
        let text = Array("The quick brown fox jumps over the lazy dog".utf8)
        XCTAssertEqual(text.withUnsafeBytes { CRC32.checksum($0) }, 0x414F_A339)
        let chained = text.withUnsafeBytes { raw in
            CRC32.update(CRC32.checksum(UnsafeRawBufferPointer(rebasing: raw[..<10])),
                         UnsafeRawBufferPointer(rebasing: raw[10...]))
        }
        XCTAssertEqual(chained, 0x414F_A339)
    }
}
