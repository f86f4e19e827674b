import SnapshotCodec

// The figures of a minute's row (``MinuteSample``) after its minute, described once: the field
// each is, its column of `samples` and `hourly_samples` and how an hour rolls it up, and how a
// ``HistoryBatch`` carries it. The batch's samples, the history store's insert and reads, the
// retention roll-up and `restore`'s range checks are made from ``MinuteFigure/all``; the
// listed parts' figures follow them (``ListedHistory``).

/// One figure of a minute's row.
public struct MinuteFigure: Sendable {
    /// How an hour's minutes become its value.
    public enum RollUp: Sendable {
        /// The mean of the minutes that gave it.
        case average
        /// The largest.
        case maximum
        /// The hour's last minute's, even where that minute has none (the battery's state).
        case lastMinute
        /// The last one given.
        case lastGiven
        /// The sum (byte counts), saturating.
        case total
    }

    /// The values its column holds (and `restore` accepts).
    public enum Range: Sendable {
        /// Hundredths of a percent.
        case share
        /// KiB, at most ``MinuteSample/maximumKiB``.
        case kib
        /// A byte count (stored saturated at SQLite's largest integer).
        case bytes
        /// A figure kept as a UInt32.
        case uint32
        /// Its own bounds, and what they are.
        case other(lowest: Int64, highest: Int64, what: StaticString)
    }

    /// Its column.
    public let column: StaticString
    public let rollUp: RollUp
    /// The schema version that added the column: a file before it reads NULL.
    public let schemaVersion: Int32
    public let range: Range
    /// Its width in a batch's sample, and whether it is kept as a two's complement.
    let width: FigureWidth
    public let signed: Bool
    /// The batch version that added it.
    let batchVersion: UInt16
    /// Its bit in the sample's presence bytes (byte × 8 + bit); nil: always given.
    let presence: Int?
    /// The sample's figure as its bits (a signed one's two's complement), nil where not given.
    public let value: @Sendable (MinuteSample) -> UInt64?
    /// Stores a figure (its bits) or its absence, saturating to the field's type.
    public let store: @Sendable (inout MinuteSample, UInt64?) -> Void

    init(_ column: StaticString, _ rollUp: RollUp, schema: Int32, _ range: Range, _ width: FigureWidth, signed: Bool = false,
         batch: UInt16, presence: Int? = nil,
         value: @escaping @Sendable (MinuteSample) -> UInt64?, store: @escaping @Sendable (inout MinuteSample, UInt64?) -> Void) {
        self.column = column; self.rollUp = rollUp; self.schemaVersion = schema; self.range = range
        self.width = width; self.signed = signed; self.batchVersion = batch; self.presence = presence
        self.value = value; self.store = store
    }

    /// The figure as a signed number (an unsigned one past `Int64.max` saturates, as SQLite keeps it).
    public func number(_ s: MinuteSample) -> Int64? {
        guard let v = value(s) else { return nil }
        return signed ? Int64(bitPattern: v) : Int64(clamping: v)
    }

    /// Stores a number as a column holds it (a negative one of an unsigned figure as 0).
    public func store(_ s: inout MinuteSample, number: Int64?) {
        store(&s, number.map { signed ? UInt64(bitPattern: $0) : UInt64(clamping: $0) })
    }

    /// The presence bit a batch keeps for a row rolled up from an hour (``MinuteSample/isHourly``).
    static let hourlyPresence = 2

    /// Every figure, in the order of the columns and of a batch's sample.
    public static let all: [MinuteFigure] = [
        MinuteFigure("cpu_avg", .average, schema: 1, .share, .u32, batch: 1,
                     value: { UInt64($0.cpuAverage) }, store: { $0.cpuAverage = UInt32(clamping: $1 ?? 0) }),
        MinuteFigure("cpu_max", .maximum, schema: 1, .share, .u32, batch: 1,
                     value: { UInt64($0.cpuMaximum) }, store: { $0.cpuMaximum = UInt32(clamping: $1 ?? 0) }),
        MinuteFigure("mem_used_kib", .average, schema: 1, .kib, .u64, batch: 1,
                     value: { $0.memoryUsedKiB }, store: { $0.memoryUsedKiB = $1 ?? 0 }),
        MinuteFigure("mem_available_kib", .average, schema: 1, .kib, .u64, batch: 1,
                     value: { $0.memoryAvailableKiB }, store: { $0.memoryAvailableKiB = $1 ?? 0 }),
        MinuteFigure("swap_used_kib", .average, schema: 1, .kib, .u64, batch: 1,
                     value: { $0.swapUsedKiB }, store: { $0.swapUsedKiB = $1 ?? 0 }),
        MinuteFigure("load1", .average, schema: 1, .uint32, .u32, batch: 1,
                     value: { UInt64($0.load1) }, store: { $0.load1 = UInt32(clamping: $1 ?? 0) }),
        MinuteFigure("process_count", .average, schema: 1, .uint32, .u32, batch: 1,
                     value: { UInt64($0.processCount) }, store: { $0.processCount = UInt32(clamping: $1 ?? 0) }),
        MinuteFigure("battery_percent", .average, schema: 1, .share, .u32, batch: 1, presence: 0,
                     value: { $0.batteryPercent.map(UInt64.init) }, store: { $0.batteryPercent = $1.map { UInt32(clamping: $0) } }),
        MinuteFigure("battery_state", .lastMinute, schema: 1, .other(lowest: 0, highest: 255, what: "a battery state"), .u8, batch: 1, presence: 1,
                     value: { $0.batteryState.map(UInt64.init) }, store: { $0.batteryState = $1.map { UInt8(clamping: $0) } }),
        MinuteFigure("rx_bytes", .total, schema: 3, .bytes, .u64, batch: 2, presence: 3,
                     value: { $0.rxBytes }, store: { $0.rxBytes = $1 }),
        MinuteFigure("tx_bytes", .total, schema: 3, .bytes, .u64, batch: 2, presence: 4,
                     value: { $0.txBytes }, store: { $0.txBytes = $1 }),
        MinuteFigure("cpu_temp_mc", .maximum, schema: 3,
                     .other(lowest: Int64(Int32.min), highest: Int64(Int32.max), what: "millidegrees Celsius"), .u32, signed: true,
                     batch: 2, presence: 5,
                     value: { $0.cpuTemperatureMilliCelsius.map { UInt64(bitPattern: Int64($0)) } },
                     store: { $0.cpuTemperatureMilliCelsius = $1.map { Int32(clamping: Int64(bitPattern: $0)) } }),
        MinuteFigure("root_used", .average, schema: 3, .share, .u32, batch: 2, presence: 6,
                     value: { $0.rootUsedPermyriad.map(UInt64.init) }, store: { $0.rootUsedPermyriad = $1.map { UInt32(clamping: $0) } }),
        MinuteFigure("gpu_busy", .average, schema: 4, .share, .u32, batch: 3, presence: 8,
                     value: { $0.gpuBusyPermyriad.map(UInt64.init) }, store: { $0.gpuBusyPermyriad = $1.map { UInt32(clamping: $0) } }),
        MinuteFigure("vram_used", .maximum, schema: 4, .bytes, .u64, batch: 3, presence: 9,
                     value: { $0.vramUsedBytes }, store: { $0.vramUsedBytes = $1 }),
    ]
}

