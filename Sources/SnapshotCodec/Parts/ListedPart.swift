// A listed part: a list of labelled readings (the fans, the power sources), described once by
// a figure table. Its section (ListedSection.swift), its default block, its `report --json`
// member and its Prometheus families are all made from the table: a new part of this kind is
// its declaration in a file of this folder, its tag and its line in ``ListedPart/all``, its
// reader and its probe's line in the sampler (docs/architecture.md, "Recipe: add a part").

/// One figure of a listed part, described for every output at once: its unit (which says how
/// each output writes it) and its names: the block's placeholder and its manual line, the
/// member of the reading's `report --json` object, and the Prometheus family (nil: none).
public struct PartFigure: Sendable {
    public typealias Unit = FigureUnit
    public let unit: Unit
    public let placeholder: StaticString
    /// The placeholder's line in the manual.
    public let help: StaticString
    public let json: StaticString
    public let prometheus: StaticString?
    public let prometheusHelp: StaticString
    /// What follows the value in the block's default text (`rpm`, `W`).
    public let suffix: StaticString
    /// How the minute history keeps it (nil: it does not).
    public let history: PartHistory?

    public init(_ unit: Unit, placeholder: StaticString, _ help: StaticString, json: StaticString, suffix: StaticString,
                prometheus: StaticString?, _ prometheusHelp: StaticString = "", history: PartHistory? = nil) {
        self.unit = unit; self.placeholder = placeholder; self.help = help; self.json = json; self.suffix = suffix
        self.prometheus = prometheus; self.prometheusHelp = prometheusHelp; self.history = history
    }
}

/// One text of a listed part's readings beyond its source and label (the media player's
/// title, artist, album and status): the block's placeholder and its manual line, and the
/// member of the reading's `report --json` object. Never a Prometheus label (a song's title
/// is no series).
public struct PartText: Sendable {
    public let placeholder: StaticString
    public let help: StaticString
    public let json: StaticString

    public init(placeholder: StaticString, _ help: StaticString, json: StaticString) {
        self.placeholder = placeholder; self.help = help; self.json = json
    }
}

/// A part whose readings are a list of labelled entries, each with the figures of its table.
/// Declared once (``all``); everything that shows the part goes through the declaration.
public struct ListedPart: Sendable {
    public let tag: SectionTag
    /// Its member in `report --json`, its name in `unavailable` (`fans`, `power`).
    public let name: StaticString
    /// Its block's name (`--blocks`, i3bar's `name`) and the word the block's text starts with.
    public let blockName: StaticString
    public let blockLabel: StaticString
    /// The block's argument's config key: it picks a reading by `SOURCE/LABEL`, `LABEL` or `SOURCE`.
    public let argumentKey: StaticString
    /// What a reading's source is: its `report --json` member and Prometheus label (`chip`,
    /// `source`), and its placeholder's manual line.
    public let sourceKey: StaticString
    public let sourceHelp: StaticString
    /// The label's placeholder's manual line (its member and Prometheus label are `label`).
    public let labelHelp: StaticString
    /// One line on what the block shows, for `--help`, the manual and docs/reference.md.
    public let summary: StaticString
    /// At most this many readings are kept (the section's limit).
    public let maximumReadings: Int
    /// The figures of each reading, in the order of the outputs; at most ``PartReading/maximumFigures``.
    /// A figure is only ever appended: a reader skips those it does not know.
    public let figures: [PartFigure]
    /// The block's other names for `{source}` and `{label}` (the volume block's `{port}` and
    /// `{device}`, as i3status-rust and waybar call them); nil: none.
    public let sourcePlaceholder: StaticString?
    public let labelPlaceholder: StaticString?
    /// A sound device's part (volume, microphone): what its block's wheel and clicks change
    /// and which figure says it is muted; nil for the others.
    public let sound: SoundControl?
    /// The texts of each reading beyond its source and label, in the order of the outputs; at
    /// most ``PartReading/maximumTexts``. Only ever appended, as the figures are.
    public let texts: [PartText]
    /// A media player's part: its block's clicks control the player (play-pause, next,
    /// previous) through the media helper, and a player not playing takes `format_paused`.
    public let media: Bool
    /// A backlight's part: its block's wheel sets the brightness (its sysfs file, else logind's
    /// `SetBrightness`, by the media helper); its reading's label is the device, its figures
    /// ``BacklightPart/brightness`` and ``BacklightPart/maximum`` the steps.
    public let setsBrightness: Bool
    /// Measured only while a bar shows it (its sources are many, and read for no one else):
    /// not every 10 s for the history and the export, as another part no bar shows is.
    public let onlyWhileShown: Bool
    /// Its block names the reading it shows: `unit firefox 12%`, where a fan's is `fan 1200rpm`.
    public let namesReading: Bool

