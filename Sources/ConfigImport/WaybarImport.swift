// A waybar config as sysstats blocks: modules-left, -center and -right in their order.

extension ConfigImporter {
    static let waybarBarKeys: Set<String> = [
        "layer", "output", "position", "height", "width", "margin", "margin-top", "margin-bottom", "margin-left", "margin-right",
        "spacing", "name", "mode", "start_hidden", "modifier-reset", "exclusive", "passthrough", "fixed-center", "gtk-layer-shell",
        "ipc", "id", "include", "reload_style_on_change", "modules-left", "modules-center", "modules-right", "modules",
    ]

    static func importWaybar(_ text: String, bar: String?, include: (String) -> String? = { _ in nil }) throws(ImportError) -> ImportedConfig {
        let root = try JSONCNode.parse(text)
        var out = ImportedConfig(source: .waybar)
        let bars = root.array ?? [root]
        guard !bars.isEmpty else { return out }
        let chosen: JSONCNode
        if let bar {
            guard let named = bars.first(where: { $0["name"]?.string == bar }) else {
                throw ImportError(line: root.line, "no bar named \"\(oneLine(bar))\" (its \"name\")")
            }
            chosen = named
        } else {
            chosen = bars[0]
            if bars.count > 1 { out.dropSetting(line: bars[1].line, "bars after the first", "`--bar NAME` imports another (its \"name\")") }
        }
        guard let members = chosen.members else { throw ImportError(line: chosen.line, "a bar is a JSON object") }
        var definitions: [String: JSONCNode] = [:]
        // Modules of the files `include` names, which the bar's own definitions override.
        let includes = chosen["include"].map { $0.array ?? [$0] } ?? []
        for file in includes.compactMap(\.string) {
            guard let included = include(file) else { out.dropSetting(line: chosen.line, "include \(file)", "the file cannot be read"); continue }
            guard let node = try? JSONCNode.parse(included) else { out.dropSetting(line: chosen.line, "include \(file)", "not JSON"); continue }
            for (key, value) in (node.array?.first ?? node).members ?? [] where !waybarBarKeys.contains(key) { definitions[key] = value }
        }
        for (key, node) in members where !waybarBarKeys.contains(key) { definitions[key] = node }
        for side in ["modules-left", "modules-center", "modules-right"] {
            for name in chosen[side]?.array ?? [] {
                guard let module = name.string else { continue }
                waybarModule(module, line: name.line, definitions: definitions, depth: 0, into: &out)
            }
        }
        return out
    }

    private static func waybarModule(_ name: String, line: Int, definitions: [String: JSONCNode], depth: Int, into out: inout ImportedConfig) {
        guard !out.isFull else { return out.note(line: line, module: name, .noBlock, "") }
        let type = String(name.prefix { $0 != "#" })
        let definition = definitions[name]
        if type.hasPrefix("group/"), depth < 4 {
            for member in definition?["modules"]?.array ?? [] {
                if let m = member.string { waybarModule(m, line: member.line, definitions: definitions, depth: depth + 1, into: &out) }
            }
            return
        }
        let at = definition?.line ?? line
        if WaybarRules.isBarOwn(type) { out.note(line: at, module: name, .barOwn, drawnByTheBar); return }
        if type.hasPrefix("custom/") {
            guard let definition else { out.note(line: at, module: name, .noBlock, "not defined in the file: waybar shows nothing for it"); return }
            out.add(waybarCustom(name, definition))
            return
        }
        guard let rule = WaybarRules.rules.first(where: { $0.module == type }) else {
            out.note(line: at, module: name, .noBlock, noBlockReason(WaybarRules.suggestions[type]))
            return
        }
        let d = definition ?? JSONCNode(value: .object([]), line: at)
        if let interval = d["interval"] { out.noteModuleInterval(line: interval.line) }
        out.add(waybarNative(name, type: type, rule: rule, d))
        // pulseaudio's `{format_source}` is the microphone's text: a microphone block beside it.
        if type == "pulseaudio", ["format", "format-muted"].contains(where: { d[$0]?.string?.contains("{format_source}") == true }) {
            var mic = ImportedBlock(line: d.line, module: name + " {format_source}", block: "microphone")
            let micRule = ModuleRule("pulseaudio", "microphone", [("", "{volume}"), ("volume", "{volume}"), ("desc", "{device}")])
            mic.setFormat(braceTokens(d["format-source"]?.string ?? "{volume}%"), rule: micRule, from: "format-source") { "{\($0)}" }
            mic.setFormat(braceTokens(d["format-source-muted"]?.string ?? ""), rule: micRule, from: "format-source-muted", as: "format_muted") { "{\($0)}" }
            out.add(mic)
        }
    }

