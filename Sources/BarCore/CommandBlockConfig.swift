// A command block's keys in config.toml: i3blocks' section keys, meant to work unchanged
// (docs/configuration.md, "Moving from i3blocks"). i3blocks 1.5 is the reference: `name`
// may be any (`[time]` is a command block there), `instance` is absent unless given, the
// i3bar keys of the section are the block's own until its output says otherwise, and every
// key of the section reaches the command as an environment variable.

import TOML

extension BarConfig {
    /// `block = "command"`: its command, schedule, i3bar keys and environment.
    static func commandBlock(_ table: TOMLTable, _ value: TOMLValue) throws(ConfigError) -> BarBlock {
        var block = BarBlock(.command)
        var spec = CommandSpec(command: [])
        // i3blocks: no interval, or 0, runs on a click or a signal only.
        spec.runsAtStart = false
        for entry in table {
            if keyIs(entry, "block") { continue }
            if keyIs(entry, "click") {
                throw ConfigError(entry, atKey: true, "a command block's clicks go to its command (BLOCK_BUTTON)")
            }
            var known = try commandKey(entry, &spec)
            if !known { known = try i3barKey(entry, &spec) }
            // Seconds as a float (`interval = 0.5`) stay out of the environment: no float text here.
            if known && entry.kind == .float { continue }
            spec.environment.append(try environmentEntry(entry))
        }
        // Without a command, i3blocks shows the section's full_text as it is (a separator, a label).
        guard !spec.command.isEmpty || !spec.fullText.isEmpty else {
            // `comand = "…"` was taken for the environment: name it, at its own line.
            if let table = value.table {
                for entry in table where nearestKey(entry.key, ["command"]) != nil {
                    throw ConfigError(unknownKey: entry, known: ["command"], "")
                }
            }
            throw ConfigError(value, "a command block needs command = \"…\" (or full_text for fixed text)")
        }
        block.command = spec
        return block
    }

