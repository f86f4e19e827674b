import SnapshotCodec

/// The network rate history: rx and tx bytes per second over the interfaces shown, summed,
/// the last ``Snapshot/historyLength`` samples (the panel's network graph). Storage is
/// allocated once.
struct RateHistory {
    private var rx = [UInt32](repeating: 0, count: Snapshot.historyLength)
    private var tx = [UInt32](repeating: 0, count: Snapshot.historyLength)
    private var next = 0
    private var count = 0

    /// Adds this sample's rates when the network part has them (a first reading has none).
    mutating func add(_ s: Snapshot) {
        guard s.available.contains(.network) else { return }
        var rxSum: UInt64 = 0, txSum: UInt64 = 0, measured = false
        for i in 0..<s.interfaces.count where s.interfaces[i].flags.contains(.rates) {
            measured = true
            rxSum = rxSum > UInt64.max - s.interfaces[i].rxBytesPerSecond ? .max : rxSum + s.interfaces[i].rxBytesPerSecond
            txSum = txSum > UInt64.max - s.interfaces[i].txBytesPerSecond ? .max : txSum + s.interfaces[i].txBytesPerSecond
        }
        guard measured else { return }
        rx[next] = UInt32(clamping: rxSum)
        tx[next] = UInt32(clamping: txSum)
        next = (next + 1) % Snapshot.historyLength
        count = min(count + 1, Snapshot.historyLength)
    }

    /// Replaces the snapshot's series with the history, oldest first, reusing their storage.
    func copy(into s: inout Snapshot) {
        s.rxHistory.removeAll(keepingCapacity: true)
        s.txHistory.removeAll(keepingCapacity: true)
        var index = (next - count + Snapshot.historyLength) % Snapshot.historyLength
        for _ in 0..<count {
            s.rxHistory.append(rx[index])
            s.txHistory.append(tx[index])
            index = (index + 1) % Snapshot.historyLength
        }
    }
}
