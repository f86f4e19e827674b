import SnapshotCodec

/// Writes the sampler's history (in the process that owns the database, not the
/// always-on sampler: see docs/performance.md): one row per minute with the exits seen in it,
/// in the minute's writes, and the boot's "last seen" refreshed with them.
///
/// Per sample it only adds to the minute's sums (no I/O, no allocation); the
/// database is written when a minute ends, and by ``finish(nowMs:deadlineMs:)`` on
/// SIGTERM, which also marks the boot as ended cleanly. A failed write keeps
/// the rows for the next minute (up to a day of them) and is reported once.
public final class HistoryRecorder {
    public let database: HistoryDatabase
    public let bootID: String
    private var rollup: MinuteRollup?
    private var pendingSamples: [MinuteSample] = []
    private var pendingExits: [ExitRecord] = []
    private var newestExitMs: UInt64 = 0
    private var uptimeSeconds: UInt64 = 0
    private var lastRetentionSeconds: UInt64 = 0
    /// The last write error, until a write succeeds again.
    public private(set) var failure: StoreError?

    /// Rows kept while the database cannot be written: a day of minutes.
    public static let maximumPending = 1440
    /// Retention runs at start and then this often.
    public static let retentionIntervalSeconds: UInt64 = 3600

    /// Opens the history for boot `bootID`: a new boot id adds a boot row (the
    /// previous boot, if it never got its clean mark, stays an unclean shutdown).
    public init(database: HistoryDatabase, bootID: String, bootTime: UInt64,
                uptimeSeconds: UInt64, nowSeconds: UInt64) throws(StoreError) {
        self.database = database
        self.bootID = bootID
        self.uptimeSeconds = uptimeSeconds
        _ = try database.recordBoot(id: bootID, bootTime: bootTime, uptimeSeconds: uptimeSeconds, nowSeconds: nowSeconds)
        pendingSamples.reserveCapacity(4)
        pendingExits.reserveCapacity(Snapshot.maximumExits)
    }

    /// Adds one sample; writes when it starts a new minute. Returns a write error
    /// the first time one happens (the caller reports it), nil otherwise.
    @discardableResult
    public func record(_ snapshot: Snapshot) -> StoreError? {
        uptimeSeconds = snapshot.uptimeCentiseconds / 100
        collectExits(snapshot)
        let minute = MinuteRollup.minute(ofMs: snapshot.timestampMs)
        var error: StoreError?
        if let current = rollup, current.minute != minute {
            pendingSamples.append(current.sample)
            rollup = nil
            error = write(nowSeconds: snapshot.timestampMs / 1000)
        }
        if rollup == nil { rollup = MinuteRollup(minute: minute) }
        rollup?.add(snapshot)
        return error
    }

    /// Writes what is pending (the current partial minute too) and marks the boot
    /// clean, waiting at most `deadlineMs` for a lock. On failure the error says
    /// what was dropped.
    public func finish(nowMs: UInt64, deadlineMs: Int32) -> StoreError? {
        if let current = rollup, !current.isEmpty { pendingSamples.append(current.sample) }
        rollup = nil
        database.setBusyTimeout(milliseconds: deadlineMs)
        let samples = pendingSamples.count, exits = pendingExits.count
        do throws(StoreError) {
            try flush()
            try database.markBootClean(id: bootID, uptimeSeconds: uptimeSeconds, nowSeconds: nowMs / 1000)
            try database.checkpoint()
            return nil
        } catch {
            return StoreError(error.kind, "could not write the history within \(deadlineMs) ms (\(error.message)); "
                              + "dropped \(samples) minute row(s) and \(exits) exit(s), and the boot is not marked clean")
        }
    }

    /// New exits are those the snapshot holds that are newer than the last one taken.
    private func collectExits(_ s: Snapshot) {
        var newest = newestExitMs
        for exit in s.exits where exit.timeMs > newestExitMs {
            if pendingExits.count < HistoryRecorder.maximumPending {
                pendingExits.append(ExitRecord(timeMs: exit.timeMs, pid: exit.pid, name: exit.name,
                                               lastPrivateKiB: exit.lastPrivateKiB, freedKiB: exit.freedKiB))
            }
            newest = max(newest, exit.timeMs)
        }
        newestExitMs = newest
    }

    private func write(nowSeconds: UInt64) -> StoreError? {
        do throws(StoreError) {
            try flush()
            try database.refreshBoot(id: bootID, uptimeSeconds: uptimeSeconds, nowSeconds: nowSeconds)
            if nowSeconds >= lastRetentionSeconds + HistoryRecorder.retentionIntervalSeconds {
                try database.applyRetention(nowSeconds: nowSeconds)
                lastRetentionSeconds = nowSeconds
            }
            failure = nil
            return nil
        } catch {
            if pendingSamples.count > HistoryRecorder.maximumPending {
                pendingSamples.removeFirst(pendingSamples.count - HistoryRecorder.maximumPending)
            }
            let first = failure == nil
            failure = error
            return first ? error : nil
        }
    }

    private func flush() throws(StoreError) {
        if !pendingSamples.isEmpty {
            try database.append(samples: pendingSamples)
            pendingSamples.removeAll(keepingCapacity: true)
        }
        if !pendingExits.isEmpty {
            try database.append(exits: pendingExits)
            pendingExits.removeAll(keepingCapacity: true)
        }
    }
}
