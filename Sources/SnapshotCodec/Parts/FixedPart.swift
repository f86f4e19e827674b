// A fixed part: a few figures of its own, each a field of ``Snapshot`` (the uptime, the load,
// the memory parts), described once by a figure table. Its section (``FixedSection``), its
// `report --json` members and its Prometheus families are made from the table
// (FixedParts.swift declares them); what a part carries besides its figures (the CPU's cores
// and histories, the memory's history) is its ``FixedTail``.

/// How a fixed figure is kept in its section: a little-endian unsigned integer of this width.
public enum FigureWidth: Sendable {
    case u8, u16, u32, u64

    /// Its bytes.
    @inlinable public var size: Int {
        switch self {
        case .u8: 1
        case .u16: 2
        case .u32: 4
        case .u64: 8
        }
    }
}

/// One figure of a fixed part, described for every output at once: how its section keeps it,
/// its unit (which says how each output writes it), the field of ``Snapshot`` it is, and its
/// names: its `report --json` member and its Prometheus family.
public struct FixedFigure: Sendable {
    public let width: FigureWidth
    public let unit: FigureUnit
    /// Its `report --json` member: `name`, `object.name` (a member of the part's object), or
    /// `name[]` (the next item of an array); nil: none.
    public let json: StaticString?
    /// Its Prometheus family (nil: none), its help, and its label where several figures share
    /// one family (`part` = `free`).
    public let prometheus: StaticString?
    public let prometheusHelp: StaticString
    public let prometheusLabel: StaticString?
    public let prometheusLabelValue: StaticString
    /// The section version that first carried it: 1 for the first layout. A figure added later
    /// is appended to the table with a higher version, and a reader of an older section leaves
    /// it 0.
    public let since: UInt16
    /// Its field of the snapshot.
    public let value: @Sendable (Snapshot) -> UInt64
    /// Stores a decoded value, saturating to the field's type.
    let store: @Sendable (inout Snapshot, UInt64) -> Void
    /// What the field holds when the part is not measured (the battery's unknown time: `.max`).
    let cleared: UInt64
    /// Whether a measured part gives the figure (nil: always): a figure not given is no
    /// Prometheus sample and a null (or absent) `report --json` member.
    public let given: (@Sendable (Snapshot) -> Bool)?
    /// An enumerated figure's states: `report --json` writes the name, Prometheus one sample per
    /// state labelled `prometheusLabel` (1 for the figure's, 0 for the others), and the decoder
    /// refuses a value past them with `refusal`.
    public let states: [StaticString]?
    let refusal: SnapshotDecodeError.Malformation

    init(_ width: FigureWidth, _ unit: FigureUnit, json: StaticString?, prometheus: StaticString?,
         _ prometheusHelp: StaticString = "", label: StaticString? = nil, _ labelValue: StaticString = "",
         since: UInt16 = 1, cleared: UInt64 = 0, given: (@Sendable (Snapshot) -> Bool)? = nil,
         states: [StaticString]? = nil, refusal: SnapshotDecodeError.Malformation = .countOverLimit,
         value: @escaping @Sendable (Snapshot) -> UInt64, store: @escaping @Sendable (inout Snapshot, UInt64) -> Void) {
        self.width = width; self.unit = unit; self.json = json; self.prometheus = prometheus
        self.prometheusHelp = prometheusHelp; self.prometheusLabel = label; self.prometheusLabelValue = labelValue
        self.since = since; self.value = value; self.store = store; self.cleared = cleared; self.given = given
        self.states = states; self.refusal = refusal
    }

    /// Whether `s`, its part measured, gives the figure.
    @inline(__always)
    public func isGiven(_ s: Snapshot) -> Bool { given?(s) ?? true }
}

/// What a fixed part's section carries after its first figures (the CPU's cores and
/// histories, the memory's history): written and read by the part's own code.
struct FixedTail: Sendable {
    let maximumSize: Int
    let encode: @Sendable (inout Snapshot, inout EncodeCursor) -> Void
    let decode: @Sendable (inout SnapshotReader, inout Snapshot) throws(SnapshotDecodeError) -> Void
    let clear: @Sendable (inout Snapshot) -> Void
}

/// A part whose figures are fields of ``Snapshot``. Declared once (``all``); its section, its
/// `report --json` members and its Prometheus families go through the declaration.
public struct FixedPart: Sendable {
    public let tag: SectionTag
    /// Its figures, in the order of its section; only ever appended.
    public let figures: [FixedFigure]
    /// The figures' order in the Prometheus text, where it is not the table's (the memory
    /// parts' family first).
    let exportOrder: [Int]?
    let tail: FixedTail?
    /// Measured now and then: its section is kept in a ``SectionCache`` slot.
    let cached: Bool
    /// A part without a bit in ``Snapshot/available`` (pressure): whether the snapshot has it.
    let present: (@Sendable (Snapshot) -> Bool)?

