import CDirect
import SnapshotCodec

extension Array where Element: FixedWidthInteger {
    /// Appends `point` as the newest of a history kept to its last `length` points, oldest
    /// first. The snapshot's own arrays are the histories: nothing is copied into them per
    /// sample (a ring per series and its copy were four arrays touched for each one).
    /// Once full, a point costs a move of the others by one place (118 bytes for 60 UInt16),
    /// made in place with `cdirect_copy` (removeFirst's memmove was glibc's pages).
    mutating func appendPoint(_ point: Element, keeping length: Int = Snapshot.historyLength) {
        if count == length && length > 0 {
            withUnsafeMutableBufferPointer { points in
                let first = points.baseAddress!
                cdirect_copy(first, first + 1, (length &- 1) &* MemoryLayout<Element>.stride)
                points[length &- 1] = point
            }
            return
        }
        if count > length { removeFirst(Swift.min(count, count - length + 1)) }
        append(point)
    }
}

extension Snapshot {
    /// Adds the network rates just measured to the rate history (the panel's network graph):
    /// rx and tx bytes per second over the interfaces with rates, summed. Nothing when the
    /// measurement failed or had no rates yet (a first reading).
    mutating func recordNetworkRates() {
        guard available.contains(.network) else { return }
        var rxSum: UInt64 = 0, txSum: UInt64 = 0, measured = false
        for i in 0..<interfaces.count where interfaces[i].flags.contains(.rates) {
            measured = true
            rxSum = rxSum > UInt64.max - interfaces[i].rxBytesPerSecond ? .max : rxSum + interfaces[i].rxBytesPerSecond
            txSum = txSum > UInt64.max - interfaces[i].txBytesPerSecond ? .max : txSum + interfaces[i].txBytesPerSecond
        }
        guard measured else { return }
        rxHistory.appendPoint(UInt32(clamping: rxSum))
        txHistory.appendPoint(UInt32(clamping: txSum))
    }
}
