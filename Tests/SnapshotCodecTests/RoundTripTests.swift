import SnapshotCodec
import XCTest

final class RoundTripTests: XCTestCase {
    func testFullyPopulatedSnapshotRoundTripsUnchanged() throws {
        let full = fullSnapshot()
        XCTAssertEqual(try decodeResult(encoded(full)).get(), full)
    }

    func testEmptySnapshotRoundTripsUnchanged() throws {
        let empty = Snapshot()
        let bytes = encoded(empty)
        // The header, then eleven sections less pressure (nil): meta 24, uptime 24, cpu 15,
        // memory 89, load 20, processes 20, battery 20, top 11, exits 9, sampler 14.
        XCTAssertEqual(bytes.count, 32 + 246)
        XCTAssertEqual(try decodeResult(bytes).get(), empty)
    }

    func testMissingMemoryPressureRoundTripsAsNil() throws {
        var s = fullSnapshot()
        s.memoryPressure = nil
        XCTAssertNil(try decodeResult(encoded(s)).get().memoryPressure)
        s.memoryPressure = 0
        XCTAssertEqual(try decodeResult(encoded(s)).get().memoryPressure, 0)
    }

    func testEveryBatteryStateRoundTrips() throws {
        for state in [BatteryFigures.State.unknown, .charging, .discharging, .notCharging, .full] {
            var s = Snapshot()
            s.battery.state = state
            XCTAssertEqual(try decodeResult(encoded(s)).get().battery.state, state)
        }
    }

    func testFullSnapshotEncodesToTheComputedMaximumSize() {
        XCTAssertEqual(SnapshotFormat.maximumV1Size, 2705)
        XCTAssertEqual(SnapshotFormat.maximumV2Size, 2826)
        XCTAssertEqual(SnapshotFormat.maximumV3Size, 14931)
        XCTAssertEqual(encoded(fullSnapshot()).count, SnapshotFormat.maximumV3Size)
        XCTAssertEqual(encodedV2(fullSnapshot()).count, SnapshotFormat.maximumV2Size)
        XCTAssertEqual(v1Bytes(fromV2: encodedV2(fullSnapshot())).count, SnapshotFormat.maximumV1Size)
        XCTAssertLessThanOrEqual(SnapshotFormat.maximumV3Size, Snapshot.maximumEncodedSize)
    }

    func testEncoderPadsAShortIowaitHistoryWithZerosOnTheOldSide() throws {
        var s = Snapshot()
        s.cpuHistory = [1, 2, 3, 4]
        s.memoryHistory = [5, 6, 7, 8]
        s.iowaitHistory = [30, 40]
        XCTAssertEqual(try decodeResult(encoded(s)).get().iowaitHistory, [0, 0, 30, 40])
        s.iowaitHistory = []
        let d = try decodeResult(encoded(s)).get()
        XCTAssertEqual(d.cpuHistory, [1, 2, 3, 4], "no iowait history does not cut the graph")
        XCTAssertEqual(d.iowaitHistory, [0, 0, 0, 0])
    }

    func testEncoderKeepsTheNewestIowaitPointsOfALongerIowaitHistory() throws {
        var s = Snapshot()
        s.cpuHistory = [1, 2]
        s.memoryHistory = [5, 6]
        s.iowaitHistory = [10, 20, 30]
        XCTAssertEqual(try decodeResult(encoded(s)).get().iowaitHistory, [20, 30])
    }

    func testAV1FileReEncodesWithZeroIowait() throws {
        var s = fullSnapshot(newerParts: false)
        let fromV1 = try decodeResult(v1Bytes(fromV2: encodedV2(s))).get()
        XCTAssertEqual(fromV1.iowaitHistory, [])
        s.iowaitHistory = Array(repeating: 0, count: Snapshot.historyLength)
        XCTAssertEqual(encoded(fromV1), encoded(s))
    }

    func testEncoderClampsCountsToTheLimitsKeepingFirstEntriesAndNewestHistory() throws {
        var s = fullSnapshot()
        s.coreBusy = (0..<600).map { Permyriad($0) }
        s.cpuHistory = (0..<70).map { Permyriad($0) }
        s.iowaitHistory = (0..<75).map { Permyriad(500 + $0) }
        s.memoryHistory = (0..<65).map { Permyriad(1000 + $0) }
        s.topCPU += s.topCPU
        s.topMemory += s.topMemory
        s.exits += s.exits
        let d = try decodeResult(encoded(s)).get()
        XCTAssertEqual(d.coreBusy, Array(s.coreBusy.prefix(Snapshot.maximumCores)))
        XCTAssertEqual(d.cpuHistory, Array(s.cpuHistory.suffix(60)))
        XCTAssertEqual(d.iowaitHistory, Array(s.iowaitHistory.suffix(60)))
        XCTAssertEqual(d.memoryHistory, Array(s.memoryHistory.suffix(60)))
        XCTAssertEqual(d.topCPU, Array(s.topCPU.prefix(5)))
        XCTAssertEqual(d.topMemory, Array(s.topMemory.prefix(5)))
        XCTAssertEqual(d.exits, Array(s.exits.prefix(8)))
    }

