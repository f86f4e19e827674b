import AllocationCounter
import SnapshotCodec
import XCTest
@testable import HistoryRecords

final class HistoryBatchTests: XCTestCase {
    static let hostileNames: [[UInt8]] = [
        [], [0], [0xFF, 0xFE, 0x00, 0x0A, 0x0D], Array("x\"},{</b> \u{FFFD}".utf8),
        Array("\u{202E}evil\u{200B}".utf8), Array(repeating: 0x41, count: HistoryBatch.maximumNameBytes),
        Array("'; DROP TABLE exits; --".utf8),
    ]

    /// A sample whose optional figures are each present in some samples and absent in others,
    /// at the ends of their ranges (a negative temperature, counters near the top).
    static func sample(_ i: UInt64, battery: Bool) -> MinuteSample {
        MinuteSample(minute: i * 60, cpuAverage: UInt32(i), cpuMaximum: .max, memoryUsedKiB: .max - i,
                     memoryAvailableKiB: i << 40, swapUsedKiB: 0, load1: 150, processCount: 999,
                     batteryPercent: battery ? 8512 : nil, batteryState: battery ? 2 : nil,
                     rxBytes: i % 4 == 3 ? nil : .max - i, txBytes: i % 5 == 4 ? nil : i * 1_000_003,
                     cpuTemperatureMilliCelsius: i % 2 == 0 ? -12_500 - Int32(i) : (i % 7 == 1 ? nil : Int32.max),
                     rootUsedPermyriad: i % 3 == 1 ? nil : UInt32(i % 10_001),
                     gpuBusyPermyriad: i % 4 == 1 ? nil : UInt32(i % 10_001), vramUsedBytes: i % 5 == 2 ? nil : .max - i * 7,
                     listed: listed(i), isHourly: i % 3 == 0)
    }

    /// The listed parts' figures of sample `i`: each given in some samples, absent in others.
    static func listed(_ i: UInt64) -> FigureValues {
        var values = FigureValues()
        for c in ListedHistory.columns.indices where (i + UInt64(c)) % 3 != 2 {
            values[c] = min(Int64(i) * 977 + Int64(c), ListedHistory.columns[c].range.upperBound)
        }
        return values
    }

    /// Bytes of the listed columns' names after the batch's times: their count, then each
    /// name's length and bytes.
    static let listedHeader = 1 + ListedHistory.columns.reduce(0) { $0 + 1 + $1.history.column.utf8CodeUnitCount }
    /// Bytes of one sample in the current version.
    static let sampleBytes = 91 + 9 * ListedHistory.columns.count

    /// Where `b`'s first sample starts in its encoding.
    static func firstSample(_ b: HistoryBatch) -> Int {
        HistoryBatch.headerSize + 2 + b.bootID.utf8.count + 24 + listedHeader + 4
    }

    /// `b` (without unit rows) in the version-2 layout (78-byte samples, without the GPU
    /// figures), version 3's (91 bytes, without the listed columns) or version 4's (without
    /// the unit rows' count): the current encoding less the listed columns' names, each
    /// sample's end and the unit count, relabelled.
    static func older(_ b: HistoryBatch, version: UInt8) -> [UInt8] {
        precondition(b.units.isEmpty)
        let current = Array(b.encoded.dropLast(4))
        var bytes = Array(current[0..<HistoryBatch.headerSize])
        if version == 4 {
            bytes[4] = 4
            let body = Array(current[HistoryBatch.headerSize...])
            for i in 0..<4 { bytes[8 + i] = UInt8(truncatingIfNeeded: body.count >> (8 * i)) }
            return bytes + body
        }
        bytes[4] = version
        let times = HistoryBatch.headerSize + 2 + b.bootID.utf8.count + 24
        var body = Array(current[HistoryBatch.headerSize..<times])
        var at = times + listedHeader
        body += current[at..<(at + 4)]
        at += 4
        for _ in b.samples {
            body += current[at..<(at + (version == 2 ? 78 : 91))]
            at += sampleBytes
        }
        body += current[at...]
        for i in 0..<4 { bytes[8 + i] = UInt8(truncatingIfNeeded: body.count >> (8 * i)) }
        return bytes + body
    }

