// Command line, runtime dir and staleness rules of sysstats-bar; pure functions
// over bytes so that the Embedded program and the tests share them. The runtime
// dir and staleness rules themselves are the snapshot contract's (SnapshotCodec).

#if hasFeature(Embedded)
import SnapshotCodecEmbedded
#else
import SnapshotCodec
#endif
import CClock

/// What is wrong with the command line.
public enum OptionsError: Error, Equatable, Sendable {
    /// An option this program does not have: its name (at most 64 bytes).
    case unknownOption([UInt8])
    /// `--blocks` names the same block twice: that block as given (at most 64 bytes).
    case duplicateBlock([UInt8])
    case missingValue
    case unknownOutput
    /// `--blocks` names a block that does not exist: its name (at most 64 bytes).
    case unknownBlock([UInt8])
    case emptyRuntimeDir
    /// `--format` without `BLOCK=`.
    case formatSyntax
    /// `--format` for a block that does not exist.
    case unknownFormatBlock
    /// A second `--format` for the same block.
    case duplicateFormat
    /// A `{name}` the block does not have.
    case unknownPlaceholder(BlockKind)
    /// A `{` without its `}`.
    case unclosedBrace
    /// A lone `}`.
    case unmatchedBrace
    /// A format text longer than ``BlockFormat/maximumLength``.
    case formatTooLong
    /// `--size` not `WxH` within the limits.
    case badSize
    /// `--position` not `X,Y`.
    case badPosition
    /// `--output png:` or `--image` without a file name.
    case emptyImagePath
    /// `--click` not 1 or 3.
    case badClick
    /// `--blocks KIND:ARGUMENT` for a block that takes none.
    case unexpectedArgument
    /// `--blocks KIND:` with an empty argument or one over 64 bytes.
    case badArgument
    /// `--blocks time:ZONE` with a zone this machine does not know.
    case unknownTimeZone
    /// `--format time=` empty or with a NUL byte.
    case badTimeFormat
    /// `--config` with an empty path.
    case emptyConfigPath
    /// `--blocks command`: a command block is defined in the config file.
    case commandNeedsConfig
    /// `--image` or `--click` with another output than genmon (they would be ignored).
    case genmonOnlyOption
    /// `--position` or `--window-type` with another output than x11-window.
    case positionNeedsWindow
    /// `--window-type` not override, dock, desktop or normal.
    case badWindowType
    /// `--size` with a text output.
    case sizeNeedsImage