    func testCPUAndMemoryHistoriesAreIndependentSoALongerOneIsNotCut() throws {
        var s = Snapshot()
        s.cpuHistory = [1, 2, 3, 4]
        s.iowaitHistory = [11, 12, 13, 14]
        s.memoryHistory = [7, 8]
        let d = try decodeResult(encoded(s)).get()
        XCTAssertEqual(d.cpuHistory, [1, 2, 3, 4])
        XCTAssertEqual(d.iowaitHistory, [11, 12, 13, 14])
        XCTAssertEqual(d.memoryHistory, [7, 8])
    }

    func testEncoderCutsLongNamesOnAUTF8Boundary() throws {
        var s = Snapshot()
        // 47 ASCII bytes then "€" (3 bytes): byte 48 is inside the "€", so the cut is at 47.
        let name = Array(String(repeating: "a", count: 47).utf8) + Array("€xyz".utf8)
        s.topCPU = [ProcessEntry(pid: 1, name: name)]
        s.exits = [ExitEntry(pid: 2, name: Array(repeating: 0x62, count: 200))]
        let d = try decodeResult(encoded(s)).get()
        XCTAssertEqual(d.topCPU[0].name, Array(name.prefix(47)))
        XCTAssertEqual(d.exits[0].name, Array(repeating: 0x62, count: 48))
    }

    func testPressureUpToAHundredPercentRoundTripsBecauseNilIsAnAbsentSection() throws {
        var s = Snapshot()
        s.memoryPressure = 10_000
        XCTAssertEqual(try decodeResult(encoded(s)).get().memoryPressure, 10_000)
        s.memoryPressure = 0xFFFF   // v1/v2's "none" is just a share above 100 % in v3: clamped
        XCTAssertEqual(try decodeResult(encoded(s)).get().memoryPressure, 10_000)
    }

    func testHeaderCarriesMagicVersionLengthsSequenceAndZeroFlags() {
        var s = Snapshot()
        s.sequence = 0x1122_3344_5566_7788
        let bytes = encoded(s)
        XCTAssertEqual(Array(bytes[0..<8]), Array("SYSSTATS".utf8))
        XCTAssertEqual(Array(bytes[8..<12]), [3, 0, 32, 0])
        XCTAssertEqual(Array(bytes[12..<16]), [22, 1, 0, 0])   // 278
        XCTAssertEqual(Array(bytes[16..<24]), [0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11])
        XCTAssertEqual(Array(bytes[28..<32]), [0, 0, 0, 0])
    }

    func testEncodeIntoReusedBufferKeepsItsStorage() {
        var bytes: [UInt8] = []
        fullSnapshot().encode(into: &bytes)
        let capacity = bytes.capacity
        let base = bytes.withUnsafeBufferPointer { $0.baseAddress }
        Snapshot().encode(into: &bytes)
        fullSnapshot().encode(into: &bytes)
        XCTAssertEqual(bytes.capacity, capacity)
        XCTAssertEqual(bytes.withUnsafeBufferPointer { $0.baseAddress }, base)
        XCTAssertEqual(bytes, encoded(fullSnapshot()))
    }

    func testStaleAfterThreeIntervalsButNeverBeforeFiveSeconds() {
        var s = Snapshot()
        s.timestampMs = 10_000
        s.intervalMs = 2000
        XCTAssertFalse(s.isStale(nowMs: 16_000))
        XCTAssertTrue(s.isStale(nowMs: 16_001))
        XCTAssertFalse(s.isStale(nowMs: 5_000), "a snapshot from the future is not stale")
        s.intervalMs = 250
        XCTAssertFalse(s.isStale(nowMs: 15_000), "a short interval still waits 5 s")
        XCTAssertTrue(s.isStale(nowMs: 15_001))
    }
}

final class SnapshotLocationTests: XCTestCase {
    func testRuntimeDirectoryIsUnderAnAbsoluteXDGRuntimeDirElseTmpWithTheUID() {
        XCTAssertEqual(SnapshotLocation.runtimeDirectory(xdgRuntimeDir: "/run/user/1000", uid: 1000), "/run/user/1000/sysstats")
        XCTAssertEqual(SnapshotLocation.runtimeDirectory(xdgRuntimeDir: "/run/user/1000/", uid: 1000), "/run/user/1000/sysstats")
        XCTAssertEqual(SnapshotLocation.runtimeDirectory(xdgRuntimeDir: nil, uid: 0), "/tmp/sysstats-0")
        XCTAssertEqual(SnapshotLocation.runtimeDirectory(xdgRuntimeDir: "run/user", uid: 4_294_967_295), "/tmp/sysstats-4294967295")
        XCTAssertEqual(SnapshotLocation.snapshotPath(in: "/tmp/x"), "/tmp/x/snapshot")
    }
}
