import SnapshotCodec

/// One unit of the cgroup v2 tree over one minute (or, ``isHourly``, one hour rolled up from
/// its minutes): what `sysstats history --units` answers "which app used the machine" from.
/// Units are told apart by the name the units part gives them and their kind, so an app's
/// scopes of one minute (two Firefox windows started apart) are one row.
public struct UnitMinute: Equatable, Sendable {
    /// Start of the minute (or hour), unix seconds.
    public var minute: UInt64
    /// The name people know (the units part's label: `firefox`, `docker 3f2a1b9c8d7e`), raw
    /// bytes from the system, at most ``maximumNameBytes``; each output escapes it.
    public var name: [UInt8]
    /// `app`, `service`, `container`, `session` or `system` (the units part's source), at
    /// most ``maximumKindBytes``.
    public var kind: [UInt8]
    /// Its CPU over the minute, hundredths of a percent of one core (above 10000 on several
    /// cores): the mean over the samples that measured the units part, a sample it was not
    /// among counting 0.
    public var cpuPermyriad: UInt32
    /// The most memory charged to it at one of the minute's samples, bytes.
    public var memoryBytes: UInt64
    /// Bytes it read and wrote a second, as ``cpuPermyriad`` is averaged.
    public var readBytesPerSecond: UInt64
    public var writeBytesPerSecond: UInt64
    /// Minutes behind the row: 1 for a minute's, up to 60 for an hour's.
    public var minutes: UInt32
    public var isHourly: Bool

    public static let maximumNameBytes = 128
    public static let maximumKindBytes = 16

    public init(minute: UInt64, name: [UInt8], kind: [UInt8], cpuPermyriad: UInt32, memoryBytes: UInt64,
                readBytesPerSecond: UInt64, writeBytesPerSecond: UInt64, minutes: UInt32 = 1, isHourly: Bool = false) {
        self.minute = minute; self.name = name; self.kind = kind; self.cpuPermyriad = cpuPermyriad
        self.memoryBytes = memoryBytes; self.readBytesPerSecond = readBytesPerSecond
        self.writeBytesPerSecond = writeBytesPerSecond; self.minutes = minutes; self.isHourly = isHourly
    }
}

/// A minute's units being summed, sample by sample (``HistoryCollector``). The units part
/// keeps at most eight readings a sample; the sums are kept for the first ``maximumUnits``
/// distinct units of the minute, and the minute's rows are its ``rowsPerMinute`` busiest
/// by CPU and the largest by memory among the rest, up to ``rowsPerMinute`` + 3.
///
/// A sample whose units repeat the minute's before allocates nothing: an entry's name
/// arrays are kept across minutes and rewritten in place.
struct UnitMinuteSums: Sendable {
    /// The most distinct units summed in one minute.
    static let maximumUnits = 32
    /// The busiest units a minute keeps by CPU; three more are kept by memory.
    static let rowsPerMinute = 5

    private struct Entry: Sendable {
        var name: [UInt8] = []
        var kind: [UInt8] = []
        var cpuSum: UInt64 = 0
        var memoryMaximum: UInt64 = 0
        var readSum: UInt64 = 0
        var writeSum: UInt64 = 0
    }

    private var entries: [Entry] = []
    private var used = 0
    /// Samples of the minute that measured the units part.
    private var measured: UInt64 = 0

    init() { entries.reserveCapacity(Self.maximumUnits) }

    /// Adds the units part's readings of `s`, if it measured them.
    mutating func add(_ s: Snapshot) {
        guard s.available.contains(UnitsPart.part.part) else { return }
        measured &+= 1
        let readings = s.listed[.units]
        var r = 0
        while r < readings.count {
            defer { r &+= 1 }
            guard let e = entry(name: readings[r].label, kind: readings[r].source) else { continue }
            let figures = readings[r].figures
            entries[e].cpuSum = Self.sum(entries[e].cpuSum, figures[UnitsPart.cpu])
            entries[e].memoryMaximum = max(entries[e].memoryMaximum, Self.nonNegative(figures[UnitsPart.memory]))
            entries[e].readSum = Self.sum(entries[e].readSum, figures[UnitsPart.read])
            entries[e].writeSum = Self.sum(entries[e].writeSum, figures[UnitsPart.written])
        }
    }