    /// A command block's schedule and identity keys; false for a key that is not one.
    static func commandKey(_ entry: TOMLValue, _ spec: inout CommandSpec) throws(ConfigError) -> Bool {
        if keyIs(entry, "command") {
            spec.command = try string(entry, maximum: 4096)
            guard !spec.command.isEmpty, !spec.command.contains(0) else { throw ConfigError(entry, "the command must not be empty") }
        } else if keyIs(entry, "name") || keyIs(entry, "instance") {
            let text = try string(entry, maximum: 64)
            if text.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                throw ConfigError(entry, "a name or instance is printable text without quotes or backslashes")
            }
            if keyIs(entry, "name") {
                guard !text.isEmpty else { throw ConfigError(entry, "a command block's name must not be empty") }
                spec.name = text
            } else {
                spec.instance = text
            }
        } else if keyIs(entry, "interval") {
            try interval(entry, &spec)
        } else if keyIs(entry, "timeout"), entry.kind != .string {
            // A string is an i3blocks file's `timeout=5`: i3blocks has no such key, so it is
            // only the command's environment there (and below, `persist=true`).
            spec.timeoutMs = try milliseconds(entry, minimum: 100)
        } else if keyIs(entry, "signal") {
            // SIGRTMIN+1 to SIGRTMIN+30: Linux has 32 real-time signals, glibc keeps two. 0 is
            // none, as i3blocks reads `signal=0`.
            let n = Int32(try integer(entry, in: 0...30))
            spec.signal = n == 0 ? nil : n
        } else if keyIs(entry, "persist"), entry.kind != .string {
            guard let b = entry.bool else { throw ConfigError(entry, "expected true or false") }
            spec.persist = b
            if b { spec.runsAtStart = true }
        } else if keyIs(entry, "format") {
            let word = try string(entry, maximum: 8)
            guard word == bytes("json") || word == bytes("none") else {
                throw ConfigError(entry, "format is \"json\" (one JSON object per run) or \"none\" (lines)")
            }
            spec.json = word == bytes("json")
        } else {
            return false
        }
        return true
    }

    /// `interval`: seconds from one start to the next, `once`, `repeat`, `persist`, or 0 (a
    /// click or a signal only), as i3blocks reads it.
    static func interval(_ entry: TOMLValue, _ spec: inout CommandSpec) throws(ConfigError) {
        spec.runsAtStart = true
        if entry.kind == .string {
            let word = try string(entry, maximum: 16)
            if word == bytes("once") { spec.intervalMs = 0 }
            else if word == bytes("repeat") { spec.repeats = true }
            else if word == bytes("persist") { spec.persist = true }
            else { throw ConfigError(entry, "interval is seconds, \"once\", \"repeat\" or \"persist\"") }
        } else if entry.integer == 0 {
            spec.intervalMs = 0
            spec.runsAtStart = false
        } else {
            spec.intervalMs = try milliseconds(entry, minimum: 100)
        }
    }

    /// The i3bar keys of an i3blocks section: the block's own (`label`, `markup`, `color`,
    /// `min_width`, `separator`, …) until its output gives them. Any other key is only for
    /// the command's environment.
    static func i3barKey(_ entry: TOMLValue, _ spec: inout CommandSpec) throws(ConfigError) -> Bool {
        if keyIs(entry, "label") {
            spec.label = try string(entry, maximum: 256)
        } else if keyIs(entry, "full_text") || keyIs(entry, "short_text") {
            let text = try string(entry, maximum: CommandBlockOutput.maximumLineLength)
            if keyIs(entry, "full_text") { spec.fullText = text } else { spec.shortText = text }
        } else if keyIs(entry, "color") || keyIs(entry, "background") || keyIs(entry, "border") {
            let color = try string(entry, maximum: 9)
            guard Theme.isColor(color) else { throw ConfigError(entry, "a colour is \"#RRGGBB\" or \"#RRGGBBAA\"") }
            if keyIs(entry, "color") { spec.color = color } else { spec.members.append(member(entry, quoted: color)) }
        } else if keyIs(entry, "markup") || keyIs(entry, "align") {
            let word = try string(entry, maximum: 8)
            let allowed: [StaticString] = keyIs(entry, "markup") ? ["pango", "none"] : ["left", "center", "right"]
            guard allowed.contains(where: { bytesEqual(word[...], $0) }) else {
                throw ConfigError(entry, keyIs(entry, "markup") ? "markup is \"pango\" or \"none\"" : "align is \"left\", \"center\" or \"right\"")
            }
            if keyIs(entry, "markup") { spec.pango = word == bytes("pango") }
            spec.members.append(member(entry, quoted: word))
        } else if keyIs(entry, "urgent") || keyIs(entry, "separator") {
            guard let b = entry.bool else { throw ConfigError(entry, "expected true or false") }
            spec.members.append(member(entry, raw: bytes(b ? "true" : "false")))
        } else if keyIs(entry, "separator_block_width") || keyIs(entry, "border_top") || keyIs(entry, "border_right")
                    || keyIs(entry, "border_bottom") || keyIs(entry, "border_left") {
            var n: [UInt8] = []
            appendNumber(Int(try integer(entry, in: 0...1000)), to: &n)
            spec.members.append(member(entry, raw: n))
        } else if keyIs(entry, "min_width") {
            if let n = entry.integer {
                guard n >= 0, n <= 10_000 else { throw ConfigError(entry, "out of range: 0 to 10000") }
                var text: [UInt8] = []
                appendNumber(Int(n), to: &text)
                spec.members.append(member(entry, raw: text))
            } else {
                spec.members.append(member(entry, quoted: try string(entry, maximum: 256)))
            }
        } else {
            return false
        }
        return true
    }

    /// `"key":value` with a raw JSON value.
    static func member(_ entry: TOMLValue, raw value: [UInt8]) -> [UInt8] {
        var m: [UInt8] = [UInt8(ascii: "\"")]
        m.append(contentsOf: entry.key)
        m.append(contentsOf: bytes("\":"))
        m.append(contentsOf: value)
        return m
    }

    /// `"key":"value"`, the value JSON-escaped.
    static func member(_ entry: TOMLValue, quoted value: [UInt8]) -> [UInt8] {
        var w = ByteWriter(capacity: value.count * 2 + 2)
        w.append(UInt8(ascii: "\""))
        w.append(escaped: value, .json)
        w.append(UInt8(ascii: "\""))
        return member(entry, raw: w.bytes)
    }

    /// `KEY=value` for the command's environment: a string as it is, a whole number or a
    /// boolean as its text. A key that cannot name a variable, or a value of another kind, is
    /// refused: it could reach no command.
    static func environmentEntry(_ entry: TOMLValue) throws(ConfigError) -> [UInt8] {
        let key = entry.key
        guard CommandSpec.isEnvironmentName(key) else {
            throw ConfigError(entry, atKey: true, "unknown key ", key, " (a command block's other keys are its command's environment: letters, digits, _)")
        }
        var out = Array(key)
        out.append(UInt8(ascii: "="))
        if let s = entry.string {
            guard !s.contains(0) else { throw ConfigError(entry, "a NUL byte cannot be in the environment") }
            out.append(contentsOf: s)
        } else if let n = entry.integer {
            appendNumber(Int(n), to: &out)
        } else if let b = entry.bool {
            out.append(contentsOf: bytes(b ? "true" : "false"))
        } else if entry.kind == .float {
            throw ConfigError(entry, "for the command's environment write it as a string: \"1.5\"")
        } else {
            throw ConfigError(entry, "a command block's key holds text, a whole number or true/false")
        }
        return out
    }
}