    static func versionTwo(_ b: HistoryBatch) -> [UInt8] { older(b, version: 2) }

    /// `b` in the version-1 layout (the first release's): 54-byte samples without the newer
    /// figures. Written here by hand, not by the encoder, which only writes the current version.
    static func versionOne(_ b: HistoryBatch) -> [UInt8] {
        var body: [UInt8] = []
        let id = Array(b.bootID.utf8)
        body.appendLE(UInt16(id.count)); body += id
        body.appendLE(b.bootTime); body.appendLE(b.uptimeSeconds); body.appendLE(b.nowSeconds)
        body.appendLE(UInt32(b.samples.count))
        for s in b.samples {
            body.appendLE(s.minute); body.appendLE(s.cpuAverage); body.appendLE(s.cpuMaximum)
            body.appendLE(s.memoryUsedKiB); body.appendLE(s.memoryAvailableKiB); body.appendLE(s.swapUsedKiB)
            body.appendLE(s.load1); body.appendLE(s.processCount)
            body.append((s.batteryPercent != nil ? 1 : 0) | (s.batteryState != nil ? 2 : 0) | (s.isHourly ? 4 : 0))
            body.appendLE(s.batteryPercent ?? 0); body.append(s.batteryState ?? 0)
        }
        body.appendLE(UInt32(b.exits.count))
        for e in b.exits {
            body.appendLE(e.timeMs); body.appendLE(e.pid); body.appendLE(e.lastPrivateKiB); body.appendLE(e.freedKiB)
            body.appendLE(UInt32(e.name.count)); body += e.name
            if let f = e.friendlyName { body.appendLE(UInt32(f.utf8.count)); body += Array(f.utf8) } else { body.appendLE(UInt32.max) }
        }
        var bytes = Array("SSHB".utf8)
        bytes.appendLE(UInt16(1)); bytes.appendLE(UInt16(b.endsCleanly ? 1 : 0)); bytes.appendLE(UInt32(body.count))
        return bytes + body
    }

    static func batch(samples: Int = 3, exits: Int = 7, endsCleanly: Bool = true) -> HistoryBatch {
        HistoryBatch(
            bootID: "1eddd26a-bed7-45c3-88ca-11e106c23142", bootTime: 1_763_000_000, uptimeSeconds: 12_345,
            nowSeconds: 1_763_712_345,
            samples: (0..<samples).map { sample(UInt64($0), battery: $0 % 2 == 0) },
            exits: (0..<exits).map { i in
                ExitRecord(timeMs: UInt64(i) * 1000, pid: UInt32(i + 100), name: hostileNames[i % hostileNames.count],
                           friendlyName: i % 2 == 0 ? nil : (i % 3 == 0 ? "" : "Firefox \u{1F98A} \"quoted\""),
                           lastPrivateKiB: UInt64(i) * 1024, freedKiB: .max)
            },
            endsCleanly: endsCleanly)
    }

    func testABatchWithHostileNamesRoundTripsExactly() throws {
        for b in [Self.batch(), Self.batch(samples: 0, exits: 0, endsCleanly: false),
                  Self.batch(samples: HistoryBatch.maximumSamples, exits: 200)] {
            XCTAssertEqual(try HistoryBatch.decode(b.encoded), b)
        }
    }

    func testTheEncodingStartsWithMagicVersionAndLittleEndianLength() {
        let bytes = Self.batch().encoded
        XCTAssertEqual(Array(bytes[0..<4]), Array("SSHB".utf8))
        XCTAssertEqual(Array(bytes[4..<8]), [5, 0, 1, 0])   // version 5, flags: endsCleanly
        let length = (0..<4).reduce(0) { $0 | Int(bytes[8 + $1]) << (8 * $1) }
        XCTAssertEqual(length, bytes.count - HistoryBatch.headerSize)
    }

