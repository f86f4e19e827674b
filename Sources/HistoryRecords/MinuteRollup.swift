import SnapshotCodec

/// One minute of samples being summed into one history row.
///
/// CPU is averaged and its maximum kept; memory is averaged; swap, load,
/// process count and battery are the minute's last values. Network traffic is summed from
/// the interfaces' counters (``InterfaceCounters``), the CPU temperature is the minute's
/// hottest reading, the root file system's used share is its last measurement, the busiest
/// GPU's busy share is averaged and all GPUs' video memory in use kept at its largest.
///
/// Adding a sample allocates nothing: sums, maxima and the previous counters are fixed fields.
public struct MinuteRollup: Sendable {
    /// Start of the minute, unix seconds.
    public let minute: UInt64
    private var count: UInt64 = 0
    private var cpuSum: UInt64 = 0
    private var cpuMaximum: UInt32 = 0
    private var usedSum: UInt64 = 0
    private var availableSum: UInt64 = 0
    private var last = Snapshot.Summary()
    /// The counters of the last sample that measured the network, this minute's or the one before's.
    private var counters = InterfaceCounters()
    private var networkMeasured = false
    private var rxSum: UInt64 = 0
    private var txSum: UInt64 = 0
    private var hottestPackage: Int32?
    private var hottestSensor: Int32?
    private var rootUsed: UInt32?
    private var gpuBusySum: UInt64 = 0
    private var gpuBusySamples: UInt64 = 0
    private var vramUsedMaximum: UInt64?
    /// Per ``ListedHistory/columns``: the sum (an average's) or the value kept (a maximum's,
    /// the last one's), and how many samples gave it.
    private var listedValue = FigureValues()
    private var listedSamples = FigureValues()

    public init(minute: UInt64) { self.minute = minute }

    /// The rollup of the minute after `previous`: its first sample's traffic is counted from
    /// `previous`'s last counters, so none is lost at the turn of the minute.
    public init(minute: UInt64, after previous: MinuteRollup) {
        self.minute = minute
        counters = previous.counters
    }

    /// The minute a sample taken at `timestampMs` belongs to.
    public static func minute(ofMs timestampMs: UInt64) -> UInt64 { timestampMs / 60_000 * 60 }

    /// What a minute row averages: a sample where either was not measured (the first,
    /// priming sample; an unreadable /proc/meminfo) is left out, never counted as 0.
    static let rolledUp: SnapshotSections = [.cpu, .memory]

    public mutating func add(_ s: Snapshot) {
        // Network, temperature and disk figures stand on their own: taken from every sample
        // that measured them (a priming sample's counters are the next one's baseline).
        addNetwork(s)
        addTemperature(s)
        addRootDisk(s)
        addGPU(s)
        addListed(s)
        guard s.available.isSuperset(of: MinuteRollup.rolledUp) else { return }
        // Each figure clamped to what a row may hold, each sum saturating: a carried sum
        // (``init(carried:)``) starts where the environment put it.
        let busy = UInt64(min(s.cpuBusy, 10_000))
        count += 1
        cpuSum = saturatingSum(cpuSum, busy)
        cpuMaximum = max(cpuMaximum, UInt32(busy))
        usedSum = saturatingSum(usedSum, min(s.memory.used, MinuteSample.maximumKiB))
        availableSum = saturatingSum(availableSum, min(s.memory.available, MinuteSample.maximumKiB))
        last = Snapshot.Summary(s)
    }

    private mutating func addNetwork(_ s: Snapshot) {
        guard s.available.contains(.network) else { return }
        let step = counters.step(s.interfaces)
        rxSum = saturatingSum(rxSum, step.rx)
        txSum = saturatingSum(txSum, step.tx)
        networkMeasured = true
    }

    private mutating func addTemperature(_ s: Snapshot) {
        guard s.available.contains(.temperature) else { return }
        for i in s.temperatures.indices {
            let reading = s.temperatures[i].milliCelsius
            hottestSensor = max(hottestSensor ?? reading, reading)
            if s.temperatures[i].isCPUPackage { hottestPackage = max(hottestPackage ?? reading, reading) }
        }
    }

