import SnapshotCodec
import XCTest

/// One test per way a snapshot file can be rejected; each gets its own error. The header
/// tests hold for every version; the body tests are of the fixed layout of v1 and v2 files
/// (v3's sections: SectionTests).
final class DecodeErrorTests: XCTestCase {
    let empty = encodedV2(Snapshot())
    let full = encodedV2(fullSnapshot())

    // MARK: Header

    func testBufferShorterThanHeaderIsTruncated() {
        for length in [0, 1, 8, 31] {
            XCTAssertEqual(decodeError(Array(full.prefix(length))), .truncated, "length \(length)")
        }
    }

    func testBufferShorterThanTotalLengthIsTruncated() {
        for length in [32, 33, 188, 1000, full.count - 1] {
            XCTAssertEqual(decodeError(Array(full.prefix(length))), .truncated, "length \(length)")
        }
    }

    func testWrongMagicIsBadMagic() {
        var bytes = empty
        bytes[0] = UInt8(ascii: "s")
        XCTAssertEqual(decodeError(bytes), .badMagic)
        bytes = empty
        bytes[7] ^= 0x80
        XCTAssertEqual(decodeError(bytes), .badMagic)
    }

    func testVersionsOtherThan1To3AreUnsupported() {
        var bytes = empty
        for version: UInt16 in [4, 0, 0x100, .max] {
            storeU16(version, at: 8, in: &bytes)
            XCTAssertEqual(decodeError(bytes), .unsupportedVersion(version))
        }
    }

    func testVersion1And2AreBothRead() throws {
        XCTAssertEqual(try decodeResult(empty).get(), Snapshot())
        XCTAssertEqual(try decodeResult(v1Bytes(fromV2: empty)).get(), Snapshot())
    }

    func testV2BodyLabelledVersion1IsRejectedNotMisread() {
        // A v2 body under a v1 header: the iowait count is read as the memory count and
        // the first iowait points as top-list counts; the parser must object.
        var bytes = full
        storeU16(1, at: 8, in: &bytes)
        XCTAssertNotNil(decodeError(bytes))
        var v1 = v1Bytes(fromV2: full)
        storeU16(2, at: 8, in: &v1)
        XCTAssertNotNil(decodeError(v1))
    }

    func testChangedBodyByteIsBadChecksum() {
        var bytes = full
        bytes[100] ^= 0x01
        XCTAssertEqual(decodeError(bytes), .badChecksum)
        bytes = full
        bytes[24] ^= 0x01   // the checksum itself
        XCTAssertEqual(decodeError(bytes), .badChecksum)
    }

    func testTotalLengthFieldAboveLimitIsOversize() {
        var bytes = empty
        storeU32(16385, at: 12, in: &bytes)
        XCTAssertEqual(decodeError(bytes), .oversize(16385))
        storeU32(.max, at: 12, in: &bytes)
        XCTAssertEqual(decodeError(bytes), .oversize(.max))
    }

    func testBufferAboveLimitIsOversize() {
        var bytes = empty + [UInt8](repeating: 0, count: Snapshot.maximumEncodedSize + 1 - empty.count)
        storeU32(UInt32(bytes.count), at: 12, in: &bytes)
        XCTAssertEqual(decodeError(bytes), .oversize(UInt32(Snapshot.maximumEncodedSize + 1)))
    }

    func testHeaderLengthOtherThan32IsMalformed() {
        var bytes = empty
        storeU16(40, at: 10, in: &bytes)
        XCTAssertEqual(decodeError(bytes), .malformed(.headerLength))
    }

    func testTotalLengthSmallerThanHeaderIsMalformed() {
        var bytes = empty
        storeU32(31, at: 12, in: &bytes)
        XCTAssertEqual(decodeError(bytes), .malformed(.totalLength))
    }

    func testBytesAfterTotalLengthAreMalformed() {
        XCTAssertEqual(decodeError(empty + [0]), .malformed(.bytesAfterEnd))
    }

    func testNonZeroFlagsAreMalformed() {
        var bytes = empty
        bytes[28] = 1
        XCTAssertEqual(decodeError(bytes), .malformed(.flags))
    }

    // MARK: Body (checksum fixed up, so only the body parser objects)

    func testBodyEndingBeforeItsFieldsIsMalformed() {
        for keep in [0, 1, 100, 155, 157] {
            let bytes = withBody(of: empty) { $0.removeLast($0.count - keep) }
            XCTAssertEqual(decodeError(bytes), .malformed(.bodyTooShort), "body of \(keep) bytes")
        }
        let cutInCores = withBody(of: full) { $0.removeLast($0.count - 500) }
        XCTAssertEqual(decodeError(cutInCores), .malformed(.bodyTooShort))
    }

    func testCoreCountAboveLimitIsMalformed() {
        let bytes = withBody(of: empty) { body in
            body[BodyOffset.coreCount] = 0x01; body[BodyOffset.coreCount + 1] = 0x02   // 513
        }
        XCTAssertEqual(decodeError(bytes), .malformed(.countOverLimit))
    }