    func testASampleIsNinetyOneBytesAndNineAListedColumnWithTheNewFiguresAfterTheBattery() throws {
        var listed = FigureValues()
        listed[0] = 0x0102
        let one = HistoryBatch(bootID: "", bootTime: 0, uptimeSeconds: 0, nowSeconds: 0, samples: [
            MinuteSample(minute: 60, cpuAverage: 1, cpuMaximum: 2, memoryUsedKiB: 3, memoryAvailableKiB: 4, swapUsedKiB: 5,
                         load1: 6, processCount: 7, rxBytes: 0x0102_0304_0506_0708, txBytes: 9,
                         cpuTemperatureMilliCelsius: -2, rootUsedPermyriad: 10_000,
                         gpuBusyPermyriad: 9_999, vramUsedBytes: 0x1122_3344_5566_7788, listed: listed),
        ], exits: [], endsCleanly: false).encoded
        let none = HistoryBatch(bootID: "", bootTime: 0, uptimeSeconds: 0, nowSeconds: 0, samples: [], exits: [],
                                endsCleanly: false).encoded
        XCTAssertEqual(one.count - none.count, 91 + 9 * ListedHistory.columns.count)
        let names = HistoryBatch.headerSize + 2 + 24
        XCTAssertEqual(Int(one[names]), ListedHistory.columns.count, "the listed columns, by name")
        XCTAssertEqual(Array(one[(names + 2)..<(names + 2 + Int(one[names + 1]))]), Array("fan_rpm".utf8))
        let at = HistoryBatch.headerSize + 2 + 24 + Self.listedHeader + 4   // the first sample
        XCTAssertEqual(one[at + 48], 0b0111_1000, "presence: rx, tx, temperature, root; no battery, not hourly")
        XCTAssertEqual(Array(one[(at + 54)..<(at + 78)]),
                       [8, 7, 6, 5, 4, 3, 2, 1, 9, 0, 0, 0, 0, 0, 0, 0, 0xFE, 0xFF, 0xFF, 0xFF, 0x10, 0x27, 0, 0])
        XCTAssertEqual(Array(one[(at + 78)..<(at + 91)]), [0b11, 0x0F, 0x27, 0, 0, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11],
                       "more presence: GPU busy and video memory; then the two")
        XCTAssertEqual(Array(one[(at + 91)..<(at + 100)]), [1, 2, 1, 0, 0, 0, 0, 0, 0], "fan_rpm given, 0x0102")
        XCTAssertEqual(one[at + 100], 0, "power not given")
    }

    /// A sampler from before the listed parts' history (version 3) hands its batches to the
    /// new writer; a newer sampler's column this build lacks is skipped, not refused.
    func testAVersionThreeBatchDecodesWithoutListedFiguresAndAnUnknownColumnIsSkipped() throws {
        var old = Self.batch(samples: 5, exits: 3)
        for i in old.samples.indices { old.samples[i].listed = FigureValues() }
        let bytes = Self.older(old, version: 3)
        XCTAssertEqual(Array(bytes[4..<6]), [3, 0])
        XCTAssertEqual(try HistoryBatch.decode(bytes), old)
        var renamed = Self.batch(samples: 2, exits: 0)
        var encoded = renamed.encoded
        encoded[HistoryBatch.headerSize + 2 + renamed.bootID.utf8.count + 24 + 2] = UInt8(ascii: "x")   // "xan_rpm"
        for i in renamed.samples.indices { renamed.samples[i].listed[0] = nil }
        XCTAssertEqual(try HistoryBatch.decode(encoded), renamed, "a column this build does not know: skipped")
    }

    /// A sampler from before the GPU figures (version 2) hands its batches to the new writer.
    func testAVersionTwoBatchDecodesWithTheGPUFiguresNil() throws {
        var old = Self.batch(samples: 5, exits: 3)
        for i in old.samples.indices {
            old.samples[i].gpuBusyPermyriad = nil; old.samples[i].vramUsedBytes = nil; old.samples[i].listed = FigureValues()
        }
        let bytes = Self.versionTwo(old)
        XCTAssertEqual(Array(bytes[4..<6]), [2, 0])
        XCTAssertEqual(bytes.count, old.encoded.count - 5 * (13 + 9 * ListedHistory.columns.count) - Self.listedHeader - 4)
        XCTAssertEqual(try HistoryBatch.decode(bytes), old)
        // Version 3's more-presence byte knows bits 0 and 1 only.
        var current = Self.batch(samples: 1, exits: 0).encoded
        current[Self.firstSample(Self.batch(samples: 1, exits: 0)) + 78] |= 4
        XCTAssertThrowsError(try HistoryBatch.decode(current)) {
            XCTAssertEqual($0 as? HistoryBatchError, .malformed("unknown sample presence bits"))
        }
    }

