// The bar's part of config.toml (docs/configuration.md): [theme] and the [[block]] list.
// Everything is checked here, once, when the file is loaded: an unknown key, a value of the
// wrong type or out of range, a format with an unknown placeholder is refused with the
// place it was written, never ignored. The [sampler] table is the sampler's (SystemDirs'
// SamplerSettings): the bar only checks that it is a table.

import SnapshotCodec
import TOML
import CClock

/// What is wrong with a config file, and where: `LINE:COL: reason`.
public struct ConfigError: Error, Equatable, Sendable {
    public var line: Int
    public var column: Int
    /// The reason, UTF-8 (a key or a name from the file is quoted in it, control bytes as `?`).
    public var reason: [UInt8]

    public init(line: Int, column: Int, reason: [UInt8]) {
        self.line = line; self.column = column; self.reason = reason
    }

    init(_ value: TOMLValue, atKey: Bool = false, _ text: StaticString, _ detail: ArraySlice<UInt8>? = nil,
         _ tail: StaticString? = nil) {
        line = atKey ? value.keyLine : value.line
        column = atKey ? value.keyColumn : value.column
        reason = []
        reason.append(contentsOf: bytes(text))
        if let detail { appendQuoted(detail, to: &reason) }
        if let tail { reason.append(contentsOf: bytes(tail)) }
    }

    init(_ error: TOMLError) {
        line = error.line
        column = error.column
        reason = bytes(error.reason.message)
    }

    /// `FILE:LINE:COL: reason`.
    /// `FILE:LINE:COL: reason`, or `FILE: reason` for a problem of the whole file (line 0).
    public func describe(file: [UInt8], into out: inout [UInt8]) {
        out.append(contentsOf: file)
        if line > 0 {
            out.append(UInt8(ascii: ":"))
            appendNumber(line, to: &out)
            out.append(UInt8(ascii: ":"))
            appendNumber(column, to: &out)
        }
        out.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
        out.append(contentsOf: reason)
    }
}

/// The bar's configuration from the file: nil blocks when the file has no `[[block]]`.
public struct BarConfig: Equatable, Sendable {
    public var blocks: [BarBlock]? = nil
    public var theme = Theme()
    /// The `block = "i3blocks"` entries, whose files' sections take their place in
    /// ``blocks`` (``expandingI3blocksFiles(problems:_:)``).
    public var i3blocksFiles: [I3blocksInclude] = []
    public init() {}

    /// At most this many blocks.
    public static let maximumBlocks = 64

    /// Parses and checks a whole config file.
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> Result<BarConfig, ConfigError> {
        let document: TOMLDocument
        do throws(TOMLError) {
            document = try TOMLDocument.parse(bytes)
        } catch {
            return .failure(ConfigError(error))
        }
        do throws(ConfigError) {
            return .success(try parse(document))
        } catch {
            return .failure(error)
        }
    }

    /// Checks a parsed document's bar part.
    public static func parse(_ document: TOMLDocument) throws(ConfigError) -> BarConfig {
        var config = BarConfig()
        for entry in document.root {
            if keyIs(entry, "theme") {
                config.theme = try theme(entry)
            } else if keyIs(entry, "sampler") {
                guard entry.kind == .table else { throw ConfigError(entry, "[sampler] must be a table") }
            } else if keyIs(entry, "block") {
                config.blocks = try blocks(entry, includes: &config.i3blocksFiles)
            } else {
                throw ConfigError(unknownKey: entry, known: ["theme", "sampler", "block"], " (the file has [theme], [sampler] and [[block]])")
            }
        }
        return config
    }

    static func theme(_ value: TOMLValue) throws(ConfigError) -> Theme {
        guard let table = value.table else { throw ConfigError(value, "[theme] must be a table") }
        var theme = Theme()
        for entry in table {
            if keyIs(entry, "separator") {
                theme.separator = try string(entry, maximum: 64)
            } else if keyIs(entry, "na") {
                theme.notAvailable = try string(entry, maximum: 32)
            } else if keyIs(entry, "warning") || keyIs(entry, "critical") {
                let color = try string(entry, maximum: 9)
                guard Theme.isColor(color) else { throw ConfigError(entry, "a colour is \"#RRGGBB\" or \"#RRGGBBAA\"") }
                if keyIs(entry, "warning") { theme.warning = color } else { theme.critical = color }
            } else {
                throw ConfigError(unknownKey: entry, known: ["separator", "na", "warning", "critical"], " in [theme] (separator, na, warning, critical)")
            }
        }
        return theme
    }

