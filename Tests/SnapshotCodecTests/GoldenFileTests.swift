import Foundation
import SnapshotCodec
import XCTest

/// The committed file Golden/full-v1.snapshot is the v1 encoding of `fullSnapshot()`.
/// It pins the format: if this test fails, the encoding changed, and a changed
/// encoding needs a new format version, not a new golden file.
///
/// To regenerate it (only when `fullSnapshot()` itself changes), run
///     SYSSTATS_REGENERATE_GOLDEN=1 swift test --filter GoldenFileTests
/// and commit the file.
final class GoldenFileTests: XCTestCase {
    static let goldenURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("Golden/full-v1.snapshot")

    static func golden() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: goldenURL))
    }

    func testEncodingTheFullSnapshotGivesTheGoldenBytes() throws {
        let bytes = encoded(fullSnapshot())
        if ProcessInfo.processInfo.environment["SYSSTATS_REGENERATE_GOLDEN"] == "1" {
            try Data(bytes).write(to: Self.goldenURL)
        }
        XCTAssertEqual(bytes, try Self.golden())
    }

    func testDecodingTheGoldenBytesGivesTheFullSnapshot() throws {
        XCTAssertEqual(try decodeResult(Self.golden()).get(), fullSnapshot())
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
