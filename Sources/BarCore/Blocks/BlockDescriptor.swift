import SnapshotCodec

/// Everything the renderer, the config checker, `--help` and the docs test know about one
/// kind of block, declared once in the block's own file (`static let descriptor`) and listed
/// in ``BlockKind/descriptor``'s table.
///
/// A table of values with function fields, not a protocol: Embedded Swift has no
/// existentials, and a value table costs one array at start where a switch per question
/// spread the knowledge over the module.
public struct BlockDescriptor: Sendable {
    /// The block's name in `--blocks`, i3bar's `name`/`instance` and click events.
    public let name: StaticString
    /// The word its text starts with (`up 3h 5m`, `io r 1.2M/s`); its `n/a` text too.
    let label: StaticString
    /// The part of the snapshot it shows; when that was not measured it says `n/a`. Empty:
    /// the renderer's own (time, command), shown whatever the snapshot.
    let section: SnapshotSections
    /// The config key of its argument (`mount` for `disk:/home`); nil: it takes none.
    let argumentKey: StaticString?
    /// What `warning` and `critical` mean for it; nil: it has no thresholds.
    let marks: LevelMarks?
    /// Its `{name}` placeholders, in the order `--help` and docs/renderer.md list them.
    let placeholders: [PlaceholderSpec]
    /// What `--help` says in place of a placeholder list (time: a strftime format).
    let helpNote: StaticString?
    /// Fills a value from the snapshot; nil for the blocks the renderer draws itself.
    let render: (@Sendable (Snapshot, BlockContext, inout BlockValue) -> Void)?
    /// What its argument names for the sampler to measure (a mount, a sensor, an interface):
    /// the bar asks for it in its wants file; nil: nothing.
    let asks: RendererRequest.Kind?
    /// Whether what it shows is on this machine (the sensor, the disk, an interface), given
    /// its part was measured; nil: it always is.
    let present: (@Sendable (Snapshot, BlockContext) -> Bool)?
    /// Where its value comes from: the snapshot (`render`), the renderer's clock, a command.
    let source: BlockSource
    /// Checks its argument beyond the common rules (1 to 64 bytes, no NUL); nil: any will do.
    let argumentCheck: ArgumentCheck?
    /// It has forms that clicks cycle through (mem: used/total, percent, free, the breakdown);
    /// the bar keeps its width per form.
    let hasForms: Bool
    /// It shows the renderer's own cost, which the bar then measures at each update (self).
    public let showsRendererCost: Bool
    /// It takes `min_freed`, the least memory an entry must have freed to be shown (exited);
    /// the default bar shows only notable ones.
    let filtersByFreedMemory: Bool
    /// It shows events, not a figure (exited): without its part there is none to show, so it
    /// hides rather than say `n/a`.
    let showsEvents: Bool
    /// The default bar hides it where its hardware is absent (a desktop's battery, Wi-Fi).
    let hiddenWhenMissingByDefault: Bool
    /// A sound device's block (volume, microphone): its wheel and left click change the
    /// device through the sound helper, `format_muted` is its text while muted.
    let sound: SoundBlock?
    /// The media block: its clicks play, pause and skip through the media helper,
    /// `format_paused` is its text while the player does not play.
    let media: MediaBlock?
    /// A listed part's block: the reading it shows (the renderer keeps it for the clicks of
    /// the media and backlight blocks).
    let reading: (@Sendable (Snapshot, BlockContext) -> PartReading?)?
    /// The backlight block: its wheel sets the brightness by `step` percent.
    let setsBrightness: Bool
    /// Its states that have a text of their own in the config (`format_down` of net, wifi;
    /// `format_charging`, `format_full` of battery), the first that applies winning.
    let states: [BlockState]
    /// The parts its argument shows besides ``section`` (`top:units`: the units); nil: none.
    let argumentShows: (@Sendable ([UInt8]) -> SnapshotSections)?
    /// The listed part whose reading it shows for an argument (a listed part's block, and
    /// `top:units`): a click's command gets the reading's source, label and texts; nil: none.
    let readingPart: (@Sendable ([UInt8]) -> ListedPart?)?

