import Foundation
import SnapshotCodec
import XCTest

/// The worked example in docs/snapshot-format.md is what the codec writes: the hex dump
/// there is parsed and compared byte for byte, so the document cannot drift from the code.
final class WorkedExampleTests: XCTestCase {
    static let documentURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/snapshot-format.md")

    /// The snapshot the example's field table describes.
    static var example: Snapshot {
        var s = Snapshot()
        s.sequence = 7
        s.timestampMs = 1_763_750_000_000
        s.intervalMs = 1000
        s.bootTime = 1_763_700_000
        s.uptimeCentiseconds = 5_000_000
        s.cpuBusy = 1250
        s.cpuIOWait = 30
        s.samplerCPU = 5
        s.samplerResidentKiB = 2900
        s.memory.total = 8_000_000
        s.memory.free = 1_000_000
        s.memory.active = 3_000_000
        s.memory.inactive = 2_000_000
        s.memory.wired = 1_500_000
        s.memory.other = 500_000
        s.memory.available = 5_000_000
        s.memory.used = 3_000_000
        s.load1 = 52; s.load5 = 40; s.load15 = 31
        s.processCount = 312
        s.runningCount = 2
        s.coreBusy = [1000, 1500]
        s.cpuHistory = [1100, 1250]
        s.iowaitHistory = [20, 30]
        s.memoryHistory = [3700, 3750]
        let firefox = ProcessEntry(pid: 4242, cpu: 950, privateKiB: 120_000, name: Array("firefox".utf8))
        s.topCPU = [firefox]
        s.topMemory = [firefox]
        s.exits = [ExitEntry(pid: 999, timeMs: 1_763_749_999_500, lastPrivateKiB: 2048, freedKiB: 0,
                             name: Array("make".utf8))]
        return s
    }

    /// The bytes of the first fenced block whose lines start `0000:`.
    static func documentedBytes() throws -> [UInt8] {
        let text = try String(contentsOf: documentURL, encoding: .utf8)
        var bytes: [UInt8] = []
        var inDump = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("0000:") { inDump = true }
            guard inDump else { continue }
            guard let colon = line.firstIndex(of: ":"), line.first?.isHexDigit == true else { break }
            for pair in line[line.index(after: colon)...].split(separator: " ") {
                bytes.append(try XCTUnwrap(UInt8(pair, radix: 16), "bad byte \(pair)"))
            }
        }
        return bytes
    }

    func testTheDocumentedDumpIsTheEncodingOfTheDescribedSnapshot() throws {
        let documented = try Self.documentedBytes()
        XCTAssertEqual(documented.count, 371)
        XCTAssertEqual(encoded(Self.example), documented)
        XCTAssertEqual(try decodeResult(documented).get(), Self.example)
    }

    func testTheDocumentedV2FormOfTheExampleIs289BytesAndDecodesToIt() throws {
        let v2 = encodedV2(Self.example)
        XCTAssertEqual(v2.count, 289)
        XCTAssertEqual(try decodeResult(v2).get(), Self.example)
    }

    func testTheDocumentedV1FormOfTheExampleDecodesWithoutIowait() throws {
        // docs: the v1 file is 284 bytes with checksum 0x08CD6374.
        let v1 = v1Bytes(fromV2: encodedV2(Self.example))
        XCTAssertEqual(v1.count, 284)
        XCTAssertEqual(Array(v1[24..<28]), [0x74, 0x63, 0xCD, 0x08])
        var expected = Self.example
        expected.iowaitHistory = []
        XCTAssertEqual(try decodeResult(v1).get(), expected)
    }
}
