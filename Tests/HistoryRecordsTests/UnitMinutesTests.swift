import AllocationCounter
import SnapshotCodec
import XCTest
@testable import HistoryRecords

final class UnitMinutesTests: XCTestCase {
    let minute0: UInt64 = 1_763_712_000_000

    static let hostileUnits: [UnitMinute] = [
        UnitMinute(minute: 60, name: Array("firefox".utf8), kind: Array("app".utf8), cpuPermyriad: 23_456,
                   memoryBytes: .max, readBytesPerSecond: 1, writeBytesPerSecond: .max),
        UnitMinute(minute: 60, name: [0xFF, 0x00, 0x0A, 0x1B], kind: [], cpuPermyriad: .max, memoryBytes: 0,
                   readBytesPerSecond: 0, writeBytesPerSecond: 0),
        UnitMinute(minute: .max, name: Array(repeating: 0x41, count: UnitMinute.maximumNameBytes),
                   kind: Array("'; DROP TABLE".utf8), cpuPermyriad: 0, memoryBytes: 1, readBytesPerSecond: 2, writeBytesPerSecond: 3),
    ]

    /// A unit's reading as the units part gives it: kind, name, cpu, memory, read, write.
    static func unit(_ kind: String, _ name: String, cpu: Int64, memory: Int64, read: Int64 = 0, write: Int64 = 0) -> PartReading {
        var r = PartReading()
        r.reset(source: Array(kind.utf8), label: Array(name.utf8))
        r[UnitsPart.cpu] = cpu; r[UnitsPart.memory] = memory; r[UnitsPart.read] = read; r[UnitsPart.written] = write
        return r
    }

    func snapshot(atMs ms: UInt64, units: [PartReading]?) -> Snapshot {
        var s = Snapshot()
        s.timestampMs = ms
        s.cpuBusy = 100
        s.memory.used = 500
        if let units {
            s.available.formUnion(UnitsPart.part.part)
            _ = s.listed.update(.units) { $0 = units }
        }
        return s
    }

    func testAMinutesUnitsAreAveragedOverTheSamplesThatMeasuredThemAndComeWithItsRow() {
        var c = HistoryCollector(bootID: "boot-a", bootTime: 7)
        let build = Self.unit("service", "build", cpu: 30_000, memory: 100, read: 600, write: 60)
        let browser = Self.unit("app", "firefox", cpu: 1_000, memory: 2_000_000_000)
        _ = c.record(snapshot(atMs: minute0, units: [build, browser]))
        _ = c.record(snapshot(atMs: minute0 + 1000, units: [Self.unit("service", "build", cpu: 10_000, memory: 300)]))
        _ = c.record(snapshot(atMs: minute0 + 2000, units: nil))   // not measured: not counted
        _ = c.record(snapshot(atMs: minute0 + 3000, units: [browser]))
        let batch = c.record(snapshot(atMs: minute0 + 60_000, units: [browser]))
        XCTAssertEqual(batch?.samples.count, 1)
        XCTAssertEqual(batch?.units, [
            UnitMinute(minute: minute0 / 1000, name: Array("build".utf8), kind: Array("service".utf8), cpuPermyriad: 13_333,
                       memoryBytes: 300, readBytesPerSecond: 200, writeBytesPerSecond: 20),
            UnitMinute(minute: minute0 / 1000, name: Array("firefox".utf8), kind: Array("app".utf8), cpuPermyriad: 666,
                       memoryBytes: 2_000_000_000, readBytesPerSecond: 0, writeBytesPerSecond: 0),
        ], "a sample a unit was not among counts 0 for it; one that did not measure the part is left out")
        let last = c.finish(nowMs: minute0 + 61_000)
        XCTAssertEqual(last.units.map(\.minute), [minute0 / 1000 + 60], "the partial minute's units at a clean stop")
        XCTAssertEqual(last.units.first?.cpuPermyriad, 1_000)
    }

