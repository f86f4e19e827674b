// docs/configuration.md's "Moving from …" tables, written from the tables the imports follow,
// so that the docs and the code cannot disagree (ImportDocsTests compares them).

extension ConfigImporter {
    /// The Markdown table of `source`'s modules and what each becomes, with the modules the
    /// bar draws itself and those sysstats has no block for.
    public static func movingFromTable(_ source: ImportSource) -> String {
        let spell: (String) -> String
        switch source {
        case .i3status: spell = { "%" + $0 }
        case .i3statusRust: spell = { "$" + $0 }
        case .waybar: spell = { $0.isEmpty ? "{}" : "{" + $0 + "}" }
        case .polybar: spell = { "%" + $0 + "%" }
        }
        var out = "| \(source.rawValue) | sysstats | placeholders | also |\n|---|---|---|---|\n"
        for rule in rules(for: source) {
            let pairs = rule.placeholderPairs().map { "`\(spell($0.0))` → " + ($0.1.isEmpty ? "dropped" : "`\($0.1.replacingAll(sizedMark, with: ""))`") }
            out += "| `\(rule.module)` | \(rule.block.map { "`\($0)`" } ?? "none") | \(pairs.joined(separator: ", ")) | \(rule.remark) |\n"
        }
        let (own, suggestions) = otherModules(source)
        out += "\nDrawn by the bar itself, so left in your bar's config: \(own).\n"
        if !suggestions.isEmpty {
            out += "\nNo sysstats block yet; the import names each and what would show it:\n\n"
            for (module, suggestion) in suggestions.sorted(by: { $0.key < $1.key }) { out += "- `\(module)`: \(suggestion)\n" }
        }
        return out
    }

    private static func otherModules(_ source: ImportSource) -> (String, [String: String]) {
        func list(_ names: [String]) -> String { names.sorted().map { "`\($0)`" }.joined(separator: ", ") }
        switch source {
        case .i3status:
            return ("none", [:])
        case .i3statusRust:
            return (list(Array(I3statusRustRules.barOwn)), I3statusRustRules.suggestions)
        case .waybar:
            return (list(WaybarRules.own) + ", and a compositor's " + list(WaybarRules.compositorParts) + " (`sway/workspaces`, `hyprland/window`, …)",
                    WaybarRules.suggestions)
        case .polybar:
            return (list(Array(PolybarRules.barOwn)), PolybarRules.suggestions)
        }
    }
}
