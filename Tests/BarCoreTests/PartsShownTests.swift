import BarCore
import SnapshotCodec
import XCTest

/// The bar decodes only the parts its blocks show (`BlockKind.sectionsShown`): what each
/// block draws must come from those parts alone, or a bar would show it as n/a.
final class PartsShownTests: XCTestCase {
    func testEveryBlockRendersTheSameFromTheSectionsItDeclaresAsFromTheWholeSnapshot() throws {
        var bytes: [UInt8] = []
        for fixture in [Fixture.station, .laptop, .hostile] {
            var whole = fixture.snapshot
            whole.topMemory = [ProcessEntry(pid: 11, cpu: 10, privateKiB: 900_000, name: Array("java".utf8))]
            whole.memoryPressure = whole.memoryPressure ?? 120
            whole.encode(into: &bytes)
            let full = try decoded(bytes, into: Snapshot(), only: .all)
            for kind in BlockKind.allCases where kind != .command {
                let blocks = [BarBlock(kind, argument: kind == .time ? Array("UTC".utf8) : [])]
                for output in OutputKind.allCases where output != .png {
                    let parts = Renderer(output: output, blocks: blocks).partsShown
                    let limited = try decoded(bytes, into: Snapshot(), only: parts)
                    XCTAssertTrue(SnapshotSections.all.subtracting(parts).intersection(limited.available).isEmpty,
                                  "\(kind): parts not shown are left out")
                    let expected = rendered(full, output, blocks: blocks, nowMs: full.timestampMs + 500)
                    XCTAssertEqual(rendered(limited, output, blocks: blocks, nowMs: full.timestampMs + 500), expected,
                                   "\(fixture) \(kind) \(output)")
                    // The station has every part: each block shows figures, so the comparison means
                    // something. A desktop, it has no battery: that block says so.
                    XCTAssertFalse(fixture == .station && kind != .battery && expected.contains("n/a"), "\(kind) \(output): \(expected)")
                }
            }
        }
    }

    func testADecodeLimitedToSomePartsClearsWhatAnEarlierFullDecodeLeft() throws {
        var bytes: [UInt8] = []
        Fixture.station.snapshot.encode(into: &bytes)
        var s = try decoded(bytes, into: Snapshot(), only: .all)
        XCTAssertFalse(s.interfaces.isEmpty)
        XCTAssertFalse(s.topCPU.isEmpty)
        s = try decoded(bytes, into: s, only: [.cpu, .memory])
        XCTAssertEqual(s.available, [.cpu, .memory])
        XCTAssertTrue(s.interfaces.isEmpty, "never left over from the last file")
        XCTAssertTrue(s.topCPU.isEmpty)
        XCTAssertEqual(s.cpuBusy, 1234)
        XCTAssertEqual(s.memoryPressure, Fixture.station.snapshot.memoryPressure, "pressure is always read")
    }
}

/// `bytes` decoded into `snapshot` (reusing it, as the bar does), limited to `parts`.
private func decoded(_ bytes: [UInt8], into snapshot: Snapshot, only parts: SnapshotSections) throws -> Snapshot {
    var s = snapshot
    var failure: SnapshotDecodeError?
    bytes.withUnsafeBytes { raw in
        do throws(SnapshotDecodeError) { try s.decode(from: raw, only: parts) } catch { failure = error }
    }
    if let failure { throw failure }
    return s
}