    private mutating func addRootDisk(_ s: Snapshot) {
        guard s.available.contains(.disks) else { return }
        for i in s.disks.indices where s.disks[i].mount.count == 1 && s.disks[i].mount[0] == UInt8(ascii: "/") {
            // A mount that could not be measured stays listed with a zero total (DiskProbe).
            if s.disks[i].totalKiB > 0 { rootUsed = UInt32(min(s.disks[i].usedPermyriad, 10_000)) }
            return
        }
    }

    /// The busiest GPU's busy share and all GPUs' video memory in use, from a sample that
    /// measured the GPUs (the sampler does while a renderer or the CLI shows them).
    private mutating func addGPU(_ s: Snapshot) {
        guard s.available.contains(.gpu) else { return }
        var busiest: UInt16?, vram: UInt64?
        for i in s.gpus.indices {
            let g = s.gpus[i]
            if g.known.contains(.busy) { busiest = max(busiest ?? 0, min(g.busy, 10_000)) }
            if g.known.contains(.vram) { vram = saturatingSum(vram ?? 0, g.vramUsedBytes) }
        }
        if let busiest {
            gpuBusySum = saturatingSum(gpuBusySum, UInt64(busiest))
            gpuBusySamples = saturatingSum(gpuBusySamples, 1)
        }
        if let vram { vramUsedMaximum = max(vramUsedMaximum ?? 0, vram) }
    }

    /// The listed parts' history figures of a sample that measured them, each clamped to
    /// its column's range.
    private mutating func addListed(_ s: Snapshot) {
        let columns = ListedHistory.columns
        var i = 0
        while i < columns.count && i < ListedHistory.maximumColumns {
            defer { i += 1 }
            guard let raw = ListedHistory.value(i, of: s) else { continue }
            let range = columns[i].range
            let v = min(max(raw, range.lowerBound), range.upperBound)
            let samples = listedSamples[i] ?? 0
            switch columns[i].history.rollUp {
            case .average:
                let (sum, overflow) = (listedValue[i] ?? 0).addingReportingOverflow(v)
                listedValue[i] = overflow ? (v < 0 ? .min : .max) : sum
            case .maximum: listedValue[i] = max(listedValue[i] ?? v, v)
            case .last: listedValue[i] = v
            }
            listedSamples[i] = samples < 1_000_000 ? samples + 1 : samples
        }
    }

    /// The minute's value of each listed history column.
    private var listed: FigureValues {
        var out = FigureValues()
        let columns = ListedHistory.columns
        var i = 0
        while i < columns.count && i < ListedHistory.maximumColumns {
            if let value = listedValue[i], let samples = listedSamples[i], samples > 0 {
                out[i] = columns[i].history.rollUp == .average ? Self.signedMean(value, samples) : value
            }
            i += 1
        }
        return out
    }

    /// `sum ÷ n` rounded half away from zero.
    static func signedMean(_ sum: Int64, _ n: Int64) -> Int64 {
        let q = sum / n, r = sum % n
        let magnitude = r < 0 ? -r : r
        guard magnitude >= n - n / 2 else { return q }
        return sum < 0 ? q - 1 : q + 1
    }

    public var isEmpty: Bool { count == 0 }

    /// The history row for the minute so far: each average within its figure's range, however
    /// the sums were reached.
    public var sample: MinuteSample {
        let n = max(count, 1), kib = MinuteSample.maximumKiB
        return MinuteSample(minute: minute, cpuAverage: UInt32(min(Self.mean(cpuSum, n), 10_000)), cpuMaximum: cpuMaximum,
                            memoryUsedKiB: min(usedSum / n, kib), memoryAvailableKiB: min(availableSum / n, kib),
                            swapUsedKiB: last.swapUsedKiB, load1: last.load1, processCount: last.processCount,
                            batteryPercent: last.batteryPercent, batteryState: last.batteryState,
                            rxBytes: networkMeasured ? rxSum : nil, txBytes: networkMeasured ? txSum : nil,
                            cpuTemperatureMilliCelsius: hottestPackage ?? hottestSensor,
                            rootUsedPermyriad: rootUsed,
                            gpuBusyPermyriad: gpuBusySamples == 0 ? nil
                                : UInt32(min(Self.mean(gpuBusySum, gpuBusySamples), 10_000)),
                            vramUsedBytes: vramUsedMaximum, listed: listed)
    }

