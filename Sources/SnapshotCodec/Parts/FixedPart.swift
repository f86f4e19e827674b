// A fixed part: a few figures of its own, each a field of ``Snapshot`` (the uptime, the load,
// the memory parts), described once by a figure table. Its section (``FixedSection``), its
// `report --json` members and its Prometheus families are made from the table
// (FixedParts.swift declares them); what a part carries besides its figures (the CPU's cores
// and histories, the memory's history) is its ``FixedTail``.

/// The snapshot a table's closures read, by its address: a closure handed a `Snapshot` value
/// gets a copy of it (each of its arrays retained and released), a closure handed its address
/// reads the one field it names (`{ $0.pointee.load1 }`).
public typealias SnapshotPointer = UnsafePointer<Snapshot>

/// How a figure is kept in its section: a little-endian integer of this width (unsigned, or a
/// list part's signed figure as its two's complement).
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

    /// Writes `v` at this width: an unsigned one saturating, a signed one (`v` the bits of an
    /// `Int64`) as the two's complement of its value, saturating.
    func append(_ v: UInt64, signed: Bool, to b: inout EncodeCursor) {
        let n = Int64(bitPattern: v)
        switch self {
        case .u8: b.append(signed ? UInt8(bitPattern: Int8(clamping: n)) : UInt8(clamping: v))
        case .u16: b.appendLE(signed ? UInt16(bitPattern: Int16(clamping: n)) : UInt16(clamping: v))
        case .u32: b.appendLE(signed ? UInt32(bitPattern: Int32(clamping: n)) : UInt32(clamping: v))
        case .u64: b.appendLE(v)
        }
    }

    /// Reads a value of this width: an unsigned one as it is, a signed one as its `Int64`'s bits.
    func read(signed: Bool, from r: inout SnapshotReader) throws(SnapshotDecodeError) -> UInt64 {
        switch self {
        case .u8: let v = try r.u8(); return signed ? UInt64(bitPattern: Int64(Int8(bitPattern: v))) : UInt64(v)
        case .u16: let v = try r.u16(); return signed ? UInt64(bitPattern: Int64(Int16(bitPattern: v))) : UInt64(v)
        case .u32: let v = try r.u32(); return signed ? UInt64(bitPattern: Int64(Int32(bitPattern: v))) : UInt64(v)
        case .u64: return try r.u64()
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
    /// The most its Prometheus sample says (the batteries' charge, a whole at most, as it always
    /// was there; the section and `report --json` keep the value as it is).
    public let prometheusMaximum: UInt64
    /// The section version that first carried it: 1 for the first layout. A figure added later
    /// is appended to the table with a higher version, and a reader of an older section leaves
    /// it at ``cleared``.
    public let since: UInt16
    /// Its field of the snapshot, read through the snapshot's address (``SnapshotPointer``).
    public let value: @Sendable (SnapshotPointer) -> UInt64
    /// Stores a decoded value, saturating to the field's type.
    let store: @Sendable (inout Snapshot, UInt64) -> Void
    /// What the field holds when the part is not measured (the battery's unknown time: `.max`).
    let cleared: UInt64
    /// Whether a measured part gives the figure (nil: always): a figure not given is no
    /// Prometheus sample and a null (or absent) `report --json` member.
    public let given: (@Sendable (SnapshotPointer) -> Bool)?
    /// An enumerated figure's states: `report --json` writes the name, Prometheus one sample per
    /// state labelled `prometheusLabel` (1 for the figure's, 0 for the others), and the decoder
    /// refuses a value past them with `refusal`.
    public let states: [StaticString]?
    let refusal: SnapshotDecodeError.Malformation

    init(_ width: FigureWidth, _ unit: FigureUnit, json: StaticString?, prometheus: StaticString?,
         _ prometheusHelp: StaticString = "", label: StaticString? = nil, _ labelValue: StaticString = "",
         since: UInt16 = 1, cleared: UInt64 = 0, prometheusMaximum: UInt64 = .max,
         given: (@Sendable (SnapshotPointer) -> Bool)? = nil,
         states: [StaticString]? = nil, refusal: SnapshotDecodeError.Malformation = .countOverLimit,
         value: @escaping @Sendable (SnapshotPointer) -> UInt64, store: @escaping @Sendable (inout Snapshot, UInt64) -> Void) {
        self.width = width; self.unit = unit; self.json = json; self.prometheus = prometheus
        self.prometheusHelp = prometheusHelp; self.prometheusLabel = label; self.prometheusLabelValue = labelValue
        self.since = since; self.value = value; self.store = store; self.cleared = cleared; self.given = given
        self.states = states; self.refusal = refusal; self.prometheusMaximum = prometheusMaximum
    }

    /// Whether `s`, its part measured, gives the figure.
    @inline(__always)
    public func isGiven(_ s: SnapshotPointer) -> Bool { given?(s) ?? true }
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
    let present: (@Sendable (SnapshotPointer) -> Bool)?

    init(_ tag: SectionTag, figures: [FixedFigure], exportOrder: [Int]? = nil, tail: FixedTail? = nil,
         cached: Bool = false, present: (@Sendable (SnapshotPointer) -> Bool)? = nil) {
        self.tag = tag; self.figures = figures; self.exportOrder = exportOrder; self.tail = tail
        self.cached = cached; self.present = present
    }

    /// Its bit in ``Snapshot/available`` (nil for pressure, whose presence is its value's).
    public var part: SnapshotSections? { SnapshotSections(tag: tag) }

    /// Whether `s` has the part's figures: its bit is set, or (pressure) its value is.
    @inline(__always)
    public func isMeasured(_ s: SnapshotPointer) -> Bool {
        if let present { return present(s) }
        return s.pointee.available.contains(part ?? [])
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
/// older writer's leaves them at their cleared values) and ignores what follows them.
enum FixedSection {
    /// Its descriptor: the encoder, decoder and clearing go to ``FixedLayout/all``'s entry
    /// (the section list dispatches on ``SectionDescriptor/fixedLayout``: a closure holding the
    /// layout would be retained and released at each use, every sample).
    static func descriptor(_ part: FixedPart) -> SectionDescriptor {
        let k = FixedPart.index(of: part.tag)!
        let size = part.figures.reduce(part.tail?.maximumSize ?? 0) { $0 + $1.width.size }
        // Pressure has no bit to clear by: its absence is its value's.
        var clearing: (@Sendable (inout Snapshot) -> Void)? = nil
        if part.present == nil { clearing = { @Sendable s in FixedLayout.all[k].clear(&s) } }
        return SectionDescriptor(part.tag, maximumSize: size, cached: part.cached, fixedLayout: k,
                                 encode: { s, b in FixedLayout.all[k].encode(&s, &b) },
                                 decode: { (r, s) throws(SnapshotDecodeError) in try FixedLayout.all[k].decode(&r, &s) },
                                 clear: clearing)
    }
}

/// What a fixed part's section is written and read by, taken from its table once: each
/// figure's width, version and fields packed side by side (``Figure``), every part's in one
/// block kept for the life of the program. Every sample's encoding touches these few lines,
/// not the table's names and helps for the other outputs, and a layout is copied without
/// retaining anything (its closures capture nothing), where one holding arrays was a dozen
/// retains and releases per section, every sample.
struct FixedLayout: @unchecked Sendable {
    /// One per ``FixedPart/all``, in its order.
    static let all: [FixedLayout] = {
        let figures = kept(FixedPart.all.flatMap { $0.figures.map(Figure.init) })
        var layouts: [FixedLayout] = [], start = 0
        for part in FixedPart.all {
            layouts.append(FixedLayout(part, UnsafeBufferPointer(rebasing: figures[start..<start + part.figures.count])))
            start += part.figures.count
        }
        return layouts
    }()

    /// What the section needs of one figure.
    struct Figure {
        let value: @Sendable (SnapshotPointer) -> UInt64
        let store: @Sendable (inout Snapshot, UInt64) -> Void
        let cleared: UInt64
        let since: UInt16
        let width: FigureWidth
        /// An enumerated figure's count of states (0: not enumerated), and its refusal.
        let states: UInt8
        let refusal: SnapshotDecodeError.Malformation

        init(_ f: FixedFigure) {
            value = f.value; store = f.store; cleared = f.cleared; since = f.since; width = f.width
            states = UInt8(clamping: f.states?.count ?? 0); refusal = f.refusal
        }
    }

    let tag: SectionTag
    let version: UInt16
    let figures: UnsafeBufferPointer<Figure>
    let tail: FixedTail?
    let present: (@Sendable (SnapshotPointer) -> Bool)?

    init(_ part: FixedPart, _ figures: UnsafeBufferPointer<Figure>) {
        tag = part.tag
        version = part.figures.reduce(1) { max($0, $1.since) }
        self.figures = figures
        tail = part.tail
        present = part.present
    }

    func encode(_ s: inout Snapshot, _ b: inout EncodeCursor) {
        // Through its address (``SnapshotPointer``), not a copy per figure every sample.
        withUnsafeMutablePointer(to: &s) { p in
            if let present, !present(p) { return }
            b.appendSection(tag, version: version) { b in
                for i in 0..<figures.count where figures[i].since == 1 { figures[i].width.append(figures[i].value(p), signed: false, to: &b) }
                tail?.encode(&p.pointee, &b)
                for i in 0..<figures.count where figures[i].since > 1 { figures[i].width.append(figures[i].value(p), signed: false, to: &b) }
            }
        }
    }

    func decode(_ r: inout SnapshotReader, _ s: inout Snapshot) throws(SnapshotDecodeError) {
        for i in 0..<figures.count where figures[i].since == 1 { try read(figures[i], &r, &s) }
        try tail?.decode(&r, &s)
        for i in 0..<figures.count where figures[i].since > 1 {
            if r.isAtEnd { figures[i].store(&s, figures[i].cleared) } else { try read(figures[i], &r, &s) }
        }
    }

    private func read(_ f: Figure, _ r: inout SnapshotReader, _ s: inout Snapshot) throws(SnapshotDecodeError) {
        let v = try f.width.read(signed: false, from: &r)
        if f.states > 0, v >= UInt64(f.states) { throw .malformed(f.refusal) }
        f.store(&s, v)
    }

    func clear(_ s: inout Snapshot) {
        for i in 0..<figures.count { figures[i].store(&s, figures[i].cleared) }
        tail?.clear(&s)
    }
}
