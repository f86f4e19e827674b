// What `sysstats config import` makes of another bar's config: blocks in bar order, each
// with the line it came from, and one note per thing that could not be carried over.

/// The programs whose configs can be imported, as the command line names them.
public enum ImportSource: String, CaseIterable, Sendable {
    case i3status
    case i3statusRust = "i3status-rust"
    case waybar
    case polybar

    /// How a comment names the file: `waybar config`.
    public var fileName: String { self == .i3statusRust ? "i3status-rust config" : rawValue + " config" }
}

/// A value written into config.toml.
public enum ImportValue: Equatable, Sendable {
    case string(String)
    case integer(Int)
    /// A decimal written as it is (`0.5`).
    case decimal(String)
    case bool(Bool)
}

/// One key of a block or table, in the order it is written.
public struct ImportedKey: Equatable, Sendable {
    public var key: String
    public var value: ImportValue
    public init(_ key: String, _ value: ImportValue) { self.key = key; self.value = value }
}

/// A `[[block.click]]` entry: a command, or one of the block's own actions (`toggle_format`).
public struct ImportedClick: Equatable, Sendable {
    public var button: String
    public var cmd: String
    public var action: String?
    public init(button: String, cmd: String = "", action: String? = nil) { self.button = button; self.cmd = cmd; self.action = action }
}

/// What became of one module of the imported bar.
public enum ModuleOutcome: Equatable, Sendable {
    /// A sysstats block of its own; `complete` when every placeholder of its formats was translated.
    case native(complete: Bool)
    /// A custom script: a command block that runs it as the other bar did.
    case command
    /// Drawn by the bar itself (workspaces, window title, tray): nothing for sysstats to show.
    case barOwn
    /// No sysstats block shows it yet.
    case noBlock
}

/// One block of the result, with where it came from.
public struct ImportedBlock: Equatable, Sendable {
    public var line: Int
    public var module: String
    public var block: String
    public var keys: [ImportedKey] = []
    public var clicks: [ImportedClick] = []
    /// What the block left behind (a colour, an icon set), for its comment and the summary.
    public var dropped: [String] = []
    /// The block's outcome for the summary; `.native(complete: false)` while a placeholder was dropped.
    public var outcome: ModuleOutcome

    public init(line: Int, module: String, block: String, outcome: ModuleOutcome = .native(complete: true)) {
        self.line = line; self.module = module; self.block = block; self.outcome = outcome
    }

    /// The longest text a value may be: config.toml's own limit (TOMLDocument.maximumStringLength).
    public static let maximumValueBytes = 4096

    public mutating func set(_ key: String, _ value: ImportValue) {
        if case .string(let s) = value, s.utf8.count > Self.maximumValueBytes {
            drop("\(key) (longer than \(Self.maximumValueBytes) bytes)")
            return
        }
        if let i = keys.firstIndex(where: { $0.key == key }) { keys[i].value = value } else { keys.append(ImportedKey(key, value)) }
    }
    public mutating func set(_ key: String, _ text: String) { set(key, .string(text)) }
    public func value(_ key: String) -> ImportValue? { keys.first { $0.key == key }?.value }

    /// Notes what was not carried over, once each.
    public mutating func drop(_ what: String) { if !dropped.contains(what) { dropped.append(what) } }
}

/// A module that became no block: said in the result's comments and on stderr.
public struct ImportNote: Equatable, Sendable {
    public var line: Int
    public var module: String
    public var outcome: ModuleOutcome
    public var reason: String
}

/// One module of the bar in bar order: a block, or a note saying why there is none.
public enum ImportItem: Equatable, Sendable {
    case block(ImportedBlock)
    case note(ImportNote)

    public var module: String { switch self { case .block(let b): b.module; case .note(let n): n.module } }
    public var outcome: ModuleOutcome { switch self { case .block(let b): b.outcome; case .note(let n): n.outcome } }
}

/// The whole result.
public struct ImportedConfig: Sendable {
    public var source: ImportSource
    public var theme: [ImportedKey] = []
    public var sampler: [ImportedKey] = []
    public var items: [ImportItem] = []
    /// Settings of the file as a whole that were not carried over (`general`'s `color_good`).
    public var droppedSettings: [ImportNote] = []

    public init(source: ImportSource) { self.source = source }

    /// The most modules one import makes blocks or notes of (a waybar group that names
    /// itself would otherwise multiply at each level).
    public static let maximumModules = 256

    public mutating func add(_ block: ImportedBlock) { if room() { items.append(.block(block)) } }

    public mutating func note(line: Int, module: String, _ outcome: ModuleOutcome, _ reason: String) {
        if room() { items.append(.note(ImportNote(line: line, module: module, outcome: outcome, reason: reason))) }
    }

    /// Whether another module fits; the first that does not is said once.
    var isFull: Bool { items.count >= Self.maximumModules }
    private mutating func room() -> Bool {
        guard isFull else { return true }
        if !droppedSettings.contains(where: { $0.module == "modules" }) {
            dropSetting(line: 0, "modules", "more than \(Self.maximumModules): the rest are left out")
        }
        return false
    }

    /// A module's own `interval` (waybar's, polybar's, i3status-rust's), said once: the
    /// sampler measures every figure at one interval.
    public mutating func noteModuleInterval(line: Int) {
        guard !droppedSettings.contains(where: { $0.module == "a module's interval" }) else { return }
        dropSetting(line: line, "a module's interval", "sysstats measures every figure at one interval, [sampler] interval (1 s unless set)")
    }

    public mutating func dropSetting(line: Int, _ what: String, _ reason: String) {
        droppedSettings.append(ImportNote(line: line, module: what, outcome: .noBlock, reason: reason))
    }

    public var blocks: [ImportedBlock] { items.compactMap { if case .block(let b) = $0 { b } else { nil } } }
    public var notes: [ImportNote] { items.compactMap { if case .note(let n) = $0 { n } else { nil } } }

    /// Whether anything was not carried over (`--strict` fails then).
    public var lostSomething: Bool {
        !notes.isEmpty || !droppedSettings.isEmpty || blocks.contains { !$0.dropped.isEmpty || $0.outcome == .native(complete: false) }
    }
}

/// A problem that stops the import: the file is not what the program itself would read.
public struct ImportError: Error, Equatable, Sendable {
    public var line: Int
    public var column: Int
    public var reason: String
    public init(line: Int, column: Int = 1, _ reason: String) { self.line = line; self.column = column; self.reason = reason }
}