    func testAVersionOneBatchFromASamplerStartedBeforeAnUpgradeDecodesWithTheNewFiguresNil() throws {
        var old = Self.batch(samples: 4, exits: 3)
        for i in old.samples.indices {
            old.samples[i].rxBytes = nil; old.samples[i].txBytes = nil
            old.samples[i].cpuTemperatureMilliCelsius = nil; old.samples[i].rootUsedPermyriad = nil
            old.samples[i].gpuBusyPermyriad = nil; old.samples[i].vramUsedBytes = nil; old.samples[i].listed = FigureValues()
        }
        let bytes = Self.versionOne(old)
        XCTAssertEqual(Array(bytes[4..<6]), [1, 0])
        XCTAssertEqual(try HistoryBatch.decode(bytes), old)
        XCTAssertEqual(try HistoryBatch.decode(HistoryBatch.decode(bytes).encoded), old, "and re-encodes as version 5")
        // Version 1 knows presence bits 0-2 only.
        var newBit = bytes
        newBit[HistoryBatch.headerSize + 2 + old.bootID.utf8.count + 24 + 4 + 48] |= 8
        XCTAssertThrowsError(try HistoryBatch.decode(newBit)) {
            XCTAssertEqual($0 as? HistoryBatchError, .malformed("unknown sample presence bits"))
        }
        // A version-1 batch is not read as version 2 (its samples would run into the exits), nor a current one as version 1.
        var relabelled = bytes; relabelled[4] = 2
        XCTAssertThrowsError(try HistoryBatch.decode(relabelled))
        var current = Self.batch().encoded; current[4] = 1
        XCTAssertThrowsError(try HistoryBatch.decode(current))
    }

    func testEncodeClipsWhatDecodeWouldRefuseSoItAlwaysDecodes() throws {
        var b = Self.batch(samples: HistoryBatch.maximumSamples + 5, exits: 1)
        b.exits[0].name = Array(repeating: 7, count: HistoryBatch.maximumNameBytes + 10)
        let decoded = try HistoryBatch.decode(b.encoded)
        XCTAssertEqual(decoded.samples.count, HistoryBatch.maximumSamples)
        XCTAssertEqual(decoded.exits[0].name.count, HistoryBatch.maximumNameBytes)
    }

    func testDecodeRefusesEachKindOfBadInputWithItsOwnError() {
        let good = Self.batch().encoded
        func error(_ bytes: [UInt8]) -> HistoryBatchError? {
            do { _ = try HistoryBatch.decode(bytes); return nil } catch { return error }
        }
        XCTAssertEqual(error([]), .truncated)
        XCTAssertEqual(error(Array(good.prefix(3))), .truncated)
        XCTAssertEqual(error(Array(good.dropLast())), .truncated)
        XCTAssertEqual(error(Array(good.prefix(40))), .truncated)
        XCTAssertEqual(error(Array("GIF89a random garbage".utf8)), .badMagic)
        var version = good; version[4] = 9
        XCTAssertEqual(error(version), .unsupportedVersion(9))
        version[4] = 6
        XCTAssertEqual(error(version), .unsupportedVersion(6))
        version[4] = 0
        XCTAssertEqual(error(version), .unsupportedVersion(0))
        XCTAssertEqual(HistoryBatchError.unsupportedVersion(6).description,
                       "history batch version 6 is not supported (this build reads 1 to 5)")
        XCTAssertEqual(error(good + [0]), .trailingBytes)
        var flags = good; flags[6] = 0x80
        XCTAssertEqual(error(flags), .malformed("unknown flags"))
        var huge = good; huge[11] = 0x7F   // length ~2 GiB
        XCTAssertEqual(error(huge), .oversize)
        XCTAssertEqual(error(Array("SSHB".utf8) + [UInt8](repeating: 0, count: HistoryBatch.maximumEncodedBytes)), .oversize)

        // Counts past the limits, with the lengths consistent around them.
        func withCounts(samples: UInt32, exits: UInt32) -> [UInt8] {
            var b = HistoryBatch(bootID: "b", bootTime: 0, uptimeSeconds: 0, nowSeconds: 0, samples: [], exits: [], endsCleanly: false).encoded
            let samplesAt = HistoryBatch.headerSize + 2 + 1 + 24 + Self.listedHeader
            for i in 0..<4 { b[samplesAt + i] = UInt8(truncatingIfNeeded: samples >> (8 * UInt32(i))) }
            for i in 0..<4 { b[samplesAt + 4 + i] = UInt8(truncatingIfNeeded: exits >> (8 * UInt32(i))) }
            return b
        }
        XCTAssertEqual(error(withCounts(samples: 1441, exits: 0)), .tooManySamples(1441))
        XCTAssertEqual(error(withCounts(samples: .max, exits: 0)), .tooManySamples(Int(UInt32.max)))
        XCTAssertEqual(error(withCounts(samples: 0, exits: 10_001)), .tooManyExits(10_001))
        XCTAssertEqual(error(withCounts(samples: 1000, exits: 0)), .truncated, "a count the bytes cannot hold")
        var columns = good
        columns[HistoryBatch.headerSize + 2 + 36 + 24] = 17
        XCTAssertEqual(error(columns), .malformed("more than 16 listed columns"))
        var given = Self.batch(samples: 1, exits: 0).encoded
        given[Self.firstSample(Self.batch(samples: 1, exits: 0)) + 91] = 2
        XCTAssertEqual(error(given), .malformed("a listed figure's given flag is not 0 or 1"))
    }

