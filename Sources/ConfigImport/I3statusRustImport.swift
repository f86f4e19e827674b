// An i3status-rust config.toml as sysstats blocks, `[[block]]` by `[[block]]`.
import TOML

/// A TOML value as text (a number as written), or nil for a table or an array.
private func text(_ v: TOMLValue?) -> String? {
    guard let v else { return nil }
    switch v.kind {
    case .string: return v.stringBytes.map { String(decoding: $0, as: UTF8.self) }
    case .integer: return v.integer.map { String($0) }
    case .float: return v.float.map { $0 == $0.rounded() && abs($0) < 1e15 ? String(Int($0)) : String($0) }
    case .boolean: return v.bool.map { $0 ? "true" : "false" }
    default: return nil
    }
}

private func keyName(_ v: TOMLValue) -> String { String(decoding: v.key, as: UTF8.self) }

extension ConfigImporter {
    static func importI3statusRust(_ source: String) throws(ImportError) -> ImportedConfig {
        let document: TOMLDocument
        do throws(TOMLError) { document = try TOMLDocument.parse(Array(source.utf8)) } catch {
            throw ImportError(line: error.line, column: error.column, String(describing: error.reason.message))
        }
        var out = ImportedConfig(source: .i3statusRust)
        for v in document.root {
            let key = keyName(v)
            switch key {
            case "block": continue
            case "theme", "icons", "icons_format":
                out.dropSetting(line: v.keyLine, key, "sysstats has no icon sets or themes; [theme] sets its warning and critical colours")
            default:
                out.dropSetting(line: v.keyLine, key, "no sysstats setting does this")
            }
        }
        guard let blocks = document.root["block"]?.array else { return out }
        for table in blocks {
            guard let t = table.table else { continue }
            let name = text(t["block"]) ?? ""
            let line = table.line
            if I3statusRustRules.barOwn.contains(name) { out.note(line: line, module: name, .barOwn, drawnByTheBar); continue }
            guard let rule = I3statusRustRules.rules.first(where: { $0.module == name }) else {
                out.note(line: line, module: name, .noBlock, noBlockReason(I3statusRustRules.suggestions[name]))
                continue
            }
            if name != "custom", let interval = t["interval"] { out.noteModuleInterval(line: interval.keyLine) }
            out.add(name == "custom" ? rustCustom(t, line: line) : rustNative(t, name: name, rule: rule, line: line))
        }
        return out
    }

    /// The tokens of an i3status-rust format in whichever language it is written.
    static func rustTokens(_ format: String) -> [FormatToken] {
        format.contains("$") || format.contains("^icon") ? dollarTokens(format) : braceTokens(format)
    }

