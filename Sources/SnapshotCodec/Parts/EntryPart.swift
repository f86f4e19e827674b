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
    /// The section version that added it: a figure added after the first is not in the
    /// entries but a column of its own after them (``EntrySection``).
    let since: UInt16
    /// Its value where a payload predates it.
    let cleared: UInt64

    init(_ width: FigureWidth, signed: Bool = false, _ unit: FigureUnit, json: StaticString?, as jsonUnit: FigureUnit? = nil,
         prometheus: StaticString?, _ prometheusHelp: StaticString = "", counter: Bool = false,
         since: UInt16 = 1, cleared: UInt64 = 0,
         value: @escaping @Sendable (SnapshotPointer, Int) -> UInt64, store: @escaping @Sendable (inout Snapshot, Int, UInt64) -> Void) {
        self.width = width; self.signed = signed; self.unit = unit; self.json = json; self.jsonUnit = jsonUnit
        self.prometheus = prometheus; self.prometheusHelp = prometheusHelp; self.counter = counter
        self.since = since; self.cleared = cleared; self.value = value; self.store = store
    }

    /// Entry `i`'s figure as a signed number (an unsigned one past `Int64.max` saturates).
    public func number(_ s: SnapshotPointer, _ i: Int) -> Int64 {
        let v = value(s, i)
        return signed ? Int64(bitPattern: v) : Int64(clamping: v)
    }
}

/// Where a field of a list part's entries stands in its section: its `n`th text or figure.
enum EntryField: Sendable {
    case text(Int), figure(Int)