    /// Thousands of mutations of a valid batch (flipped, inserted, removed bytes and cut ends):
    /// each decodes or throws; none crashes, and a decoded one re-encodes to a decodable batch.
    func testSeededFuzzOfMutatedBatchesNeverCrashes() {
        var rng = SplitMix64(seed: 0x5359_5353_4842)
        var withUnits = Self.batch(samples: 1, exits: 1)
        withUnits.units = UnitMinutesTests.hostileUnits
        let seeds = [Self.batch().encoded, Self.batch(samples: 1, exits: 1, endsCleanly: false).encoded,
                     Self.versionOne(Self.batch(samples: 2, exits: 2)), withUnits.encoded]
        var decoded = 0, refused = 0
        for round in 0..<5000 {
            var bytes = seeds[round % seeds.count]
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                let at = Int(rng.next() % UInt64(max(bytes.count, 1)))
                switch rng.next() % 5 {
                case 0 where !bytes.isEmpty: bytes[at] ^= UInt8(truncatingIfNeeded: 1 << (rng.next() % 8))
                case 1 where !bytes.isEmpty: bytes[at] = UInt8(truncatingIfNeeded: rng.next())
                case 2: bytes.insert(UInt8(truncatingIfNeeded: rng.next()), at: min(at, bytes.count))
                case 3 where !bytes.isEmpty: bytes.remove(at: at)
                default: bytes = Array(bytes.prefix(at))
                }
            }
            do {
                let batch = try HistoryBatch.decode(bytes)
                XCTAssertEqual(try HistoryBatch.decode(batch.encoded), batch)
                decoded += 1
            } catch {
                refused += 1
            }
        }
        XCTAssertEqual(decoded + refused, 5000)
        XCTAssertGreaterThan(refused, 1000)
    }
}

/// A small deterministic generator for the fuzz loop.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

final class HistoryCollectorTests: XCTestCase {
    let minute0: UInt64 = 1_763_712_000_000

    func snapshot(atMs ms: UInt64, cpu: Permyriad, exits: [ExitEntry] = []) -> Snapshot {
        var s = Snapshot()
        s.timestampMs = ms
        s.cpuBusy = cpu
        s.memory.used = 500
        s.uptimeCentiseconds = 12_300
        s.exits = exits
        return s
    }

