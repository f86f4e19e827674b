// Command line, runtime dir and staleness rules of sysstats-bar; pure functions
// over bytes so that the Embedded program and the tests share them. The runtime
// dir and staleness rules themselves are the snapshot contract's (SnapshotCodec).

import SnapshotCodec
import CClock
import CommandOptions

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
    /// `--anchor`, `--layer`, `--margin`, `--exclusive` and `--wayland-output` for wayland-panel.
    public var anchor = PanelAnchor.topRight
    public var layer = PanelLayer.top
    public var margin = 0
    public var exclusive = false
    /// The output's name, without a trailing NUL; nil: the compositor's choice.
    public var waylandOutput: [UInt8]? = nil
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

    /// What each option of ``table`` is.
    public enum Flag: UInt8, Sendable {
        case output, runtimeDir, blocks, format, once, size, position, windowType, image, click, config
        case noStartSampler, samplerOption, help, version
        case anchor, layer, margin, exclusive, waylandOutput
    }

    /// Parses arguments (without the program name). Accepts `--opt value` and `--opt=value`.
    public static func parse(_ args: [[UInt8]]) throws(OptionsError) -> BarOptions {
        var o = BarOptions()
        var imageGiven = false, windowOptionGiven = false, sizeGiven = false, waylandOptionGiven = false
        try table.parse(args, failure: OptionsError.init(commandLine:)) { id, given throws(OptionsError) in
            guard let flag = Flag(rawValue: id) else { return true }
            let v = given ?? []
            switch flag {
            case .once: o.once = true
            case .help: o.help = true
            case .version: o.version = true
            case .noStartSampler: o.startSampler = false
            case .output:
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
            case .size:
                guard let (w, h) = parsePair(v, separator: UInt8(ascii: "x"), signed: false),
                      w >= PanelImage.minimumWidth, w <= PanelImage.maximumWidth,
                      h >= PanelImage.minimumHeight, h <= PanelImage.maximumHeight
                else { throw .badSize }
                o.width = w; o.height = h
                sizeGiven = true
            case .position:
                guard let (x, y) = parsePair(v, separator: UInt8(ascii: ","), signed: true) else { throw .badPosition }
                o.positionX = x; o.positionY = y
                windowOptionGiven = true
            case .windowType:
                guard let type = WindowType.allCases.first(where: { bytesEqual(v, $0.name) }) else { throw .badWindowType }
                o.windowType = type
                windowOptionGiven = true
            case .anchor, .layer, .margin, .exclusive, .waylandOutput:
                try o.parsePlacement(flag, v)
                waylandOptionGiven = true
            case .click:
                guard v.count == 1, v.first == UInt8(ascii: "1") || v.first == UInt8(ascii: "3") else { throw .badClick }
                o.click = Int(v[v.startIndex] - 48)
            case .image:
                guard !v.isEmpty else { throw .emptyImagePath }
                o.imagePath = Array(v)
                imageGiven = true
            case .runtimeDir:
                guard !v.isEmpty else { throw .emptyRuntimeDir }
                o.runtimeDir = Array(v)
            case .blocks:
                o.blocks = try parseBlockList(v)
                o.blocksGiven = true
            case .format:
                try o.formats.add(v)
                o.formatsGiven = true
            case .samplerOption:
                guard !v.contains(0), o.samplerOptions.count < 32 else { throw .unknownOption(Array("--sampler-option".utf8)) }
                o.samplerOptions.append(Array(v))
            case .config:
                guard !v.isEmpty else { throw .emptyConfigPath }
                o.configPath = Array(v)
            }
            return true
        }
        // An option the chosen output would ignore is refused, not silently dropped.
        if (imageGiven || o.click != 0) && o.output != .genmon { throw .genmonOnlyOption }
        // `panel` takes both sets: which one applies is the session's (Wayland or X11).
        if windowOptionGiven && o.output != .x11Window && o.output != .panel { throw .positionNeedsWindow }
        if waylandOptionGiven && o.output != .waylandPanel && o.output != .panel { throw .placementNeedsWayland }
        if o.exclusive && !o.anchor.isEdge { throw .exclusiveNeedsEdge }
        if sizeGiven && !o.output.isImage { throw .sizeNeedsImage }
        return o
    }
}

