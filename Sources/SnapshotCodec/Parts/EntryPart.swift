// A part of entries of its own (the file systems, the disks' I/O, the sensors): a list of at
// most so many entries, each a few texts (a mount point, a device, a chip and a label) and
// figures, described once by a table (EntryParts.swift declares them). Its section
// (``EntrySection``), its `report --json` member (a list of objects) and its Prometheus
// families (one per figure that has a name, a sample per entry labelled with its texts) are
// made from the table.

/// One text of a list part's entries: at most ``maximum`` bytes from the system, which each
/// output escapes.
public struct EntryText: Sendable {
    let maximum: Int
    /// Its member of the entry's `report --json` object.
    public let json: StaticString
    /// Its label on the entry's Prometheus samples (nil: none).
    public let prometheusLabel: StaticString?
    /// Entry `i`'s text.
    public let value: @Sendable (Snapshot, Int) -> [UInt8]
    /// Replaces entry `i`'s text (keeping its storage).
    let store: @Sendable (inout Snapshot, Int, UnsafeRawBufferPointer) -> Void

    init(maximum: Int, json: StaticString, prometheus label: StaticString?,
         value: @escaping @Sendable (Snapshot, Int) -> [UInt8], store: @escaping @Sendable (inout Snapshot, Int, UnsafeRawBufferPointer) -> Void) {
        self.maximum = maximum; self.json = json; self.prometheusLabel = label; self.value = value; self.store = store
    }
}

/// One figure of a list part's entries, described for every output at once.
public struct EntryFigure: Sendable {
    let width: FigureWidth
    /// Kept as a two's complement of its width (a temperature).
    public let signed: Bool
    public let unit: FigureUnit
    /// Its member of the entry's `report --json` object (nil: none), and how it is written
    /// there where not as its unit says (a file system's KiB as an integer: `.count`).
    public let json: StaticString?
    public let jsonUnit: FigureUnit?
    /// Its Prometheus family (nil: none), its help, and whether it is a counter.
    public let prometheus: StaticString?
    public let prometheusHelp: StaticString
    public let counter: Bool
    /// Entry `i`'s figure, as its bits (a signed one's two's complement): exact for every
    /// value of the field (a file system not measured is `used = UInt64.max`).
    public let value: @Sendable (Snapshot, Int) -> UInt64
    /// Stores a decoded value into entry `i` (its bits, as ``value`` gives them).
    let store: @Sendable (inout Snapshot, Int, UInt64) -> Void

    init(_ width: FigureWidth, signed: Bool = false, _ unit: FigureUnit, json: StaticString?, as jsonUnit: FigureUnit? = nil,
         prometheus: StaticString?, _ prometheusHelp: StaticString = "", counter: Bool = false,
         value: @escaping @Sendable (Snapshot, Int) -> UInt64, store: @escaping @Sendable (inout Snapshot, Int, UInt64) -> Void) {
        self.width = width; self.signed = signed; self.unit = unit; self.json = json; self.jsonUnit = jsonUnit
        self.prometheus = prometheus; self.prometheusHelp = prometheusHelp; self.counter = counter
        self.value = value; self.store = store
    }

    /// Entry `i`'s figure as a signed number (an unsigned one past `Int64.max` saturates).
    public func number(_ s: Snapshot, _ i: Int) -> Int64 {
        let v = value(s, i)
        return signed ? Int64(bitPattern: v) : Int64(clamping: v)
    }
}

/// A list of entries of its own type in the snapshot, and so a part, or one of a part's lists
/// (the top processes by CPU, by memory, by GPU: one section). Declared once (``all``).
public struct EntryPart: Sendable {
    public let tag: SectionTag
    /// Its member in `report --json` (a list, empty where not measured); nil: none.
    public let json: StaticString?
    public let maximumEntries: Int
    public let texts: [EntryText]
    public let figures: [EntryFigure]
    /// How many entries the snapshot has.
    public let count: @Sendable (Snapshot) -> Int
    /// Makes the list `n` entries long, keeping the first ones' storage.
    let resize: @Sendable (inout Snapshot, Int) -> Void
    let cached: Bool
    /// The section version that added the list (a later list of a part's section follows the
    /// others; a reader of an older payload leaves it empty).
    let since: UInt16
    /// An entry's texts follow its figures (a process's name).
    let textsLast: Bool
    /// Its Prometheus samples are ranked (`rank="1"` first), before the texts' labels.
    public let ranked: Bool
    /// `report --json` shows the list whether or not the part was measured (the lists the
    /// sampler clears itself: top, exits).
    public let jsonAlways: Bool

    init(_ tag: SectionTag, json: StaticString?, maximumEntries: Int, texts: [EntryText], figures: [EntryFigure],
         cached: Bool = true, since: UInt16 = 1, textsLast: Bool = false, ranked: Bool = false, jsonAlways: Bool = false,
         count: @escaping @Sendable (Snapshot) -> Int, resize: @escaping @Sendable (inout Snapshot, Int) -> Void) {
        self.tag = tag; self.json = json; self.maximumEntries = maximumEntries; self.texts = texts; self.figures = figures
        self.count = count; self.resize = resize; self.cached = cached
        self.since = since; self.textsLast = textsLast; self.ranked = ranked; self.jsonAlways = jsonAlways
    }

    /// The entries an output shows: the snapshot's, at most the part's limit.
    @inline(__always)
    public func shown(_ s: Snapshot) -> Int { min(count(s), maximumEntries) }