    /// One line for stderr.
    public var message: StaticString {
        switch self {
        case .unknownOption: "sysstats-bar: unknown option (see sysstats-bar --help)"
        case .duplicateBlock: "sysstats-bar: --blocks names a block twice"
        case .missingValue: "sysstats-bar: option needs a value (see --help)"
        case .unknownOutput: "sysstats-bar: --output must be text, tmux, lemonbar, polybar, i3bar, waybar, x11-root, x11-window, png:FILE or genmon"
        case .unknownBlock: "sysstats-bar: --blocks takes a comma-separated list of blocks (see --help)"
        case .emptyRuntimeDir: "sysstats-bar: --runtime-dir must not be empty"
        case .formatSyntax: "sysstats-bar: --format takes BLOCK=TEXT, e.g. --format 'cpu=CPU {busy}% {spark}'"
        case .unknownFormatBlock: "sysstats-bar: --format BLOCK=TEXT: BLOCK is a block's name (see --help)"
        case .duplicateFormat: "sysstats-bar: --format given twice for the same block"
        case .unknownPlaceholder: "sysstats-bar: --format: unknown placeholder (see --help)"
        case .unclosedBrace: "sysstats-bar: --format: '{' without '}' (write {{ for a literal brace)"
        case .unmatchedBrace: "sysstats-bar: --format: '}' without '{' (write }} for a literal brace)"
        case .formatTooLong: "sysstats-bar: --format: the text after BLOCK= is longer than 256 bytes"
        case .badSize: "sysstats-bar: --size takes WIDTHxHEIGHT, 64x24 to 1024x256 (default 180x56)"
        case .badPosition: "sysstats-bar: --position takes X,Y in pixels, e.g. 0,0 or -1,0 (negative: from the right/bottom edge)"
        case .emptyImagePath: "sysstats-bar: --output png:FILE and --image FILE need a file name"
        case .badClick: "sysstats-bar: --click takes 1 (next graph form) or 3 (previous)"
        case .unexpectedArgument: "sysstats-bar: --blocks: only time, net, wifi, disk, diskio and temp take an argument (e.g. time:Europe/Paris, disk:/home)"
        case .badArgument: "sysstats-bar: --blocks KIND:ARGUMENT: the argument is 1 to 64 bytes (an interface, mount point, disk or sensor)"
        case .unknownTimeZone: "sysstats-bar: --blocks time:ZONE: no such time zone in /usr/share/zoneinfo (e.g. UTC, Europe/Paris)"
        case .badTimeFormat: "sysstats-bar: --format time=TEXT: TEXT is a strftime(3) format, not empty (e.g. time=%H:%M)"
        case .emptyConfigPath: "sysstats-bar: --config needs a file name"
        case .commandNeedsConfig: "sysstats-bar: --blocks: a command block is defined in the config file ([[block]] block = \"command\", man sysstats-config)"
        case .genmonOnlyOption: "sysstats-bar: --image and --click apply to --output genmon only"
        case .positionNeedsWindow: "sysstats-bar: --position and --window-type apply to --output x11-window only"
        case .badWindowType: "sysstats-bar: --window-type must be override, dock, desktop or normal"
        case .sizeNeedsImage: "sysstats-bar: --size applies to the panel image outputs only: x11-window, png:FILE, genmon"
        }
    }
}

extension OptionsError {
    /// The whole line for stderr, without the newline: ``message``, except that an unknown
    /// block's line names it (escaped: it is the user's text) and an unknown placeholder's
    /// line names the block and lists its placeholders (from its table).
    public func describe(into w: inout ByteWriter) {
        if case .unknownOption(let name) = self {
            w.append("sysstats-bar: unknown option '")
            w.append(escaped: name, .plain)
            w.append("' (see sysstats-bar --help)")
            return
        }
        if case .duplicateBlock(let name) = self {
            w.append("sysstats-bar: --blocks: '")
            w.append(escaped: name, .plain)
            w.append("' is there twice (a click names a block by its name and argument)")
            return
        }
        if case .unknownBlock(let name) = self {
            if name.isEmpty {
                w.append("sysstats-bar: --blocks: an empty block name (two commas, or one at an end); ")
            } else {
                w.append("sysstats-bar: --blocks: unknown block '")
                w.append(escaped: name, .plain)
                w.append("'; ")
            }
            w.append("the blocks are ")
            appendBlockNames(into: &w)
            return
        }
        if case .unknownFormatBlock = self {
            w.append("sysstats-bar: --format BLOCK=TEXT: BLOCK is one of ")
            appendBlockNames(into: &w)
            return
        }
        guard case .unknownPlaceholder(let block) = self else { w.append(message); return }
        w.append("sysstats-bar: --format ")
        w.append(block.name)
        w.append(": unknown placeholder; ")
        w.append(block.name)
        w.append(" has")
        for spec in block.placeholders {
            w.append(" {"); w.append(spec.name); w.append(UInt8(ascii: "}"))
        }
    }
}

/// The names `--blocks` takes, from the registry: `cpu, mem, …, time`.
func appendBlockNames(into w: inout ByteWriter) {
    var first = true
    for kind in BlockKind.allCases where kind != .command {
        if !first { w.append(", ") }
        w.append(kind.name)
        first = false
    }
}