    static func blocks(_ value: TOMLValue, includes: inout [I3blocksInclude]) throws(ConfigError) -> [BarBlock] {
        guard let array = value.array else { throw ConfigError(value, "block must be a list of tables: [[block]]") }
        guard array.count <= maximumBlocks else { throw ConfigError(value, "more than 64 blocks") }
        var blocks: [BarBlock] = []
        for element in array {
            if let include = try i3blocksInclude(element, at: blocks.count) {
                includes.append(include)
            } else {
                blocks.append(try block(element))
            }
        }
        return blocks
    }

    /// `block = "i3blocks"` with `file = "~/.config/i3blocks/config"`; nil for any other block.
    static func i3blocksInclude(_ value: TOMLValue, at index: Int) throws(ConfigError) -> I3blocksInclude? {
        guard let table = value.table, let kind = table["block"], kind.string == bytes("i3blocks") else { return nil }
        var include: I3blocksInclude?
        for entry in table {
            if keyIs(entry, "block") { continue }
            guard keyIs(entry, "file") else {
                throw ConfigError(unknownKey: entry, known: ["file"], " in an i3blocks block (file)")
            }
            let path = try string(entry, maximum: 4096)
            guard !path.isEmpty, !path.contains(0) else { throw ConfigError(entry, "the i3blocks file's path must not be empty") }
            include = I3blocksInclude(path: path, index: index, line: entry.line, column: entry.column)
        }
        guard let include else { throw ConfigError(value, "an i3blocks block needs file = \"…\" (its i3blocks config)") }
        return include
    }

    /// A format's mistake at `entry`, as the config file says it: `format: unknown placeholder
    /// {x}; …`, at the column of the placeholder's `{` (exact for a string without escapes).
    static func formatError(_ error: OptionsError, _ entry: TOMLValue) -> ConfigError {
        var line = ByteWriter(capacity: 256)
        error.describe(into: &line)
        var column = entry.column
        if case .unknownPlaceholder(_, _, let offset) = error { column = entry.column + 1 + offset }
        // "sysstats-bar: --format cpu: unknown placeholder {x}; …" → "format: unknown placeholder {x}; …"
        var reason = line.bytes
        for _ in 0..<2 {
            guard let colon = reason.firstIndex(of: UInt8(ascii: ":")) else { break }
            reason.removeSubrange(0...colon)
        }
        while reason.first == UInt8(ascii: " ") { reason.removeFirst() }
        return ConfigError(line: entry.line, column: column, reason: bytes("format: ") + reason)
    }