    init(name: StaticString, label: StaticString, section: SnapshotSections, argumentKey: StaticString? = nil,
         argumentCheck: ArgumentCheck? = nil, source: BlockSource = .snapshot,
         asks: RendererRequest.Kind? = nil, marks: LevelMarks? = nil, present: (@Sendable (Snapshot, BlockContext) -> Bool)? = nil,
         hasForms: Bool = false, showsRendererCost: Bool = false, filtersByFreedMemory: Bool = false,
         showsEvents: Bool = false, hiddenWhenMissingByDefault: Bool = false, sound: SoundBlock? = nil, media: MediaBlock? = nil,
         reading: (@Sendable (Snapshot, BlockContext) -> PartReading?)? = nil, setsBrightness: Bool = false,
         states: [BlockState] = [], argumentShows: (@Sendable ([UInt8]) -> SnapshotSections)? = nil,
         readingPart: (@Sendable ([UInt8]) -> ListedPart?)? = nil,
         placeholders: [PlaceholderSpec], helpNote: StaticString? = nil,
         render: (@Sendable (Snapshot, BlockContext, inout BlockValue) -> Void)?) {
        self.name = name; self.label = label; self.section = section; self.argumentKey = argumentKey
        self.argumentCheck = argumentCheck; self.source = source
        self.asks = asks
        self.marks = marks; self.placeholders = placeholders; self.helpNote = helpNote; self.present = present
        self.hasForms = hasForms; self.showsRendererCost = showsRendererCost; self.filtersByFreedMemory = filtersByFreedMemory
        self.showsEvents = showsEvents; self.hiddenWhenMissingByDefault = hiddenWhenMissingByDefault
        self.sound = sound; self.media = media; self.reading = reading; self.setsBrightness = setsBrightness
        self.states = states; self.argumentShows = argumentShows; self.readingPart = readingPart
        self.render = render
    }

    /// What a file block looks at (run_watch, path_exists, read_file); nil for the others.
    public var fileCheck: FileCheck? {
        if case .files(let check) = source { return check }
        return nil
    }

    /// The longest argument it takes: a file block's is a path, any other's a name.
    var argumentMaximum: Int { fileCheck == nil ? 64 : FileCheck.maximumPath }

    /// False when a `hide_missing` block hides: its part not measured, or not on this machine.
    func isPresent(_ snap: Snapshot, _ context: BlockContext) -> Bool {
        guard snap.available.contains(section) else { return false }
        return present?(snap, context) ?? true
    }
}

/// What a sound device's block (volume, microphone) does beyond its figures.
struct SoundBlock: Sendable {
    /// The sound helper's word for the device (`sink`, `source`).
    let device: StaticString
    /// Whether the device the block shows is muted.
    let isMuted: @Sendable (Snapshot, BlockContext) -> Bool
}

/// A state of a block with a text of its own in the config (i3status's `format_down`,
/// waybar's `format-charging`): the key, whether the block is in it, and the level its
/// text shows at (nil: the block's own; a net block down is critical, as i3status's bad).
struct BlockState: Sendable {
    let key: StaticString
    var level: Level? = nil
    let isActive: @Sendable (Snapshot, BlockContext) -> Bool
}

/// What the media block does beyond its figures and texts.
struct MediaBlock: Sendable {
    /// Whether the player the block shows is not playing (paused or stopped).
    let isPaused: @Sendable (Snapshot, BlockContext) -> Bool
}

/// Where a block's value comes from.
public enum BlockSource: Equatable, Sendable {
    /// Drawn from the snapshot by the descriptor's `render`.
    case snapshot
    /// The renderer's own clock (``TimeBlock``): its format is a strftime(3) format, and it
    /// needs no snapshot.
    case clock
    /// A command's output (``CommandBlockOutput``): defined in the config file only, its
    /// clicks go to its command.
    case command
    /// The program's own look at the file system before it draws an update (``FileBlock``):
    /// its `render` formats what was found, the snapshot's part is none.
    case files(FileCheck)
}

