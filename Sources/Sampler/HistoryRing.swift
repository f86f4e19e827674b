import SnapshotCodec

/// The last `capacity` values, for a renderer's graph. Storage is allocated once.
public struct HistoryRing {
    private var values: [Permyriad]
    private var next = 0
    public private(set) var count = 0
    public let capacity: Int

    public init(capacity: Int = Snapshot.historyLength) {
        self.capacity = capacity
        values = [Permyriad](repeating: 0, count: capacity)
    }

    public mutating func append(_ value: Permyriad) {
        values[next] = value
        next = (next + 1) % capacity
        count = min(count + 1, capacity)
    }

    /// Replaces `out`'s contents with the values, oldest first, reusing its storage.
    public func copy(into out: inout [Permyriad]) {
        out.removeAll(keepingCapacity: true)
        var index = (next - count + capacity) % capacity
        for _ in 0..<count {
            out.append(values[index])
            index = (index + 1) % capacity
        }
    }
}
