// An i3status config as sysstats blocks, module by module in `order`'s order.

/// Reads another bar's config and makes config.toml blocks of it.
public enum ConfigImporter {
    /// `text` in `source`'s language as an `ImportedConfig`; `bar` picks a polybar or waybar
    /// bar by name; `include` reads a file polybar's `include-file` names (nil: not there).
    /// Throws where the program itself would refuse the file.
    public static func convert(_ text: String, from source: ImportSource, bar: String? = nil,
                               include: (String) -> String? = { _ in nil }) throws(ImportError) -> ImportedConfig {
        switch source {
        case .i3status: return try importI3status(text)
        case .i3statusRust: return try importI3statusRust(text)
        case .waybar: return try importWaybar(text, bar: bar, include: include)
        case .polybar: return try importPolybar(text, bar: bar, include: include)
        }
    }

    /// The module table `source`'s import follows (and its docs section is written from).
    public static func rules(for source: ImportSource) -> [ModuleRule] {
        switch source {
        case .i3status: I3statusRules.rules
        case .i3statusRust: I3statusRustRules.rules
        case .waybar: WaybarRules.rules
        case .polybar: PolybarRules.rules
        }
    }

    static func importI3status(_ text: String) throws(ImportError) -> ImportedConfig {
        let conf = try I3statusConf.parse(text)
        var out = ImportedConfig(source: .i3status)
        if let general = conf.general { i3statusGeneral(general, into: &out) }
        // With colours on (i3status's default), its own degraded and bad where the file sets none.
        if conf.general?["colors"] != "false" {
            for (key, colour) in [("warning", "#FFFF00"), ("critical", "#FF0000")] where !out.theme.contains(where: { $0.key == key }) {
                out.theme.append(ImportedKey(key, .string(colour)))
            }
        }
        for (entry, line) in conf.order {
            let (name, instance) = I3statusConf.split(entry)
            guard let rule = I3statusRules.rules.first(where: { $0.module == name }) else {
                out.note(line: line, module: entry, .noBlock, "i3status has no such module")
                continue
            }
            guard let blockName = rule.block else {
                out.note(line: line, module: entry, .noBlock, "no sysstats block shows it; \(rule.remark)")
                continue
            }
            let section = conf.section(for: entry) ?? I3statusSection(name: name, instance: instance, line: line)
            var block = ImportedBlock(line: section.line, module: entry, block: blockName)
            i3statusModule(section, rule: rule, into: &block)
            // i3status colours these good while up (its color_good, green unless set).
            if I3statusRules.goodColoured.contains(name), conf.general?["colors"] != "false",
               let good = importedColour(section["color_good"] ?? conf.general?["color_good"] ?? "#00FF00") {
                block.set("color", good)
                block.dropped.removeAll { $0.hasPrefix("color_good") }
            }
            out.add(block)
        }
        return out
    }

    private static func i3statusGeneral(_ general: I3statusSection, into out: inout ImportedConfig) {
        for (key, value, line) in general.settings {
            switch key {
            case "interval":
                if let seconds = Int(value), seconds > 0, seconds <= 3600 { out.sampler = [ImportedKey("interval", .integer(seconds))] }
                else { out.dropSetting(line: line, "interval = \(value)", "not a whole number of seconds from 1 to 3600") }
            case "color_degraded", "color_bad":
                if let colour = importedColour(value) { out.theme.append(ImportedKey(key == "color_bad" ? "critical" : "warning", .string(colour))) }
                else { out.dropSetting(line: line, "\(key) = \(value)", "sysstats takes a colour as #RRGGBB or #RRGGBBAA") }
            case "separator":
                if value != "default" { out.theme.append(ImportedKey("separator", .string(value))) }
            case "colors" where value == "true", "output_format":
                break   // sysstats colours by state; `sysstats-bar --output` chooses the protocol
            case "color_good":
                break   // the colour of the blocks i3status shows good (I3statusRules.goodColoured)
            default:
                out.dropSetting(line: line, key, "no sysstats setting does this")
            }
        }
    }

    private static func i3statusModule(_ s: I3statusSection, rule: ModuleRule, into b: inout ImportedBlock) {
        var module = I3statusModuleImport(s: s, rule: rule, b: b)
        module.run()
        b = module.b
    }
}

extension String {
    /// Every `target` replaced with `replacement`.
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = Substring(self)
        while let r = rest.range(of: target) {
            out += rest[..<r.lowerBound] + replacement
            rest = rest[r.upperBound...]
        }
        return out + rest
    }
}
