import SnapshotCodec

/// One minute of samples being summed into one history row.
///
/// CPU is averaged and its maximum kept; memory is averaged; swap, load,
/// process count and battery are the minute's last values.
public struct MinuteRollup: Sendable {
    /// Start of the minute, unix seconds.
    public let minute: UInt64
    private var count: UInt64 = 0
    private var cpuSum: UInt64 = 0
    private var cpuMaximum: UInt32 = 0
    private var usedSum: UInt64 = 0
    private var availableSum: UInt64 = 0
    private var last = Snapshot.Summary()

    public init(minute: UInt64) { self.minute = minute }

    /// The minute a sample taken at `timestampMs` belongs to.
    public static func minute(ofMs timestampMs: UInt64) -> UInt64 { timestampMs / 60_000 * 60 }

    /// What a minute row averages: a sample where either was not measured (the first,
    /// priming sample; an unreadable /proc/meminfo) is left out, never counted as 0.
    static let rolledUp: SnapshotSections = [.cpu, .memory]

    public mutating func add(_ s: Snapshot) {
        guard s.available.isSuperset(of: MinuteRollup.rolledUp) else { return }
        count += 1
        cpuSum &+= UInt64(s.cpuBusy)
        cpuMaximum = max(cpuMaximum, UInt32(s.cpuBusy))
        usedSum &+= s.memory.used
        availableSum &+= s.memory.available
        last = Snapshot.Summary(s)
    }

    public var isEmpty: Bool { count == 0 }

    /// The history row for the minute so far.
    public var sample: MinuteSample {
        let n = max(count, 1)
        return MinuteSample(minute: minute, cpuAverage: UInt32((cpuSum + n / 2) / n), cpuMaximum: cpuMaximum,
                            memoryUsedKiB: usedSum / n, memoryAvailableKiB: availableSum / n,
                            swapUsedKiB: last.swapUsedKiB, load1: last.load1, processCount: last.processCount,
                            batteryPercent: last.batteryPercent, batteryState: last.batteryState)
    }
}

extension Snapshot {
    /// The few last-value figures a minute row keeps.
    struct Summary: Sendable {
        var swapUsedKiB: UInt64 = 0
        var load1: UInt32 = 0
        var processCount: UInt32 = 0
        var batteryPercent: UInt32?
        var batteryState: UInt8?

        init() {}
        init(_ s: Snapshot) {
            swapUsedKiB = s.memory.swapUsed
            load1 = s.load1
            processCount = s.processCount
            if s.battery.count > 0 {
                batteryPercent = UInt32(s.battery.percent)
                batteryState = s.battery.state.rawValue
            }
        }
    }
}