    private static func rustNative(_ t: TOMLTable, name: String, rule: ModuleRule, line: Int) -> ImportedBlock {
        var b = ImportedBlock(line: line, module: name, block: rule.block ?? "command")
        var handled: Set<String> = ["block", "interval", "format", "click", "on_click", "theme_overrides", "icons_overrides", "merge_with_next",
                                    "error_format", "error_fullscreen_format", "if_command"]
        func get(_ key: String) -> String? { handled.insert(key); return text(t[Array(key.utf8)]) }
        func format(_ key: String, as ours: String = "format", rule r: ModuleRule = rule, fallback: String? = nil) {
            guard let f = get(key) ?? fallback else { return }
            b.setFormat(rustTokens(f), rule: r, from: key, as: ours) { $0.hasPrefix("^") ? $0 : "$" + $0 }
        }
        // `format = { full = "…", short = "…" }` (0.30) is the full and the short text.
        let formatTable = t["format"]?.table
        let mainFormat = text(t["format"]) ?? formatTable.flatMap { text($0["full"]) } ?? I3statusRustRules.defaultFormats[name]
        switch name {
        case "cpu":
            format("format", fallback: mainFormat)
            b.setThreshold("warning", get("warning_cpu") ?? get("warning"), from: "warning_cpu")
            b.setThreshold("critical", get("critical_cpu") ?? get("critical"), from: "critical_cpu")
            _ = get("info_cpu"); _ = get("info")
        case "memory":
            format(t["format_mem"] != nil ? "format_mem" : "format", fallback: mainFormat)
            b.setThreshold("warning", get("warning_mem"), from: "warning_mem")
            b.setThreshold("critical", get("critical_mem"), from: "critical_mem")
        case "disk_space":
            if let path = get("path") { b.set("mount", path) }
            let info = get("info_type") ?? "available"
            let table = info == "used" ? ModuleRule(rule.module, "disk", rule.placeholders.pairs + [("percentage", "{percent}%")]) : rule
            format("format", rule: table, fallback: mainFormat)
            let unit = get("alert_unit")
            if info == "available", unit == nil || unit == "%" {
                b.setThreshold("warning", get("warning"), from: "warning") { 100 - $0 }
                b.setThreshold("critical", get("alert"), from: "alert") { 100 - $0 }
            }
        case "net":
            if let device = get("device") { b.set("interface", device) }
            let f = mainFormat ?? ""
            if f.contains("ssid") || f.contains("signal_strength") || f.contains("bitrate") {
                b.block = "wifi"
                format("format", rule: ModuleRule(name, "wifi", I3statusRustRules.wifiPlaceholders), fallback: mainFormat)
            } else {
                format("format", fallback: mainFormat)
            }
            format("inactive_format", as: "format_down", rule: b.block == "wifi" ? ModuleRule(name, "wifi", I3statusRustRules.wifiPlaceholders) : rule)
        case "battery":
            format("format", fallback: mainFormat)
            b.setThreshold("warning", get("warning"), from: "warning")
            b.setThreshold("critical", get("critical"), from: "critical")
            if get("missing_format") == "" { b.set("hide_missing", .bool(true)) }
            format("charging_format", as: "format_charging")
            format("full_format", as: "format_full")
            if get("hide_missing") == "true" { b.set("hide_missing", .bool(true)) }
        case "temperature":
            format("format", fallback: mainFormat)
            b.setThreshold("warning", get("warning"), from: "warning")
        case "time": rustTime(t, into: &b, get: get)
        case "sound":
            if get("device_kind") == "source" { b.block = "microphone" }
            format("format", fallback: mainFormat)
            if let step = get("step_width").flatMap(Int.init), step >= 1, step <= 100 { b.set("step", .integer(step)) }
            if let max = get("max_vol").flatMap(Int.init), max >= 1, max <= 1000 { b.set("max", .integer(max)) }
        case "backlight":
            format("format", fallback: mainFormat)
            if let device = get("device") { b.set("device", device) }
            if let step = get("step_width").flatMap(Int.init), step >= 1, step <= 100 { b.set("step", .integer(step)) }
        case "music":
            format("format", fallback: mainFormat)
            if let player = get("player") { b.set("player", player) }
        default:
            format("format", fallback: mainFormat)
        }
        if name != "time" {
            let short = formatTable.flatMap { text($0["short"]) } ?? text(t["format_alt"])
            handled.insert("format_alt")
            if let short { b.setFormat(rustTokens(short), rule: b.block == "wifi" ? ModuleRule(name, "wifi", I3statusRustRules.wifiPlaceholders) : rule,
                                       from: formatTable != nil ? "format.short" : "format_alt", as: "format_short") { "$" + $0 } }
        }
        rustThemeOverrides(t, into: &b)
        rustClicks(t, into: &b)
        for v in t where !handled.contains(keyName(v)) { b.drop(keyName(v)) }
        return b
    }

    /// A block's `theme_overrides`: its idle foreground is the block's `color`; the rest named.
    private static func rustThemeOverrides(_ t: TOMLTable, into b: inout ImportedBlock) {
        guard let overrides = t["theme_overrides"]?.table else { return }
        for v in overrides {
            if keyName(v) == "idle_fg", let colour = text(v).flatMap({ importedColour($0) }) { b.set("color", colour) }
            else { b.drop("theme_overrides.\(keyName(v))") }
        }
    }

