// One i3status module made into its block: its formats through the module's table (with
// i3status's own defaults where the file sets none), its thresholds with their sense, and
// every other setting named as left behind.

struct I3statusModuleImport {
    let s: I3statusSection
    let rule: ModuleRule
    var b: ImportedBlock
    var handled: Set<String> = ["format"]

    init(s: I3statusSection, rule: ModuleRule, b: ImportedBlock) { self.s = s; self.rule = rule; self.b = b }

    var defaultFormat: String? { I3statusRules.defaultFormats[s.name] }

    /// `key`'s format (else `fallback`) translated into the block's `ours`.
    mutating func format(_ key: String, as ours: String = "format", fallback: String? = nil, table: PlaceholderTable? = nil) {
        handled.insert(key)
        guard let text = s[key] ?? fallback else { return }
        let names = I3statusRules.knownNames[s.name] ?? rule.placeholders.names
        var missing: [String] = []
        let translated = translate(i3statusTokens(text, names: names), table ?? rule.placeholders, missing: &missing)
        if !missing.isEmpty {
            b.outcome = .native(complete: false)
            b.drop("\(key)'s " + missing.map { "%" + $0 }.joined(separator: ", ") + " (no sysstats figure)")
        }
        b.set(ours, translated)
    }

    mutating func threshold(_ key: String, as ours: String) {
        handled.insert(key)
        b.setThreshold(ours, s[key], from: key)
    }

    /// i3status's text while what it shows is missing: `""` hides the block, as `hide_missing`.
    mutating func hideWhenEmpty(_ key: String) {
        handled.insert(key)
        guard let text = s[key] else { return }
        if text.isEmpty { b.set("hide_missing", .bool(true)) } else { b.drop("\(key) (sysstats shows n/a; `hide_missing = true` hides the block instead)") }
    }

    mutating func run() {
        switch s.name {
        case "cpu_usage":
            format("format", fallback: defaultFormat)
            threshold("degraded_threshold", as: "warning"); threshold("max_threshold", as: "critical")
        case "memory": memory()
        case "load":
            format("format", fallback: defaultFormat)
            handled.insert("max_threshold")
            if let t = s["max_threshold"] {
                if let v = Double(t), v.isFinite { b.set("critical", v == v.rounded() ? .integer(Int(v)) : .decimal(t)) } else { b.drop("max_threshold = \(t)") }
            }
        case "battery": battery()
        case "cpu_temperature":
            format("format", fallback: defaultFormat)
            threshold("max_threshold", as: "critical")
            if s["max_threshold"] == nil { b.set("critical", .integer(75)) }
        case "disk": disk()
        case "wireless", "ethernet":
            if let i = s.instance, i != "_first_" { b.set("interface", i) }
            format("format_up", fallback: defaultFormat)
            format("format_down", as: "format_down", fallback: s.name == "wireless" ? "W: down" : "E: down")
        case "ipv6":
            format("format_up", fallback: defaultFormat)
            format("format_down", as: "format_down", fallback: "no IPv6")
        case "tztime", "time": time()
        case "volume":
            format("format", fallback: defaultFormat)
            format("format_muted", as: "format_muted")
            handled.formUnion(["device", "mixer", "mixer_idx"])
            if let d = s["device"], d != "default" { b.drop("device = \(d) (the sound server's default sink is shown)") }
        case "run_watch", "path_exists", "read_file": fileModule()
        default: break
        }
        for (key, value, _) in s.settings where !handled.contains(key) {
            b.drop(key.hasPrefix("color") ? "\(key) (sysstats colours a block by its state: [theme])" : "\(key) = \(value)")
        }
    }

    /// Its thresholds count memory available; sysstats' count memory used.
    mutating func memory() {
        format("format", fallback: defaultFormat)
        for (key, ours) in [("threshold_degraded", "warning"), ("threshold_critical", "critical")] {
            handled.insert(key)
            guard let text = s[key] else { continue }
            if text.hasSuffix("%"), let share = Double(text.dropLast()), share.isFinite { b.set(ours, .integer(Int((100 - share).rounded()))) }
            else { b.drop("\(key) = \(text) (a size: sysstats' thresholds are shares)") }
        }
    }

    /// %status is a word of the file's own per state: one format per state.
    mutating func battery() {
        let statuses = ["status_bat", "status_chr", "status_full", "status_unk", "status_idle"]
        handled.formUnion(statuses)
        func withStatus(_ key: String, _ fallback: String) -> PlaceholderTable {
            let word = (s[key] ?? fallback).replacingAll("{", with: "{{").replacingAll("}", with: "}}")
            return PlaceholderTable(rule.placeholders.pairs.filter { $0.0 != "status" } + [("status", word)])
        }
        let main = s["format"] ?? defaultFormat ?? ""
        format("format", fallback: main, table: withStatus("status_bat", "BAT"))
        if main.contains("%status") {
            format("format", as: "format_charging", fallback: main, table: withStatus("status_chr", "CHR"))
            format("format", as: "format_full", fallback: main, table: withStatus("status_full", "FULL"))
        }
        format("format_down", as: "format_down", fallback: "No battery")
        handled.formUnion(["low_threshold", "threshold_type"])
        if s["threshold_type"] == "percentage", let low = s["low_threshold"].flatMap(Double.init), low.isFinite { b.set("critical", .integer(Int(low))) }
        else if s["low_threshold"] != nil || s["threshold_type"] != nil { b.drop("low_threshold in minutes left (sysstats' battery thresholds are percents)") }
        if let instance = s.instance, instance != "all", instance != "0" { b.drop("battery \(instance) alone (sysstats shows all batteries together)") }
    }

    /// Its threshold counts what is left; sysstats' counts the share used.
    mutating func disk() {
        if let mount = s.instance { b.set("mount", mount) }
        format("format", fallback: defaultFormat)
        hideWhenEmpty("format_not_mounted")
        handled.formUnion(["low_threshold", "threshold_type"])
        let type = s["threshold_type"] ?? "percentage_avail"
        if let low = s["low_threshold"].flatMap(Double.init), low.isFinite, low > 0 {
            if type.hasPrefix("percentage") { b.set("critical", .integer(Int((100 - low).rounded()))) }
            else { b.drop("low_threshold in \(type) (sysstats' disk thresholds are shares used)") }
        }
    }

    /// strftime as it is, with `format_time` in place of `%time`.
    mutating func time() {
        handled.formUnion(["format", "format_time", "timezone"])
        var text = s["format"] ?? defaultFormat ?? ""
        if let time = s["format_time"] { text = text.replacingAll("%time", with: time) }
        b.set("format", text)
        if let zone = s["timezone"], !zone.isEmpty { b.set("timezone", zone) }
    }

    /// run_watch, path_exists and read_file: the instance is the title.
    mutating func fileModule() {
        if let title = s.instance { b.set("title", title) }
        let pathKey = s.name == "run_watch" ? "pidfile" : "path"
        handled.insert(pathKey)
        if let p = s[pathKey] { b.set(pathKey, p) }
        format("format")
        let down = s.name == "read_file" ? "format_bad" : "format_down"
        format(down, as: down)
        handled.insert("max_characters")
        if let m = s["max_characters"], m != "255" { b.drop("max_characters = \(m) (sysstats shows up to 255 bytes)") }
    }
}
