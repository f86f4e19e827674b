import SnapshotCodec
import XCTest

/// Random and mutated inputs: the decoder must never trap, and every input
/// must give either a snapshot or a SnapshotDecodeError. Seeded, so a failure
/// reproduces; the failing case's index is in the message.
final class FuzzTests: XCTestCase {
    /// An accepted v1 or v2 input must be exactly what that version's writer writes for
    /// the decoded value (the fixed layout has one encoding per value), which also checks
    /// that the decoder did not invent or drop anything — but for its shares, which decode
    /// clamped to 100 %: the input is compared with its shares clamped the same way. An
    /// accepted v3 input may have carried sections that were skipped or left out as damaged:
    /// its value must survive re-encoding and decoding unchanged.
    func check(_ bytes: [UInt8], _ label: String, accepted: inout Int) {
        switch decodeResult(bytes) {
        case .success(let snapshot):
            accepted += 1
            switch formatVersion(bytes) {
            case 1: XCTAssertEqual(v1Bytes(fromV2: encodedV2(snapshot)), sharesClamped(bytes), "re-encoding accepted input, \(label)")
            case 2: XCTAssertEqual(encodedV2(snapshot), sharesClamped(bytes), "re-encoding accepted input, \(label)")
            default:
                XCTAssertEqual(try? decodeResult(encoded(snapshot)).get(), snapshot, "re-encoding accepted input, \(label)")
            }
        case .failure:
            break
        }
    }

    func testRandomBuffersNeverTrapAndGiveSnapshotOrError() {
        var rng = SplitMix64(seed: 0x5359_5353_5441_5453)
        var accepted = 0
        for n in 0..<20_000 {
            let length = Int.random(in: 0...3000, using: &rng)
            var bytes = rng.bytes(length)
            // Half of them get a plausible header, so the checks after the magic run too.
            if n % 2 == 0 && length >= 32 {
                bytes.replaceSubrange(0..<8, with: Array("SYSSTATS".utf8))
                storeU16(UInt16(n % 12 / 4 + 1), at: 8, in: &bytes)   // every version, with and without a fixed checksum
                storeU16(32, at: 10, in: &bytes)
                storeU32(UInt32(length), at: 12, in: &bytes)
                bytes[28...31] = [0, 0, 0, 0]
                if n % 4 == 0 { fixChecksum(&bytes) }
            }
            check(bytes, "random #\(n)", accepted: &accepted)
        }
        XCTAssertEqual(accepted, 0, "random bodies are not expected to parse")
    }

    func testMutationsOfGoldenNeverTrapAndGiveSnapshotOrError() {
        let golden = encoded(fullSnapshot())
        let goldenV2 = encodedV2(fullSnapshot())
        let goldenV1 = v1Bytes(fromV2: goldenV2)
        var rng = SplitMix64(seed: 42)
        var accepted = 0
        for n in 0..<24_000 {
            // One in four mutates the v1 file and one in four the v2 file, so the fixed-layout
            // parser is shaken too.
            var bytes = n % 4 == 3 ? goldenV1 : (n % 4 == 2 ? goldenV2 : golden)
            switch n % 6 {
            case 0, 1:   // bit flips anywhere
                for _ in 0..<Int.random(in: 1...8, using: &rng) {
                    bytes[Int.random(in: 0..<bytes.count, using: &rng)] ^= 1 << UInt8.random(in: 0...7, using: &rng)
                }
            case 2:   // byte overwrites in the body (counts, lengths, states)
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    bytes[Int.random(in: 32..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                }
            case 3:   // truncation, sometimes with the total length made to agree
                bytes.removeLast(Int.random(in: 1...bytes.count, using: &rng))
                if bytes.count >= 32 && rng.next() % 2 == 0 { storeU32(UInt32(bytes.count), at: 12, in: &bytes) }
            case 4:   // total length field edits, sometimes with bytes appended to match
                let total = UInt32.random(in: 0...20_000, using: &rng)
                storeU32(total, at: 12, in: &bytes)
                if rng.next() % 2 == 0 && Int(total) > bytes.count && total <= 17_000 {
                    bytes += rng.bytes(Int(total) - bytes.count)
                }
            default:   // insert or delete a run of body bytes
                let at = Int.random(in: 32..<bytes.count, using: &rng)
                if rng.next() % 2 == 0 {
                    bytes.insert(contentsOf: rng.bytes(Int.random(in: 1...64, using: &rng)), at: at)
                } else {
                    bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...64, using: &rng)))
                }
                if bytes.count >= 32 { storeU32(UInt32(bytes.count), at: 12, in: &bytes) }
            }
            // Every other mutation gets a correct checksum, so the body parser sees it.
            if (n / 6) % 2 == 0 { fixChecksum(&bytes) }
            check(bytes, "mutation #\(n)", accepted: &accepted)
        }
        // Flips inside plain numbers parse fine once the checksum is fixed up.
        XCTAssertGreaterThan(accepted, 0)
    }
}