    public init(_ tag: SectionTag, name: StaticString, block: StaticString, label: StaticString, argumentKey: StaticString,
                source: StaticString, _ sourceHelp: StaticString, labelHelp: StaticString, summary: StaticString,
                maximumReadings: Int, figures: [PartFigure], sourcePlaceholder: StaticString? = nil,
                labelPlaceholder: StaticString? = nil, sound: SoundControl? = nil,
                texts: [PartText] = [], media: Bool = false, setsBrightness: Bool = false,
                onlyWhileShown: Bool = false, namesReading: Bool = false) {
        self.tag = tag; self.name = name; self.blockName = block; self.blockLabel = label; self.argumentKey = argumentKey
        self.sourceKey = source; self.sourceHelp = sourceHelp; self.labelHelp = labelHelp; self.summary = summary
        self.maximumReadings = maximumReadings; self.figures = figures
        self.sourcePlaceholder = sourcePlaceholder; self.labelPlaceholder = labelPlaceholder; self.sound = sound
        self.texts = texts; self.media = media; self.setsBrightness = setsBrightness
        self.onlyWhileShown = onlyWhileShown; self.namesReading = namesReading
    }

    /// Its bit in ``Snapshot/available``.
    public var part: SnapshotSections { SnapshotSections(tag: tag) ?? [] }

    /// The position of `tag`'s part in ``all`` (and in ``ListedReadings``); nil when `tag` is
    /// not a listed part.
    @inline(__always)
    public static func index(of tag: SectionTag) -> Int? {
        for i in 0..<all.count where all[i].tag == tag { return i }
        return nil
    }

    /// The listed part whose section is `tag`.
    public static func named(_ tag: SectionTag) -> ListedPart? {
        guard let i = index(of: tag) else { return nil }
        return all[i]
    }
}

/// What the block of a sound device's part changes: the sound helper's word for the device
/// (`sink` or `source`, the server's default one) and the figure that is 1 while it is muted.
public struct SoundControl: Sendable {
    public let device: StaticString
    public let mutedFigure: Int
    public init(device: StaticString, mutedFigure: Int) { self.device = device; self.mutedFigure = mutedFigure }
}

/// One reading of a listed part: what it is (its source and label: raw bytes from the
/// system, which each output escapes) and the figures of its part's table, each given or not.
public struct PartReading: Equatable, Sendable {
    /// The most figures a part's table has.
    public static let maximumFigures = FigureValues.maximumFigures
    /// The source (a chip, `battery`, `rapl`, `gpu`), at most ``Snapshot/maximumInterfaceNameLength`` bytes.
    public var source: [UInt8] = []
    /// The label (`CPU Fan`, `package-0`), at most ``Snapshot/maximumPathLength`` bytes.
    public var label: [UInt8] = []
    /// The figures of its part's table, each given or not.
    public var figures = FigureValues()
    /// Its part's texts (``ListedPart/texts``), each at most ``maximumTextLength`` bytes; a
    /// text not given is empty.
    public var texts: [[UInt8]] = []
    /// The most texts a part declares, and the longest a text is kept.
    public static let maximumTexts = 8
    public static let maximumTextLength = 128
    /// Bit `i` set: figure `i` of the table was given.
    public var known: UInt16 {
        get { figures.known }
        set { figures.known = newValue }
    }

    public init() {}

    /// Figure `i` of the part's table, or nil when it was not given (or `i` is out of range).
    /// Setting nil forgets it.
    @inlinable
    public subscript(_ i: Int) -> Int64? {
        get { figures[i] }
        set { figures[i] = newValue }
    }

    /// Replaces the source and label, writing each array only when its bytes differ (a
    /// steady-state sample allocates nothing), and forgets every figure.
    public mutating func reset<S: Collection, L: Collection>(source: S, label: L) where S.Element == UInt8, L.Element == UInt8 {
        Self.store(source, in: &self.source, maximum: Snapshot.maximumInterfaceNameLength)
        Self.store(label, in: &self.label, maximum: Snapshot.maximumPathLength)
        figures = FigureValues()
    }

    /// ``reset(source:label:)`` over raw bytes, not generic: an unspecialized (debug) build's
    /// generic iteration allocates, and a reader's steady sample allocates nothing.
    public mutating func reset(source: UnsafeRawBufferPointer, label: UnsafeRawBufferPointer) {
        Self.storeBytes(source, in: &self.source, maximum: Snapshot.maximumInterfaceNameLength)
        Self.storeBytes(label, in: &self.label, maximum: Snapshot.maximumPathLength)
        figures = FigureValues()
    }

    private static func storeBytes(_ bytes: UnsafeRawBufferPointer, in array: inout [UInt8], maximum: Int) {
        let n = Swift.min(bytes.count, maximum)
        var same = array.count == n
        var i = 0
        while same && i < n { if array[i] != bytes[i] { same = false }; i &+= 1 }
        guard !same else { return }
        array.removeAll(keepingCapacity: true)
        i = 0
        while i < n { array.append(bytes[i]); i &+= 1 }
    }

    /// Text `i` (empty when not given).
    public func text(_ i: Int) -> [UInt8] { i >= 0 && i < texts.count ? texts[i] : [] }

