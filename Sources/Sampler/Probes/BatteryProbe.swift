import ProcFS
import SnapshotCodec

/// Batteries under /sys/class/power_supply, aggregated, read every few seconds: battery
/// state changes slowly, and a handful of sysfs files every second would cost more than
/// the rest of the system-wide sample. Where there is none (a desktop), the folder is
/// listed again every 30 s for one plugged in.
struct BatteryProbe {
    /// How often the batteries are read again.
    static let refreshMs: UInt64 = 5_000
    /// How often a machine without a battery looks for one again.
    static let noBatteryRefreshMs: UInt64 = 30_000

    private let reader: BatteryReader
    private var lastReadMs: UInt64 = 0
    private var figures = BatteryFigures()

    init(sysRoot: String) { reader = BatteryReader(sysRoot: sysRoot) }

    mutating func sample(into s: inout Snapshot, buffer: ReadBuffer, realtimeMs: UInt64) {
        let refresh = figures.count == 0 ? BatteryProbe.noBatteryRefreshMs : BatteryProbe.refreshMs
        if lastReadMs == 0 || realtimeMs &- lastReadMs >= refresh || realtimeMs < lastReadMs {
            figures = BatteryProbe.figures(reader.update(buffer))
            lastReadMs = realtimeMs == 0 ? 1 : realtimeMs
        }
        s.battery = figures
        // No power supply directory is a desktop: "no battery" is a measurement.
        s.available.insert(.battery)
    }

    /// The snapshot's battery figures from the reader's aggregate.
    static func figures(_ status: BatteryStatus) -> BatteryFigures {
        var b = BatteryFigures()
        b.count = UInt8(clamping: status.count)
        guard status.count > 0 else { return b }
        b.state = BatteryFigures.State(rawValue: status.state.rawValue) ?? .unknown
        b.percent = Permyriad(clamping: min(status.percentHundredths, 10_000))
        b.powerMilliwatts = UInt32(clamping: status.powerNow / 1000)
        if status.powerNow > 0 {
            let energy: UInt64
            switch b.state {
            case .discharging: energy = status.energyNow
            case .charging: energy = status.energyFull > status.energyNow ? status.energyFull - status.energyNow : 0
            default: return b
            }
            b.minutesRemaining = UInt32(clamping: saturatingProduct(energy, 60) / status.powerNow)
        }
        return b
    }
}
