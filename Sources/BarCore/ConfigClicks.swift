// A block's `[[block.click]]` tables: what each mouse button does on it.

import TOML

extension BarConfig {
    /// `[[block.click]]`: `button` (left, middle, right, up, down or 1 to 5) and either `cmd`
    /// (run detached) or `action` (`cycle`, `toggle_format`).
    static func clicks(_ value: TOMLValue, kind: BlockKind) throws(ConfigError) -> [ClickAction] {
        guard let array = value.array else { throw ConfigError(value, "click must be a list of tables: [[block.click]]") }
        var out: [ClickAction] = []
        for element in array {
            guard let table = element.table else { throw ConfigError(element, "each click must be a table: [[block.click]]") }
            var button: Int? = nil
            var kindOfAction: ClickAction.Kind? = nil
            for entry in table {
                if keyIs(entry, "button") {
                    if let n = entry.integer {
                        guard n >= 1, n <= 5 else { throw ConfigError(entry, "button is left, middle, right, up, down or 1 to 5") }
                        button = Int(n)
                    } else {
                        let name = try string(entry, maximum: 8)
                        let names: [StaticString] = ["left", "middle", "right", "up", "down"]
                        guard let i = names.firstIndex(where: { bytesEqual(name[...], $0) }) else {
                            throw ConfigError(entry, "button is left, middle, right, up, down or 1 to 5")
                        }
                        button = i + 1
                    }
                } else if keyIs(entry, "cmd") {
                    let command = try string(entry, maximum: 4096)
                    guard !command.isEmpty, !command.contains(0) else { throw ConfigError(entry, "the command must not be empty") }
                    kindOfAction = .run(command)
                } else if keyIs(entry, "action") {
                    let name = try string(entry, maximum: 16)
                    if bytesEqual(name[...], "cycle") {
                        guard kind.descriptor.hasForms else { throw ConfigError(entry, "only the mem block has forms to cycle") }
                        kindOfAction = .cycle
                    } else if bytesEqual(name[...], "toggle_format") {
                        kindOfAction = .toggleFormat
                    } else {
                        throw ConfigError(entry, "action is cycle or toggle_format")
                    }
                } else {
                    throw ConfigError(unknownKey: entry, known: ["button", "cmd", "action"], " in a click (button, cmd, action)")
                }
            }
            guard let button, let kindOfAction else { throw ConfigError(element, "a click needs button and cmd or action") }
            guard !kind.runsCommand else { throw ConfigError(element, "a command block's clicks go to its command (BLOCK_BUTTON)") }
            out.append(ClickAction(button: button, kindOfAction))
        }
        return out
    }
}
