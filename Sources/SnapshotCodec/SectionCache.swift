import CDirect

/// The encoded bytes of the sections whose parts the sampler measures only now and then
/// (every 10 s while no renderer shows them): between two measurements such a part is the
/// same, and its section is copied from here instead of encoded again from the snapshot's
/// arrays of names and addresses (a third of a quiet sample's encoding, callgrind).
///
/// One slot per such part, big enough for its section at its limits, the slots packed in
/// encoding order: each section begins where the one before it ends, so that the ones a
/// quiet sample copies lie together (slots each at the start of room for its limits spread
/// them over four pages, each a TLB miss at one sample a second). A section kept at a new
/// length moves the ones after it (rare: a part's section changes length when it changes).
/// A slot holds the section as last encoded. The caller says which parts are unchanged
/// since (``Snapshot/encode(into:cache:unchanged:)``).
///
/// The slots, in encoding order: ``SectionTag/cachedPayloads``'s.
public final class SectionCache {
    private let storage: UnsafeMutableRawBufferPointer
    /// The most each slot may hold: its section at its limits.
    private let capacities: [Int]
    /// Per slot, side by side: where its section begins in `storage`, and its length (-1:
    /// none yet). Unchecked: one writer's, used by one thread, never reentered; checked, the
    /// looks a sample takes at them were calls into the runtime.
    @exclusivity(unchecked) private var places: [Int]
    /// Sections copied from the cache rather than encoded, since it was made (tests).
    @exclusivity(unchecked) public private(set) var copies = 0

    /// How many slots: ``SectionTag/cachedPayloads``'s count.
    private var slots: Int { capacities.count }

    private static func empty(slots: Int) -> [Int] {
        var places = [Int](repeating: 0, count: 2 * slots)
        for i in 0..<slots { places[2 * i + 1] = -1 }
        return places
    }

    public init() {
        capacities = SectionTag.cachedPayloads.map { sectionHeaderLength + $0 }
        storage = .allocate(byteCount: capacities.reduce(0, +), alignment: 8)
        places = SectionCache.empty(slots: capacities.count)
    }

    deinit { storage.deallocate() }

    /// Forgets every slot (a new run of samples, a snapshot from elsewhere).
    public func clear() {
        places = SectionCache.empty(slots: slots)
    }

    /// Copies `slot`'s section to the cursor; false when the slot is empty.
    func copy(_ slot: Int, to b: inout EncodeCursor) -> Bool {
        let length = places[2 &* slot &+ 1]
        guard length >= 0 else { return false }
        b.append(UnsafeRawBufferPointer(start: storage.baseAddress! + places[2 &* slot], count: length))
        copies &+= 1
        return true
    }

    /// Keeps the section just encoded, `bytes`, in `slot`.
    func keep(_ slot: Int, _ bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count <= capacities[slot], "a section over its maximum size")
        let base = storage.baseAddress!
        let start = places[2 * slot], old = max(places[2 * slot + 1], 0)
        if bytes.count != old {
            // The sections after it move to where it now ends. Each slot holds at most its
            // capacity, so they all fit in the storage (the sum of the capacities).
            let last = 2 * (slots - 1)
            let end = places[last] + max(places[last + 1], 0)
            if slot < slots - 1 && end > start + old {
                (base + start + bytes.count).copyMemory(from: base + start + old, byteCount: end - (start + old))
            }
            for later in (slot + 1)..<slots { places[2 * later] += bytes.count - old }
        }
        if let from = bytes.baseAddress { cdirect_copy(base + start, from, bytes.count) }
        places[2 * slot + 1] = bytes.count
    }
}