extension BarOptions {
    /// One of wayland-panel's options: where its surface sits.
    mutating func parsePlacement(_ flag: Flag, _ v: ArraySlice<UInt8>) throws(OptionsError) {
        switch flag {
        case .anchor:
            guard let anchor = PanelAnchor.allCases.first(where: { bytesEqual(v, $0.name) }) else { throw .badAnchor }
            self.anchor = anchor
        case .layer:
            guard let layer = PanelLayer.allCases.first(where: { bytesEqual(v, $0.name) }) else { throw .badLayer }
            self.layer = layer
        case .margin:
            guard let margin = parseSmallInt(v, signed: false), margin <= 4096 else { throw .badMargin }
            self.margin = margin
        case .exclusive:
            exclusive = true
        default:
            guard !v.isEmpty, v.count < 64, !v.contains(0) else { throw .badWaylandOutput }
            waylandOutput = Array(v)
        }
    }
}

/// `--blocks`' comma-separated list, each block once.
func parseBlockList(_ v: ArraySlice<UInt8>) throws(OptionsError) -> [BarBlock] {
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
    return list
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

/// One entry of `--blocks`: `KIND` or `KIND:ARGUMENT` (for the blocks that take one; the
/// descriptor's check, if any: time's zone must be one this machine knows).
func parseBlock(_ entry: ArraySlice<UInt8>) throws(OptionsError) -> BarBlock {
    let colon = entry.firstIndex(of: UInt8(ascii: ":")) ?? entry.endIndex
    guard let kind = BlockKind(name: entry[entry.startIndex..<colon]) else {
        throw .unknownBlock(Array(entry[entry.startIndex..<colon].prefix(64)))
    }
    guard kind.isNamedInBlocksOption else { throw .commandNeedsConfig }
    guard colon < entry.endIndex else {
        // A file block without its path would look at nothing.
        guard kind.fileCheck == nil else { throw .missingPath }
        return BarBlock(kind)
    }
    guard kind.takesArgument else { throw .unexpectedArgument }
    let argument = Array(entry[(colon + 1)...])
    let check = kind.descriptor.argumentCheck
    guard !argument.isEmpty, argument.count <= kind.descriptor.argumentMaximum, !argument.contains(0) else {
        throw check?.optionsError ?? .badArgument
    }
    if let check, !check.known(argument[...]) { throw check.optionsError }
    return BarBlock(kind, argument: argument)
}

/// Two decimal numbers joined by `separator` (`180x56`, `-10,20`), each at most 5
/// digits with an optional `-` when `signed`; nil for anything else.
func parsePair(_ v: ArraySlice<UInt8>, separator: UInt8, signed: Bool) -> (Int, Int)? {
    guard let sep = v.firstIndex(of: separator) else { return nil }
    guard let a = parseSmallInt(v[..<sep], signed: signed), let b = parseSmallInt(v[(sep + 1)...], signed: signed)
    else { return nil }
    return (a, b)
}

func parseSmallInt(_ v: ArraySlice<UInt8>, signed: Bool) -> Int? {
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
    // Over bytes, SnapshotLocation's rule: a String would repair an XDG_RUNTIME_DIR that is
    // not UTF-8 into the name of another folder.
    if let xdg = xdgRuntimeDir, xdg.first == UInt8(ascii: "/") {
        var path = xdg
        if path.last != UInt8(ascii: "/") { path.append(UInt8(ascii: "/")) }
        path.append(contentsOf: "sysstats".utf8)
        return path
    }
    return Array(SnapshotLocation.runtimeDirectory(xdgRuntimeDir: nil, uid: uid).utf8)
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
/// Shown instead of ``staleMessage`` when no snapshot was ever there: no sampler has run.
public let notRunningMessage: StaticString = "sysstatsd not running (start it: sysstatsd &)"
/// The same in a panel's picture, which has no room for the rest.
public let notRunningPanelMessage: StaticString = "sysstatsd not running"
/// Shown instead of ``staleMessage`` while a sampler the bar started has not written yet.
public let startingMessage: StaticString = "sysstatsd starting…"
