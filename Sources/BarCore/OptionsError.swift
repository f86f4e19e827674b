// What is wrong with sysstats-bar's command line, and the one line that says so.

import SnapshotCodec
import CommandOptions

/// What is wrong with the command line.
public enum OptionsError: Error, Equatable, Sendable {
    /// An option this program does not have: its name (at most 64 bytes).
    case unknownOption([UInt8])
    /// `--blocks` names the same block twice: that block as given (at most 64 bytes).
    case duplicateBlock([UInt8])
    case missingValue
    /// A flag given a value (`--once=yes`): its name.
    case unexpectedValue([UInt8])
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
    /// The block, the name between the braces, and the offset of its `{` in the format.
    case unknownPlaceholder(BlockKind, name: [UInt8] = [], offset: Int = 0)
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
    /// `--blocks KIND:` with an empty argument or one over 64 bytes (a path: 4095).
    case badArgument
    /// `--blocks run_watch` (path_exists, read_file) without the path it looks at.
    case missingPath
    /// `--blocks time:ZONE` with a zone this machine does not know.
    case unknownTimeZone
    /// `--blocks top:LIST` with a list the top block does not have (it has `gpu`).
    case unknownTopList
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
    /// `--anchor` not one of ``PanelAnchor``'s names.
    case badAnchor
    /// `--layer` not background, bottom, top or overlay.
    case badLayer
    /// `--margin` not a number of pixels up to 4096.
    case badMargin
    /// `--wayland-output` empty, over 63 bytes or with a NUL byte.
    case badWaylandOutput
    /// `--anchor`, `--layer`, `--margin`, `--exclusive` or `--wayland-output` with another
    /// output than wayland-panel or panel.
    case placementNeedsWayland
    /// `--exclusive` with a corner anchor (a compositor reserves a strip of one edge only).
    case exclusiveNeedsEdge

    /// One line for stderr.
    public var message: StaticString {
        switch self {
        case .unknownOption: "sysstats-bar: unknown option (see sysstats-bar --help)"
        case .duplicateBlock: "sysstats-bar: --blocks names a block twice"
        case .missingValue: "sysstats-bar: option needs a value (see --help)"
        case .unexpectedValue: "sysstats-bar: an option that takes no value was given one (see --help)"
        case .unknownOutput: "sysstats-bar: --output must be text, tmux, lemonbar, polybar, i3bar, waybar, x11-root, x11-window, wayland-panel, panel, png:FILE or genmon"
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
        case .unexpectedArgument: "sysstats-bar: --blocks: a block that takes no argument was given one (see --help)"
        case .badArgument: "sysstats-bar: --blocks KIND:ARGUMENT: the argument is 1 to 64 bytes (an interface, mount point, disk or sensor), a path 1 to 4095"
        case .missingPath: "sysstats-bar: --blocks: run_watch, path_exists and read_file need a path (run_watch:/var/run/dhclient*.pid, path_exists:/proc/sys/net/ipv4/conf/tun0, read_file:/sys/class/power_supply/BAT0/capacity)"
        case .unknownTimeZone: "sysstats-bar: --blocks time:ZONE: no such time zone in /usr/share/zoneinfo (e.g. UTC, Europe/Paris)"
        case .unknownTopList: "sysstats-bar: --blocks top:LIST: the top block's other lists are top:gpu (the processes using the GPUs), top:units and top:units-mem (the cgroup v2 tree's units by CPU, by memory)"
        case .badTimeFormat: "sysstats-bar: --format time=TEXT: TEXT is a strftime(3) format, not empty (e.g. time=%H:%M)"
        case .emptyConfigPath: "sysstats-bar: --config needs a file name"
        case .commandNeedsConfig: "sysstats-bar: --blocks: a command block is defined in the config file ([[block]] block = \"command\", man sysstats-config)"
        case .genmonOnlyOption: "sysstats-bar: --image and --click apply to --output genmon only"
        case .positionNeedsWindow: "sysstats-bar: --position and --window-type apply to --output x11-window and panel only"
        case .badWindowType: "sysstats-bar: --window-type must be override, dock, desktop or normal"
        case .sizeNeedsImage: "sysstats-bar: --size applies to the panel image outputs only: x11-window, wayland-panel, panel, png:FILE, genmon"
        case .badAnchor: "sysstats-bar: --anchor must be top, bottom, top-left, top-right, bottom-left or bottom-right"
        case .badLayer: "sysstats-bar: --layer must be background, bottom, top or overlay"
        case .badMargin: "sysstats-bar: --margin takes a number of pixels, 0 to 4096"
        case .badWaylandOutput: "sysstats-bar: --wayland-output takes an output's name, e.g. HDMI-A-1 (swaymsg -t get_outputs lists them)"
        case .placementNeedsWayland: "sysstats-bar: --anchor, --layer, --margin, --exclusive and --wayland-output apply to --output wayland-panel and panel only"
        case .exclusiveNeedsEdge: "sysstats-bar: --exclusive needs --anchor top or bottom (a compositor reserves a strip of one edge only)"
        }
    }
}

extension OptionsError {
    /// What the option table (``BarOptions/table``) refused.
    init(commandLine error: CommandOptionError) {
        switch error {
        case .unknown(let name): self = .unknownOption(name)
        case .missingValue: self = .missingValue
        case .unexpectedValue(let name): self = .unexpectedValue(name)
        }
    }

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
        if case .unexpectedValue(let name) = self {
            w.append("sysstats-bar: ")
            w.append(bytes: name)
            w.append(" takes no value")
            return
        }
        if case .duplicateBlock(let name) = self {
            w.append("sysstats-bar: --blocks: '")
            w.append(escaped: name, .plain)
            w.append("' is there twice (a click names a block by its name and argument)")
            return
        }
        if case .unexpectedArgument = self {
            // The blocks that take one, from the registry.
            w.append("sysstats-bar: --blocks: only ")
            let taking = BlockKind.allCases.filter { $0.takesArgument }
            for i in 0..<taking.count {
                if i > 0 { w.append(i == taking.count - 1 ? " and " : ", ") }
                w.append(taking[i].name)
            }
            w.append(" take an argument (e.g. time:Europe/Paris, disk:/home)")
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
        guard case .unknownPlaceholder(let block, let name, _) = self else { w.append(message); return }
        w.append("sysstats-bar: --format ")
        w.append(block.name)
        w.append(": unknown placeholder {")
        w.append(escaped: name, .plain)
        w.append("}; ")
        w.append(block.name)
        w.append(" has")
        for spec in block.placeholders {
            w.append(" {"); w.append(spec.name); w.append(UInt8(ascii: "}"))
        }
    }
}