    func testHistoryCountAboveLimitIsMalformed() {
        let bytes = withBody(of: empty) { $0[BodyOffset.cpuHistoryCountNoCores] = 61 }
        XCTAssertEqual(decodeError(bytes), .malformed(.countOverLimit))
        let iowait = withBody(of: empty) { $0[BodyOffset.iowaitHistoryCountNoCores] = 61 }
        XCTAssertEqual(decodeError(iowait), .malformed(.countOverLimit))
    }

    func testTopEntryCountAboveLimitIsMalformed() {
        let cpu = withBody(of: empty) { $0[BodyOffset.topCPUCountEmpty] = 6 }
        XCTAssertEqual(decodeError(cpu), .malformed(.countOverLimit))
        let memory = withBody(of: empty) { $0[BodyOffset.topMemoryCountEmpty] = 6 }
        XCTAssertEqual(decodeError(memory), .malformed(.countOverLimit))
    }

    func testExitCountAboveLimitIsMalformed() {
        let bytes = withBody(of: empty) { $0[BodyOffset.exitCountEmpty] = 9 }
        XCTAssertEqual(decodeError(bytes), .malformed(.countOverLimit))
    }

    func testHistoriesOfUnequalLengthAreMalformed() {
        // CPU 1 point, iowait 0.
        let bytes = withBody(of: empty) { body in
            body[BodyOffset.cpuHistoryCountNoCores] = 1
            body.insert(contentsOf: [0x10, 0x00], at: BodyOffset.cpuHistoryCountNoCores + 1)
        }
        XCTAssertEqual(decodeError(bytes), .malformed(.historyLengthMismatch))
        // CPU and iowait 1 point, memory 0.
        let memory = withBody(of: empty) { body in
            body[BodyOffset.iowaitHistoryCountNoCores] = 1
            body.insert(contentsOf: [0x20, 0x00], at: BodyOffset.iowaitHistoryCountNoCores + 1)
            body[BodyOffset.cpuHistoryCountNoCores] = 1
            body.insert(contentsOf: [0x10, 0x00], at: BodyOffset.cpuHistoryCountNoCores + 1)
        }
        XCTAssertEqual(decodeError(memory), .malformed(.historyLengthMismatch))
        // v1: CPU 1 point, memory 0.
        let v1 = withBody(of: v1Bytes(fromV2: empty)) { body in
            body[BodyOffset.cpuHistoryCountNoCores] = 1
            body.insert(contentsOf: [0x10, 0x00], at: BodyOffset.cpuHistoryCountNoCores + 1)
        }
        XCTAssertEqual(decodeError(v1), .malformed(.historyLengthMismatch))
    }

    func testUnknownBatteryStateIsMalformed() {
        for state: UInt8 in [5, 0xFF] {
            let bytes = withBody(of: empty) { $0[BodyOffset.batteryState] = state }
            XCTAssertEqual(decodeError(bytes), .malformed(.unknownBatteryState))
        }
    }

    func testNameLongerThanLimitIsMalformed() {
        var s = Snapshot()
        s.topCPU = [ProcessEntry(pid: 1, name: Array("abc".utf8))]
        // The name length byte follows count (1), pid (4), cpu (2), privateKiB (8).
        let lengthAt = BodyOffset.topCPUCountEmpty + 1 + 14
        let bytes = withBody(of: encodedV2(s)) { $0[lengthAt] = 49 }
        XCTAssertEqual(decodeError(bytes), .malformed(.nameTooLong))
    }

    func testNameRunningPastEndOfBodyIsMalformed() {
        var s = Snapshot()
        s.exits = [ExitEntry(pid: 1, name: Array("abc".utf8))]
        let bytes = withBody(of: encodedV2(s)) { $0[$0.count - 4] = 4 }   // 4 bytes claimed, 3 left
        XCTAssertEqual(decodeError(bytes), .malformed(.nameRunsPastEnd))
    }

    func testTrailingBytesAfterLastFieldAreMalformed() {
        let bytes = withBody(of: full) { $0.append(0) }
        XCTAssertEqual(decodeError(bytes), .malformed(.trailingBytes))
    }

    func testEveryErrorHasADistinctOneLineMessage() {
        let errors: [SnapshotDecodeError] = [
            .truncated, .badMagic, .unsupportedVersion(3), .oversize(20000), .badChecksum,
            .malformed(.headerLength), .malformed(.totalLength), .malformed(.bytesAfterEnd),
            .malformed(.flags), .malformed(.bodyTooShort), .malformed(.trailingBytes),
            .malformed(.countOverLimit), .malformed(.nameTooLong), .malformed(.nameRunsPastEnd),
            .malformed(.historyLengthMismatch), .malformed(.unknownBatteryState),
            .malformed(.sectionRunsPastEnd), .malformed(.missingMetaSection),
        ]
        let messages = errors.map { "\($0.message)" }
        XCTAssertEqual(Set(messages).count, errors.count)
        for message in messages {
            XCTAssertFalse(message.isEmpty)
            XCTAssertFalse(message.contains("\n"))
        }
    }
}