extension HistoryBatch {
    /// Bytes of one sample in `version`, with `listed` listed columns (version 4 on): the
    /// minute, each figure the version has and its presence bytes.
    static func sampleSize(version: UInt16, listed: Int = 0) -> Int {
        var size = 8, presenceBytes = 0
        for f in MinuteFigure.all where f.batchVersion <= version {
            size += f.width.size
            if let p = f.presence { presenceBytes = max(presenceBytes, p / 8 + 1) }
        }
        return size + presenceBytes + (version >= 4 ? 9 * listed : 0)
    }

    /// Appends one sample's minute and figures: each presence byte before the first figure
    /// it speaks of, a figure not given as 0.
    static func encodeFigures(_ s: MinuteSample, into bytes: inout [UInt8]) {
        bytes.appendLE(s.minute)
        let figures = MinuteFigure.all
        for k in 0..<figures.count {
            if let p = figures[k].presence, k == 0 || figures[k - 1].presence.map({ $0 / 8 }) != p / 8 {
                var byte: UInt8 = 0
                for f in figures { if let q = f.presence, q / 8 == p / 8, f.value(s) != nil { byte |= 1 << (q % 8) } }
                if p / 8 == MinuteFigure.hourlyPresence / 8, s.isHourly { byte |= 1 << (MinuteFigure.hourlyPresence % 8) }
                bytes.append(byte)
            }
            let v = figures[k].value(s) ?? 0
            switch figures[k].width {
            case .u8: bytes.append(UInt8(truncatingIfNeeded: v))
            case .u16: bytes.appendLE(UInt16(truncatingIfNeeded: v))
            case .u32: bytes.appendLE(UInt32(truncatingIfNeeded: v))
            case .u64: bytes.appendLE(v)
            }
        }
    }

    /// Reads one sample's minute and the figures `version` has (the others not given); a
    /// presence bit the version does not know is refused.
    static func decodeFigures(_ r: inout ByteReader<HistoryBatchError>, version: UInt16) throws(HistoryBatchError) -> MinuteSample {
        var s = MinuteSample(minute: try r.u64(), cpuAverage: 0, cpuMaximum: 0, memoryUsedKiB: 0, memoryAvailableKiB: 0,
                             swapUsedKiB: 0, load1: 0, processCount: 0)
        let figures = MinuteFigure.all
        var presence: UInt8 = 0
        for k in 0..<figures.count where figures[k].batchVersion <= version {
            let f = figures[k]
            if let p = f.presence, k == 0 || figures[k - 1].presence.map({ $0 / 8 }) != p / 8 {
                presence = try r.u8()
                var known: UInt8 = p / 8 == MinuteFigure.hourlyPresence / 8 ? 1 << (MinuteFigure.hourlyPresence % 8) : 0
                for g in figures where g.batchVersion <= version { if let q = g.presence, q / 8 == p / 8 { known |= 1 << (q % 8) } }
                guard presence & ~known == 0 else { throw .malformed("unknown sample presence bits") }
                if p / 8 == MinuteFigure.hourlyPresence / 8 { s.isHourly = presence & (1 << (MinuteFigure.hourlyPresence % 8)) != 0 }
            }
            let v: UInt64
            switch f.width {
            case .u8: v = UInt64(try r.u8())
            case .u16: v = UInt64(try r.u16())
            case .u32: let w = try r.u32(); v = f.signed ? UInt64(bitPattern: Int64(Int32(bitPattern: w))) : UInt64(w)
            case .u64: v = try r.u64()
            }
            let given = f.presence.map { presence & (1 << ($0 % 8)) != 0 } ?? true
            f.store(&s, given ? v : nil)
        }
        return s
    }
}