    /// `sum ÷ n` rounded half up, for any sum: `(sum + n / 2) / n` overflows near `UInt64.max`.
    static func mean(_ sum: UInt64, _ n: UInt64) -> UInt64 {
        let remainder = sum % n
        return sum / n + (remainder >= n - n / 2 ? 1 : 0)
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
        /// Each figure within what a row may hold (and ``MinuteRollup/init(carried:)`` takes).
        init(_ s: Snapshot) {
            swapUsedKiB = min(s.memory.swapUsed, MinuteSample.maximumKiB)
            load1 = s.load1
            processCount = s.processCount
            if s.battery.count > 0 {
                batteryPercent = UInt32(min(s.battery.percent, 10_000))
                batteryState = s.battery.state.rawValue
            }
        }
    }
}

/// The minute being collected, carried across the sampler's re-execution (a `[sampler]`
/// change starts it again in place): its sums as decimal fields in the new image's
/// environment, read back at its start, so that the minute's row covers the whole minute —
/// the partial row a restart wrote was replaced by the new process's (its traffic read 0 B).
extension MinuteRollup {
    /// The variable that carries it (unset by the new image before it starts anything).
    public static let environmentName = "SYSSTATSD_MINUTE"

    /// The fields, comma-separated; an absent optional is an empty field.
    public var carried: String {
        var fields: [UInt64?] = [minute, count, cpuSum, UInt64(cpuMaximum), usedSum, availableSum,
                                 last.swapUsedKiB, UInt64(last.load1), UInt64(last.processCount),
                                 last.batteryPercent.map(UInt64.init), last.batteryState.map(UInt64.init),
                                 networkMeasured ? 1 : 0, rxSum, txSum,
                                 hottestPackage.map { UInt64(UInt32(bitPattern: $0)) },
                                 hottestSensor.map { UInt64(UInt32(bitPattern: $0)) }, rootUsed.map(UInt64.init)]
        fields.append(contentsOf: counters.carried.map { Optional($0) })
        // After the counters (whose count says where they end): a minute carried by a build
        // from before the GPU figures has none, and is taken without them.
        fields += [gpuBusySum, gpuBusySamples, vramUsedMaximum]
        // Then the listed columns: their count, and per column its value (two's complement)
        // and samples. A build with fewer columns takes its own, one with more the rest empty.
        let listedColumns = min(ListedHistory.columns.count, ListedHistory.maximumColumns)
        fields.append(UInt64(listedColumns))
        for i in 0..<listedColumns {
            fields.append(listedValue[i].map { UInt64(bitPattern: $0) })
            fields.append(listedSamples[i].map { UInt64(bitPattern: $0) })
        }
        var text = ""
        for (i, field) in fields.enumerated() {
            if i > 0 { text += "," }
            if let field { text += String(field) }
        }
        return text
    }

