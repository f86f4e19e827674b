// Command line, runtime dir and staleness rules of sysstats-bar; pure functions
// over bytes so that the Embedded program and the tests share them. The runtime
// dir and staleness rules themselves are the snapshot contract's (SnapshotCodec).

#if hasFeature(Embedded)
import SnapshotCodecEmbedded
#else
import SnapshotCodec
#endif

/// What is wrong with the command line.
public enum OptionsError: Error, Equatable, Sendable {
    case unknownOption
    case missingValue
    case unknownOutput
    case unknownBlock
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

    /// One line for stderr.
    public var message: StaticString {
        switch self {
        case .unknownOption: "sysstats-bar: unknown option (see --help)"
        case .missingValue: "sysstats-bar: option needs a value (see --help)"
        case .unknownOutput: "sysstats-bar: --output must be text, i3bar, waybar or x11-root"
        case .unknownBlock: "sysstats-bar: --blocks takes a comma-separated list of cpu, mem, load, uptime, battery, procs, exited, self, top"
        case .emptyRuntimeDir: "sysstats-bar: --runtime-dir must not be empty"
        case .formatSyntax: "sysstats-bar: --format takes BLOCK=TEXT, e.g. --format 'cpu=CPU {busy}% {spark}'"
        case .unknownFormatBlock: "sysstats-bar: --format BLOCK=TEXT: BLOCK is one of cpu, mem, load, uptime, battery, procs, exited, self, top"
        case .duplicateFormat: "sysstats-bar: --format given twice for the same block"
        case .unknownPlaceholder(let block):
            switch block {
            case .cpu: "sysstats-bar: --format cpu: unknown placeholder; cpu has {busy} {iowait} {spark}"
            case .mem: "sysstats-bar: --format mem: unknown placeholder; mem has {used} {total} {available} {free} {active} {inactive} {wired} {other} {percent} {bar} {swap} {swap_total}"
            case .load: "sysstats-bar: --format load: unknown placeholder; load has {1} {5} {15}"
            case .uptime: "sysstats-bar: --format uptime: unknown placeholder; uptime has {days} {hours} {minutes} {uptime}"
            case .battery: "sysstats-bar: --format battery: unknown placeholder; battery has {percent} {state} {sign} {remaining} {power}"
            case .procs: "sysstats-bar: --format procs: unknown placeholder; procs has {count} {running}"
            case .exited: "sysstats-bar: --format exited: unknown placeholder; exited has {name} {pid} {freed} {private} {ago}"
            case .selfCost: "sysstats-bar: --format self: unknown placeholder; self has {cpu} {sampler_cpu} {bar_cpu} {sampler_rss} {bar_rss}"
            case .top: "sysstats-bar: --format top: unknown placeholder; top has {name} {cpu} {mem}"
            }
        case .unclosedBrace: "sysstats-bar: --format: '{' without '}' (write {{ for a literal brace)"
        case .unmatchedBrace: "sysstats-bar: --format: '}' without '{' (write }} for a literal brace)"
        case .formatTooLong: "sysstats-bar: --format: the text after BLOCK= is longer than 256 bytes"
        }
    }
}

/// The usage text for `--help`.
public let usageText: StaticString = """
    usage: sysstats-bar [--output text|i3bar|waybar|x11-root] [--runtime-dir DIR] [--blocks LIST]
                        [--format BLOCK=TEXT]... [--once]
      --output       bar protocol (default text); x11-root sets the root window name (dwm)
      --runtime-dir  where sysstatsd writes its snapshot
                     (default $XDG_RUNTIME_DIR/sysstats, else /tmp/sysstats-$UID)
      --blocks       comma-separated: cpu,mem,load,uptime,battery,procs,exited,self,top
                     (default cpu,mem,load,battery,exited,uptime)
      --format       BLOCK=TEXT, once per block: TEXT replaces the block's built-in
                     text, {name} placeholders filled in, {{ and }} for braces;
                     e.g. --format 'cpu=CPU {busy}% {spark}' (docs/renderer.md lists them)
      --once         print the current snapshot once and exit (status 1 when none)

    """

/// Parsed command line.
public struct BarOptions: Equatable, Sendable {
    public var output: OutputKind = .text
    /// `--runtime-dir`, without a trailing NUL; nil when not given.
    public var runtimeDir: [UInt8]? = nil
    public var blocks: [BlockKind] = BlockKind.defaults
    /// `--format` per block, parsed.
    public var formats = BlockFormats()
    public var once = false
    public var help = false
    public init() {}

    /// Parses arguments (without the program name). Accepts `--opt value` and `--opt=value`.
    public static func parse(_ args: [[UInt8]]) throws(OptionsError) -> BarOptions {
        var o = BarOptions()
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
            } else if bytesEqual(name, "--output") {
                let v = try value()
                guard let kind = OutputKind.allCases.first(where: { bytesEqual(v, $0.name) }) else { throw .unknownOutput }
                o.output = kind
            } else if bytesEqual(name, "--runtime-dir") {
                let v = try value()
                guard !v.isEmpty else { throw .emptyRuntimeDir }
                o.runtimeDir = Array(v)
            } else if bytesEqual(name, "--blocks") {
                let v = try value()
                var list: [BlockKind] = []
                var start = v.startIndex
                var p = v.startIndex
                while p <= v.endIndex {
                    if p == v.endIndex || v[p] == UInt8(ascii: ",") {
                        guard let kind = BlockKind(name: v[start..<p]) else { throw .unknownBlock }
                        if !list.contains(kind) { list.append(kind) }
                        start = p + 1
                    }
                    p += 1
                }
                o.blocks = list
            } else if bytesEqual(name, "--format") {
                try o.formats.add(try value())
            } else {
                throw .unknownOption
            }
            i += 1
        }
        return o
    }
}

/// The runtime dir, as the sampler chooses it: `--runtime-dir`, else
/// `$XDG_RUNTIME_DIR/sysstats` when that variable is an absolute path, else `/tmp/sysstats-UID`.
public func resolveRuntimeDir(option: [UInt8]?, xdgRuntimeDir: [UInt8]?, uid: UInt32) -> [UInt8] {
    if let o = option { return o }
    let xdg = xdgRuntimeDir.map { String(decoding: $0, as: UTF8.self) }
    return Array(SnapshotLocation.runtimeDirectory(xdgRuntimeDir: xdg, uid: uid).utf8)
}

/// When the renderer must look again: the staleness rule is the snapshot's own
/// (``Snapshot/isStale(nowMs:)``: three intervals, at least 5 s).
public enum Staleness {
    /// Milliseconds from `nowMs` until `snapshot` turns stale (0 when it already is),
    /// plus one so a poll timeout lands just after the limit.
    public static func msUntilStale(_ snapshot: Snapshot, nowMs: UInt64) -> UInt64 {
        let deadline = snapshot.timestampMs &+ snapshot.staleLimitMs &+ 1
        return deadline > nowMs ? deadline - nowMs : 0
    }
}

/// The message shown instead of the blocks when the snapshot is missing or stale.
public let staleMessage: StaticString = "sysstatsd stopped"
