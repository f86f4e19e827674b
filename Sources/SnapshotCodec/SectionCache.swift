/// The encoded bytes of the sections whose parts the sampler measures only now and then
/// (every 10 s while no renderer shows them): between two measurements such a part is the
/// same, and its section is copied from here instead of encoded again from the snapshot's
/// arrays of names and addresses (a third of a quiet sample's encoding, callgrind).
///
/// One slot per such part, sized for its section at its limits; a slot holds the section
/// as last encoded. The caller says which parts are unchanged since (``Snapshot/encode(into:cache:unchanged:)``).
///
/// The slots, in encoding order: sampler, network, disks, disk I/O, temperature, frequency.
public final class SectionCache {
    private static let slots = 6

    private let storage: UnsafeMutableRawBufferPointer
    // Unchecked: one writer's, used by one thread, never reentered; checked, the six looks a
    // sample takes at them were six calls into the runtime.
    @exclusivity(unchecked) private var offsets = [Int](repeating: 0, count: SectionCache.slots)
    @exclusivity(unchecked) private var capacities = [Int](repeating: 0, count: SectionCache.slots)
    /// The length of each slot's section; -1: none yet.
    @exclusivity(unchecked) private var lengths = [Int](repeating: -1, count: SectionCache.slots)
    /// Sections copied from the cache rather than encoded, since it was made (tests).
    @exclusivity(unchecked) public private(set) var copies = 0

    public init() {
        let sizes = [SamplerSection.size, NetworkSection.maximumSize, DisksSection.maximumSize,
                     DiskIOSection.maximumSize, TemperatureSection.maximumSize, FrequencySection.size]
        var total = 0
        for i in 0..<sizes.count {
            offsets[i] = total
            capacities[i] = sectionHeaderLength + sizes[i]
            total += capacities[i]
        }
        storage = .allocate(byteCount: total, alignment: 8)
    }

    deinit { storage.deallocate() }

    /// Forgets every slot (a new run of samples, a snapshot from elsewhere).
    public func clear() {
        for i in 0..<lengths.count { lengths[i] = -1 }
    }

    /// Copies `slot`'s section to the cursor; false when the slot is empty.
    func copy(_ slot: Int, to b: inout EncodeCursor) -> Bool {
        let length = lengths[slot]
        guard length >= 0 else { return false }
        b.append(UnsafeRawBufferPointer(start: storage.baseAddress! + offsets[slot], count: length))
        copies &+= 1
        return true
    }

    /// Keeps the section just encoded, `bytes`, in `slot`.
    func keep(_ slot: Int, _ bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count <= capacities[slot], "a section over its maximum size")
        if let from = bytes.baseAddress { (storage.baseAddress! + offsets[slot]).copyMemory(from: from, byteCount: bytes.count) }
        lengths[slot] = bytes.count
    }
}