    /// The rollup `carried` describes; nil for text that is not one (the environment is the
    /// user's: a value out of its range is refused, not taken).
    public init?(carried text: String) {
        var fields: [UInt64?] = []
        for part in text.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            guard part.count <= 20 else { return nil }
            if part.isEmpty { fields.append(nil); continue }
            var n: UInt64 = 0
            for b in part {
                guard b >= 0x30, b <= 0x39 else { return nil }
                let (times, o1) = n.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times.addingReportingOverflow(UInt64(b - 0x30))
                guard !o1, !o2 else { return nil }
                n = sum
            }
            fields.append(n)
        }
        guard fields.count >= 18, let minute = fields[0], minute % 60 == 0 else { return nil }
        func value(_ i: Int, max limit: UInt64 = .max) -> UInt64? { fields[i].flatMap { $0 <= limit ? $0 : nil } }
        // A sum is at most its samples' count times the most one sample adds (``add(_:)``).
        func sum(_ i: Int, of count: UInt64, each: UInt64) -> UInt64? {
            let (most, overflow) = count.multipliedReportingOverflow(by: each)
            return value(i, max: overflow ? .max : most)
        }
        let kib = MinuteSample.maximumKiB
        guard let count = value(1, max: 1_000_000), let cpuSum = sum(2, of: count, each: 10_000),
              let cpuMaximum = value(3, max: 10_000),
              let usedSum = sum(4, of: count, each: kib), let availableSum = sum(5, of: count, each: kib),
              let swap = value(6, max: kib),
              let load1 = value(7, max: UInt64(UInt32.max)), let processes = value(8, max: UInt64(UInt32.max)),
              let measured = value(11, max: 1), let rx = value(12), let tx = value(13),
              let interfaces = value(17, max: UInt64(InterfaceCounters.capacity)) else { return nil }
        let countersEnd = 18 + Int(interfaces) * 5
        guard countersEnd <= fields.count, let counters = InterfaceCounters(carried: fields[17..<countersEnd]) else { return nil }
        let gpu = fields[countersEnd..<min(countersEnd + 3, fields.count)]
        guard gpu.isEmpty || gpu.count == 3 else { return nil }
        let listedStart = countersEnd + 3
        var listedColumns = 0
        if fields.count > listedStart {
            guard let n = value(listedStart, max: 64), fields.count == listedStart + 1 + Int(n) * 2 else { return nil }
            listedColumns = Int(n)
        }
        self.init(minute: minute)
        self.count = count
        self.cpuSum = cpuSum
        self.cpuMaximum = UInt32(cpuMaximum)
        self.usedSum = usedSum
        self.availableSum = availableSum
        last.swapUsedKiB = swap
        last.load1 = UInt32(load1)
        last.processCount = UInt32(processes)
        last.batteryPercent = value(9, max: 10_000).map { UInt32($0) }   // hundredths of a percent
        last.batteryState = value(10, max: 255).map { UInt8($0) }
        networkMeasured = measured == 1
        rxSum = rx
        txSum = tx
        hottestPackage = value(14, max: UInt64(UInt32.max)).map { Int32(bitPattern: UInt32($0)) }
        hottestSensor = value(15, max: UInt64(UInt32.max)).map { Int32(bitPattern: UInt32($0)) }
        rootUsed = value(16, max: 10_000).map { UInt32($0) }
        self.counters = counters
        if gpu.count == 3 {
            guard let samples = value(countersEnd + 1, max: 1_000_000),
                  let busySum = sum(countersEnd, of: samples, each: 10_000) else { return nil }
            gpuBusySum = busySum
            gpuBusySamples = samples
            vramUsedMaximum = value(countersEnd + 2)
        }
        let columns = ListedHistory.columns
        for i in 0..<min(listedColumns, columns.count, ListedHistory.maximumColumns) {
            let at = listedStart + 1 + i * 2
            guard let samples = fields[at + 1] else { continue }
            guard samples >= 1, samples <= 1_000_000, let raw = fields[at] else { return nil }
            let v = Int64(bitPattern: raw), range = columns[i].range
            // An average's sum is at most its samples' count times the column's bounds.
            let n = Int64(samples)
            let (low, o1) = range.lowerBound.multipliedReportingOverflow(by: columns[i].history.rollUp == .average ? n : 1)
            let (high, o2) = range.upperBound.multipliedReportingOverflow(by: columns[i].history.rollUp == .average ? n : 1)
            guard v >= (o1 ? .min : low), v <= (o2 ? .max : high) else { return nil }
            listedValue[i] = v
            listedSamples[i] = n
        }
    }
}
