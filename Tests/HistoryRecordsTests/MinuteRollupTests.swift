import AllocationCounter
import SnapshotCodec
import XCTest
@testable import HistoryRecords

/// The minute row's network, temperature and root file system figures.
final class MinuteRollupTests: XCTestCase {
    let minute0: UInt64 = 1_763_712_000_000

    func interface(_ name: String, rx: UInt64, tx: UInt64) -> InterfaceFigures {
        var f = InterfaceFigures()
        f.name = Array(name.utf8)
        f.rxBytes = rx
        f.txBytes = tx
        return f
    }

    func sensor(_ milliCelsius: Int32, package: Bool = false) -> TemperatureFigures {
        var t = TemperatureFigures()
        t.chip = Array("coretemp".utf8)
        t.milliCelsius = milliCelsius
        t.isCPUPackage = package
        return t
    }

    func disk(_ mount: String, used: UInt64, available: UInt64) -> DiskFigures {
        var d = DiskFigures()
        d.mount = Array(mount.utf8)
        d.totalKiB = used + available
        d.usedKiB = used
        d.availableKiB = available
        return d
    }

    /// A GPU giving busy (hundredths of a percent) and VRAM in use (bytes) where not nil.
    func gpu(busy: Permyriad?, vram: UInt64?) -> GPUFigures {
        var g = GPUFigures()
        g.driver = Array("amdgpu".utf8)
        if let busy { g.busy = busy; g.known.insert(.busy) }
        if let vram { g.vramUsedBytes = vram; g.vramTotalBytes = 8 << 30; g.known.insert(.vram) }
        return g
    }

    /// A sample with CPU and memory (so it counts in the row) and the given parts.
    func snapshot(atMs ms: UInt64, interfaces: [InterfaceFigures]? = nil, temperatures: [TemperatureFigures]? = nil,
                  disks: [DiskFigures]? = nil, gpus: [GPUFigures]? = nil, cpuAndMemory: Bool = true) -> Snapshot {
        var s = Snapshot()
        s.timestampMs = ms
        s.cpuBusy = 1000
        s.memory.used = 500
        if !cpuAndMemory { s.available.remove([.cpu, .memory]) }
        if let interfaces { s.interfaces = interfaces; s.available.insert(.network) }
        if let temperatures { s.temperatures = temperatures; s.available.insert(.temperature) }
        if let disks { s.disks = disks; s.available.insert(.disks) }
        if let gpus { s.gpus = gpus; s.available.insert(.gpu) }
        return s
    }

    func rollup(_ snapshots: [Snapshot]) -> MinuteSample {
        var r = MinuteRollup(minute: 0)
        for s in snapshots { r.add(s) }
        return r.sample
    }

    // MARK: - Network

    func testTrafficIsTheRiseOfEachInterfacesCountersSummedOverInterfaces() {
        let row = rollup([
            snapshot(atMs: 0, interfaces: [interface("eth0", rx: 1000, tx: 50), interface("wlan0", rx: 7, tx: 7)]),
            snapshot(atMs: 1000, interfaces: [interface("eth0", rx: 1500, tx: 80), interface("wlan0", rx: 10, tx: 9)]),
            // The order changed (the default route moved): interfaces are matched by name.
            snapshot(atMs: 2000, interfaces: [interface("wlan0", rx: 110, tx: 10), interface("eth0", rx: 1600, tx: 80)]),
        ])
        XCTAssertEqual(row.rxBytes, 500 + 3 + 100 + 100)
        XCTAssertEqual(row.txBytes, 30 + 2 + 1 + 0)
    }

    func testACounterGoingBackCountsZeroForThatStepAndTheNextStepCountsFromItsNewValue() {
        let row = rollup([
            snapshot(atMs: 0, interfaces: [interface("eth0", rx: 5000, tx: 5000), interface("wlan0", rx: 100, tx: 100)]),
            snapshot(atMs: 1000, interfaces: [interface("eth0", rx: 20, tx: 4999), interface("wlan0", rx: 200, tx: 150)]),
            snapshot(atMs: 2000, interfaces: [interface("eth0", rx: 70, tx: 5009), interface("wlan0", rx: 200, tx: 150)]),
        ])
        XCTAssertEqual(row.rxBytes, 0 + 100 + 50)
        XCTAssertEqual(row.txBytes, 0 + 50 + 10)
    }

