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
        for i in processes.indices {
            let k = key(processes[i])
            if k == 0 { continue }
            if indices.count == limit, let last = keys.last, !ranksAbove(k, processes[i].pid, last, processes[indices[limit - 1]].pid) { continue }
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
    }

    private func ranksAbove(_ k: UInt64, _ pid: Int32, _ other: UInt64, _ otherPid: Int32) -> Bool {
        k > other || (k == other && pid < otherPid)
    }
}