/// How a block's argument is checked beyond the common rules: whether this machine knows
/// it, and what the error calls it ("no such time zone X in /usr/share/zoneinfo").
struct ArgumentCheck: Sendable {
    let known: @Sendable (ArraySlice<UInt8>) -> Bool
    let what: StaticString
    let whereFrom: StaticString
    /// What `--blocks KIND:ARGUMENT` says of an argument it does not know.
    let optionsError: OptionsError
}

/// A block's default warning and critical marks and their unit.
struct LevelMarks: Sendable {
    enum Unit: Sendable {
        /// Whole percents in the config, hundredths of a percent in the block (0...100).
        case percent
        /// Whole degrees Celsius in the config, millidegrees in the block (0...200).
        case celsius
        /// A load average in the config (integer or decimal), hundredths in the block (0...1000).
        case load
    }
    let unit: Unit
    /// nil: the block decides (temp: each sensor's own marks; load: one and two per core),
    /// as `decides` says.
    let warning: UInt64?
    let critical: UInt64?
    /// What the block does without marks of its own, for the docs (nil: it has defaults).
    var decides: StaticString? = nil

    /// The largest value `warning` and `critical` take in a config file.
    var configMaximum: Int64 {
        switch unit {
        case .percent: 100
        case .celsius: 200
        case .load: 1000
        }
    }

    /// A config value in the block's units (kept as given: whole percent or degrees, a load
    /// in hundredths); else the default.
    func resolve(_ configured: UInt64?, default fallback: UInt64?) -> UInt64? {
        guard let configured else { return fallback }
        switch unit {
        case .percent: return min(configured, 100) * 100
        case .celsius: return min(configured, 1000) * 1000
        case .load: return min(configured, 100_000)
        }
    }
}

/// What a block's render and placeholders read besides the snapshot.
struct BlockContext {
    /// `--blocks disk:/home`'s `/home`; empty for none.
    var argument: [UInt8] = []
    var nowMs: UInt64 = 0
    /// The mem block's current form (clicks change it).
    var memForm: MemForm = .usedTotal
    /// The block's marks (its own, else its kind's defaults) in its units; nil: none given.
    var warning: UInt64? = nil
    var critical: UInt64? = nil
    var usage = RendererUsage()
    /// `exited`: the least memory an exit must have freed to be shown, KiB.
    var minimumFreedKiB: UInt64 = 0
    /// A file block's `title` (i3status's instance name); empty: none given.
    var title: [UInt8] = []
    /// What the program found for a file block before this update; nil for the other blocks.
    var look: FileLook? = nil

    /// The level of `value` against the marks, higher is worse (both marks must be set).
    func level(rising value: UInt64) -> Level {
        if let critical, value >= critical { return .critical }
        if let warning, value >= warning { return .warning }
        return .normal
    }

    /// The level of `value` against the marks, lower is worse (a battery's charge).
    func level(falling value: UInt64) -> Level {
        if let critical, value <= critical { return .critical }
        if let warning, value <= warning { return .warning }
        return .normal
    }
}

/// One placeholder of a block's `--format`: its name between the braces, what it shows, and
/// how to append its value (the tables in each block's file make `--help`, the error for an
/// unknown name, and docs/renderer.md's list, which a test compares with them).
public struct PlaceholderSpec: Sendable {
    public let name: StaticString
    public let help: StaticString
    /// A figure of the renderer itself, not of the snapshot: shown even when the block's part is not.
    let measuredByRenderer: Bool
    /// Another part it shows (cpu's `{frequency}`: the frequency's): a block whose format
    /// uses it asks the sampler for that part too, and it is `n/a` while that part is not there.
    let alsoShows: SnapshotSections
    let append: @Sendable (Snapshot, BlockContext, inout ByteWriter) -> Void

    init(_ name: StaticString, _ help: StaticString, measuredByRenderer: Bool = false, alsoShows: SnapshotSections = [],
         _ append: @escaping @Sendable (Snapshot, BlockContext, inout ByteWriter) -> Void) {
        self.name = name; self.help = help; self.measuredByRenderer = measuredByRenderer; self.alsoShows = alsoShows
        self.append = append
    }
}