    func testAnInterfaceAppearingCountsNothingUntilItsSecondReadingAndOneLeavingCountsNothing() {
        let row = rollup([
            snapshot(atMs: 0, interfaces: [interface("eth0", rx: 100, tx: 100)]),
            // A VPN takes the default route with a gigabyte already on its counters: not this minute's.
            snapshot(atMs: 1000, interfaces: [interface("tun0", rx: 1 << 30, tx: 1 << 30), interface("eth0", rx: 150, tx: 100)]),
            snapshot(atMs: 2000, interfaces: [interface("tun0", rx: (1 << 30) + 40, tx: (1 << 30) + 4)]),
            snapshot(atMs: 3000, interfaces: [interface("tun0", rx: (1 << 30) + 41, tx: (1 << 30) + 4),
                                              interface("eth0", rx: 9999, tx: 9999)]),
        ])
        XCTAssertEqual(row.rxBytes, 50 + 40 + 1)
        XCTAssertEqual(row.txBytes, 4)
    }

    func testTheFirstSampleOfAMinuteCountsFromTheLastCountersOfTheMinuteBefore() {
        var c = HistoryCollector(bootID: "b", bootTime: 1)
        _ = c.record(snapshot(atMs: minute0, interfaces: [interface("eth0", rx: 0, tx: 0)]))
        _ = c.record(snapshot(atMs: minute0 + 59_000, interfaces: [interface("eth0", rx: 100, tx: 10)]))
        let first = c.record(snapshot(atMs: minute0 + 60_000, interfaces: [interface("eth0", rx: 1100, tx: 20)]))
        XCTAssertEqual(first?.samples.first?.rxBytes, 100)
        XCTAssertEqual(first?.samples.first?.txBytes, 10)
        _ = c.record(snapshot(atMs: minute0 + 61_000, interfaces: [interface("eth0", rx: 1200, tx: 20)]))
        let last = c.finish(nowMs: minute0 + 62_000)
        XCTAssertEqual(last.samples.first?.rxBytes, 1000 + 100, "the step across the turn of the minute belongs to the new minute")
        XCTAssertEqual(last.samples.first?.txBytes, 10)
    }

    func testTrafficIsNilWhenTheNetworkWasNeverMeasuredAndZeroWhenMeasuredOnce() {
        XCTAssertNil(rollup([snapshot(atMs: 0), snapshot(atMs: 1000)]).rxBytes)
        XCTAssertNil(rollup([snapshot(atMs: 0)]).txBytes)
        let once = rollup([snapshot(atMs: 0), snapshot(atMs: 1000, interfaces: [interface("eth0", rx: 500, tx: 500)])])
        XCTAssertEqual(once.rxBytes, 0)
        XCTAssertEqual(once.txBytes, 0)
        XCTAssertEqual(rollup([snapshot(atMs: 0, interfaces: [])]).rxBytes, 0, "measured: no interface is a measured nothing")
    }

    func testAPrimingSampleWithoutCPUStillGivesTheCountersTheNextSampleCountsFrom() {
        let row = rollup([
            snapshot(atMs: 0, interfaces: [interface("eth0", rx: 1000, tx: 0)], cpuAndMemory: false),
            snapshot(atMs: 1000, interfaces: [interface("eth0", rx: 1300, tx: 0)]),
        ])
        XCTAssertEqual(row.rxBytes, 300)
    }

    func testHostileCountersSaturateAndMoreInterfacesThanASnapshotHoldsAreLeftOut() {
        let many = (0..<20).map { interface("if\($0)", rx: .max, tx: 0) }
        let row = rollup([
            snapshot(atMs: 0, interfaces: many.map { var f = $0; f.rxBytes = 0; return f }),
            snapshot(atMs: 1000, interfaces: many),
            snapshot(atMs: 2000, interfaces: [interface("a-name-far-longer-than-ifnamsiz-allows", rx: 1, tx: 1)]),
            snapshot(atMs: 3000, interfaces: [interface("a-name-far-longer-than-ifnamsiz-allows", rx: 2, tx: 3)]),
        ])
        XCTAssertEqual(row.rxBytes, .max)
        XCTAssertEqual(row.txBytes, 2)
        XCTAssertEqual(InterfaceCounters.capacity, Snapshot.maximumInterfaces)
    }