    static func block(_ value: TOMLValue) throws(ConfigError) -> BarBlock {
        guard let table = value.table else { throw ConfigError(value, "each block must be a table: [[block]]") }
        guard let kindValue = table["block"] else {
            // `blok = "load"`: the misspelt key, at its own line.
            for entry in table where nearestKey(entry.key, ["block"]) != nil {
                throw ConfigError(unknownKey: entry, known: ["block"], "")
            }
            throw ConfigError(value, "a [[block]] needs block = \"…\" (cpu, mem, net, time, command, …)")
        }
        let name = try string(kindValue, maximum: 16)
        if name == bytes("i3bar") { return try wrappedI3bar(table, value) }
        guard let kind = BlockKind(name: name[...]) else {
            throw ConfigError(kindValue, "unknown block ", name[...], " (man sysstats-config lists them)")
        }
        if kind.runsCommand { return try commandBlock(table, value) }
        var block = BarBlock(kind)
        for entry in table {
            if keyIs(entry, "block") { continue }
            if keyIs(entry, "format") || keyIs(entry, "format_short") {
                let text = try string(entry, maximum: BlockFormat.maximumLength)
                let short = keyIs(entry, "format_short")
                if kind.isClock {
                    guard !text.isEmpty else { throw ConfigError(entry, "a time format is a strftime(3) format, not empty") }
                    if short { block.timeShortFormat = text } else { block.timeFormat = text }
                } else {
                    do throws(OptionsError) {
                        let format = try BlockFormat(text[...], for: kind)
                        if short { block.shortFormat = format } else { block.format = format }
                    } catch {
                        throw formatError(error, entry)
                    }
                }
            } else if keyIs(entry, "warning") || keyIs(entry, "critical") {
                let n = try threshold(entry, kind)
                if keyIs(entry, "warning") { block.warning = n } else { block.critical = n }
            } else if let option = kind.descriptor.argumentKey, keyIs(entry, option) {
                let argument = try string(entry, maximum: kind.descriptor.argumentMaximum)
                guard !argument.isEmpty, !argument.contains(0) else { throw ConfigError(entry, "must not be empty") }
                if let check = kind.descriptor.argumentCheck, !check.known(argument[...]) {
                    // "no such time zone \"X\" in /usr/share/zoneinfo"
                    var reason = bytes("no such ") + bytes(check.what) + [0x20]
                    appendQuoted(argument[...], to: &reason)
                    reason += bytes(" in ") + bytes(check.whereFrom)
                    throw ConfigError(line: entry.line, column: entry.column, reason: reason)
                }
                block.argument = argument
            } else if keyIs(entry, "click") {
                block.clicks = try clicks(entry, kind: kind)
            } else if keyIs(entry, "color") {
                block.color = try colour(entry)
            } else if keyIs(entry, "hide_missing"), kind.needsSnapshot {
                guard let b = entry.bool else { throw ConfigError(entry, "expected true or false") }
                block.hideMissing = b
            } else if keyIs(entry, "min_freed"), kind.descriptor.filtersByFreedMemory {
                // MiB, as [sampler]'s freed_threshold.
                block.minimumFreedKiB = UInt64(try integer(entry, in: 0...1_048_576)) * 1024
            } else if try fileBlockKey(entry, kind, into: &block) {
                // A file block's title or text while down (ConfigKeys.swift).
            } else if try soundBlockKey(entry, kind, into: &block) {
                // A sound block's format_muted, step and max (ConfigKeys.swift).
            } else if try mediaBlockKey(entry, kind, into: &block) {
                // The media block's format_paused (ConfigKeys.swift).
            } else if try stateFormatKey(entry, kind, into: &block) {
                // A state's text: format_down, format_charging, format_full (ConfigKeys.swift).
            } else {
                throw ConfigError(unknownKey: entry, known: knownKeys(kind), " in this block (man sysstats-config)")
            }
        }
        if kind.fileCheck != nil && block.argument.isEmpty { throw missingPath(value, kind) }
        return block
    }

    /// `block = "i3bar"`: `command` (a program speaking the i3bar protocol), optional `name`
    /// (for messages about it) and `click_signal` (sent on a click when the program takes no
    /// click events; SIGUSR1 for i3status by default, which redraws on it).
    static func wrappedI3bar(_ table: TOMLTable, _ value: TOMLValue) throws(ConfigError) -> BarBlock {
        var block = BarBlock(.command)
        var spec = CommandSpec(command: [], name: bytes("i3bar"), persist: true)
        spec.wrapsI3bar = true
        var signalGiven = false
        for entry in table {
            if keyIs(entry, "block") { continue }
            if keyIs(entry, "command") || keyIs(entry, "name") {
                _ = try commandKey(entry, &spec)
            } else if keyIs(entry, "click_signal") {
                // 0: none; else a standard signal that does not stop or kill outright.
                let n = Int32(try integer(entry, in: 0...31))
                guard n == 0 || (n != 9 && n != 19 && n != 17) else {
                    throw ConfigError(entry, "click_signal is 0 (none) or a signal other than KILL, STOP and CHLD")
                }
                spec.refreshSignal = n
                signalGiven = true
            } else {
                throw ConfigError(unknownKey: entry, known: ["command", "name", "click_signal"],
                                  " in an i3bar block (command, name, click_signal)")
            }
        }
        guard !spec.command.isEmpty else { throw ConfigError(value, "an i3bar block needs command = \"…\"") }
        if !signalGiven && isI3status(spec.command) && isSimpleCommand(spec.command) { spec.refreshSignal = 10 }
        spec.instance = spec.name
        block.command = spec
        return block
    }