/// `--help`: the usage text, then every block's placeholders from the blocks' own tables.
public func helpText(into w: inout ByteWriter) {
    w.append(usageText)
    w.append("default blocks: ")
    for (i, kind) in BlockKind.defaults.enumerated() {
        if i > 0 { w.append(UInt8(ascii: ",")) }
        w.append(kind.name)
    }
    w.append("\nplaceholders for --format, per block (man sysstats-config says what each shows):\n")
    for block in BlockKind.allCases {
        w.append("  ")
        w.append(block.name)
        var pad = 9 - block.name.utf8CodeUnitCount
        while pad > 0 { w.append(UInt8(ascii: " ")); pad -= 1 }
        if let note = block.descriptor.helpNote { w.append(note) }
        for (i, spec) in block.placeholders.enumerated() {
            if i > 0 { w.append(UInt8(ascii: " ")) }
            w.append(UInt8(ascii: "{")); w.append(spec.name); w.append(UInt8(ascii: "}"))
        }
        w.append(UInt8(ascii: "\n"))
    }
}

/// The usage text for `--help`.
public let usageText: StaticString = """
    usage: sysstats-bar [--output text|tmux|lemonbar|polybar|i3bar|waybar|x11-root|x11-window|png:FILE|genmon]
                        [--runtime-dir DIR] [--blocks LIST] [--format BLOCK=TEXT]... [--once]
                        [--size WxH] [--position X,Y] [--window-type TYPE] [--image FILE]
                        [--click 1|3] [--config FILE]
                        [--no-start-sampler] [--sampler-option ARG]... [--help] [--version]
      --output       bar protocol (default text); tmux, lemonbar and polybar are text lines with
                     those bars' markup characters escaped; x11-root sets the root window name (dwm);
                     the panel image: x11-window (a window of its own), png:FILE (rewritten
                     atomically per update), genmon (one shot for xfce4-genmon-plugin)
      --runtime-dir  where sysstatsd writes its snapshot
                     (default $XDG_RUNTIME_DIR/sysstats, else /tmp/sysstats-$UID)
      --blocks       comma-separated names of the blocks listed at the end (default below);
                     some take an argument:
                     time:ZONE (time,time:America/New_York), net:IFACE, wifi:IFACE,
                     disk:MOUNT, diskio:DISK, temp:SENSOR (chip/label, label or chip)
      --format       BLOCK=TEXT, once per block: TEXT replaces the block's built-in
                     text, {name} placeholders filled in, {{ and }} for braces;
                     e.g. --format 'cpu=CPU {busy}% {spark}' (placeholders listed below)
      --once         print the current snapshot once and exit (status 1 when none)
      --size         panel image size, 64x24 to 1024x256 (default 180x56)
      --position     x11-window position X,Y (default 0,0; negative: from the right/bottom)
      --window-type  x11-window: override (default: no window manager moves or sizes it),
                     dock, desktop (below other windows) or normal (managed, floating
                     under i3), like conky's own_window_type
      --image        genmon: where to write the PNG (default RUNTIME-DIR/panel.png)
      --click        genmon: apply a click to the panel (1 next graph form, 3 previous),
                     kept in RUNTIME-DIR/panel-form, and exit (genmon's <click> runs this)
      --config       the config file (default $XDG_CONFIG_HOME/sysstats/config.toml, else
                     ~/.config/sysstats/config.toml; man sysstats-config); the flags win over it
      --no-start-sampler  do not start sysstatsd when none runs for the runtime dir (by
                     default the bar starts it, detached, logging to RUNTIME-DIR/sysstatsd.log;
                     also SYSSTATS_NO_START_SAMPLER=1)
      --sampler-option  an argument for the sysstatsd the bar starts, e.g.
                     --sampler-option=--interval=2 (repeatable)
      --version      print the version and exit

    """