    func testInterfaceNamesDifferingOnlyLateOrInLengthAreDifferentInterfaces() {
        let keys = ["eth0", "eth00", "eth1", "", "abcdefghijklmno", "abcdefghijklmnp", "abcdefgh", "abcdefgh\u{0}"]
            .map { InterfaceCounters.NameKey(Array($0.utf8)) }
        XCTAssertEqual(Set(keys.map { "\($0.low) \($0.high) \($0.length)" }).count, keys.count)
    }

    // MARK: - Temperature

    func testTheTemperatureIsTheHottestCPUPackageReadingEvenWhenAnotherSensorIsHotter() {
        let row = rollup([
            snapshot(atMs: 0, temperatures: [sensor(55_000, package: true), sensor(90_000)]),
            snapshot(atMs: 1000, temperatures: [sensor(71_500, package: true), sensor(95_000)]),
            snapshot(atMs: 2000, temperatures: [sensor(60_000, package: true)]),
        ])
        XCTAssertEqual(row.cpuTemperatureMilliCelsius, 71_500)
    }

    func testWithoutAPackageSensorTheHottestSensorIsTakenAndWithoutAnyItIsNil() {
        XCTAssertEqual(rollup([snapshot(atMs: 0, temperatures: [sensor(-5_000), sensor(-12_000)])]).cpuTemperatureMilliCelsius, -5_000)
        XCTAssertEqual(rollup([snapshot(atMs: 0, temperatures: [sensor(41_000)]),
                               snapshot(atMs: 1000, temperatures: [sensor(44_000), sensor(43_000)])]).cpuTemperatureMilliCelsius, 44_000)
        XCTAssertNil(rollup([snapshot(atMs: 0, temperatures: [])]).cpuTemperatureMilliCelsius)
        var unavailable = snapshot(atMs: 0, temperatures: [sensor(50_000, package: true)])
        unavailable.available.remove(.temperature)
        XCTAssertNil(rollup([unavailable]).cpuTemperatureMilliCelsius, "figures of a part not measured are not read")
    }

    // MARK: - Root file system

    func testRootUsedIsTheLastMeasurementOfTheDiskMountedAtSlash() {
        let row = rollup([
            snapshot(atMs: 0, disks: [disk("/", used: 10, available: 90)]),
            snapshot(atMs: 1000, disks: [disk("/home", used: 90, available: 10), disk("/", used: 25, available: 75)]),
            snapshot(atMs: 2000),   // the disks part not measured this time: the last measurement stands
        ])
        XCTAssertEqual(row.rootUsedPermyriad, 2500)
    }

    func testRootUsedIsNilWithoutSlashOrWhenItCouldNotBeMeasured() {
        XCTAssertNil(rollup([snapshot(atMs: 0, disks: [disk("/home", used: 1, available: 1)])]).rootUsedPermyriad)
        XCTAssertNil(rollup([snapshot(atMs: 0, disks: [disk("/", used: 0, available: 0)])]).rootUsedPermyriad,
                     "a mount statvfs could not read stays listed with zeros")
        XCTAssertNil(rollup([snapshot(atMs: 0, disks: [disk("//", used: 1, available: 1)])]).rootUsedPermyriad)
        XCTAssertNil(rollup([snapshot(atMs: 0)]).rootUsedPermyriad)
        XCTAssertEqual(rollup([snapshot(atMs: 0, disks: [disk("/", used: 1, available: 2)]),
                               snapshot(atMs: 1000, disks: [disk("/", used: 0, available: 0)])]).rootUsedPermyriad,
                       3334, "an unmeasured reading does not replace a measured one (df rounds up)")
    }