    private static func rustTime(_ t: TOMLTable, into b: inout ImportedBlock, get: (String) -> String?) {
        var strftime = "%a %d/%m %R"
        if let f = get("format") {
            if f.contains("$timestamp") || f.contains("$icon") {
                var literal = ""
                for token in dollarTokens(f) {
                    switch token {
                    case .literal(let l): literal += l.replacingAll("%", with: "%%")
                    case .placeholder("timestamp", let spec): literal += datetimeFormat(inSpec: spec) ?? "%a %d/%m %R"
                    case .placeholder(let other, _) where other == "icon" || other.hasPrefix("^"): b.drop("icons")
                    case .placeholder(let other, _): b.outcome = .native(complete: false); b.drop("format's $\(other) (no sysstats figure)")
                    }
                }
                strftime = String(literal.trimmingSpaces)
            } else {
                strftime = f
            }
        }
        b.set("format", strftime.isEmpty ? "%a %d/%m %R" : strftime)
        if let zone = get("timezone") { b.set("timezone", zone) }
        _ = get("locale")
    }

    private static func rustClicks(_ t: TOMLTable, into b: inout ImportedBlock) {
        if let cmd = text(t["on_click"]) { b.addClick("left", cmd) }
        guard let clicks = t["click"]?.array else { return }
        for click in clicks {
            guard let c = click.table else { continue }
            let button = text(c["button"]) ?? "left"
            let ours = ["left": "left", "middle": "middle", "right": "right", "up": "up", "down": "down", "wheel_up": "up", "wheel_down": "down"][button]
            if let cmd = text(c["cmd"]), let ours { b.addClick(ours, cmd) }
            else if let action = text(c["action"]), action == "toggle_format", let ours, b.value("format_short") != nil,
                    !b.clicks.contains(where: { $0.button == ours }) {
                b.clicks.append(ImportedClick(button: ours, action: "toggle_format"))
            } else if let action = text(c["action"]) { b.drop("click \(button): action \(action)") }
        }
    }

    private static func rustCustom(_ t: TOMLTable, line: Int) -> ImportedBlock {
        var b = ImportedBlock(line: line, module: "custom", block: "command", outcome: .command)
        let handled: Set<String> = ["block", "command", "cycle", "interval", "json", "persistent", "signal", "click", "on_click", "format", "shell", "watch_files", "hide_when_empty"]
        var command = text(t["command"]) ?? ""
        if command.isEmpty, let first = t["cycle"]?.array?.first { command = text(first) ?? ""; b.drop("cycle (the first command runs)") }
        b.set("name", "custom")
        b.set(command.isEmpty ? "full_text" : "command", command.isEmpty ? "" : command)
        if text(t["json"]) == "true" { b.set("format", "json"); b.drop("json's state and icon (its text and short_text are shown)") }
        if text(t["persistent"]) == "true" { b.set("persist", .bool(true)) }
        else if let interval = text(t["interval"]) {
            if interval == "once" { b.set("interval", "once") } else if let v = commandInterval(interval) { b.set("interval", v) }
        } else { b.set("interval", .integer(10)) }   // i3status-rust's default
        if let signal = text(t["signal"]).flatMap(Int.init), signal >= 1, signal <= 30 { b.set("signal", .integer(signal)) }
        if let format = text(t["format"]) {
            let tokens = rustTokens(format)
            let label = literalText(Array(tokens.prefix { if case .literal = $0 { true } else { false } }))
            if !label.trimmingSpaces.isEmpty { b.set("label", label) }
        }
        if t["watch_files"] != nil { b.drop("watch_files (a `signal` can run it again)") }
        rustClicks(t, into: &b)
        b.movingClicksIntoCommand()
        for v in t where !handled.contains(keyName(v)) { b.drop(keyName(v)) }
        if case .string("")? = b.value("full_text"), b.value("command") == nil { b.set("full_text", "custom") }
        return b
    }
}
