/// What one battery under /sys/class/power_supply reports; nil where a file is missing.
struct BatteryReading: Equatable {
    var state: BatteryStatus.State = .unknown
    /// `capacity`, percent.
    var capacity: UInt64?
    /// `energy_now`/`energy_full`, or `charge_*` times voltage: µWh.
    var energyNow: UInt64?
    var energyFull: UInt64?
    /// `energy_full_design` (or `charge_full_design` times voltage), µWh.
    var energyFullDesign: UInt64?
    /// `power_now`, or |`current_now`| times voltage: µW.
    var powerNow: UInt64?
}

/// Sums batteries by energy, so a small battery weighs less than a big one.
///
/// Percent = Σ energy now / Σ energy full, never an average of percentages. A
/// battery without energy or charge files counts by its `capacity`: weighted by
/// its design energy when known, else as big as the average battery that does
/// report energy (all equal when none does).
struct BatteryAggregate {
    private(set) var count = 0
    private var energyNow: UInt64 = 0, energyFull: UInt64 = 0
    private var energyBatteries = 0
    private var powerNow: UInt64 = 0
    /// Capacity-only batteries without a design energy: their summed percent and count.
    private var unweightedPercentSum: UInt64 = 0, unweightedCount: UInt64 = 0
    private var anyDischarging = false, anyCharging = false, anyNotCharging = false, allFull = true

    mutating func add(_ b: BatteryReading) {
        count += 1
        switch b.state {
        case .discharging: anyDischarging = true
        case .charging: anyCharging = true
        case .notCharging: anyNotCharging = true
        case .full, .unknown: break
        }
        if b.state != .full { allFull = false }
        powerNow &+= b.powerNow ?? 0

        if let now = b.energyNow, let full = b.energyFull, full > 0 {
            energyNow &+= now
            energyFull &+= full
            energyBatteries += 1
        } else if let capacity = b.capacity {
            let percent = min(capacity, 100)
            if let design = b.energyFullDesign, design > 0 {
                energyNow &+= design / 100 * percent + design % 100 * percent / 100
                energyFull &+= design
                energyBatteries += 1
            } else {
                unweightedPercentSum += percent
                unweightedCount += 1
            }
        }
    }

    /// The aggregate status; `acOnline` is left false for the caller to set.
    var status: BatteryStatus {
        var s = BatteryStatus()
        s.count = count
        guard count > 0 else { return s }
        s.energyNow = energyNow
        s.energyFull = energyFull
        s.powerNow = powerNow
        s.state = anyDischarging ? .discharging
            : anyCharging ? .charging
            : allFull ? .full
            : anyNotCharging ? .notCharging
            : .unknown

        var now = energyNow, full = energyFull
        if unweightedCount > 0 {
            // Equal weight: the average reported battery, or 1 Wh each when none reports energy.
            let weight = energyBatteries > 0 ? full / UInt64(energyBatteries) : 1_000_000
            now &+= weight / 100 * unweightedPercentSum + weight % 100 * unweightedPercentSum / 100
            full &+= weight &* unweightedCount
        }
        if full > 0 {
            // Energy now can exceed full for a while after charging: cap at 100 %.
            if now >= full {
                s.percentHundredths = 10_000
            } else {
                let scaled = now.multipliedFullWidth(by: 10_000)
                let (quotient, remainder) = full.dividingFullWidth(scaled)
                s.percentHundredths = UInt32(quotient + (remainder >= full - remainder ? 1 : 0))
            }
        }
        return s
    }
}