    func testTheNewFiguresDoNotDisturbTheAveragesOfTheRow() {
        let row = rollup([
            snapshot(atMs: 0, interfaces: [interface("eth0", rx: 0, tx: 0)], temperatures: [sensor(1)], disks: [disk("/", used: 1, available: 1)]),
            snapshot(atMs: 1000, interfaces: [interface("eth0", rx: 1, tx: 1)], cpuAndMemory: false),
        ])
        XCTAssertEqual(row.cpuAverage, 1000)
        XCTAssertEqual(row.memoryUsedKiB, 500)
        XCTAssertEqual(row.rxBytes, 1)
    }

    // MARK: - GPU

    func testTheGPUIsTheBusiestCardAveragedAndTheVideoMemoryOfAllCardsAtItsLargest() {
        let row = rollup([
            snapshot(atMs: 0, gpus: [gpu(busy: 1000, vram: 1 << 30), gpu(busy: 3000, vram: 2 << 30)]),
            snapshot(atMs: 1000, gpus: [gpu(busy: 5001, vram: 512 << 20), gpu(busy: 0, vram: 0)]),
            snapshot(atMs: 2000),   // not measured this time: neither average nor maximum moves
            snapshot(atMs: 3000, gpus: [gpu(busy: nil, vram: 4 << 30)]),   // no busy figure: VRAM only
        ])
        XCTAssertEqual(row.gpuBusyPermyriad, 4001, "(3000 + 5001) / 2, rounded")
        XCTAssertEqual(row.vramUsedBytes, 4 << 30)
        XCTAssertEqual(row.cpuAverage, 1000, "the GPUs do not disturb the row's averages")
    }

    func testTheGPUFiguresAreNilWhenTheGPUsWereNotMeasuredOrGaveNone() {
        XCTAssertNil(rollup([snapshot(atMs: 0)]).gpuBusyPermyriad)
        XCTAssertNil(rollup([snapshot(atMs: 0)]).vramUsedBytes)
        let none = rollup([snapshot(atMs: 0, gpus: []), snapshot(atMs: 1000, gpus: [gpu(busy: nil, vram: nil)])])
        XCTAssertNil(none.gpuBusyPermyriad, "a measured machine without a GPU, or a card that gives neither")
        XCTAssertNil(none.vramUsedBytes)
        let hostile = rollup([snapshot(atMs: 0, gpus: [gpu(busy: .max, vram: .max), gpu(busy: 1, vram: .max)])])
        XCTAssertEqual(hostile.gpuBusyPermyriad, 10_000, "a share over 100 % is clipped")
        XCTAssertEqual(hostile.vramUsedBytes, .max, "the sum saturates")
    }

    /// `s` with one fan reading (its speed) and the system's power, where not nil.
    func withListed(_ s: Snapshot, fans: [Int64?]? = nil, milliwatts: Int64? = nil) -> Snapshot {
        var s = s
        if let fans {
            _ = s.listed.update(.fans) { list in
                list = fans.map { rpm in
                    var r = PartReading()
                    r.reset(source: Array("nct6775".utf8), label: Array("CPU Fan".utf8))
                    r[FansPart.rpm] = rpm
                    return r
                }
            }
            s.available.insert(FansPart.part.part)
        }
        if let milliwatts {
            _ = s.listed.update(.power) { list in
                var r = PartReading()
                r.reset(source: Array("system".utf8), label: Array("battery".utf8))
                r[PowerPart.watts] = milliwatts
                list = [r]
            }
            s.available.insert(PowerPart.part.part)
        }
        return s
    }

    /// The listed parts' history (ListedHistory): the first reading's figure (the first fan,
    /// the system's power), averaged over the samples that gave it; nil where none did.
    func testTheListedPartsHistoryIsTheFirstReadingAveragedOverTheSamplesThatGaveIt() {
        let row = rollup([
            withListed(snapshot(atMs: 0), fans: [1000, 3000], milliwatts: 10_000),
            withListed(snapshot(atMs: 1000), fans: [1401], milliwatts: 20_001),
            snapshot(atMs: 2000),                                        // neither measured
            withListed(snapshot(atMs: 3000), fans: [nil, 5000]),          // the first fan gave no speed
        ])
        XCTAssertEqual(row.listed[0], 1201, "(1000 + 1401) / 2, rounded; the second fan not the history's")
        XCTAssertEqual(row.listed[1], 15_001, "(10000 + 20001) / 2, rounded")
        XCTAssertEqual(rollup([snapshot(atMs: 0)]).listed, FigureValues(), "not measured: nil")
        let hostile = rollup([withListed(snapshot(atMs: 0), fans: [.max], milliwatts: -5)])
        XCTAssertEqual(hostile.listed[0], Int64(UInt32.max), "clamped to the column's range")
        XCTAssertEqual(hostile.listed[1], 0)
    }

