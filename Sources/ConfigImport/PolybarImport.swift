// A polybar config as sysstats blocks: the bar's modules-left, -center and -right in order.

extension ConfigImporter {
    static func importPolybar(_ text: String, bar: String?, include: (String) -> String?) throws(ImportError) -> ImportedConfig {
        let ini = try PolybarINI.parse(text, include: include)
        var out = ImportedConfig(source: .polybar)
        let bars = ini.sections.filter { $0.name.hasPrefix("bar/") }
        let chosen: PolybarINI.Section
        if let bar {
            guard let named = bars.first(where: { $0.name == "bar/" + bar }) else {
                throw ImportError(line: 1, "no [bar/\(oneLine(bar))] (the bars: \(bars.map { String($0.name.dropFirst(4)) }.joined(separator: ", ")))")
            }
            chosen = named
        } else {
            guard let first = bars.first else { throw ImportError(line: 1, "no [bar/NAME] section") }
            chosen = first
            if bars.count > 1 {
                out.dropSetting(line: bars[1].line, "bars after [\(first.name)]", "`--bar NAME` imports another (\(bars.dropFirst().map { String($0.name.dropFirst(4)) }.joined(separator: ", ")))")
            }
        }
        for side in ["modules-left", "modules-center", "modules-right"] {
            guard let list = ini.value(side, in: chosen.name) else { continue }
            let line = ini.line(of: side, in: chosen.name) ?? chosen.line
            for name in list.split(separator: " ") where !name.isEmpty {
                polybarModule(String(name), ini: ini, barLine: line, into: &out)
            }
        }
        return out
    }

    private static func polybarModule(_ name: String, ini: PolybarINI, barLine: Int, into out: inout ImportedConfig) {
        let section = "module/" + name
        guard let s = ini.section(section) else { out.note(line: barLine, module: name, .noBlock, "no [\(section)] section: polybar refuses the bar"); return }
        let type = ini.value("type", in: section) ?? ""
        if PolybarRules.barOwn.contains(type) { out.note(line: s.line, module: name, .barOwn, drawnByTheBar); return }
        guard let rule = PolybarRules.rules.first(where: { $0.module == type }) else {
            out.note(line: s.line, module: name, .noBlock, noBlockReason(PolybarRules.suggestions[type]))
            return
        }
        if type == "custom/script" || type == "custom/text" { out.add(polybarCustom(name, type: type, ini: ini, line: s.line)); return }
        if type == "internal/fs" {
            let mounts = ini.keys(in: section).filter { $0.hasPrefix("mount-") }.compactMap { ini.value($0, in: section) }
            for mount in mounts.isEmpty ? [""] : mounts {
                var b = polybarNative(name, type: type, rule: rule, ini: ini, line: s.line)
                if !mount.isEmpty { b.keys.insert(ImportedKey("mount", .string(mount)), at: 0) }
                out.add(b)
            }
            return
        }
        if !["internal/pulseaudio", "internal/alsa", "internal/volume"].contains(type), let line = ini.line(of: "interval", in: section) {
            out.noteModuleInterval(line: line)   // a volume module's interval is its step
        }
        out.add(polybarNative(name, type: type, rule: rule, ini: ini, line: s.line))
    }

    private static func polybarNative(_ name: String, type: String, rule: ModuleRule, ini: PolybarINI, line: Int) -> ImportedBlock {
        let section = "module/" + name
        var b = ImportedBlock(line: line, module: name, block: rule.block ?? "command")
        var handled: Set<String> = ["type", "interval", "inherit"]
        func get(_ key: String) -> String? { handled.insert(key); return ini.value(key, in: section) }
        let state = PolybarRules.shownState[type]
        var active = rule
        if type == "internal/network" {
            let label = ini.value("label-connected", in: section) ?? ""
            if get("interface-type") == "wireless" || label.contains("%essid%") || label.contains("%signal%") {
                b.block = "wifi"
                active = ModuleRule(type, "wifi", PolybarRules.wifiPlaceholders)
            }
            if let i = get("interface") { b.set("interface", i) }
        }
        if type == "internal/date" {
            polybarDate(section, ini: ini, into: &b, get: get)
        } else {
            let text = polybarText(section, type: type, state: state, ini: ini, into: &b, get: get)
            b.setFormat(text, rule: active, from: state.map { "label-\($0)" } ?? "label") { "%\($0)%" }
        }
        // The module's colour: its format's foreground, else its label's (polybar's #AARRGGBB).
        let stateKey = state.map { "-\($0)" } ?? ""
        if let fg = ["format\(stateKey)-foreground", "format-foreground", "label\(stateKey)-foreground", "label-foreground"]
            .lazy.compactMap({ key in ini.value(key, in: section).map { (key, $0) } }).first {
            handled.insert(fg.0)
            if let colour = importedColour(fg.1, alphaFirst: true) { b.set("color", colour) } else { b.drop("\(fg.0) = \(fg.1)") }
        }
        // The states sysstats has a text for: polybar's format-STATE with its label-STATE.
        for (state, ours) in [("internal/network", ("disconnected", "format_down")), ("internal/battery", ("charging", "format_charging")),
                              ("internal/battery", ("full", "format_full"))] where state == type {
            guard ini.value("format-" + ours.0, in: section) != nil || ini.value("label-" + ours.0, in: section) != nil else { continue }
            let text = polybarText(section, type: type, state: ours.0, ini: ini, into: &b, get: get)
            b.setFormat(text, rule: active, from: "label-" + ours.0, as: ours.1) { "%\($0)%" }
        }
        switch type {
        case "internal/cpu", "internal/memory", "internal/fs":
            b.setThreshold("warning", get("warn-percentage"), from: "warn-percentage")
        case "internal/battery":
            b.setThreshold("critical", get("low-at") ?? "10", from: "low-at")
        case "internal/temperature":
            b.setThreshold("warning", get("warn-temperature"), from: "warn-temperature")
        case "internal/pulseaudio", "internal/alsa", "internal/volume":
            let muted = polybarText(section, type: type, state: "muted", ini: ini, into: &b, get: get)
            b.setFormat(muted, rule: active, from: "label-muted", as: "format_muted") { "%\($0)%" }
            if let step = ini.value("interval", in: section).flatMap(Int.init), step >= 1, step <= 100 { b.set("step", .integer(step)) }
        case "internal/backlight":
            if let card = get("card") { b.set("device", card) }
        default: break
        }
        polybarClicks(section, ini: ini, into: &b, handled: &handled)
        if type == "internal/fs" { handled.formUnion(ini.keys(in: section).filter { $0.hasPrefix("mount-") }) }
        dropPolybarKeys(ini.keys(in: section).filter { !handled.contains($0) }, into: &b)
        return b
    }

