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
    public let value: @Sendable (SnapshotPointer, Int) -> [UInt8]
    /// Replaces entry `i`'s text (keeping its storage).
    let store: @Sendable (inout Snapshot, Int, UnsafeRawBufferPointer) -> Void

    init(maximum: Int, json: StaticString, prometheus label: StaticString?,
         value: @escaping @Sendable (SnapshotPointer, Int) -> [UInt8], store: @escaping @Sendable (inout Snapshot, Int, UnsafeRawBufferPointer) -> Void) {
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
    public let value: @Sendable (SnapshotPointer, Int) -> UInt64
    /// Stores a decoded value into entry `i` (its bits, as ``value`` gives them).
    let store: @Sendable (inout Snapshot, Int, UInt64) -> Void

    init(_ width: FigureWidth, signed: Bool = false, _ unit: FigureUnit, json: StaticString?, as jsonUnit: FigureUnit? = nil,
         prometheus: StaticString?, _ prometheusHelp: StaticString = "", counter: Bool = false,
         value: @escaping @Sendable (SnapshotPointer, Int) -> UInt64, store: @escaping @Sendable (inout Snapshot, Int, UInt64) -> Void) {
        self.width = width; self.signed = signed; self.unit = unit; self.json = json; self.jsonUnit = jsonUnit
        self.prometheus = prometheus; self.prometheusHelp = prometheusHelp; self.counter = counter
        self.value = value; self.store = store
    }

    /// Entry `i`'s figure as a signed number (an unsigned one past `Int64.max` saturates).
    public func number(_ s: SnapshotPointer, _ i: Int) -> Int64 {
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
    public let count: @Sendable (SnapshotPointer) -> Int
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
         count: @escaping @Sendable (SnapshotPointer) -> Int, resize: @escaping @Sendable (inout Snapshot, Int) -> Void) {
        self.tag = tag; self.json = json; self.maximumEntries = maximumEntries; self.texts = texts; self.figures = figures
        self.count = count; self.resize = resize; self.cached = cached
        self.since = since; self.textsLast = textsLast; self.ranked = ranked; self.jsonAlways = jsonAlways
    }

    /// The entries an output shows: the snapshot's, at most the part's limit.
    @inline(__always)
    public func shown(_ s: SnapshotPointer) -> Int { min(count(s), maximumEntries) }
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
        let k = EntryLayout.all.firstIndex { $0.tag == tag }!
        return SectionDescriptor(tag, maximumSize: size, cached: cached, entryLayout: k,
                                 encode: { s, b in EntryLayout.all[k].encode(&s, &b) },
                                 decode: { (r, s) throws(SnapshotDecodeError) in try EntryLayout.all[k].decode(&r, &s) },
                                 clear: { s in EntryLayout.all[k].clear(&s) })
    }
}

/// What a list part's section is written and read by, taken from its tables once and packed
/// in memory kept for the life of the program (as ``FixedLayout``): copied without retaining
/// anything but the contexts of closures that capture (top's lists share one function of
/// their array: a retain and release per call, no allocation).
struct EntryLayout: @unchecked Sendable {
    /// One per section of list parts, in the order of their tags.
    static let all: [EntryLayout] = {
        var layouts: [EntryLayout] = []
        for part in EntryPart.all where !layouts.contains(where: { $0.tag == part.tag }) {
            layouts.append(EntryLayout(part.tag))
        }
        return layouts
    }()

    /// One list of the section.
    struct List {
        let since: UInt16
        let textsLast: Bool
        let maximumEntries: Int
        let count: @Sendable (SnapshotPointer) -> Int
        let resize: @Sendable (inout Snapshot, Int) -> Void
        let texts: UnsafeBufferPointer<Text>
        let figures: UnsafeBufferPointer<Figure>

        init(_ part: EntryPart) {
            since = part.since; textsLast = part.textsLast; maximumEntries = part.maximumEntries
            count = part.count; resize = part.resize
            texts = kept(part.texts.map { Text(value: $0.value, store: $0.store, maximum: $0.maximum) })
            figures = kept(part.figures.map { Figure(value: $0.value, store: $0.store, width: $0.width, signed: $0.signed) })
        }
    }

    /// What the section needs of one text and of one figure, side by side.
    struct Text {
        let value: @Sendable (SnapshotPointer, Int) -> [UInt8]
        let store: @Sendable (inout Snapshot, Int, UnsafeRawBufferPointer) -> Void
        let maximum: Int
    }
    struct Figure {
        let value: @Sendable (SnapshotPointer, Int) -> UInt64
        let store: @Sendable (inout Snapshot, Int, UInt64) -> Void
        let width: FigureWidth
        let signed: Bool
    }

    let tag: SectionTag
    let version: UInt16
    let lists: UnsafeBufferPointer<List>

    init(_ tag: SectionTag) {
        self.tag = tag
        let parts = EntryPart.all.filter { $0.tag == tag }
        version = parts.reduce(1) { max($0, $1.since) }
        lists = kept(parts.map(List.init))
    }

    func encode(_ s: inout Snapshot, _ b: inout EncodeCursor) {
        // Through its address (``SnapshotPointer``), not a copy per figure every sample.
        withUnsafeMutablePointer(to: &s) { p in
            let s = UnsafePointer(p)
            b.appendSection(tag, version: version) { b in
                for l in 0..<lists.count {
                    let list = lists[l]
                    let n = min(list.count(s), list.maximumEntries)
                    b.append(UInt8(n))
                    for i in 0..<n {
                        if !list.textsLast { appendTexts(list, s, i, &b) }
                        for f in 0..<list.figures.count { list.figures[f].width.append(list.figures[f].value(s, i), signed: list.figures[f].signed, to: &b) }
                        if list.textsLast { appendTexts(list, s, i, &b) }
                    }
                }
            }
        }
    }

    private func appendTexts(_ list: List, _ s: SnapshotPointer, _ i: Int, _ b: inout EncodeCursor) {
        for t in 0..<list.texts.count { b.appendShortBytes(list.texts[t].value(s, i), maximum: list.texts[t].maximum) }
    }

    func decode(_ r: inout SnapshotReader, _ s: inout Snapshot) throws(SnapshotDecodeError) {
        for l in 0..<lists.count {
            let list = lists[l]
            if list.since > 1 && r.isAtEnd { list.resize(&s, 0); continue }
            let n = Int(try r.u8())
            guard n <= list.maximumEntries else { throw .malformed(.countOverLimit) }
            list.resize(&s, n)
            for i in 0..<n {
                if !list.textsLast { try readTexts(list, &r, &s, i) }
                for f in 0..<list.figures.count { list.figures[f].store(&s, i, try list.figures[f].width.read(signed: list.figures[f].signed, from: &r)) }
                if list.textsLast { try readTexts(list, &r, &s, i) }
            }
        }
    }

    private func readTexts(_ list: List, _ r: inout SnapshotReader, _ s: inout Snapshot, _ i: Int) throws(SnapshotDecodeError) {
        for t in 0..<list.texts.count { list.texts[t].store(&s, i, try r.shortBytes(maximum: list.texts[t].maximum)) }
    }

    func clear(_ s: inout Snapshot) {
        for l in 0..<lists.count { lists[l].resize(&s, 0) }
    }
}

/// `list`'s elements in memory kept for the life of the program (a table's, made once).
func kept<T>(_ list: [T]) -> UnsafeBufferPointer<T> {
    let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: list.count)
    _ = buffer.initialize(from: list)
    return UnsafeBufferPointer(buffer)
}
