// Every section of format v3, in one place: its tag and its descriptor. A part's identity is
// its tag: its bit in ``SnapshotSections`` is derived from it (``SnapshotSections/init(tag:)``).
// A new listed part (a list of labelled readings, ``ListedPart``) is its file in Parts/, a
// tag here and its line in ``ListedPart/all``; its section, block, `report --json` member
// and Prometheus families are made from its table, as a fixed part's (a few figures of
// its own, ``FixedPart``) are from its line in Parts/FixedParts.swift, and a list part's
// (entries of texts and figures, ``EntryPart``) from Parts/EntryParts.swift. A part of its own layout is its file in
// this folder (its fields' encoding and its `descriptor`), a tag and a line in the table
// below, and its fields in Snapshot.swift; nothing else in the codec names sections one by one.

/// The tag of each section. A number is never reused: a new part gets a new tag, and a
/// change that is not an append gets a new tag too.
public enum SectionTag: UInt16, Sendable, CaseIterable {
    /// Required: timestamp, interval, urgent flags.
    case meta = 1
    case uptime = 2
    case cpu = 3
    case memory = 4
    /// Absent when the kernel has no PSI.
    case pressure = 5
    case load = 6
    case processes = 7
    case battery = 8
    case top = 9
    case exits = 10
    case sampler = 11
    case network = 12
    case disks = 13
    case diskIO = 14
    case temperature = 15
    case frequency = 16
    case gpu = 17
    /// A listed part (``FansPart``).
    case fans = 18
    /// A listed part (``PowerPart``).
    case power = 19
    /// A listed part (``BacklightPart``).
    case backlight = 20
    /// Listed parts (``VolumePart``, ``MicrophonePart``).
    case volume = 21
    case microphone = 22
    /// A listed part (``MediaPart``).
    case media = 23
    /// A listed part (``UnitsPart``).
    case units = 24
}

extension SnapshotSections {
    /// The bit of the part whose section is `tag`; nil for meta (required) and pressure
    /// (``Snapshot/memoryPressure`` is nil without it). Tags 2–4 are bits 0–2 and tags from 6
    /// on are bits 3 on: one identity per part, no second list to keep in step.
    public init?(tag: SectionTag) {
        let t = UInt32(tag.rawValue)
        guard t != SectionTag.meta.rawValue, t != SectionTag.pressure.rawValue else { return nil }
        self.init(rawValue: 1 << (t < 5 ? t &- 2 : t &- 3))
    }
}

/// What the codec knows of one section, declared once in its file (`static let descriptor`)
/// and listed in ``SectionTag/descriptors``: the encoder, the decoder, the section cache and
/// the file's size limit go through that list, never through the sections one by one.
struct SectionDescriptor: Sendable {
    let tag: SectionTag
    /// The part of ``Snapshot/available`` the section carries (derived from the tag); nil for
    /// meta (required) and pressure (``Snapshot/memoryPressure`` is nil without it): those
    /// two write themselves always, or when they have something to say.
    let part: SnapshotSections?
    /// The largest payload, at the part's limits (``SnapshotFormat/maximumV3Size``).
    let maximumSize: Int
    /// A part the sampler measures only now and then: its encoding is kept in a
    /// ``SectionCache`` slot and copied while the part is unchanged.
    let cached: Bool
    let encode: @Sendable (inout Snapshot, inout EncodeCursor) -> Void
    let decode: @Sendable (inout SnapshotReader, inout Snapshot) throws(SnapshotDecodeError) -> Void
    /// Resets the part's fields when it is not available; nil for meta and pressure.
    let clear: (@Sendable (inout Snapshot) -> Void)?
    /// A fixed part's section: its position in ``FixedLayout/all``, which the encoder and
    /// decoder call directly (-1: none; the closures above say the same, for the rest).
    let fixedLayout: Int
    /// A list part's section: its position in ``EntryLayout/all`` (-1: none), likewise.
    let entryLayout: Int

    init(_ tag: SectionTag, maximumSize: Int, cached: Bool = false, fixedLayout: Int = -1, entryLayout: Int = -1,
         encode: @escaping @Sendable (inout Snapshot, inout EncodeCursor) -> Void,
         decode: @escaping @Sendable (inout SnapshotReader, inout Snapshot) throws(SnapshotDecodeError) -> Void,
         clear: (@Sendable (inout Snapshot) -> Void)?) {
        self.tag = tag
        self.part = SnapshotSections(tag: tag)
        self.maximumSize = maximumSize
        self.cached = cached
        self.encode = encode
        self.decode = decode
        self.clear = clear
        self.fixedLayout = fixedLayout
        self.entryLayout = entryLayout
    }
}

extension SectionTag {
    /// Every section's descriptor, in the order of the tags (a test checks it): also the
    /// order in which the encoder writes them.
    static let descriptors: [SectionDescriptor] = [
        MetaSection.descriptor, fixed(.uptime), fixed(.cpu), fixed(.memory), fixed(.pressure), fixed(.load),
        fixed(.processes), fixed(.battery), entries(.top), entries(.exits), fixed(.sampler),
        entries(.network), entries(.disks), entries(.diskIO), entries(.temperature),
        fixed(.frequency), GPUSection.descriptor,
    ] + ListedPart.all.map(ListedSection.descriptor)