/// Parsed command line.
public struct BarOptions: Equatable, Sendable {
    public var output: OutputKind = .text
    /// `--runtime-dir`, without a trailing NUL; nil when not given.
    public var runtimeDir: [UInt8]? = nil
    public var blocks: [BarBlock] = BarBlock.defaults
    /// True when `--blocks` was given (genmon shows the text line only then).
    public var blocksGiven = false
    /// `--format` per block, parsed.
    public var formats = BlockFormats()
    public var once = false
    public var help = false
    /// `--version`: print the version and exit.
    public var version = false
    /// The panel image's size (`--size`).
    public var width = PanelImage.defaultWidth
    public var height = PanelImage.defaultHeight
    /// `--position` for x11-window; a negative value counts from the right/bottom edge.
    public var positionX = 0
    public var positionY = 0
    /// `--window-type` for x11-window.
    public var windowType = WindowType.override
    /// The PNG file: `--output png:FILE`, or `--image FILE` for genmon; nil for the default.
    public var imagePath: [UInt8]? = nil
    /// `--click BUTTON` (genmon): apply a click to the persisted graph form and exit; 0 when not given.
    public var click = 0
    /// `--config FILE`, without a trailing NUL; nil: the default place (``configPath(option:xdgConfigHome:home:)``).
    public var configPath: [UInt8]? = nil
    /// The i3blocks files the config file's `block = "i3blocks"` entries read (resolved): the
    /// bar watches them as it watches the config file.
    public var includedFiles: [[UInt8]] = []
    /// True when `--format` was given.
    public var formatsGiven = false
    /// The config file's theme (default: the built-in look).
    public var theme = Theme()
    /// Start sysstatsd when none holds the runtime directory (`--no-start-sampler`: false).
    public var startSampler = true
    /// `--sampler-option`: arguments for the sysstatsd the bar starts.
    public var samplerOptions: [[UInt8]] = []

    /// These options over a config file's: `--blocks` wins over its `[[block]]` list; its
    /// theme applies.
    public func applying(_ config: BarConfig) -> BarOptions {
        var o = self
        if !blocksGiven, let blocks = config.blocks { o.blocks = blocks }
        o.theme = config.theme
        return o
    }
    public init() {}