    /// Keys left behind, told in groups: the looks (colours, fonts, spacing) as one, a ramp's
    /// or an animation's numbered keys as `ramp-signal-N`.
    static func dropPolybarKeys(_ keys: [String], into b: inout ImportedBlock) {
        let looks = ["foreground", "background", "underline", "overline", "padding", "margin", "font", "spacing", "offset"]
        var lookKeys: [String] = []
        for key in keys {
            let parts = key.split(separator: "-")
            if let last = parts.last, looks.contains(String(last)) { lookKeys.append(key); continue }
            if let i = parts.firstIndex(where: { $0.allSatisfy(\.isNumber) }) {
                b.drop(parts[..<i].joined(separator: "-") + "-N" + (i + 1 < parts.count ? "-" + parts[(i + 1)...].joined(separator: "-") : ""))
                continue
            }
            b.drop(key)
        }
        if !lookKeys.isEmpty { b.drop("colours, fonts and spacing (\(lookKeys.joined(separator: ", ")): sysstats colours a block by its state)") }
    }

    /// The format of `state` (`format-mounted`, else `format`) with its label, prefix and suffix
    /// in place, as tokens: `<label…>` the label's placeholders, a bar or ramp `{bar}` where the
    /// block has one, other tags dropped.
    static func polybarText(_ section: String, type: String, state: String?, ini: PolybarINI, into b: inout ImportedBlock,
                            get: (String) -> String?) -> [FormatToken] {
        let formatKey = state.map { "format-\($0)" } ?? "format"
        let labelKey = state.map { "label-\($0)" } ?? "label"
        let format = get(formatKey) ?? (state == nil ? nil : get("format")) ?? "<\(labelKey)>"
        let label = get(labelKey) ?? (state == "muted" ? "muted" : PolybarRules.defaultLabels[type] ?? "")
        var tokens: [FormatToken] = []
        if let prefix = get(formatKey + "-prefix") { tokens.append(.literal(stripPolybarTags(prefix, into: &b))) }
        var rest = Substring(stripPolybarTags(format, into: &b))
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            tokens.append(.literal(String(rest[..<open])))
            let tag = String(rest[rest.index(after: open)..<close])
            if tag.hasPrefix("label") {
                tokens += polybarTokens(stripPolybarTags(tag == labelKey || tag == "label" ? label : (get(tag) ?? ""), into: &b))
            } else if tag.hasPrefix("bar-") || tag.hasPrefix("ramp-") {
                let bar = type == "internal/memory" || type == "internal/fs" ? "{bar}" : type == "internal/cpu" ? "{spark}" : ""
                if bar.isEmpty { b.drop("<\(tag)>") } else { tokens.append(.placeholder("\u{0}" + bar, spec: "")) }
            } else {
                b.drop("<\(tag)>")
            }
            rest = rest[rest.index(after: close)...]
        }
        tokens.append(.literal(String(rest)))
        if let suffix = get(formatKey + "-suffix") { tokens.append(.literal(stripPolybarTags(suffix, into: &b))) }
        return tokens
    }

    /// `%{F#fff}`, `%{T2}`, `%{u…}` taken out (sysstats colours by state); a click
    /// `%{A1:cmd:}` added as the block's click.
    static func stripPolybarTags(_ text: String, into b: inout ImportedBlock) -> String {
        guard text.contains("%{") else { return text }
        var out = ""
        var rest = Substring(text)
        while let start = rest.range(of: "%{") {
            out += rest[..<start.lowerBound]
            guard let close = rest[start.upperBound...].firstIndex(of: "}") else { return out + rest[start.lowerBound...] }
            let tag = rest[start.upperBound..<close]
            if tag.hasPrefix("A"), tag.count > 2, let colon = tag.firstIndex(of: ":") {
                let button = ["1": "left", "2": "middle", "3": "right", "4": "up", "5": "down"][String(tag[tag.index(after: tag.startIndex)..<colon])]
                var cmd = tag[tag.index(after: colon)...]
                if cmd.hasSuffix(":") { cmd = cmd.dropLast() }
                if let button { b.addClick(button, String(cmd)) }
            } else if !tag.hasPrefix("A") {
                b.drop("colours and fonts (%{…})")
            }
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }
}