    /// The minute's rows (see the type), busiest first; the sums start again.
    mutating func take(minute: UInt64) -> [UnitMinute] {
        defer { used = 0; measured = 0 }
        guard measured > 0, used > 0 else { return [] }
        var order = Array(0..<used)
        order.sort { a, b in
            entries[a].cpuSum != entries[b].cpuSum ? entries[a].cpuSum > entries[b].cpuSum
                : entries[a].memoryMaximum > entries[b].memoryMaximum
        }
        var kept = Array(order.prefix(Self.rowsPerMinute))
        let rest = order.dropFirst(Self.rowsPerMinute).sorted { entries[$0].memoryMaximum > entries[$1].memoryMaximum }
        kept += rest.prefix(3).filter { entries[$0].memoryMaximum > 0 }
        return kept.map { i in
            UnitMinute(minute: minute, name: entries[i].name, kind: entries[i].kind,
                       cpuPermyriad: UInt32(clamping: entries[i].cpuSum / measured), memoryBytes: entries[i].memoryMaximum,
                       readBytesPerSecond: entries[i].readSum / measured, writeBytesPerSecond: entries[i].writeSum / measured)
        }
    }

    /// The entry of a unit: the minute's, else a new one while there is room; nil when full.
    private mutating func entry(name: [UInt8], kind: [UInt8]) -> Int? {
        var i = 0
        while i < used {
            // As kept: a name past its limit is the same unit by its first bytes.
            if Self.same(entries[i].name, name, maximum: UnitMinute.maximumNameBytes)
                && Self.same(entries[i].kind, kind, maximum: UnitMinute.maximumKindBytes) { return i }
            i &+= 1
        }
        guard used < Self.maximumUnits else { return nil }
        if used == entries.count { entries.append(Entry()) }
        Self.copy(name, into: &entries[used].name, maximum: UnitMinute.maximumNameBytes)
        Self.copy(kind, into: &entries[used].kind, maximum: UnitMinute.maximumKindBytes)
        entries[used].cpuSum = 0; entries[used].memoryMaximum = 0; entries[used].readSum = 0; entries[used].writeSum = 0
        used &+= 1
        return used &- 1
    }

    /// Whether `kept` is `given` as ``copy(_:into:maximum:)`` keeps it.
    private static func same(_ kept: [UInt8], _ given: [UInt8], maximum: Int) -> Bool {
        guard kept.count == min(given.count, maximum) else { return false }
        var i = 0
        while i < kept.count { if kept[i] != given[i] { return false }; i &+= 1 }
        return true
    }

    private static func copy(_ bytes: [UInt8], into array: inout [UInt8], maximum: Int) {
        array.removeAll(keepingCapacity: true)
        var i = 0
        while i < bytes.count && i < maximum { array.append(bytes[i]); i &+= 1 }
    }

    private static func nonNegative(_ v: Int64?) -> UInt64 { v.map { $0 > 0 ? UInt64($0) : 0 } ?? 0 }

    /// `total` plus a figure, saturating (a figure is a decoded value).
    private static func sum(_ total: UInt64, _ v: Int64?) -> UInt64 {
        let (s, overflow) = total.addingReportingOverflow(nonNegative(v))
        return overflow ? .max : s
    }
}

extension HistoryBatch {
    /// The unit rows, as the type's doc comment lays them out; names past their limits are cut.
    func encodeUnits(into bytes: inout [UInt8]) {
        let rows = units.prefix(HistoryBatch.maximumUnitRows).filter { !$0.name.isEmpty }
        bytes.appendLE(UInt32(rows.count))
        for u in rows {
            bytes.appendLE(u.minute)
            bytes.appendLE(u.cpuPermyriad)
            bytes.appendLE(u.memoryBytes)
            bytes.appendLE(u.readBytesPerSecond)
            bytes.appendLE(u.writeBytesPerSecond)
            let name = u.name.prefix(UnitMinute.maximumNameBytes), kind = u.kind.prefix(UnitMinute.maximumKindBytes)
            bytes.append(UInt8(name.count))
            bytes.append(contentsOf: name)
            bytes.append(UInt8(kind.count))
            bytes.append(contentsOf: kind)
        }
    }

    static func decodeUnits(_ r: inout ByteReader<HistoryBatchError>) throws(HistoryBatchError) -> [UnitMinute] {
        let count = Int(try r.u32())
        guard count <= maximumUnitRows else { throw .malformed("more than \(maximumUnitRows) unit rows") }
        guard count * 38 <= r.remaining else { throw .truncated }
        var units: [UnitMinute] = []
        units.reserveCapacity(count)
        for _ in 0..<count {
            let minute = try r.u64(), cpu = try r.u32(), memory = try r.u64(), read = try r.u64(), written = try r.u64()
            let nameLength = Int(try r.u8())
            guard nameLength >= 1, nameLength <= UnitMinute.maximumNameBytes else { throw .malformed("a unit's name is empty or too long") }
            let name = Array(try r.take(nameLength))
            let kindLength = Int(try r.u8())
            guard kindLength <= UnitMinute.maximumKindBytes else { throw .malformed("a unit's kind is too long") }
            let kind = Array(try r.take(kindLength))
            units.append(UnitMinute(minute: minute, name: name, kind: kind, cpuPermyriad: cpu, memoryBytes: memory,
                                    readBytesPerSecond: read, writeBytesPerSecond: written))
        }
        return units
    }
}
