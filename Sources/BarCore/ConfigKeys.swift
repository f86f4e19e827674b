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
        var keys: [StaticString] = ["block", "format", "format_short", "click"]
        let d = kind.descriptor
        if d.marks != nil { keys += ["warning", "critical"] }
        if let argument = d.argumentKey { keys.append(argument) }
        if kind.needsSnapshot { keys.append("hide_missing") }
        if d.filtersByFreedMemory { keys.append("min_freed") }
        return keys
    }
}
