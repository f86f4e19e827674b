// A misspelt key in the config file is named at its own line with the key it was probably
// meant to be: `unknown key "blok"; did you mean "block"?`.

import TOML

extension ConfigError {
    /// `unknown key "KEY"` at the key, then `; did you mean "KNOWN"?` when one of `known`
    /// is near it (``nearestKey(_:_:)``), else `tail` (what the table takes).
    init(unknownKey entry: TOMLValue, known: [StaticString], _ tail: StaticString) {
        guard let near = nearestKey(entry.key, known) else {
            self.init(entry, atKey: true, "unknown key ", entry.key, tail)
            return
        }
        var reason = bytes("unknown key ")
        appendQuoted(entry.key, to: &reason)
        reason += bytes("; did you mean ")
        appendQuoted(bytes(near)[...], to: &reason)
        reason.append(UInt8(ascii: "?"))
        self.init(line: entry.keyLine, column: entry.keyColumn, reason: reason)
    }
}

extension BarConfig {
    /// The keys a block of `kind` takes (for the nearest one to a misspelt key).
    static func knownKeys(_ kind: BlockKind) -> [StaticString] {
        var keys: [StaticString] = ["block", "format", "format_short", "click", "color"]
        let d = kind.descriptor
        if d.marks != nil { keys += ["warning", "critical"] }
        if let argument = d.argumentKey { keys.append(argument) }
        if kind.needsSnapshot { keys.append("hide_missing") }
        if d.filtersByFreedMemory { keys.append("min_freed") }
        if let check = d.fileCheck { keys += ["title", check.downFormatKey] }
        if d.sound != nil { keys += ["format_muted", "step", "max"] }
        if d.media != nil { keys.append("format_paused") }
        if d.setsBrightness { keys.append("step") }
        for state in d.states { keys.append(state.key) }
        return keys
    }

    /// A file block's own keys (run_watch, path_exists, read_file): `title`, i3status's
    /// instance name, and its text while down, `format_down` (read_file: `format_bad`).
    /// True when `entry` was one of them.
    static func fileBlockKey(_ entry: TOMLValue, _ kind: BlockKind, into block: inout BarBlock) throws(ConfigError) -> Bool {
        guard let check = kind.fileCheck else { return false }
        if keyIs(entry, "title") {
            block.title = try string(entry, maximum: 64)
            return true
        }
        guard keyIs(entry, check.downFormatKey) else { return false }
        block.downFormat = try format(entry, kind)
        return true
    }

    /// `entry`'s text as a format of `kind`'s placeholders (a state's text: `format_down`,
    /// `format_muted`, `format_paused`).
    static func format(_ entry: TOMLValue, _ kind: BlockKind) throws(ConfigError) -> BlockFormat {
        let text = try string(entry, maximum: BlockFormat.maximumLength)
        do throws(OptionsError) {
            return try BlockFormat(text[...], for: kind)
        } catch {
            throw formatError(error, entry)
        }
    }

    /// A block's `warning` or `critical`, in its marks' unit (a load average in hundredths).
    static func threshold(_ entry: TOMLValue, _ kind: BlockKind) throws(ConfigError) -> UInt64 {
        guard let marks = kind.descriptor.marks else {
            throw ConfigError(entry, atKey: true, "the ", kind.name.bytesSlice, " block has no thresholds")
        }
        if marks.unit == .load, let f = entry.float {
            // A load average in hundredths: 1.5 is 150.
            guard f >= 0, f <= Double(marks.configMaximum) else { throw ConfigError(entry, "out of range: 0 to 1000") }
            return UInt64(f * 100 + 0.5)   // no libm in the Embedded renderer: rounded by hand
        }
        let whole = try integer(entry, in: 0...marks.configMaximum)
        return marks.unit == .load ? UInt64(whole) * 100 : UInt64(whole)
    }

    /// A block's `color`: `#RRGGBB` or `#RRGGBBAA`.
    static func colour(_ entry: TOMLValue) throws(ConfigError) -> [UInt8] {
        let color = try string(entry, maximum: 9)
        guard Theme.isColor(color) else { throw ConfigError(entry, "a colour is \"#RRGGBB\" or \"#RRGGBBAA\"") }
        return color
    }

    /// A state's text (`format_down` of net and wifi, `format_charging` and `format_full` of
    /// battery). True when `entry` was one.
    static func stateFormatKey(_ entry: TOMLValue, _ kind: BlockKind, into block: inout BarBlock) throws(ConfigError) -> Bool {
        let states = kind.descriptor.states
        for i in 0..<states.count where keyIs(entry, states[i].key) {
            if block.stateFormats.count < states.count { block.stateFormats = Array(repeating: nil, count: states.count) }
            block.stateFormats[i] = try format(entry, kind)
            return true
        }
        return false
    }

    /// The media block's own key: `format_paused`, its text while the player does not play
    /// (waybar's `format-paused`). True when `entry` was it.
    static func mediaBlockKey(_ entry: TOMLValue, _ kind: BlockKind, into block: inout BarBlock) throws(ConfigError) -> Bool {
        guard kind.descriptor.media != nil, keyIs(entry, "format_paused") else { return false }
        block.downFormat = try format(entry, kind)
        return true
    }

    /// A sound block's own keys (volume, microphone): `format_muted`, its text while muted
    /// (i3status's), `step` and `max`, the wheel's step and the highest volume it sets (whole
    /// percents; a volume already above `max` is not lowered by a step up). True when
    /// `entry` was one of them.
    static func soundBlockKey(_ entry: TOMLValue, _ kind: BlockKind, into block: inout BarBlock) throws(ConfigError) -> Bool {
        if kind.descriptor.setsBrightness && keyIs(entry, "step") {
            // The backlight's wheel step (i3status-rust's `step_width`).
            block.wheelStep = UInt32(try integer(entry, in: 1...100))
            return true
        }
        guard kind.descriptor.sound != nil else { return false }
        if keyIs(entry, "step") {
            block.wheelStep = UInt32(try integer(entry, in: 1...100))
        } else if keyIs(entry, "max") {
            block.soundMaximum = UInt32(try integer(entry, in: 1...1000))
        } else if keyIs(entry, "format_muted") {
            block.downFormat = try format(entry, kind)
        } else {
            return false
        }
        return true
    }

    /// A file block without the path it looks at: `a run_watch block needs pidfile = "…"`.
    static func missingPath(_ value: TOMLValue, _ kind: BlockKind) -> ConfigError {
        var reason = bytes("a ") + bytes(kind.name) + bytes(" block needs ")
        if let key = kind.descriptor.argumentKey { reason += bytes(key) }
        reason += bytes(" = \"…\" (the path it looks at)")
        return ConfigError(line: value.line, column: value.column, reason: reason)
    }
}
