import XCTest
import TestSupport
@testable import ProcFS

final class BatteryReaderTests: XCTestCase {
    private let buffer = ReadBuffer(capacity: 256)

    private func status(_ fixture: String) -> BatteryStatus {
        BatteryReader(sysRoot: Fixtures.path(fixture)).update(buffer)
    }

    func testNoPowerSupplyDirectoryMeansNoBattery() {
        let s = status("no-such-fixture/sys")
        XCTAssertEqual(s.count, 0)
        XCTAssertEqual(s, BatteryStatus())
    }

    func testDesktopWithOnlyMainsHasNoBatteryButReportsACOnline() {
        let s = status("battery-desktop/sys")
        XCTAssertEqual(s.count, 0)
        XCTAssertTrue(s.acOnline)
        XCTAssertEqual(s.percentHundredths, 0)
    }

    func testOneDischargingBatteryBehindASymlink() {
        let s = status("battery-discharging/sys")
        XCTAssertEqual(s.count, 1)
        XCTAssertEqual(s.state, .discharging)
        XCTAssertEqual(s.percentHundredths, 6200)  // 31 of 50 Wh
        XCTAssertEqual(s.energyNow, 31_000_000)
        XCTAssertEqual(s.energyFull, 50_000_000)
        XCTAssertEqual(s.powerNow, 8_500_000)
        XCTAssertFalse(s.acOnline)
    }

    func testBatteriesOfDifferentSizesAggregateByEnergyNotByAveragePercent() {
        // 20 Wh at 50 % + 80 Wh at 100 % = 90 of 100 Wh: 90.00 %, not 75 %.
        let s = status("battery-two-sizes/sys")
        XCTAssertEqual(s.count, 2)
        XCTAssertEqual(s.percentHundredths, 9000)
        XCTAssertEqual(s.energyNow, 90_000_000)
        XCTAssertEqual(s.energyFull, 100_000_000)
        XCTAssertEqual(s.state, .discharging)  // one discharging beats one full
        XCTAssertEqual(s.powerNow, 5_000_000)
    }

    func testChargeIsConvertedToEnergyWithVoltageAndNegativeCurrentCountsAsItsMagnitude() {
        let s = status("battery-charge-voltage/sys")
        XCTAssertEqual(s.count, 1)
        XCTAssertEqual(s.energyNow, 28_500_000)  // 2.5 Ah × 11.4 V (voltage_min_design)
        XCTAssertEqual(s.energyFull, 57_000_000)  // 5 Ah × 11.4 V
        XCTAssertEqual(s.percentHundredths, 5000)
        XCTAssertEqual(s.powerNow, 18_000_000)  // |−1.5 A| × 12 V (voltage_now)
        XCTAssertEqual(s.state, .discharging)
    }

    func testNotChargingStatusWithACOnline() {
        let s = status("battery-not-charging/sys")
        XCTAssertEqual(s.state, .notCharging)
        XCTAssertEqual(s.percentHundredths, 8000)
        XCTAssertTrue(s.acOnline)
    }

    func testOneChargingBatteryMakesTheAggregateChargingAndPeripheralBatteriesAreIgnored() {
        // BAT0 charging 15/50 Wh, BAT1 full 50/50 Wh, a mouse battery (scope Device) at 5 %.
        let s = status("battery-charging/sys")
        XCTAssertEqual(s.count, 2)
        XCTAssertEqual(s.state, .charging)
        XCTAssertEqual(s.percentHundredths, 6500)
        XCTAssertEqual(s.powerNow, 20_000_000)
    }

    func testBatteryWithPresentZeroIsSkipped() {
        let s = status("battery-present-zero/sys")
        XCTAssertEqual(s.count, 1)
        XCTAssertEqual(s.state, .full)
        XCTAssertEqual(s.percentHundredths, 9000)
    }

    func testBatteriesReportingOnlyCapacityWeighEqually() {
        let s = status("battery-capacity-only/sys")
        XCTAssertEqual(s.count, 2)
        XCTAssertEqual(s.percentHundredths, 6000)  // (40 + 80) / 2
        XCTAssertEqual(s.energyFull, 0)  // unknown, not invented
    }

