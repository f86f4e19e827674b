import SnapshotCodec
import XCTest

final class DecodeReuseTests: XCTestCase {
    func baseAddress<T>(_ array: [T]) -> UnsafePointer<T>? { array.withUnsafeBufferPointer { $0.baseAddress } }

    func testDecodingTwiceIntoTheSameSnapshotGivesEqualValuesAndKeepsStorage() throws {
        let bytes = encoded(fullSnapshot())
        var s = Snapshot()
        try decode(bytes, into: &s)
        XCTAssertEqual(s, fullSnapshot())
        let capacities = [s.coreBusy.capacity, s.cpuHistory.capacity, s.iowaitHistory.capacity, s.memoryHistory.capacity,
                          s.topCPU.capacity, s.topMemory.capacity, s.exits.capacity]
        let coreStorage = baseAddress(s.coreBusy)
        let nameStorage = s.topCPU.map { baseAddress($0.name) } + s.exits.map { baseAddress($0.name) }

        try decode(bytes, into: &s)
        XCTAssertEqual(s, fullSnapshot())
        XCTAssertEqual([s.coreBusy.capacity, s.cpuHistory.capacity, s.iowaitHistory.capacity, s.memoryHistory.capacity,
                        s.topCPU.capacity, s.topMemory.capacity, s.exits.capacity], capacities)
        XCTAssertEqual(baseAddress(s.coreBusy), coreStorage)
        XCTAssertEqual(s.topCPU.map { baseAddress($0.name) } + s.exits.map { baseAddress($0.name) }, nameStorage)
    }

    func testDecodingASmallerSnapshotKeepsCapacityAndReplacesEveryValue() throws {
        var s = Snapshot()
        try decode(encoded(fullSnapshot()), into: &s)
        let capacity = s.coreBusy.capacity
        var small = Snapshot()
        small.coreBusy = [1, 2]
        small.topCPU = [ProcessEntry(pid: 7, name: Array("x".utf8))]
        try decode(encoded(small), into: &s)
        XCTAssertEqual(s, small)
        XCTAssertEqual(s.coreBusy.capacity, capacity)
    }

    func testDecodeErrorLeavesAValidSnapshotThatDecodesAgain() throws {
        var s = Snapshot()
        let bad = withBody(of: encoded(fullSnapshot())) { $0.append(0) }
        XCTAssertThrowsError(try decode(bad, into: &s))
        try decode(encoded(fullSnapshot()), into: &s)
        XCTAssertEqual(s, fullSnapshot())
    }
}
