import SnapshotCodec

/// Each interface's byte counters at the last sample that measured the network, to take the
/// next sample's traffic from. Fixed storage (the slots are inline, never on the heap): the
/// sampler updates it every sample, and it is carried from one minute's rollup to the next.
///
/// An interface is known by its name. Its traffic over one step is the rise of its counters.
/// A counter that went back (the interface was reset, or removed and created again) counts 0
/// for that step; an interface seen for the first time counts 0 until its next sample (its
/// counters say what it moved since it appeared, not during this minute); an interface that
/// left the list counts nothing. So the traffic of one step is never negative and never
/// more than the interfaces really moved.
struct InterfaceCounters: Sendable {
    /// As many interfaces as a snapshot holds (``Snapshot/maximumInterfaces``; a test pins
    /// them equal). More in a decoded snapshot are left out.
    static let capacity = 8

    /// An interface name as two words and a length: names are at most 15 bytes
    /// (``Snapshot/maximumInterfaceNameLength``), so 16 bytes tell any two apart without
    /// keeping an array; a longer (hostile) name is known by its first 16 bytes and length.
    struct NameKey: Equatable, Sendable {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var length = 0

        init() {}

        init(_ name: [UInt8]) {
            length = name.count
            for i in 0..<min(name.count, 16) {
                if i < 8 {
                    low |= UInt64(name[i]) << (8 * UInt64(i))
                } else {
                    high |= UInt64(name[i]) << (8 * UInt64(i - 8))
                }
            }
        }
    }

    private struct Slot: Sendable {
        var key = NameKey()
        var rx: UInt64 = 0
        var tx: UInt64 = 0
    }

    private var slots = InlineArray<8, Slot>(repeating: Slot())
    private var count = 0

    init() {}

    /// Takes `interfaces`' counters as the new reading and returns the bytes received and sent
    /// since the previous one, summed over the interfaces (saturating: a counter may say anything).
    mutating func step(_ interfaces: [InterfaceFigures]) -> (rx: UInt64, tx: UInt64) {
        let n = min(interfaces.count, InterfaceCounters.capacity)
        var rx: UInt64 = 0, tx: UInt64 = 0
        // Indexed, not `for in`: the element copy allocates in unoptimised builds.
        for i in 0..<n {
            guard let j = slot(NameKey(interfaces[i].name)) else { continue }
            rx = saturatingSum(rx, rise(interfaces[i].rxBytes, from: slots[j].rx))
            tx = saturatingSum(tx, rise(interfaces[i].txBytes, from: slots[j].tx))
        }
        // Only now the new reading replaces the old one (the lookups above needed all of it).
        for i in 0..<n {
            slots[i] = Slot(key: NameKey(interfaces[i].name), rx: interfaces[i].rxBytes, tx: interfaces[i].txBytes)
        }
        count = n
        return (rx, tx)
    }

    /// The previous reading as numbers (``MinuteRollup/carried``): how many, then each
    /// interface's name key and counters.
    var carried: [UInt64] {
        var out: [UInt64] = [UInt64(count)]
        for j in 0..<count {
            out += [slots[j].key.low, slots[j].key.high, UInt64(slots[j].key.length), slots[j].rx, slots[j].tx]
        }
        return out
    }

    /// A reading from ``carried``'s numbers; nil when they are not one.
    init?(carried fields: ArraySlice<UInt64?>) {
        guard let first = fields.first, let n = first, n <= UInt64(InterfaceCounters.capacity),
              fields.count == 1 + Int(n) * 5 else { return nil }
        var values: [UInt64] = []
        for field in fields.dropFirst() {
            guard let v = field else { return nil }
            values.append(v)
        }
        for j in 0..<Int(n) {
            let base = j * 5
            guard values[base + 2] <= 4096 else { return nil }
            var key = NameKey()
            key.low = values[base]; key.high = values[base + 1]; key.length = Int(values[base + 2])
            slots[j] = Slot(key: key, rx: values[base + 3], tx: values[base + 4])
        }
        count = Int(n)
    }

    /// The slot of the previous reading holding `key`, if any.
    private func slot(_ key: NameKey) -> Int? {
        for j in 0..<count where slots[j].key == key { return j }
        return nil
    }

    /// How far a counter rose; 0 when it went back (a reset).
    private func rise(_ now: UInt64, from before: UInt64) -> UInt64 {
        now >= before ? now - before : 0
    }
}

/// `a + b`, or `UInt64.max` when that overflows.
func saturatingSum(_ a: UInt64, _ b: UInt64) -> UInt64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? .max : sum
}
