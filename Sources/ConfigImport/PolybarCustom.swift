// polybar's date module, clicks and custom modules.

extension ConfigImporter {
    /// internal/date: `date` and `time` (strftime) placed where `label` puts `%date%` and `%time%`.
    static func polybarDate(_ section: String, ini: PolybarINI, into b: inout ImportedBlock, get: (String) -> String?) {
        func compose(_ date: String?, _ time: String?) -> String {
            var prefixed: [FormatToken] = []
            if let prefix = get("format-prefix") { prefixed.append(.literal(stripPolybarTags(prefix, into: &b))) }
            let label = stripPolybarTags(get("label") ?? "%date%", into: &b)
            var out = ""
            for token in prefixed + polybarTokens(label) {
                switch token {
                case .literal(let t): out += t.replacingAll("%", with: "%%")
                case .placeholder("date", _): out += date ?? ""
                case .placeholder("time", _): out += time ?? ""
                case .placeholder(let other, _): b.drop("label's %\(other)%")
                }
            }
            return out.trimmingSpaces.isEmpty ? "%H:%M" : out
        }
        let date = get("date"), time = get("time")
        b.set("format", compose(date, time))
        let dateAlt = get("date-alt"), timeAlt = get("time-alt")
        if dateAlt != nil || timeAlt != nil {
            b.set("format_short", compose(dateAlt ?? date, timeAlt ?? time))
            b.clicks.append(ImportedClick(button: "left", action: "toggle_format"))
        }
    }

    static func polybarClicks(_ section: String, ini: PolybarINI, into b: inout ImportedBlock, handled: inout Set<String>) {
        for (key, button) in [("click-left", "left"), ("click-middle", "middle"), ("click-right", "right"),
                              ("scroll-up", "up"), ("scroll-down", "down"), ("double-click-left", "left")] {
            handled.insert(key)
            if let cmd = ini.value(key, in: section) { b.addClick(button, cmd) }
        }
    }

    /// custom/script (a command block that runs `exec` as polybar does) and custom/text (its text).
    static func polybarCustom(_ name: String, type: String, ini: PolybarINI, line: Int) -> ImportedBlock {
        let section = "module/" + name
        var b = ImportedBlock(line: line, module: name, block: "command", outcome: .command)
        var handled: Set<String> = ["type", "inherit"]
        func get(_ key: String) -> String? { handled.insert(key); return ini.value(key, in: section) }
        b.set("name", name)
        let label = stripPolybarTags(get("label") ?? "%output%", into: &b)
        let format = stripPolybarTags(get("format") ?? (type == "custom/text" ? (get("content") ?? "") : "<label>"), into: &b)
        let prefix = get("format-prefix").map { stripPolybarTags($0, into: &b) } ?? ""
        let suffix = get("format-suffix").map { stripPolybarTags($0, into: &b) } ?? ""
        if type == "custom/text" {
            b.set("full_text", prefix + format.replacingAll("<label>", with: label) + suffix)
        } else {
            var command = get("exec") ?? ""
            if let condition = get("exec-if") { command = "(\(condition)) >/dev/null 2>&1 || exit 0\n" + command }
            if command.isEmpty { command = "true" }
            b.set("command", command)
            let shown = format.replacingAll("<label>", with: label)
            if let at = shown.range(of: "%output%") {
                let before = prefix + shown[..<at.lowerBound]
                if !before.isEmpty { b.set("label", before) }
                if !(shown[at.upperBound...].isEmpty && suffix.isEmpty) { b.drop("the text after %output%") }
            }
            if get("tail") == "true" { b.set("persist", .bool(true)) }
            else if let interval = get("interval"), let v = commandInterval(interval) { b.set("interval", v) }
            else { b.set("interval", .integer(5)) }   // polybar's default for a script that is not tailed
        }
        polybarClicks(section, ini: ini, into: &b, handled: &handled)
        b.movingClicksIntoCommand()
        dropPolybarKeys(ini.keys(in: section).filter { !handled.contains($0) }, into: &b)
        return b
    }
}