    /// As the section's layout keeps it: a figure's index, a text's as its complement.
    var encoded: Int {
        switch self {
        case .text(let t): return ~t
        case .figure(let f): return f
        }
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
    /// The order of an entry's fields in the section: its texts then its figures, its figures
    /// then its texts (a process's name last), or as given (an interface's).
    let fields: [EntryField]
    /// What the section carries after its lists (the network's rate history).
    let tail: FixedTail?
    /// Its Prometheus samples are ranked (`rank="1"` first), before the texts' labels.
    public let ranked: Bool
    /// `report --json` shows the list whether or not the part was measured (the lists the
    /// sampler clears itself: top, exits).
    public let jsonAlways: Bool

    init(_ tag: SectionTag, json: StaticString?, maximumEntries: Int, texts: [EntryText], figures: [EntryFigure],
         cached: Bool = true, since: UInt16 = 1, textsLast: Bool = false, order: [EntryField]? = nil, tail: FixedTail? = nil,
         ranked: Bool = false, jsonAlways: Bool = false,
         count: @escaping @Sendable (SnapshotPointer) -> Int, resize: @escaping @Sendable (inout Snapshot, Int) -> Void) {
        self.tag = tag; self.json = json; self.maximumEntries = maximumEntries; self.texts = texts; self.figures = figures
        self.count = count; self.resize = resize; self.cached = cached
        self.since = since; self.tail = tail; self.ranked = ranked; self.jsonAlways = jsonAlways
        let textFields = texts.indices.map(EntryField.text)
        let figureFields = figures.indices.filter { figures[$0].since == 1 }.map(EntryField.figure)
        fields = order ?? (textsLast ? figureFields + textFields : textFields + figureFields)
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
/// most the list's limit), then per entry its fields in the list's order (``EntryPart/fields``):
/// a text as a u8 length and bytes, a figure at its width, little-endian. Then the part's tail,
/// then per figure added after the first version a column: a u8 count (the entries') and the
/// figure of each. The version is the newest list's or figure's; a list a payload lacks is left
/// empty, a column it lacks leaves the figure at its ``EntryFigure/cleared`` value.
enum EntrySection {
    static func descriptor(_ tag: SectionTag) -> SectionDescriptor {
        var size = 0, cached = false
        for part in EntryPart.all where part.tag == tag {
            let entry = part.texts.reduce(0) { $0 + 1 + $1.maximum } + part.figures.reduce(0) { $0 + $1.width.size }
            size += 1 + part.maximumEntries * entry + (part.tail?.maximumSize ?? 0)
            size += part.figures.filter { $0.since > 1 }.count   // each column's count
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
        /// The entry's fields in the section: a figure's index, or a text's as its complement.
        let fields: UnsafeBufferPointer<Int>
        /// The figures written as columns after the lists, by index.
        let columns: UnsafeBufferPointer<Int>
        let tail: FixedTail?
        let maximumEntries: Int
        let count: @Sendable (SnapshotPointer) -> Int
        let resize: @Sendable (inout Snapshot, Int) -> Void
        let texts: UnsafeBufferPointer<Text>
        let figures: UnsafeBufferPointer<Figure>

        init(_ part: EntryPart) {
            since = part.since; maximumEntries = part.maximumEntries; tail = part.tail
            fields = kept(part.fields.map { $0.encoded })
            columns = kept(part.figures.indices.filter { part.figures[$0].since > 1 })
            count = part.count; resize = part.resize
            texts = kept(part.texts.map { Text(value: $0.value, store: $0.store, maximum: $0.maximum) })
            figures = kept(part.figures.map { Figure(value: $0.value, store: $0.store, width: $0.width, signed: $0.signed, cleared: $0.cleared) })
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
        let cleared: UInt64
    }

    let tag: SectionTag
    let version: UInt16
    let lists: UnsafeBufferPointer<List>

    init(_ tag: SectionTag) {
        self.tag = tag
        let parts = EntryPart.all.filter { $0.tag == tag }
        version = parts.reduce(1) { max($0, $1.since, $1.figures.reduce(1) { max($0, $1.since) }) }
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
                        for k in 0..<list.fields.count {
                            let field = list.fields[k]
                            if field < 0 {
                                let text = list.texts[~field]
                                b.appendShortBytes(text.value(s, i), maximum: text.maximum)
                            } else {
                                append(list.figures[field], s, i, &b)
                            }
                        }
                    }
                }
                for l in 0..<lists.count { lists[l].tail?.encode(&p.pointee, &b) }
                for l in 0..<lists.count where lists[l].columns.count > 0 {
                    let list = lists[l]
                    let n = min(list.count(s), list.maximumEntries)
                    for c in 0..<list.columns.count {
                        b.append(UInt8(n))
                        for i in 0..<n { append(list.figures[list.columns[c]], s, i, &b) }
                    }
                }
            }
        }
    }

    @inline(__always)
    private func append(_ f: Figure, _ s: SnapshotPointer, _ i: Int, _ b: inout EncodeCursor) {
        f.width.append(f.value(s, i), signed: f.signed, to: &b)
    }

    func decode(_ r: inout SnapshotReader, _ s: inout Snapshot) throws(SnapshotDecodeError) {
        for l in 0..<lists.count {
            let list = lists[l]
            if list.since > 1 && r.isAtEnd { list.resize(&s, 0); continue }
            let n = Int(try r.u8())
            guard n <= list.maximumEntries else { throw .malformed(.countOverLimit) }
            list.resize(&s, n)
            for i in 0..<n {
                for k in 0..<list.fields.count {
                    let field = list.fields[k]
                    if field < 0 {
                        let text = list.texts[~field]
                        text.store(&s, i, try r.shortBytes(maximum: text.maximum))
                    } else {
                        let figure = list.figures[field]
                        figure.store(&s, i, try figure.width.read(signed: figure.signed, from: &r))
                    }
                }
                for c in 0..<list.columns.count { list.figures[list.columns[c]].store(&s, i, list.figures[list.columns[c]].cleared) }
            }
        }
        for l in 0..<lists.count { try lists[l].tail?.decode(&r, &s) }
        for l in 0..<lists.count {
            let list = lists[l]
            for c in 0..<list.columns.count {
                guard !r.isAtEnd else { return }   // a payload from before the column
                let figure = list.figures[list.columns[c]]
                let given = Int(try r.u8())
                guard given <= list.maximumEntries else { throw .malformed(.countOverLimit) }
                let n = withUnsafeMutablePointer(to: &s) { list.count(UnsafePointer($0)) }
                for i in 0..<given {
                    let v = try figure.width.read(signed: figure.signed, from: &r)
                    if i < n { figure.store(&s, i, v) }
                }
            }
        }
    }

    func clear(_ s: inout Snapshot) {
        for l in 0..<lists.count { lists[l].resize(&s, 0); lists[l].tail?.clear(&s) }
    }
}

/// `list`'s elements in memory kept for the life of the program (a table's, made once).
func kept<T>(_ list: [T]) -> UnsafeBufferPointer<T> {
    let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: list.count)
    _ = buffer.initialize(from: list)
    return UnsafeBufferPointer(buffer)
}