    private static func waybarNative(_ name: String, type: String, rule: ModuleRule, _ d: JSONCNode) -> ImportedBlock {
        var b = ImportedBlock(line: d.line, module: name, block: rule.block ?? "command")
        var handled: Set<String> = ["format", "states", "interval"]
        func format(_ key: String, as ours: String = "format", rule r: ModuleRule = rule, fallback: String? = nil) {
            handled.insert(key)
            guard let text = d[key]?.string ?? fallback else { return }
            b.setFormat(braceTokens(stripMarkup(text, into: &b)), rule: r, from: key, as: ours) { "{\($0)}" }
        }
        if let states = d["states"]?.members {
            for (state, value) in states {
                if state == "warning" || state == "critical" { b.setThreshold(state, value.numberText, from: "states.\(state)") }
                else { b.drop("states.\(state) (sysstats has warning and critical)") }
            }
        }
        switch type {
        case "cpu": format("format", fallback: "{usage}%")
        case "memory": format("format", fallback: "{percentage}%")
        case "disk":
            format("format", fallback: "{percentage_free}% remaining free on {path}")
            handled.insert("path"); if let p = d["path"]?.string { b.set("mount", p) }
        case "battery", "upower":
            let main = d["format"] != nil ? "format" : d["format-discharging"] != nil ? "format-discharging" : "format"
            format(main, fallback: type == "battery" ? "{capacity}%" : "{percentage}")
            format("format-charging", as: "format_charging")
            format("format-full", as: "format_full")
        case "network":
            handled.insert("interface")
            if let i = d["interface"]?.string, !i.contains("*") { b.set("interface", i) }
            if let wifi = d["format-wifi"]?.string {
                b.block = "wifi"
                format("format-wifi", rule: ModuleRule("network", "wifi", WaybarRules.wifiPlaceholders), fallback: wifi)
            } else {
                format(d["format-ethernet"] != nil ? "format-ethernet" : "format", fallback: "{ifname}")
            }
            let down = ModuleRule("network", b.block, b.block == "wifi" ? WaybarRules.wifiPlaceholders : rule.placeholders.pairs)
            format(d["format-disconnected"] != nil ? "format-disconnected" : "format-disabled", as: "format_down", rule: down)
        case "temperature":
            format("format", fallback: "{temperatureC}°C")
            handled.insert("critical-threshold"); b.setThreshold("critical", d["critical-threshold"]?.numberText, from: "critical-threshold")
        case "clock": waybarClock(d, into: &b, handled: &handled)
        case "pulseaudio", "wireplumber":
            let sink = ModuleRule(type, "volume", rule.placeholders.pairs + [("format_source", "")])
            format("format", rule: sink, fallback: "{volume}%")
            format("format-muted", as: "format_muted", rule: sink)
            handled.formUnion(["format-source", "format-source-muted"])
            handled.formUnion(["scroll-step", "max-volume"])
            if let step = d["scroll-step"]?.numberText.flatMap(Double.init), step >= 1, step <= 100 { b.set("step", .integer(Int(step))) }
            if let max = d["max-volume"]?.numberText.flatMap(Double.init), max >= 1, max <= 1000 { b.set("max", .integer(Int(max))) }
        case "backlight":
            format("format", fallback: "{percent}%")
            handled.insert("device"); if let dev = d["device"]?.string { b.set("device", dev) }
        case "load": format("format", fallback: "{load1}")
        case "mpris":
            format("format", fallback: "{player} ({status}) {dynamic}")
            format("format-paused", as: "format_paused")
            handled.insert("player"); if let p = d["player"]?.string { b.set("player", p) }
        default: break
        }
        waybarClicks(d, into: &b, handled: &handled)
        for (key, _) in d.members ?? [] where !handled.contains(key) { b.drop(key) }
        return b
    }