    /// A fixed part's section (``FixedPart``).
    private static func fixed(_ tag: SectionTag) -> SectionDescriptor { FixedSection.descriptor(FixedPart.named(tag)) }

    /// A list part's section (``EntryPart``).
    private static func entries(_ tag: SectionTag) -> SectionDescriptor { EntrySection.descriptor(tag) }

    /// The section's descriptor.
    var descriptor: SectionDescriptor { Self.descriptors[Int(rawValue) &- 1] }

    /// The part of ``Snapshot/available`` the section carries (``SectionDescriptor/part``).
    var part: SnapshotSections? { descriptor.part }

    /// The highest tag: tags run from 1 without a gap, so also how many there are (a
    /// constant, where `allCases.count` would build an array at the first encode).
    public static let highest = SectionTag.units

    /// Every part's bit: ``SnapshotSections/all``.
    static let allParts: SnapshotSections = descriptors.reduce([]) { $0.union($1.part ?? []) }

    /// The payloads of every section at their limits (``SnapshotFormat/maximumV3Size``).
    static let maximumPayloads = descriptors.reduce(0) { $0 + $1.maximumSize }

    /// The largest payload of each section a ``SectionCache`` keeps, in the order of its slots:
    /// the cached sections in encoding order.
    static var cachedPayloads: [Int] {
        var sizes: [Int] = []
        for d in descriptors where d.cached { sizes.append(d.maximumSize) }
        return sizes
    }
}

extension Snapshot {
    /// The meta section, then one section per available part (and pressure when set).
    @inline(__always)
    static func encodeSections(_ s: inout Snapshot, _ b: inout EncodeCursor, _ cache: SectionCache?,
                               _ unchanged: SnapshotSections) {
        let all = SectionTag.descriptors
        var slot = 0
        // Indices, not `for d in`: an unspecialized (debug) array iterator allocates.
        for i in 0..<all.count {
            guard let part = all[i].part else { encodeSection(i, &s, &b); continue }
            if all[i].cached {
                encodeSection(&s, slot, part, &b, cache, unchanged, i)
                slot &+= 1
            } else if s.available.contains(part) {
                encodeSection(i, &s, &b)
            }
        }
    }

    /// Descriptor `i`'s section, a fixed part's by its layout (no closure to retain).
    @inline(__always)
    private static func encodeSection(_ i: Int, _ s: inout Snapshot, _ b: inout EncodeCursor) {
        let k = SectionTag.descriptors[i].fixedLayout, e = SectionTag.descriptors[i].entryLayout
        if k >= 0 { FixedLayout.all[k].encode(&s, &b) } else if e >= 0 { EntryLayout.all[e].encode(&s, &b) }
        else { SectionTag.descriptors[i].encode(&s, &b) }
    }

    /// The section of `part`, when available: copied from the cache's `slot` when the part is
    /// unchanged and the slot holds it, else encoded by `encode` (and kept in the slot).
    @inline(__always)
    private static func encodeSection(_ s: inout Snapshot, _ slot: Int, _ part: SnapshotSections, _ b: inout EncodeCursor,
                                      _ cache: SectionCache?, _ unchanged: SnapshotSections, _ i: Int) {
        guard s.available.contains(part) else { return }
        if let cache, unchanged.contains(part), cache.copy(slot, to: &b) { return }
        let start = b.count
        encodeSection(i, &s, &b)
        cache?.keep(slot, b.bytes(from: start))
    }

    /// Resets every part not in ``available``: what was not there (or was damaged) is never
    /// left over from the last file.
    mutating func clearAbsentParts() {
        clearParts(notIn: [])
    }

    /// Resets the parts format v1 and v2 do not have (and v3's, when their section is not there).
    mutating func clearNewerParts() {
        clearParts(notIn: .fixedLayout)
    }

    /// Resets each part outside `kept` that is not in ``available``.
    private mutating func clearParts(notIn kept: SnapshotSections) {
        let all = SectionTag.descriptors
        for i in 0..<all.count {
            guard let part = all[i].part, let clear = all[i].clear,
                  !kept.contains(part), !available.contains(part) else { continue }
            clear(&self)
        }
    }

    /// Reads `tag`'s payload into its fields.
    mutating func decodeSection(_ tag: SectionTag, _ payload: inout SnapshotReader) throws(SnapshotDecodeError) {
        let i = Int(tag.rawValue) &- 1
        let k = SectionTag.descriptors[i].fixedLayout, e = SectionTag.descriptors[i].entryLayout
        if k >= 0 { try FixedLayout.all[k].decode(&payload, &self) } else if e >= 0 { try EntryLayout.all[e].decode(&payload, &self) }
        else { try SectionTag.descriptors[i].decode(&payload, &self) }
    }
}

extension ListedPart {
    /// Every listed part, in the order of their tags (their sections follow the others').
    /// A new one: its declaration in Parts/, its tag above, and its line here.
    public static let all: [ListedPart] = [
        FansPart.part,
        PowerPart.part,
        BacklightPart.part,
        VolumePart.part,
        MicrophonePart.part,
        MediaPart.part,
        UnitsPart.part,
    ]
}