    // MARK: - Allocation

    func testSamplesWithEveryPartWithinAMinuteAllocateNothing() {
        var c = HistoryCollector(bootID: "boot-a", bootTime: 7)
        let samples = (0..<60).map { i -> Snapshot in
            let n = UInt64(i)
            return withListed(snapshot(atMs: minute0 + 1000 * n,
                            interfaces: (0..<Snapshot.maximumInterfaces).map { interface("eth\($0)", rx: n * 1000, tx: n * 10) },
                            temperatures: (0..<Snapshot.maximumSensors).map { sensor(Int32(40_000 + $0), package: $0 == 3) },
                            disks: [disk("/home", used: 5, available: 5), disk("/", used: n, available: 100)],
                            gpus: [gpu(busy: Permyriad(n * 100), vram: n << 20), gpu(busy: 10, vram: 1)]),
                              fans: [Int64(n) * 10, 5], milliwatts: Int64(n) * 100)
        }
        for i in 0..<2 { _ = c.record(samples[i]) }   // warm up (one-time runtime metadata)
        allocation_counter_start()
        for i in 2..<samples.count { _ = c.record(samples[i]) }
        let allocations = allocation_counter_stop()
        XCTAssertEqual(allocations, 0, "58 samples within a minute allocated \(allocations) times")
        let row = c.finish(nowMs: minute0 + 60_000).samples.first
        XCTAssertEqual(row?.rxBytes, 59 * 1000 * UInt64(Snapshot.maximumInterfaces))
        XCTAssertEqual(row?.cpuTemperatureMilliCelsius, 40_003)
        XCTAssertEqual(row?.rootUsedPermyriad, (59 * 10_000 + 158) / 159)
    }
}

/// A restart in place (a `[sampler]` change) carries the minute being collected to the next
/// image (issue 45, item 3): the minute's row is the one an unbroken run writes. Before, the
/// old image wrote its partial row and the new image's row for the same minute replaced it
/// (23 MB downloaded read `net rx 0 B`).
extension MinuteRollupTests {
    func samples(_ range: StrideThrough<UInt64>) -> [Snapshot] {
        range.map { t in
            var s = snapshot(atMs: minute0 + t, interfaces: [interface("eth0", rx: 1_000 + t * 400, tx: 10 + t)],
                             temperatures: [sensor(Int32(40_000 + t), package: true)],
                             disks: [disk("/", used: 30, available: 70)],
                             gpus: [gpu(busy: Permyriad(t / 10), vram: t << 10)])
            s.cpuBusy = Permyriad(t / 10)
            s.load1 = UInt32(t)
            s.battery.count = 1
            s.battery.percent = 80
            return withListed(s, fans: [Int64(t / 100)], milliwatts: Int64(t))
        }
    }

    func testTheMinuteCarriedOverARestartGivesTheRowAnUnbrokenRunGives() throws {
        var unbroken = HistoryCollector(bootID: "b", bootTime: 1)
        for s in samples(stride(from: 0, through: 59_000, by: 1_000)) { XCTAssertNil(unbroken.record(s)) }
        let next = samples(stride(from: 60_000, through: 60_000, by: 1_000))[0]
        let expected = try XCTUnwrap(unbroken.record(next)?.samples.first)

        var before = HistoryCollector(bootID: "b", bootTime: 1)
        for s in samples(stride(from: 0, through: 20_000, by: 1_000)) { XCTAssertNil(before.record(s)) }
        let (last, carried) = before.handOver(nowMs: minute0 + 20_500)
        XCTAssertEqual(last.samples.count, 0, "no partial row for the next image's to replace")
        XCTAssertTrue(last.endsCleanly)
        var after = HistoryCollector(bootID: "b", bootTime: 1)
        XCTAssertTrue(after.resume(try XCTUnwrap(carried), nowMs: minute0 + 21_000))
        for s in samples(stride(from: 21_000, through: 59_000, by: 1_000)) { XCTAssertNil(after.record(s)) }
        let row = try XCTUnwrap(after.record(next)?.samples.first)
        XCTAssertEqual(row, expected)
        XCTAssertEqual(row.rxBytes, 59_000 * 400, "every byte of the minute, the restart's second too")
        XCTAssertEqual(row.gpuBusyPermyriad, 2950, "the GPU's average over the whole minute")
        XCTAssertEqual(row.vramUsedBytes, 59_000 << 10)
        XCTAssertEqual(row.listed[1], 29_500, "the power's average over the whole minute")
    }