    /// True when `command` is one program with its arguments and redirections, nothing the shell
    /// must stay for (a list, a pipeline, a compound command, an assignment before it): `exec`
    /// can then replace the shell with it, so that a signal sent to the child reaches the program.
    public static func isSimpleCommand(_ command: [UInt8]) -> Bool {
        let special: StaticString = ";&|(){}!\n"
        for b in command {
            for k in 0..<special.utf8CodeUnitCount where special.utf8Start[k] == b { return false }
        }
        guard let first = command.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 }).first else { return false }
        if first.contains(UInt8(ascii: "=")) { return false }
        for word: StaticString in ["if", "while", "until", "for", "case"] where bytesEqual(first, word) { return false }
        return true
    }

    /// True when the command's first word is i3status (a path to it, or after `exec`).
    public static func isI3status(_ command: [UInt8]) -> Bool {
        var words = command.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
        if let first = words.first, first.elementsEqual("exec".utf8) { words.removeFirst() }
        guard let program = words.first else { return false }
        let base = program.split(separator: UInt8(ascii: "/")).last ?? program
        return base.elementsEqual("i3status".utf8)
    }

    static func string(_ value: TOMLValue, maximum: Int) throws(ConfigError) -> [UInt8] {
        guard let s = value.string else { throw ConfigError(value, "expected a string, found ", nil, value.kind.name) }
        guard s.count <= maximum else { throw ConfigError(value, "too long") }
        return s
    }

    static func integer(_ value: TOMLValue, in range: ClosedRange<Int64>) throws(ConfigError) -> Int64 {
        guard let n = value.integer else { throw ConfigError(value, "expected an integer, found ", nil, value.kind.name) }
        guard range.contains(n) else {
            var reason = bytes("out of range: ")
            appendNumber(Int(range.lowerBound), to: &reason)
            reason.append(contentsOf: bytes(" to "))
            appendNumber(Int(range.upperBound), to: &reason)
            throw ConfigError(line: value.line, column: value.column, reason: reason)
        }
        return n
    }

    /// Seconds (an integer or a float) as milliseconds, at least `minimum`, at most a day.
    static func milliseconds(_ value: TOMLValue, minimum: UInt32) throws(ConfigError) -> UInt32 {
        let seconds: Double
        if let n = value.integer { seconds = Double(n) } else if let f = value.float { seconds = f } else {
            throw ConfigError(value, "expected seconds (a number), found ", nil, value.kind.name)
        }
        guard seconds == seconds, seconds * 1000 >= Double(minimum), seconds <= 86_400 else {
            throw ConfigError(value, "out of range: 0.1 to 86400 seconds")
        }
        return UInt32(seconds * 1000)
    }
}

extension StaticString {
    var bytesSlice: ArraySlice<UInt8> { bytes(self)[...] }
}

func keyIs(_ value: TOMLValue, _ name: StaticString) -> Bool {
    bytesEqual(value.key, name)
}

func bytes(_ s: StaticString) -> [UInt8] {
    var a: [UInt8] = []
    let p = s.utf8Start
    for i in 0..<s.utf8CodeUnitCount { a.append(p[i]) }
    return a
}

/// `"text"` with control bytes, quotes and backslashes as `?`.
func appendQuoted(_ text: ArraySlice<UInt8>, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    for b in text.prefix(64) { out.append(b < 0x20 || b == 0x7F || b == 0x22 || b == 0x5C ? UInt8(ascii: "?") : b) }
    out.append(UInt8(ascii: "\""))
}

func appendNumber(_ n: Int, to out: inout [UInt8]) {
    var w = ByteWriter(capacity: 24)
    w.appendDecimal(n)
    out.append(contentsOf: w.bytes)
}
