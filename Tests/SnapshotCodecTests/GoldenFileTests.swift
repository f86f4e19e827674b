import Foundation
import SnapshotCodec
import XCTest

/// The committed file Golden/full-v3.snapshot is the encoding of `fullSnapshot()` in the
/// current format. It pins the format: if this test fails, the encoding changed. In v3 a
/// new part is a new section, which changes this file but no existing section's bytes;
/// changing an existing section needs a new section version (append-only) or a new tag.
///
/// Golden/full-v2.snapshot and full-v1.snapshot are the same snapshot as the v2 and v1
/// writers wrote it (v1 without the iowait history). They are never regenerated: they pin
/// that v2 and v1 files still decode.
///
/// To regenerate full-v3.snapshot (only when `fullSnapshot()` itself changes or a section
/// is added), run
///     SYSSTATS_REGENERATE_GOLDEN=1 swift test --filter GoldenFileTests
/// and commit the file.
final class GoldenFileTests: XCTestCase {
    static let goldenDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("Golden")
    static let goldenURL = goldenDirectory.appendingPathComponent("full-v3.snapshot")
    static let goldenV2URL = goldenDirectory.appendingPathComponent("full-v2.snapshot")
    static let goldenV1URL = goldenDirectory.appendingPathComponent("full-v1.snapshot")

    static func golden() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: goldenURL))
    }

    static func goldenV2() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: goldenV2URL))
    }

    static func goldenV1() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: goldenV1URL))
    }

    func testEncodingTheFullSnapshotGivesTheGoldenBytes() throws {
        let bytes = encoded(fullSnapshot())
        if ProcessInfo.processInfo.environment["SYSSTATS_REGENERATE_GOLDEN"] == "1" {
            try Data(bytes).write(to: Self.goldenURL)
        }
        XCTAssertEqual(formatVersion(bytes), 3)
        XCTAssertEqual(bytes, try Self.golden())
    }

    func testDecodingTheGoldenBytesGivesTheFullSnapshot() throws {
        XCTAssertEqual(try decodeResult(Self.golden()).get(), fullSnapshot())
    }

    func testTheV2GoldenFileDecodesToTheFullSnapshotAndIsWhatTheV2WriterWrote() throws {
        let v2 = try Self.goldenV2()
        XCTAssertEqual(formatVersion(v2), 2)
        XCTAssertEqual(try decodeResult(v2).get(), fullSnapshot(newerParts: false))
        XCTAssertEqual(encodedV2(fullSnapshot()), v2)
    }

    func testTheV1GoldenFileDecodesToTheFullSnapshotWithoutIowaitHistory() throws {
        var expected = fullSnapshot(newerParts: false)
        expected.iowaitHistory = []
        let v1 = try Self.goldenV1()
        XCTAssertEqual(formatVersion(v1), 1)
        XCTAssertEqual(v1.count, SnapshotFormat.maximumV1Size)
        XCTAssertEqual(try decodeResult(v1).get(), expected)
    }

    func testV2IsV1WithTheIowaitHistoryInsertedAfterTheCPUHistory() throws {
        // The tests' v1 writer (drop the series, set version 1) reproduces the committed v1 file.
        XCTAssertEqual(v1Bytes(fromV2: try Self.goldenV2()), try Self.goldenV1())
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

    /// The table-driven checksum gives what one bit at a time gives, whatever the length and
    /// the start's alignment (a faster form must pass this too).
    func testCRC32AgreesWithTheBitwiseDefinitionAtEveryLengthAndAlignment() {
        func bitwise(_ bytes: ArraySlice<UInt8>) -> UInt32 {
            var c: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                c ^= UInt32(byte)
                for _ in 0..<8 { c = c & 1 == 1 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
            }
            return ~c
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let data: [UInt8] = (0..<300).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        for start in 0..<8 {
            for length in 0...(data.count - start) where length < 40 || length % 7 == 0 {
                let slice = data[start..<(start + length)]
                let fast = data.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[start..<(start + length)])) }
                XCTAssertEqual(fast, bitwise(slice), "start \(start), length \(length)")
            }
        }
    }
}