    /// Parses arguments (without the program name). Accepts `--opt value` and `--opt=value`.
    public static func parse(_ args: [[UInt8]]) throws(OptionsError) -> BarOptions {
        var o = BarOptions()
        var imageGiven = false, windowOptionGiven = false, sizeGiven = false
        var i = 0
        while i < args.count {
            let arg = args[i]
            var name = arg[...]
            var inlineValue: ArraySlice<UInt8>? = nil
            if let eq = arg.firstIndex(of: UInt8(ascii: "=")), arg.starts(with: [45, 45]) {
                name = arg[..<eq]
                inlineValue = arg[(eq + 1)...]
            }
            func value() throws(OptionsError) -> ArraySlice<UInt8> {
                if let v = inlineValue { return v }
                i += 1
                guard i < args.count else { throw .missingValue }
                return args[i][...]
            }
            if bytesEqual(name, "--once") {
                o.once = true
            } else if bytesEqual(name, "--help") || bytesEqual(name, "-h") {
                o.help = true
            } else if bytesEqual(name, "--version") {
                o.version = true
            } else if bytesEqual(name, "--output") {
                let v = try value()
                if v.starts(with: "png:".utf8) {
                    guard v.count > 4 else { throw .emptyImagePath }
                    o.output = .png
                    o.imagePath = Array(v.dropFirst(4))
                } else {
                    // `png` alone needs its file: not a name on its own.
                    guard let kind = OutputKind.allCases.first(where: { $0 != .png && bytesEqual(v, $0.name) })
                    else { throw .unknownOutput }
                    o.output = kind
                }
            } else if bytesEqual(name, "--size") {
                guard let (w, h) = parsePair(try value(), separator: UInt8(ascii: "x"), signed: false),
                      w >= PanelImage.minimumWidth, w <= PanelImage.maximumWidth,
                      h >= PanelImage.minimumHeight, h <= PanelImage.maximumHeight
                else { throw .badSize }
                o.width = w; o.height = h
                sizeGiven = true
            } else if bytesEqual(name, "--position") {
                guard let (x, y) = parsePair(try value(), separator: UInt8(ascii: ","), signed: true) else { throw .badPosition }
                o.positionX = x; o.positionY = y
                windowOptionGiven = true
            } else if bytesEqual(name, "--window-type") {
                let v = try value()
                guard let type = WindowType.allCases.first(where: { bytesEqual(v, $0.name) }) else { throw .badWindowType }
                o.windowType = type
                windowOptionGiven = true
            } else if bytesEqual(name, "--click") {
                let v = try value()
                guard v.count == 1, v.first == UInt8(ascii: "1") || v.first == UInt8(ascii: "3") else { throw .badClick }
                o.click = Int(v[v.startIndex] - 48)
            } else if bytesEqual(name, "--image") {
                let v = try value()
                guard !v.isEmpty else { throw .emptyImagePath }
                o.imagePath = Array(v)
                imageGiven = true
            } else if bytesEqual(name, "--runtime-dir") {
                let v = try value()
                guard !v.isEmpty else { throw .emptyRuntimeDir }
                o.runtimeDir = Array(v)
            } else if bytesEqual(name, "--blocks") {
                let v = try value()
                var list: [BarBlock] = []
                var start = v.startIndex
                var p = v.startIndex
                while p <= v.endIndex {
                    if p == v.endIndex || v[p] == UInt8(ascii: ",") {
                        let block = try parseBlock(v[start..<p])
                        guard !list.contains(block) else { throw .duplicateBlock(Array(v[start..<p].prefix(64))) }
                        list.append(block)
                        start = p + 1
                    }
                    p += 1
                }
                o.blocks = list
                o.blocksGiven = true
            } else if bytesEqual(name, "--format") {
                try o.formats.add(try value())
                o.formatsGiven = true
            } else if bytesEqual(name, "--no-start-sampler") {
                o.startSampler = false
            } else if bytesEqual(name, "--sampler-option") {
                let v = try value()
                guard !v.contains(0), o.samplerOptions.count < 32 else { throw .unknownOption(Array("--sampler-option".utf8)) }
                o.samplerOptions.append(Array(v))
            } else if bytesEqual(name, "--config") {
                let v = try value()
                guard !v.isEmpty else { throw .emptyConfigPath }
                o.configPath = Array(v)
            } else {
                throw .unknownOption(Array(name.prefix(64)))
            }
            i += 1
        }
        // An option the chosen output would ignore is refused, not silently dropped.
        if (imageGiven || o.click != 0) && o.output != .genmon { throw .genmonOnlyOption }
        if windowOptionGiven && o.output != .x11Window { throw .positionNeedsWindow }
        if sizeGiven && !o.output.isImage { throw .sizeNeedsImage }
        return o
    }
}

/// How the x11-window meets a window manager (`--window-type`, like conky's
/// `own_window_type`); the raw values are CBarX11's CBARX11_TYPE_*.
public enum WindowType: Int32, Sendable, CaseIterable {
    /// Override-redirect: no window manager places, sizes, decorates or stacks it; it
    /// keeps `--size` and `--position` under any window manager (i3 included).
    case override = 0
    /// `_NET_WM_WINDOW_TYPE_DOCK`, sticky, above: a panel (i3 takes it into its dock area).
    case dock = 1
    /// `_NET_WM_WINDOW_TYPE_DESKTOP`, sticky, below other windows.
    case desktop = 2
    /// A managed window (`_NET_WM_WINDOW_TYPE_UTILITY`, sticky): floating under i3.
    case normal = 3

    /// The name in `--window-type`.
    public var name: StaticString {
        switch self {
        case .override: "override"
        case .dock: "dock"
        case .desktop: "desktop"
        case .normal: "normal"
        }
    }
}