    func testBatteriesReportingOnlyCapacityAreWeightedByDesignEnergy() {
        let s = status("battery-capacity-design/sys")
        XCTAssertEqual(s.percentHundredths, 9000)  // 50 % of 20 Wh + 100 % of 80 Wh
        XCTAssertEqual(s.state, .discharging)
    }

    func testRepeatedUpdatesReadTheSameDirectoryAgain() {
        let reader = BatteryReader(sysRoot: Fixtures.path("battery-two-sizes/sys"))
        let first = reader.update(buffer)
        XCTAssertEqual(reader.update(buffer), first)
        XCTAssertEqual(first.count, 2)
    }

    // MARK: aggregation rules

    func testCapacityOnlyBatteryBesideAnEnergyBatteryWeighsAsTheAverageBattery() {
        var a = BatteryAggregate()
        a.add(BatteryReading(state: .discharging, capacity: 50, energyNow: 10_000_000, energyFull: 20_000_000))
        a.add(BatteryReading(state: .discharging, capacity: 100))
        XCTAssertEqual(a.status.percentHundredths, 7500)  // (10 + 20) of (20 + 20) Wh
    }

    func testEnergyAboveFullIsCappedAtOneHundredPercent() {
        var a = BatteryAggregate()
        a.add(BatteryReading(state: .full, energyNow: 51_000_000, energyFull: 50_000_000))
        XCTAssertEqual(a.status.percentHundredths, 10_000)
        XCTAssertEqual(a.status.state, .full)
    }

    func testAggregateStateFollowsDischargingChargingFullNotChargingOrder() {
        func state(_ states: [BatteryStatus.State]) -> BatteryStatus.State {
            var a = BatteryAggregate()
            for s in states { a.add(BatteryReading(state: s, capacity: 50)) }
            return a.status.state
        }
        XCTAssertEqual(state([.charging, .discharging]), .discharging)
        XCTAssertEqual(state([.full, .charging]), .charging)
        XCTAssertEqual(state([.full, .full]), .full)
        XCTAssertEqual(state([.full, .notCharging]), .notCharging)
        XCTAssertEqual(state([.full, .unknown]), .unknown)
    }

    func testPercentIsRoundedToTheNearestHundredth() {
        var a = BatteryAggregate()
        a.add(BatteryReading(energyNow: 2, energyFull: 3))
        XCTAssertEqual(a.status.percentHundredths, 6667)
    }

    /// BAT0 and the AC have only a `uevent`; BAT1's `uevent` has no TYPE (older
    /// kernels) and its `type` file is read instead; the mouse is a peripheral.
    func testSuppliesAreReadFromUeventWithTheTypeFileAsFallback() {
        let s = status("battery-uevent/sys")
        XCTAssertEqual(s.count, 2)
        // BAT0: 10 of 20 Wh; BAT1: 8 Ah × 10 V = 80 of 80 Wh. 90 of 100 Wh.
        XCTAssertEqual(s.energyNow, 90_000_000)
        XCTAssertEqual(s.energyFull, 100_000_000)
        XCTAssertEqual(s.percentHundredths, 9000)
        XCTAssertEqual(s.state, .discharging)
        // 7 W from BAT0 plus |−0.3 A| × 10 V from BAT1.
        XCTAssertEqual(s.powerNow, 10_000_000)
        XCTAssertFalse(s.acOnline)
    }

    func testUeventParserIgnoresUnknownKeysAndMalformedLines() {
        var supply = SupplyAttributes()
        withBytes("garbage\nPOWER_SUPPLY_CAPACITY\nPOWER_SUPPLY_ENERGY_NOW=12\nPOWER_SUPPLY_FOO=9\nPOWER_SUPPLY_ENERGY_FULL=x\n") {
            supply.parseUevent($0)
        }
        XCTAssertNil(supply.capacity)
        XCTAssertEqual(supply.energyNow, 12)
        XCTAssertNil(supply.energyFull)
        XCTAssertNil(supply.type)
    }
}