    func testAMinuteKeepsItsFiveBusiestUnitsAndThenTheLargestByMemory() {
        var c = HistoryCollector(bootID: "boot-a", bootTime: 7)
        let memory: [Int64] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 8_000, 9_000]
        let units = (0..<12).map { (i: Int) -> PartReading in
            Self.unit("app", "u\(i)", cpu: Int64(1_000 - i * 10), memory: memory[i])
        }
        _ = c.record(snapshot(atMs: minute0, units: Array(units[0..<8])))
        _ = c.record(snapshot(atMs: minute0 + 1000, units: Array(units[4..<12])))
        let rows = c.record(snapshot(atMs: minute0 + 60_000, units: nil))?.units ?? []
        XCTAssertEqual(rows.map { String(decoding: $0.name, as: UTF8.self) }, ["u4", "u5", "u6", "u7", "u0", "u11", "u10", "u9"],
                       "u4-u7 were in both samples (busiest by average); then the largest of the rest")
    }

    func testAHandOverDropsTheMinutesUnitsAndAMinuteWithoutThePartHasNone() {
        var c = HistoryCollector(bootID: "boot-a", bootTime: 7)
        _ = c.record(snapshot(atMs: minute0, units: [Self.unit("app", "firefox", cpu: 5, memory: 5)]))
        XCTAssertEqual(c.handOver(nowMs: minute0 + 500).batch.units, [])
        _ = c.record(snapshot(atMs: minute0 + 1000, units: nil))
        XCTAssertEqual(c.record(snapshot(atMs: minute0 + 60_000, units: nil))?.units, [])
    }

    func testUnitRowsRoundTripThroughABatchAndAVersionFourBatchStillReads() throws {
        var b = HistoryBatchTests.batch(samples: 2, exits: 1)
        b.units = Self.hostileUnits
        XCTAssertEqual(try HistoryBatch.decode(b.encoded), b)
        let old = HistoryBatchTests.batch(samples: 3, exits: 2)
        let bytes = HistoryBatchTests.older(old, version: 4)
        XCTAssertEqual(Array(bytes[4..<6]), [4, 0])
        XCTAssertEqual(try HistoryBatch.decode(bytes), old, "a sampler from before the unit rows hands its batches to the new writer")
    }

    func testDecodeRefusesAUnitRowWithoutANameOrTooManyRows() {
        var b = HistoryBatch(bootID: "b", bootTime: 0, uptimeSeconds: 0, nowSeconds: 0, samples: [], exits: [],
                             units: [UnitMinute(minute: 1, name: [0x41], kind: [], cpuPermyriad: 0, memoryBytes: 0,
                                                readBytesPerSecond: 0, writeBytesPerSecond: 0)], endsCleanly: false)
        var bytes = b.encoded
        bytes[bytes.count - 3] = 0   // the name's length
        XCTAssertThrowsError(try HistoryBatch.decode(bytes)) {
            XCTAssertEqual($0 as? HistoryBatchError, .malformed("a unit's name is empty or too long"))
        }
        b.units = []
        bytes = b.encoded
        let count = UInt32(HistoryBatch.maximumUnitRows + 1)
        for i in 0..<4 { bytes[bytes.count - 4 + i] = UInt8(truncatingIfNeeded: count >> (8 * UInt32(i))) }
        XCTAssertThrowsError(try HistoryBatch.decode(bytes)) {
            XCTAssertEqual($0 as? HistoryBatchError, .malformed("more than \(HistoryBatch.maximumUnitRows) unit rows"))
        }
        var unnamed = b
        unnamed.units = [UnitMinute(minute: 1, name: [], kind: [], cpuPermyriad: 0, memoryBytes: 0,
                                    readBytesPerSecond: 0, writeBytesPerSecond: 0)]
        XCTAssertEqual(try HistoryBatch.decode(unnamed.encoded).units, [], "the encoder leaves out what decode refuses")
    }

    func testSamplesWithTheMinutesUnitsAgainAllocateNothing() {
        var c = HistoryCollector(bootID: "boot-a", bootTime: 7)
        let units = (0..<8).map { Self.unit("app", "unit-\($0)", cpu: Int64($0 * 100), memory: 1 << 20) }
        let samples = (0..<58).map { snapshot(atMs: minute0 + 1000 * UInt64($0), units: units) }
        for i in 0..<2 { _ = c.record(samples[i]) }   // the minute's units, and one-time runtime metadata
        allocation_counter_start()
        for i in 2..<samples.count { _ = c.record(samples[i]) }
        let allocations = allocation_counter_stop()
        XCTAssertEqual(allocations, 0, "56 samples with the same units allocated \(allocations) times")
    }
}