/// One entry of `--blocks`: `KIND` or `KIND:ARGUMENT` (only time takes one: a zone this
/// machine knows).
func parseBlock(_ entry: ArraySlice<UInt8>) throws(OptionsError) -> BarBlock {
    let colon = entry.firstIndex(of: UInt8(ascii: ":")) ?? entry.endIndex
    guard let kind = BlockKind(name: entry[entry.startIndex..<colon]) else {
        throw .unknownBlock(Array(entry[entry.startIndex..<colon].prefix(64)))
    }
    guard kind != .command else { throw .commandNeedsConfig }
    guard colon < entry.endIndex else { return BarBlock(kind) }
    guard kind.takesArgument else { throw .unexpectedArgument }
    let argument = Array(entry[(colon + 1)...])
    guard !argument.isEmpty, argument.count <= 64, !argument.contains(0) else {
        throw kind == .time ? .unknownTimeZone : .badArgument
    }
    guard kind == .time else { return BarBlock(kind, argument: argument) }
    var zone: [CChar] = []
    for b in entry[(colon + 1)...] { zone.append(CChar(bitPattern: b)) }
    zone.append(0)
    guard zone.count > 1, zone.withUnsafeBufferPointer({ cclock_zone_known($0.baseAddress!) }) != 0 else {
        throw .unknownTimeZone
    }
    return BarBlock(kind, argument: Array(entry[(colon + 1)...]))
}

/// Two decimal numbers joined by `separator` (`180x56`, `-10,20`), each at most 5
/// digits with an optional `-` when `signed`; nil for anything else.
func parsePair(_ v: ArraySlice<UInt8>, separator: UInt8, signed: Bool) -> (Int, Int)? {
    guard let sep = v.firstIndex(of: separator) else { return nil }
    guard let a = parseSmallInt(v[..<sep], signed: signed), let b = parseSmallInt(v[(sep + 1)...], signed: signed)
    else { return nil }
    return (a, b)
}

private func parseSmallInt(_ v: ArraySlice<UInt8>, signed: Bool) -> Int? {
    var digits = v
    var negative = false
    if signed, digits.first == UInt8(ascii: "-") { negative = true; digits = digits.dropFirst() }
    guard !digits.isEmpty, digits.count <= 5 else { return nil }
    var n = 0
    for d in digits {
        guard d >= 48, d <= 57 else { return nil }
        n = n * 10 + Int(d - 48)
    }
    return negative ? -n : n
}

/// The runtime dir, as the sampler chooses it: `--runtime-dir`, else
/// `$XDG_RUNTIME_DIR/sysstats` when that variable is an absolute path, else `/tmp/sysstats-UID`.
public func resolveRuntimeDir(option: [UInt8]?, xdgRuntimeDir: [UInt8]?, uid: UInt32) -> [UInt8] {
    if let o = option { return o }
    let xdg = xdgRuntimeDir.map { String(decoding: $0, as: UTF8.self) }
    return Array(SnapshotLocation.runtimeDirectory(xdgRuntimeDir: xdg, uid: uid).utf8)
}

/// The config file: `--config FILE`, else `$XDG_CONFIG_HOME/sysstats/config.toml` when that
/// variable is an absolute path, else `$HOME/.config/sysstats/config.toml`; nil without a home.
public func configPath(option: [UInt8]?, xdgConfigHome: [UInt8]?, home: [UInt8]?) -> [UInt8]? {
    if let option { return option }
    var base: [UInt8]
    if let xdg = xdgConfigHome, xdg.first == UInt8(ascii: "/") {
        base = xdg
    } else if let home, home.first == UInt8(ascii: "/") {
        base = home
        base.append(contentsOf: "/.config".utf8)
    } else {
        return nil
    }
    base.append(contentsOf: "/sysstats/config.toml".utf8)
    return base
}

/// The message shown instead of the blocks when the snapshot is missing or stale.
public let staleMessage: StaticString = "sysstatsd stopped"
/// Shown instead of ``staleMessage`` while a sampler the bar started has not written yet.
public let startingMessage: StaticString = "sysstatsd starting…"
