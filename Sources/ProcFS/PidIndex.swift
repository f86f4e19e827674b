// Where each pid of a scan sits in the process table.

/// A map from pid to table index: open addressing with linear probing over two flat
/// arrays. Not a `Dictionary`: the sampler used no other, and `Hasher` with dictionary
/// storage kept three 64 KiB windows of standard-library code pages resident for it
/// (docs/performance-history.md). Clearing keeps the capacity: a steady-state scan allocates nothing.
struct PidIndex {
    /// Marks a free slot (pids are positive).
    private static let free = Int32.min
    private var keys: [Int32] = []
    private var values: [Int32] = []
    private var count = 0

    /// Forgets every pid, keeping the capacity.
    mutating func removeAll() {
        guard count > 0 else { return }
        var i = 0
        while i < keys.count { keys[i] = PidIndex.free; i += 1 }
        count = 0
    }

    subscript(pid: Int32) -> Int? {
        guard count > 0, pid != PidIndex.free else { return nil }
        let mask = keys.count - 1
        var slot = PidIndex.slot(pid, mask)
        while true {
            let key = keys[slot]
            if key == pid { return Int(values[slot]) }
            if key == PidIndex.free { return nil }
            slot = (slot + 1) & mask
        }
    }

    /// Sets the index of `pid` (at most a table's size: it fits 32 bits). `Int32.min`, never
    /// a pid, marks free slots and is not stored.
    mutating func set(_ pid: Int32, _ index: Int) {
        guard pid != PidIndex.free else { return }
        if (count + 1) * 2 > keys.count { grow() }
        let mask = keys.count - 1
        var slot = PidIndex.slot(pid, mask)
        while keys[slot] != PidIndex.free && keys[slot] != pid { slot = (slot + 1) & mask }
        if keys[slot] == PidIndex.free { count += 1 }
        keys[slot] = pid
        values[slot] = Int32(truncatingIfNeeded: index)
    }

    /// Forgets `pid` (nothing if absent). The entries after it in its run move back into the
    /// gap (backward-shift deletion), so every other pid is still found and no tombstone is left.
    mutating func remove(_ pid: Int32) {
        guard count > 0, pid != PidIndex.free else { return }
        let mask = keys.count - 1
        var hole = PidIndex.slot(pid, mask)
        while keys[hole] != pid {
            if keys[hole] == PidIndex.free { return }
            hole = (hole + 1) & mask
        }
        keys[hole] = PidIndex.free
        count -= 1
        var next = (hole + 1) & mask
        while keys[next] != PidIndex.free {
            // The entry at `next` may fill the hole unless its home slot lies cyclically in (hole, next].
            let home = PidIndex.slot(keys[next], mask)
            let stays = hole <= next ? (home > hole && home <= next) : (home > hole || home <= next)
            if !stays {
                keys[hole] = keys[next]
                values[hole] = values[next]
                keys[next] = PidIndex.free
                hole = next
            }
            next = (next + 1) & mask
        }
    }

    /// Doubles the capacity (a power of two, at most half full) and re-inserts.
    private mutating func grow() {
        let oldKeys = keys, oldValues = values
        let capacity = max(64, keys.count * 2)
        keys = [Int32](repeating: PidIndex.free, count: capacity)
        values = [Int32](repeating: 0, count: capacity)
        count = 0
        var i = 0
        while i < oldKeys.count {
            if oldKeys[i] != PidIndex.free { set(oldKeys[i], Int(oldValues[i])) }
            i += 1
        }
    }

    /// Fibonacci hashing: neighbouring pids spread over the table.
    private static func slot(_ pid: Int32, _ mask: Int) -> Int {
        Int((UInt32(bitPattern: pid) &* 0x9E37_79B1) >> 7) & mask
    }
}