    func testExitsKeepTheProcessNameAndTheFriendlyNameTheSamplerGaveThem() {
        var c = HistoryCollector(bootID: "boot-a", bootTime: 7)
        let shown = ExitEntry(pid: 5, timeMs: minute0 + 10, lastPrivateKiB: 1, freedKiB: 2, name: Array("Firefox".utf8))
        let plain = ExitEntry(pid: 6, timeMs: minute0 + 10, lastPrivateKiB: 1, freedKiB: 2, name: Array("sleep".utf8))
        let names = [ExitNames(name: Array("firefox-esr".utf8), friendlyName: Array("Firefox".utf8)),
                     ExitNames(name: Array("sleep".utf8), friendlyName: [])]
        _ = c.record(snapshot(atMs: minute0 + 20, cpu: 1, exits: [shown, plain]), exitNames: names)
        let exits = c.finish(nowMs: minute0 + 30).exits
        XCTAssertEqual(exits.map { String(decoding: $0.name, as: UTF8.self) }, ["firefox-esr", "sleep"])
        XCTAssertEqual(exits.map(\.friendlyName), ["Firefox", nil])
    }

    func testABatchComesWhenAMinuteEndsWithThatMinutesRowAndTheExitsSinceTheLastBatch() {
        var c = HistoryCollector(bootID: "boot-a", bootTime: 7)
        let e = ExitEntry(pid: 5, timeMs: minute0 + 10, lastPrivateKiB: 1, freedKiB: 2, name: [0xFF])
        XCTAssertNil(c.record(snapshot(atMs: minute0, cpu: 100)))
        XCTAssertNil(c.record(snapshot(atMs: minute0 + 59_999, cpu: 300, exits: [e])))
        let batch = c.record(snapshot(atMs: minute0 + 60_000, cpu: 0, exits: [e]))
        XCTAssertEqual(batch?.samples.map(\.minute), [minute0 / 1000])
        XCTAssertEqual(batch?.samples.first?.cpuAverage, 200)
        XCTAssertEqual(batch?.exits.map(\.pid), [5])
        XCTAssertEqual(batch?.bootID, "boot-a")
        XCTAssertEqual(batch?.uptimeSeconds, 123)
        XCTAssertEqual(batch?.endsCleanly, false)
        let last = c.finish(nowMs: minute0 + 61_000)
        XCTAssertEqual(last.samples.map(\.minute), [minute0 / 1000 + 60])
        XCTAssertEqual(last.exits, [], "an exit goes in one batch only")
        XCTAssertTrue(last.endsCleanly)
    }

    func testFinishWithoutSamplesIsAnEmptyCleanBatch() {
        var c = HistoryCollector(bootID: "boot-a", bootTime: 7)
        let last = c.finish(nowMs: minute0)
        XCTAssertEqual(last.samples, [])
        XCTAssertTrue(last.endsCleanly)
        XCTAssertEqual(c.startBatch(uptimeSeconds: 3, nowMs: minute0).samples, [])
    }

    func testSamplesWithinAMinuteAllocateNothing() {
        var c = HistoryCollector(bootID: "boot-a", bootTime: 7)
        let exits = (0..<Snapshot.maximumExits).map {
            ExitEntry(pid: UInt32($0), timeMs: minute0 + UInt64($0), lastPrivateKiB: 1, freedKiB: 2, name: Array("proc\($0)".utf8))
        }
        _ = c.record(snapshot(atMs: minute0, cpu: 1, exits: exits))
        let samples = (0..<58).map { snapshot(atMs: minute0 + 1000 * UInt64($0 + 1), cpu: 3, exits: exits) }
        for i in 0..<2 { _ = c.record(samples[i]) }   // warm up (one-time runtime metadata)
        allocation_counter_start()
        for i in 2..<samples.count { _ = c.record(samples[i]) }   // indexed: `for in` allocates in debug builds
        let allocations = allocation_counter_stop()
        XCTAssertEqual(allocations, 0, "56 samples within a minute allocated \(allocations) times")
    }

    func testTheDataDirectoryRuleIsDataDirThenAbsoluteXDGThenHome() {
        XCTAssertEqual(DataDirectory.resolve(dataDir: "/d", xdgDataHome: "/x", home: "/h"), "/d")
        XCTAssertEqual(DataDirectory.resolve(xdgDataHome: "/x/", home: "/h"), "/x/sysstats")
        XCTAssertEqual(DataDirectory.resolve(xdgDataHome: "relative", home: "/h"), "/h/.local/share/sysstats")
        XCTAssertNil(DataDirectory.resolve(xdgDataHome: nil, home: "relative"))
    }
}