    /// The position in ``all`` of `tag`'s first list, nil when it is not a list part.
    public static func index(of tag: SectionTag) -> Int? {
        for i in 0..<all.count where all[i].tag == tag { return i }
        return nil
    }
}

extension Array {
    /// Makes the array `n` long: the last elements dropped, or `empty` appended.
    @inline(__always)
    mutating func resize(to n: Int, empty: Element) {
        if count > n { removeLast(count - n) }
        while count < n { append(empty) }
    }
}

extension Array where Element == UInt8 {
    /// Replaces the bytes with `bytes`, keeping the storage.
    @inline(__always)
    mutating func replace(with bytes: UnsafeRawBufferPointer) {
        removeAll(keepingCapacity: true)
        append(contentsOf: bytes)
    }
}

/// The section of a list part: per list (in the order of ``EntryPart/all``), a u8 count (at
/// most the list's limit), then per entry its texts (u8 length, bytes) and its figures (each
/// at its width, little-endian) in table order, or its figures then its texts. The version is
/// the newest list's; a list a payload lacks is left empty.
enum EntrySection {
    static func descriptor(_ tag: SectionTag) -> SectionDescriptor {
        var size = 0, cached = false
        for part in EntryPart.all where part.tag == tag {
            let entry = part.texts.reduce(0) { $0 + 1 + $1.maximum } + part.figures.reduce(0) { $0 + $1.width.size }
            size += 1 + part.maximumEntries * entry
            cached = part.cached
        }
        return SectionDescriptor(tag, maximumSize: size, cached: cached,
                                 encode: { s, b in encode(tag, &s, &b) },
                                 decode: { (r, s) throws(SnapshotDecodeError) in try decode(tag, &r, &s) },
                                 clear: { s in for p in 0..<EntryPart.all.count where EntryPart.all[p].tag == tag { EntryPart.all[p].resize(&s, 0) } })
    }

    static func encode(_ tag: SectionTag, _ s: inout Snapshot, _ b: inout EncodeCursor) {
        var version: UInt16 = 1
        for p in 0..<EntryPart.all.count where EntryPart.all[p].tag == tag { version = max(version, EntryPart.all[p].since) }
        b.appendSection(tag, version: version) { b in
            for p in 0..<EntryPart.all.count where EntryPart.all[p].tag == tag {
                let part = EntryPart.all[p]
                let n = part.shown(s)
                b.append(UInt8(n))
                for i in 0..<n {
                    if !part.textsLast { appendTexts(part, s, i, &b) }
                    for f in 0..<part.figures.count { append(part.figures[f], part.figures[f].value(s, i), &b) }
                    if part.textsLast { appendTexts(part, s, i, &b) }
                }
            }
        }
    }

    private static func appendTexts(_ part: EntryPart, _ s: Snapshot, _ i: Int, _ b: inout EncodeCursor) {
        for t in 0..<part.texts.count { b.appendShortBytes(part.texts[t].value(s, i), maximum: part.texts[t].maximum) }
    }

    private static func append(_ f: EntryFigure, _ v: UInt64, _ b: inout EncodeCursor) {
        let n = Int64(bitPattern: v)
        switch f.width {
        case .u8: b.append(f.signed ? UInt8(bitPattern: Int8(clamping: n)) : UInt8(clamping: v))
        case .u16: b.appendLE(f.signed ? UInt16(bitPattern: Int16(clamping: n)) : UInt16(clamping: v))
        case .u32: b.appendLE(f.signed ? UInt32(bitPattern: Int32(clamping: n)) : UInt32(clamping: v))
        case .u64: b.appendLE(v)
        }
    }

    static func decode(_ tag: SectionTag, _ r: inout SnapshotReader, _ s: inout Snapshot) throws(SnapshotDecodeError) {
        for p in 0..<EntryPart.all.count where EntryPart.all[p].tag == tag {
            let part = EntryPart.all[p]
            if part.since > 1 && r.isAtEnd { part.resize(&s, 0); continue }
            let n = Int(try r.u8())
            guard n <= part.maximumEntries else { throw .malformed(.countOverLimit) }
            part.resize(&s, n)
            for i in 0..<n {
                if !part.textsLast { try readTexts(part, &r, &s, i) }
                for f in 0..<part.figures.count { part.figures[f].store(&s, i, try read(part.figures[f], &r)) }
                if part.textsLast { try readTexts(part, &r, &s, i) }
            }
        }
    }

    private static func readTexts(_ part: EntryPart, _ r: inout SnapshotReader, _ s: inout Snapshot, _ i: Int) throws(SnapshotDecodeError) {
        for t in 0..<part.texts.count { part.texts[t].store(&s, i, try r.shortBytes(maximum: part.texts[t].maximum)) }
    }

    private static func read(_ f: EntryFigure, _ r: inout SnapshotReader) throws(SnapshotDecodeError) -> UInt64 {
        switch f.width {
        case .u8: let v = try r.u8(); return f.signed ? UInt64(bitPattern: Int64(Int8(bitPattern: v))) : UInt64(v)
        case .u16: let v = try r.u16(); return f.signed ? UInt64(bitPattern: Int64(Int16(bitPattern: v))) : UInt64(v)
        case .u32: let v = try r.u32(); return f.signed ? UInt64(bitPattern: Int64(Int32(bitPattern: v))) : UInt64(v)
        case .u64: return try r.u64()
        }
    }
}
