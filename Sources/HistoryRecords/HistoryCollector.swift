import SnapshotCodec

/// What the sampler keeps for history, in memory and without a database (SQLite stays
/// out of `sysstatsd`: docs/performance-history.md): the current minute's sums and the exits seen
/// since the last batch. When a minute ends it returns a ``HistoryBatch`` for the writer
/// process (`sysstatsd-history`) to store.
///
/// Per sample it only adds to the minute's sums and appends new exits into reserved
/// capacity: no I/O, and no allocation unless more exits arrive than were reserved.
public struct HistoryCollector: Sendable {
    public let bootID: String
    public let bootTime: UInt64
    private var rollup: MinuteRollup?
    /// The minute's units (the units part, while measured), summed as ``rollup`` sums the rest.
    private var unitSums = UnitMinuteSums()
    private var pendingExits: [ExitRecord] = []
    private var newestExitMs: UInt64 = 0
    private var uptimeSeconds: UInt64

    /// Exits kept between two batches; more are dropped (a batch may hold up to
    /// ``HistoryBatch/maximumExits``).
    public static let maximumPendingExits = 1440

    public init(bootID: String, bootTime: UInt64, uptimeSeconds: UInt64 = 0) {
        self.bootID = bootID
        self.bootTime = bootTime
        self.uptimeSeconds = uptimeSeconds
        pendingExits.reserveCapacity(64)
    }

    /// A batch with no rows: it records the boot (a new boot id adds a boot row; the same id
    /// refreshes it). The sampler hands it off at start.
    public func startBatch(uptimeSeconds: UInt64, nowMs: UInt64) -> HistoryBatch {
        HistoryBatch(bootID: bootID, bootTime: bootTime, uptimeSeconds: uptimeSeconds, nowSeconds: nowMs / 1000,
                     samples: [], exits: [], endsCleanly: false)
    }

    /// Adds one sample. When it starts a new minute, returns the ended minute's row with
    /// the exits seen since the last batch; nil otherwise.
    /// - Parameter exitNames: in step with the snapshot's exits (``Sampler/exitNames``): the
    ///   process's own name and the friendly name a bookmark gave it. Empty: the snapshot's
    ///   names, no friendly names.
    public mutating func record(_ snapshot: Snapshot, exitNames: [ExitNames] = []) -> HistoryBatch? {
        uptimeSeconds = snapshot.uptimeCentiseconds / 100
        collectExits(snapshot, exitNames)
        let minute = MinuteRollup.minute(ofMs: snapshot.timestampMs)
        var batch: HistoryBatch?
        if let current = rollup, current.minute != minute {
            let units = unitSums.take(minute: current.minute)
            batch = makeBatch(samples: current.isEmpty ? [] : [current.sample], units: current.isEmpty ? [] : units,
                              nowSeconds: snapshot.timestampMs / 1000, endsCleanly: false)
            rollup = MinuteRollup(minute: minute, after: current)
        }
        if rollup == nil { rollup = MinuteRollup(minute: minute) }
        rollup?.add(snapshot)
        unitSums.add(snapshot)
        return batch
    }

    /// The last batch, at a clean stop: the partial minute and pending exits, with
    /// ``HistoryBatch/endsCleanly`` set.
    public mutating func finish(nowMs: UInt64) -> HistoryBatch {
        let samples = rollup.map { $0.isEmpty ? [] : [$0.sample] } ?? []
        let units = samples.isEmpty ? [] : unitSums.take(minute: samples[0].minute)
        rollup = nil
        return makeBatch(samples: samples, units: units, nowSeconds: nowMs / 1000, endsCleanly: true)
    }

    /// The last batch before the sampler starts again in place (a `[sampler]` change): the
    /// pending exits, ending cleanly as ``finish(nowMs:)``'s, and the minute being collected
    /// as text for the next image (``MinuteRollup/carried``) rather than as a partial row
    /// that the next image's row for the same minute would replace. The minute's units so far
    /// are not carried: that minute's unit rows are the next image's samples of it.
    public mutating func handOver(nowMs: UInt64) -> (batch: HistoryBatch, minute: String?) {
        let minute = rollup?.carried
        rollup = nil
        _ = unitSums.take(minute: 0)
        return (makeBatch(samples: [], nowSeconds: nowMs / 1000, endsCleanly: true), minute)
    }

    /// Goes on with the minute the previous image carried (``handOver(nowMs:)``) when it is
    /// the minute of `nowMs` or the one before (a restart across the turn of a minute: its
    /// row is written at the first sample); false, and nothing kept, otherwise.
    public mutating func resume(_ carried: String, nowMs: UInt64) -> Bool {
        let now = MinuteRollup.minute(ofMs: nowMs)
        guard rollup == nil, let carried = MinuteRollup(carried: carried),
              carried.minute <= now, carried.minute + 60 >= now else { return false }
        rollup = carried
        return true
    }

    private mutating func makeBatch(samples: [MinuteSample], units: [UnitMinute] = [], nowSeconds: UInt64,
                                    endsCleanly: Bool) -> HistoryBatch {
        let batch = HistoryBatch(bootID: bootID, bootTime: bootTime, uptimeSeconds: uptimeSeconds,
                                 nowSeconds: nowSeconds, samples: samples, exits: pendingExits, units: units,
                                 endsCleanly: endsCleanly)
        pendingExits.removeAll(keepingCapacity: true)
        return batch
    }

    /// New exits are those the snapshot holds that are newer than the last one taken.
    private mutating func collectExits(_ s: Snapshot, _ names: [ExitNames]) {
        var newest = newestExitMs
        let named = names.count == s.exits.count
        // Indexed, not `for exit in`: the element copy allocates in unoptimised builds.
        for i in s.exits.indices where s.exits[i].timeMs > newestExitMs {
            if pendingExits.count < HistoryCollector.maximumPendingExits {
                let friendly = named && !names[i].friendlyName.isEmpty
                    ? String(decoding: names[i].friendlyName, as: UTF8.self) : nil
                pendingExits.append(ExitRecord(timeMs: s.exits[i].timeMs, pid: s.exits[i].pid,
                                               name: named ? names[i].name : s.exits[i].name, friendlyName: friendly,
                                               lastPrivateKiB: s.exits[i].lastPrivateKiB, freedKiB: s.exits[i].freedKiB))
            }
            newest = max(newest, s.exits[i].timeMs)
        }
        newestExitMs = newest
    }
}

/// The names of one exit, for history: the process's own (sanitized) name and the
/// friendly name a bookmark gave it (empty: none).
public struct ExitNames: Equatable, Sendable {
    public var name: [UInt8]
    public var friendlyName: [UInt8]
    public init(name: [UInt8], friendlyName: [UInt8]) {
        self.name = name
        self.friendlyName = friendlyName
    }
}
