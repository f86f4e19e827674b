import ProcFS

/// Picks the few largest processes by a key without sorting the whole table.
///
/// Keeps the indices of the best `limit` entries in a small array allocated
/// once; each scan is one pass with an insertion into that array.
public struct TopSelection {
    public let limit: Int
    public private(set) var indices: [Int] = []
    private var keys: [UInt64] = []

    public init(limit: Int) {
        self.limit = limit
        indices.reserveCapacity(limit)
        keys.reserveCapacity(limit)
    }

    /// Selects from `processes` the `limit` entries with the largest `key`, largest first.
    /// Entries whose key is 0 are not selected; ties keep the lower pid first.
    public mutating func select(_ processes: [ProcessSample], by key: (ProcessSample) -> UInt64) {
        indices.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        for i in processes.indices { consider(i, processes, key(processes[i])) }
    }

    /// The same choice among the entries at `candidates` only (the others known not to rank);
    /// an index given twice counts once.
    public mutating func select(_ processes: [ProcessSample], among candidates: [Int], by key: (ProcessSample) -> UInt64) {
        indices.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        var c = 0   // index loops: an array's iterator allocates in unoptimized builds
        while c < candidates.count {
            let i = candidates[c]
            if !isChosen(i) { consider(i, processes, key(processes[i])) }
            c += 1
        }
    }

    private func isChosen(_ i: Int) -> Bool {
        var slot = 0
        while slot < indices.count {
            if indices[slot] == i { return true }
            slot += 1
        }
        return false
    }

    /// Places entry `i` with key `k` among the chosen if it ranks; 0 never does.
    private mutating func consider(_ i: Int, _ processes: [ProcessSample], _ k: UInt64) {
        if k == 0 { return }
        if indices.count == limit, let last = keys.last, !ranksAbove(k, processes[i].pid, last, processes[indices[limit - 1]].pid) { return }
        // Insert by shifting in place: Array.insert(_:at:) allocates in unoptimized builds.
        if indices.count < limit { indices.append(i); keys.append(k) }
        var slot = indices.count - 1
        while slot > 0, ranksAbove(k, processes[i].pid, keys[slot - 1], processes[indices[slot - 1]].pid) {
            indices[slot] = indices[slot - 1]
            keys[slot] = keys[slot - 1]
            slot -= 1
        }
        indices[slot] = i
        keys[slot] = k
    }

    private func ranksAbove(_ k: UInt64, _ pid: Int32, _ other: UInt64, _ otherPid: Int32) -> Bool {
        k > other || (k == other && pid < otherPid)
    }
}
