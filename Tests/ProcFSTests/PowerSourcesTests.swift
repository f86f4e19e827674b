import XCTest
import TestSupport
import AllocationCounter
import ProcFS
import SnapshotCodec

final class PowerSourcesTests: XCTestCase {
    private let buffer = ReadBuffer(capacity: 64)
    private let second: UInt64 = 1_000_000_000

    /// `source/label watts` of each reading (milliwatts).
    private func lines(_ s: Snapshot) -> [String] {
        s.listed[.power].map { r in
            "\(String(decoding: r.source + [0x2F] + r.label, as: UTF8.self)) \(r[PowerPart.watts].map(String.init) ?? "-")"
        }
    }

    /// A sampler-like pair of readings over `fixture`'s steps 1 and 2, one second apart.
    private func twoReadings(_ fixture: String, _ prepare: (inout Snapshot) -> Void = { _ in }) throws -> (PowerSources, Snapshot, Bool) {
        let tree = try LiveTree()
        try tree.mirror(fixture + "/1")
        let power = PowerSources(sysRoot: tree.path + "/sys")
        var s = Snapshot()
        prepare(&s)
        let first = power.read(into: &s, buffer: buffer, monotonicNs: 5 * second)
        try tree.mirror(fixture + "/2")
        XCTAssertTrue(power.read(into: &s, buffer: buffer, monotonicNs: 6 * second))
        return (power, s, first)
    }

    func testRAPLDomainsGiveWattsFromTheChangeOfTheirCounters() throws {
        let (power, s, first) = try twoReadings("power-laptop")
        XCTAssertFalse(first, "the first reading has no rate yet: n/a, not 0")
        // psys is the platform's whole draw; the MMIO interface (the same package again) is left out.
        XCTAssertEqual(lines(s), ["system/psys 20000", "rapl/package-0 10000", "rapl/core 5000", "rapl/uncore 500",
                                  "rapl/psys 20000"])
        XCTAssertNil(power.takeNotice())
    }

    func testACounterThatWrapsIsReadThroughItsRange() throws {
        let (_, s, _) = try twoReadings("power-wrap")
        XCTAssertEqual(lines(s), ["system/cpu 10000", "rapl/package-0 10000"])
    }

    func testTheBatteriesDischargingAreTheSystemsDraw() throws {
        let (_, s, _) = try twoReadings("power-wrap") { s in
            s.battery.count = 1; s.battery.state = .discharging; s.battery.powerMilliwatts = 14_200
        }
        XCTAssertEqual(lines(s), ["system/battery 14200", "battery/discharging 14200", "rapl/package-0 10000"])
    }

    func testWithoutPsysTheSystemIsTheCPUAndTheGPUsSummed() throws {
        let (_, s, _) = try twoReadings("power-wrap") { s in
            s.available.insert(.gpu)
            var g = GPUFigures(); g.index = 1; g.known = [.power]; g.milliwatts = 35_500
            var cold = GPUFigures(); cold.index = 2; cold.known = [.busy]   // no power figure: left out
            s.gpus = [g, cold]
        }
        XCTAssertEqual(lines(s), ["system/cpu+gpu 45500", "rapl/package-0 10000", "gpu/card1 35500"])
    }

    func testAChargingBatteryIsNotADraw() throws {
        let (_, s, _) = try twoReadings("power-wrap") { s in
            s.battery.count = 1; s.battery.state = .charging; s.battery.powerMilliwatts = 30_000
        }
        XCTAssertEqual(lines(s), ["system/cpu 10000", "rapl/package-0 10000"])
    }

    func testAnUnreadableCounterIsSaidOnceAndLeftOut() {
        let power = PowerSources(sysRoot: Fixtures.path("power-unreadable/sys"))
        let notice = power.takeNotice()
        XCTAssertNotNil(notice)
        XCTAssertTrue(notice?.hasPrefix("power: cannot read ") ?? false, notice ?? "")
        XCTAssertTrue(notice?.hasSuffix("intel-rapl:0/energy_uj: Is a directory; the CPU's power is left out") ?? false, notice ?? "")
        XCTAssertNil(power.takeNotice(), "said once")
        var s = Snapshot()
        XCTAssertTrue(power.read(into: &s, buffer: buffer, monotonicNs: second), "nothing left to read: measured, none")
        XCTAssertEqual(lines(s), [])
    }

    func testAMachineWithoutPowerFiguresIsMeasuredAsNone() {
        let power = PowerSources(sysRoot: Fixtures.path("fans-none/sys"))
        var s = Snapshot()
        XCTAssertTrue(power.read(into: &s, buffer: buffer, monotonicNs: second))
        XCTAssertEqual(s.listed[.power], [])
        XCTAssertNil(power.takeNotice())
    }

    func testASteadyStateReadAllocatesNothing() throws {
        let (power, s0, _) = try twoReadings("power-laptop") { s in
            s.available.insert(.gpu)
            var g = GPUFigures(); g.index = 12; g.known = [.power]; g.milliwatts = 1
            s.gpus = [g]
            s.listed.reserveCapacity()
        }
        var s = s0
        var t = 7 * second
        for _ in 0..<3 { _ = power.read(into: &s, buffer: buffer, monotonicNs: t); t += second }
        allocation_counter_start()
        for _ in 0..<100 { _ = power.read(into: &s, buffer: buffer, monotonicNs: t); t += second }
        XCTAssertEqual(allocation_counter_stop(), 0)
        XCTAssertEqual(lines(s).last, "gpu/card12 1")
    }
}
