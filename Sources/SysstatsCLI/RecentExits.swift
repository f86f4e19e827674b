import HistoryStore
import SnapshotCodec
import SystemDirs

/// The exits of the minute history has not written yet, from the snapshot, merged into
/// history's. The sampler hands its exits to the history writer with the minute's row, so
/// without the snapshot `sysstats exited` lagged the bar by up to a minute (issue 58).
public enum RecentExits {
    /// The snapshot's recent exits (most recent first, as it holds them); none when it is
    /// missing, unreadable, corrupt, stale or without its exits part. The listing then is
    /// history alone, as before the snapshot was read: the command is about history, and
    /// `report` and `doctor` are where a broken snapshot is said. A stale one is left out
    /// because its sampler is gone: a clean stop wrote its exits to history, a crash lost
    /// them with the minute, and its pids may be anyone's by now.
    public static func read(snapshotPath: String, nowMs: UInt64 = Clock.realtimeMs()) -> [ExitEntry] {
        guard case .success(let snapshot) = SnapshotFile.read(path: snapshotPath),
              snapshot.available.contains(.exits), !snapshot.isStale(nowMs: nowMs) else { return [] }
        return snapshot.exits
    }

    /// `history` (oldest first, as the database gives them) with the exits of `recent` at
    /// or after `sinceMs` that history does not have yet, in time order; on equal times
    /// history's come first, then the snapshot's in its order, which is the order the
    /// history writer stores them in, so an exit keeps its place once its minute is written.
    static func merged(history: [ExitRecord], recent: [ExitEntry], sinceMs: UInt64) -> [ExitRecord] {
        var added: [(record: ExitRecord, index: Int)] = []
        for (index, entry) in recent.enumerated() where entry.timeMs >= sinceMs {
            if history.contains(where: { isSameExit($0, entry) }) { continue }
            // The snapshot has only the name the bar shows: the friendly one when a bookmark
            // gave one. It stands as the name until history's row, with both, replaces it.
            added.append((record: ExitRecord(timeMs: entry.timeMs, pid: entry.pid, name: entry.name, friendlyName: nil,
                                             lastPrivateKiB: entry.lastPrivateKiB, freedKiB: entry.freedKiB),
                          index: index))
        }
        if added.isEmpty { return history }
        added.sort { ($0.record.timeMs, $0.index) < ($1.record.timeMs, $1.index) }
        var out: [ExitRecord] = []
        out.reserveCapacity(history.count + added.count)
        var next = 0
        for record in history {
            while next < added.count && added[next].record.timeMs < record.timeMs {
                out.append(added[next].record)
                next += 1
            }
            out.append(record)
        }
        while next < added.count {
            out.append(added[next].record)
            next += 1
        }
        return out
    }

    /// Whether history's `record` is the snapshot's `entry`. History stores the snapshot's
    /// time as it is (milliseconds both), so pid and time match exactly. The names differ
    /// in kind: the snapshot's is the sanitized display name (the friendly name when a
    /// bookmark gave one, else the process's own), history keeps the process's own name
    /// (sanitized the same way) and the friendly one beside it; either, sanitized as the
    /// sampler sanitized the snapshot's, is the snapshot's name.
    static func isSameExit(_ record: ExitRecord, _ entry: ExitEntry) -> Bool {
        guard record.pid == entry.pid, record.timeMs == entry.timeMs else { return false }
        var shown: [UInt8] = []
        NameSanitizer.sanitize(record.name, into: &shown)
        if shown == entry.name { return true }
        guard let friendly = record.friendlyName, !friendly.isEmpty else { return false }
        NameSanitizer.sanitize(Array(friendly.utf8), into: &shown)
        return shown == entry.name
    }
}