    /// `{:%H:%M}` is strftime; literal text has its `%` doubled for strftime.
    private static func waybarClock(_ d: JSONCNode, into b: inout ImportedBlock, handled: inout Set<String>) {
        func strftime(_ format: String) -> (String, [String]) {
            var out = ""
            var missing: [String] = []
            for token in braceTokens(format) {
                switch token {
                case .literal(let t): out += t.replacingAll("%", with: "%%")
                case .placeholder(let name, let spec) where name.isEmpty && spec.hasPrefix(":"):
                    var f = spec.dropFirst()
                    if f.first == "L" { f = f.dropFirst() }
                    out += f
                case .placeholder(let name, _): missing.append("{\(name)}")
                }
            }
            return (out, missing)
        }
        handled.formUnion(["format", "format-alt", "timezone", "timezones"])
        var (main, missing) = strftime(d["format"]?.string ?? "{:%H:%M}")
        if let alt = d["format-alt"]?.string {
            let (short, more) = strftime(alt)
            missing += more
            b.set("format_short", short)
            b.clicks.append(ImportedClick(button: "left", action: "toggle_format"))
        }
        if main.isEmpty { main = "%H:%M" }
        b.set("format", main)
        if !missing.isEmpty { b.outcome = .native(complete: false); b.drop("format's \(missing.joined(separator: ", ")) (no sysstats figure)") }
        if let zone = d["timezone"]?.string ?? d["timezones"]?.array?.first?.string, !zone.isEmpty { b.set("timezone", zone) }
    }

    static func waybarClicks(_ d: JSONCNode, into b: inout ImportedBlock, handled: inout Set<String>) {
        for (key, button) in [("on-click", "left"), ("on-click-middle", "middle"), ("on-click-right", "right"),
                              ("on-scroll-up", "up"), ("on-scroll-down", "down")] {
            handled.insert(key)
            if let cmd = d[key]?.string { b.addClick(button, cmd) }
        }
    }

    /// `custom/NAME`: a command block that runs `exec` as waybar does.
    private static func waybarCustom(_ name: String, _ d: JSONCNode) -> ImportedBlock {
        var b = ImportedBlock(line: d.line, module: name, block: "command", outcome: .command)
        var handled: Set<String> = ["exec", "exec-if", "interval", "return-type", "signal", "format", "restart-interval", "exec-on-event"]
        b.set("name", String(name.dropFirst("custom/".count)))
        var command = d["exec"]?.string ?? ""
        if let condition = d["exec-if"]?.string { command = "(\(condition)) >/dev/null 2>&1 || exit 0\n" + command }
        if command.isEmpty, let format = d["format"]?.string { b.set("full_text", literalText(braceTokens(format))) }
        else { b.set("command", command) }
        if d["return-type"]?.string == "json" { b.set("format", "json") }
        if let interval = d["interval"] {
            if interval.string == "once" { b.set("interval", "once") }
            else if let n = interval.numberText, let v = commandInterval(n) { b.set("interval", v) }
        } else if !command.isEmpty, d["signal"] == nil {
            b.set("persist", .bool(true))   // waybar reads each line of an exec that keeps running
        }
        if let signal = d["signal"]?.numberText.flatMap(Int.init), signal >= 1, signal <= 30 { b.set("signal", .integer(signal)) }
        if let format = d["format"]?.string, !command.isEmpty {
            let tokens = braceTokens(format)
            let label = literalText(Array(tokens.prefix { if case .literal = $0 { true } else { false } }))
            if !label.isEmpty { b.set("label", label) }
            if tokens.contains(where: { if case .placeholder(let n, _) = $0 { n != "" } else { false } }) { b.drop("format's {icon}/{percentage}") }
        }
        waybarClicks(d, into: &b, handled: &handled)
        b.movingClicksIntoCommand()
        for (key, _) in d.members ?? [] where !handled.contains(key) { b.drop(key) }
        return b
    }

    /// Pango markup (`<span color='…'>`) taken out: sysstats escapes a block's text.
    static func stripMarkup(_ text: String, into b: inout ImportedBlock) -> String {
        guard text.contains("<") else { return text }
        var out = ""
        var inTag = false
        var removed = false
        for c in text {
            if c == "<" { inTag = true; removed = true } else if c == ">" && inTag { inTag = false } else if !inTag { out.append(c) }
        }
        if removed { b.drop("Pango markup") }
        return inTag ? text : out
    }
}