    init(_ tag: SectionTag, figures: [FixedFigure], exportOrder: [Int]? = nil, tail: FixedTail? = nil,
         cached: Bool = false, present: (@Sendable (Snapshot) -> Bool)? = nil) {
        self.tag = tag; self.figures = figures; self.exportOrder = exportOrder; self.tail = tail
        self.cached = cached; self.present = present
    }

    /// Its bit in ``Snapshot/available`` (nil for pressure, whose presence is its value's).
    public var part: SnapshotSections? { SnapshotSections(tag: tag) }

    /// Whether `s` has the part's figures: its bit is set, or (pressure) its value is.
    @inline(__always)
    public func isMeasured(_ s: Snapshot) -> Bool {
        if let present { return present(s) }
        return s.available.contains(part ?? [])
    }

    /// The figure written `k`th in the Prometheus text.
    @inline(__always)
    public func exported(_ k: Int) -> FixedFigure { figures[exportOrder?[k] ?? k] }

    /// The position in ``all`` of `tag`'s part, nil when it is not a fixed part.
    public static func index(of tag: SectionTag) -> Int? {
        for i in 0..<all.count where all[i].tag == tag { return i }
        return nil
    }

    /// The fixed part whose section is `tag`.
    public static func named(_ tag: SectionTag) -> FixedPart {
        all[index(of: tag)!]
    }
}

/// The section of a fixed part: its figures of version 1 in table order, each at its width,
/// then its tail, then the figures added later (version 2 on) in table order. The section's
/// version is its newest figure's. A reader takes the later figures the payload has (an
/// older writer's leaves them 0) and ignores what follows them.
enum FixedSection {
    static func descriptor(_ part: FixedPart) -> SectionDescriptor {
        let tag = part.tag
        let size = part.figures.reduce(part.tail?.maximumSize ?? 0) { $0 + $1.width.size }
        // Pressure has no bit to clear by: its absence is its value's.
        var clearing: (@Sendable (inout Snapshot) -> Void)? = nil
        if part.present == nil { clearing = { @Sendable s in clear(tag, &s) } }
        return SectionDescriptor(tag, maximumSize: size, cached: part.cached,
                                 encode: { s, b in encode(tag, &s, &b) },
                                 decode: { (r, s) throws(SnapshotDecodeError) in try decode(tag, &r, &s) },
                                 clear: clearing)
    }

    static func encode(_ tag: SectionTag, _ s: inout Snapshot, _ b: inout EncodeCursor) {
        guard let index = FixedPart.index(of: tag) else { return }
        let part = FixedPart.all[index]
        if let present = part.present, !present(s) { return }
        var version: UInt16 = 1
        for i in 0..<part.figures.count { version = max(version, part.figures[i].since) }
        b.appendSection(tag, version: version) { b in
            for i in 0..<part.figures.count where part.figures[i].since == 1 { append(part.figures[i], s, &b) }
            part.tail?.encode(&s, &b)
            for i in 0..<part.figures.count where part.figures[i].since > 1 { append(part.figures[i], s, &b) }
        }
    }

    private static func append(_ f: FixedFigure, _ s: Snapshot, _ b: inout EncodeCursor) {
        let v = f.value(s)
        switch f.width {
        case .u8: b.append(UInt8(clamping: v))
        case .u16: b.appendLE(UInt16(clamping: v))
        case .u32: b.appendLE(UInt32(clamping: v))
        case .u64: b.appendLE(v)
        }
    }

    static func decode(_ tag: SectionTag, _ r: inout SnapshotReader, _ s: inout Snapshot) throws(SnapshotDecodeError) {
        guard let index = FixedPart.index(of: tag) else { return }
        let part = FixedPart.all[index]
        for i in 0..<part.figures.count where part.figures[i].since == 1 { try read(part.figures[i], &r, &s) }
        try part.tail?.decode(&r, &s)
        for i in 0..<part.figures.count where part.figures[i].since > 1 {
            if r.isAtEnd { part.figures[i].store(&s, part.figures[i].cleared) } else { try read(part.figures[i], &r, &s) }
        }
    }

    private static func read(_ f: FixedFigure, _ r: inout SnapshotReader, _ s: inout Snapshot) throws(SnapshotDecodeError) {
        let v: UInt64
        switch f.width {
        case .u8: v = UInt64(try r.u8())
        case .u16: v = UInt64(try r.u16())
        case .u32: v = UInt64(try r.u32())
        case .u64: v = try r.u64()
        }
        if let states = f.states, v >= UInt64(states.count) { throw .malformed(f.refusal) }
        f.store(&s, v)
    }

    static func clear(_ tag: SectionTag, _ s: inout Snapshot) {
        guard let index = FixedPart.index(of: tag) else { return }
        let part = FixedPart.all[index]
        for i in 0..<part.figures.count { part.figures[i].store(&s, part.figures[i].cleared) }
        part.tail?.clear(&s)
    }
}