    /// The environment is the user's: text that is not a carried minute, or a minute that is
    /// not this one or the one before, is not taken.
    func testOnlyACarriedMinuteOfNowOrTheMinuteBeforeIsTaken() {
        var c = HistoryCollector(bootID: "b", bootTime: 1)
        for bad in ["", "x", "60,1", "61,1,1,1,1,1,1,1,1,,,0,0,0,,,,0", "60,1,1,1,1,1,1,1,1,,,2,0,0,,,,0",
                    "60,1,1,1,1,1,1,1,1,,,0,0,0,,,,9", "60,1,1,1,1,1,1,1,1,,,0,0,0,,,,1,1,1,1,1",
                    "60,1,1,1,1,1,1,1,1,,,0,0,0,,,,0,5", "60,1,1,99999999999999999999,1,1,1,1,1,,,0,0,0,,,,0"] {
            XCTAssertNil(MinuteRollup(carried: bad), bad)
            XCTAssertFalse(c.resume(bad, nowMs: 60_000), bad)
        }
        let valid = MinuteRollup(minute: 120).carried
        XCTAssertNotNil(MinuteRollup(carried: valid))
        // A minute carried by a build from before the GPU figures (none after the counters) is taken,
        // and one from before the listed parts' history (none after the GPU's).
        XCTAssertNotNil(MinuteRollup(carried: "60,1,1,1,1,1,1,1,1,,,0,0,0,,,,0"))
        XCTAssertNotNil(MinuteRollup(carried: "60,1,1,1,1,1,1,1,1,,,0,0,0,,,,0,0,0,"))
        XCTAssertEqual(MinuteRollup(carried: "60,1,1,1,1,1,1,1,1,,,0,0,0,,,,0,0,0,,1,1200,1")?.sample.listed[0], 1200,
                       "a build with fewer listed columns: the rest not given")
        for bad in ["60,1,1,1,1,1,1,1,1,,,0,0,0,,,,0,0,0,,2,1200,1", "60,1,1,1,1,1,1,1,1,,,0,0,0,,,,0,0,0,,1,1200,0",
                    "60,1,1,1,1,1,1,1,1,,,0,0,0,,,,0,0,0,,1,99999999999,1", "60,1,1,1,1,1,1,1,1,,,0,0,0,,,,0,0,0,,1,,1"] {
            XCTAssertNil(MinuteRollup(carried: bad), "listed fields: a count they do not fill, no sample, out of range, no value: \(bad)")
        }
        for bad in ["60,1,1,1,1,1,1,1,1,,,0,0,0,,,,0,1,1", "60,1,1,1,1,1,1,1,1,,,0,0,0,,,,0,20001,2,",
                    "60,1,1,1,1,1,1,1,1,,,0,0,0,,,,0,,1,"] {
            XCTAssertNil(MinuteRollup(carried: bad), "GPU fields: two, not three; a sum over 100 % a sample; no sum: \(bad)")
        }
        XCTAssertFalse(c.resume(valid, nowMs: 300_000), "minutes ago")
        XCTAssertFalse(c.resume(valid, nowMs: 60_000), "in the future")
        XCTAssertTrue(c.resume(valid, nowMs: 185_000), "the minute before: written at the first sample")
    }