    /// Replaces text `i` (at most ``maximumTextLength`` bytes, cut on a UTF-8 boundary),
    /// writing only when its bytes differ; `i` past ``maximumTexts`` is ignored.
    public mutating func setText<C: Collection>(_ i: Int, _ bytes: C) where C.Element == UInt8 {
        guard i >= 0, i < Self.maximumTexts else { return }
        while texts.count <= i { texts.append([]) }
        Self.store(bytes, in: &texts[i], maximum: Self.maximumTextLength)
        Self.cutAtCharacter(&texts[i])
    }

    /// ``setText(_:_:)`` over raw bytes, not generic (a reader's steady sample allocates nothing).
    public mutating func setText(_ i: Int, raw bytes: UnsafeRawBufferPointer) {
        guard i >= 0, i < Self.maximumTexts else { return }
        while texts.count <= i { texts.append([]) }
        Self.storeBytes(bytes, in: &texts[i], maximum: Self.maximumTextLength)
        Self.cutAtCharacter(&texts[i])
    }

    /// Drops a last character `store` cut in two (its lead byte and what came of it).
    static func cutAtCharacter(_ t: inout [UInt8]) {
        guard t.count == maximumTextLength else { return }
        var start = t.count
        while start > 0 && t[start - 1] & 0xC0 == 0x80 { start -= 1 }
        guard start > 0, t[start - 1] >= 0xC0 else { return }
        let lead = t[start - 1]
        let needed = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        if t.count - (start - 1) < needed { t.removeSubrange((start - 1)...) }
    }

    private static func store<C: Collection>(_ bytes: C, in array: inout [UInt8], maximum: Int) where C.Element == UInt8 {
        var same = array.count == Swift.min(bytes.count, maximum)
        if same {
            var i = 0
            for b in bytes { if i == array.count { break }; if array[i] != b { same = false; break }; i &+= 1 }
        }
        guard !same else { return }
        array.removeAll(keepingCapacity: true)
        for b in bytes { if array.count == maximum { break }; array.append(b) }
    }

    public static func == (a: PartReading, b: PartReading) -> Bool {
        guard a.source == b.source && a.label == b.label && a.figures == b.figures else { return false }
        // A text not given is empty: `[]` and `[[]]` read the same.
        for i in 0..<max(a.texts.count, b.texts.count) where a.text(i) != b.text(i) { return false }
        return true
    }
}

/// Up to ``maximumFigures`` figures, each given or not, in fixed storage: filling one never
/// allocates (a reading's figures, a minute's listed history values).
public struct FigureValues: Equatable, Sendable {
    public static let maximumFigures = 8
    /// Bit `i` set: figure `i` was given.
    public var known: UInt16 = 0
    @usableFromInline var values: (Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64) = (0, 0, 0, 0, 0, 0, 0, 0)

    public init() {}

    /// Figure `i`, or nil when it was not given (or `i` is out of range). Setting nil forgets it.
    @inlinable
    public subscript(_ i: Int) -> Int64? {
        get {
            guard i >= 0, i < Self.maximumFigures, known & (1 << UInt16(i)) != 0 else { return nil }
            return withUnsafeBytes(of: values) { $0.load(fromByteOffset: i &* 8, as: Int64.self) }
        }
        set {
            guard i >= 0, i < Self.maximumFigures else { return }
            let v = newValue ?? 0
            withUnsafeMutableBytes(of: &values) { $0.storeBytes(of: v, toByteOffset: i &* 8, as: Int64.self) }
            if newValue == nil { known &= ~(1 << UInt16(i)) } else { known |= 1 << UInt16(i) }
        }
    }

    public static func == (a: FigureValues, b: FigureValues) -> Bool {
        guard a.known == b.known else { return false }
        for i in 0..<maximumFigures where a[i] != b[i] { return false }
        return true
    }
}

/// The readings of every listed part, one list per ``ListedPart/all``, in its order.
public struct ListedReadings: Equatable, Sendable {
    @usableFromInline var lists: [[PartReading]]

    public init() {
        lists = []
        for _ in 0..<ListedPart.all.count { lists.append([]) }
    }

    /// The readings of `tag`'s part (empty for a tag that is not a listed part's).
    public subscript(_ tag: SectionTag) -> [PartReading] {
        guard let i = ListedPart.index(of: tag) else { return [] }
        return lists[i]
    }

    /// Lends `tag`'s list to `body` to change in place (no copy of the list).
    @inline(__always)
    public mutating func update<R>(_ tag: SectionTag, _ body: (inout [PartReading]) -> R) -> R? {
        guard let i = ListedPart.index(of: tag) else { return nil }
        return body(&lists[i])
    }

    /// Reserves each list's capacity at its part's limit, so that filling it never allocates.
    public mutating func reserveCapacity() {
        for i in 0..<lists.count { lists[i].reserveCapacity(ListedPart.all[i].maximumReadings) }
    }
}