    /// A carried minute with the given sums (one sample unless `count` says), no battery,
    /// network, sensor or interface.
    func carried(count: UInt64 = 1, cpu: UInt64 = 1, used: UInt64 = 1, available: UInt64 = 1, swap: UInt64 = 1,
                 battery: String = "") -> String {
        "60,\(count),\(cpu),1,\(used),\(available),\(swap),1,1,\(battery),,0,0,0,,,,0"
    }

    /// A CPU sum can be at most 100 % a sample and a memory sum `maximumKiB` a sample: more is
    /// refused where it is read (an over-large CPU sum trapped the sampler at the minute's turn
    /// or at SIGTERM, and lost that minute's row).
    func testACarriedMinuteWithSumsItsSamplesCouldNotMakeIsRefused() {
        let kib = MinuteSample.maximumKiB
        XCTAssertNotNil(MinuteRollup(carried: carried(cpu: 10_000, used: kib, available: kib, swap: kib)))
        XCTAssertNotNil(MinuteRollup(carried: carried(count: 3, cpu: 30_000, used: 3 * kib, available: 3 * kib)))
        for bad in [carried(cpu: 10_001), carried(cpu: UInt64.max), carried(count: 0, cpu: 1), carried(count: 2, cpu: 20_001),
                    carried(used: kib + 1), carried(available: UInt64.max), carried(count: 0, cpu: 0, used: 1), carried(swap: kib + 1)] {
            XCTAssertNil(MinuteRollup(carried: bad), bad)
            var c = HistoryCollector(bootID: "b", bootTime: 1)
            XCTAssertFalse(c.resume(bad, nowMs: 60_000), bad)
        }
    }

    /// A battery's charge is carried in hundredths of a percent, as the row keeps it: 85.12 %
    /// is taken, not dropped as out of range.
    func testACarriedBatteryChargeIsHundredthsOfAPercent() {
        XCTAssertEqual(MinuteRollup(carried: carried(battery: "8512"))?.sample.batteryPercent, 8512)
        XCTAssertNil(MinuteRollup(carried: carried(battery: "10001"))?.sample.batteryPercent)
    }

    /// The largest sums a carried minute may hold, then samples at the top of their types: the
    /// sums saturate (they wrapped) and the row's figures stay within their ranges.
    func testSumsAtTheTopOfTheirRangeSaturateAndTheRowStaysWithinItsRanges() throws {
        let kib = MinuteSample.maximumKiB
        var r = try XCTUnwrap(MinuteRollup(carried: carried(count: 1_000_000, cpu: 10_000_000_000,
                                                            used: UInt64.max, available: UInt64.max, swap: kib)))
        var s = snapshot(atMs: 60_000)
        s.cpuBusy = .max
        s.memory.used = .max
        s.memory.available = .max
        s.memory.swapUsed = .max
        s.battery.count = 1
        s.battery.percent = .max
        r.add(s)
        let row = r.sample
        XCTAssertEqual(row.memoryUsedKiB, UInt64.max / 1_000_001, "saturated, not wrapped")
        XCTAssertEqual(row.memoryAvailableKiB, UInt64.max / 1_000_001)
        XCTAssertEqual(row.cpuAverage, 10_000)
        XCTAssertEqual(row.cpuMaximum, 10_000)
        XCTAssertEqual(row.swapUsedKiB, kib)
        XCTAssertEqual(row.batteryPercent, 10_000)

        var one = MinuteRollup(minute: 0)
        one.add(s)
        XCTAssertEqual(one.sample.memoryUsedKiB, kib, "one sample's memory: at most maximumKiB")
        XCTAssertNotNil(MinuteRollup(carried: one.carried), "what a minute carries, it takes back")
    }

    func testTheRoundedMeanIsExactForAnySum() {
        for (sum, n, mean): (UInt64, UInt64, UInt64) in [(0, 1, 0), (5, 2, 3), (4, 3, 1), (5, 3, 2), (29_500, 10, 2950),
                                                       (.max, 1, .max), (.max, 2, 1 << 63), (.max - 1, 3, .max / 3)] {
            XCTAssertEqual(MinuteRollup.mean(sum, n), mean, "\(sum) / \(n)")
        }
    }
}
