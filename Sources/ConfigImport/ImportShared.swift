// What the four imports share: a format translated into a block, thresholds, clicks, and
// the modules every bar draws itself.

extension ImportedBlock {
    /// `tokens` translated with `rule`'s table into the block's key `ours`; a placeholder the
    /// table lacks makes the block incomplete and is named (`spelled` writes it as the source did).
    mutating func setFormat(_ tokens: [FormatToken], rule: ModuleRule, from key: String, as ours: String = "format",
                            spelled: (String) -> String) {
        var missing: [String] = []
        let text = translate(tokens, rule.placeholders, missing: &missing)
        let icons = missing.filter { $0.hasPrefix("^") }
        missing.removeAll { $0.hasPrefix("^") }
        if !icons.isEmpty { drop("icons (\(icons.joined(separator: ", ")))") }
        if !missing.isEmpty {
            outcome = .native(complete: false)
            drop("\(key)'s " + missing.map(spelled).joined(separator: ", ") + " (no sysstats figure)")
        }
        // Icons alone, or figures sysstats lacks, leave nothing to show: the block's own text then.
        if text.trimmingSpaces.isEmpty, tokens.contains(where: { if case .placeholder = $0 { true } else { false } }) {
            drop("\(key): nothing sysstats shows is left of it (the block's own text instead)")
            return
        }
        set(ours, text)
    }

    /// A whole-number threshold from `text` (a number, or a quoted one), else a note.
    mutating func setThreshold(_ ours: String, _ text: String?, from key: String, map: (Double) -> Double = { $0 }) {
        guard let text else { return }
        guard let value = Double(text), value.isFinite else { drop("\(key) = \(text) (not a number)"); return }
        set(ours, .integer(Int(map(value).rounded())))
    }

    /// A command block's clicks come to its command as `$BLOCK_BUTTON`: the other bar's click
    /// commands are started from there, detached, before the block's own command runs again.
    /// A persistent command gets its clicks on stdin, so it cannot start them: they are named.
    mutating func movingClicksIntoCommand() {
        guard block == "command", !clicks.isEmpty else { return }
        if value("persist") == .bool(true) {
            drop("clicks (" + clicks.map(\.button).joined(separator: ", ") + "): a persistent command reads its clicks on stdin")
            clicks = []
            return
        }
        var script = "case \"$BLOCK_BUTTON\" in\n"
        for c in clicks { script += "\(ImportedBlock.buttonNumber(c.button))) setsid -f sh -c \(shellQuoted(c.cmd)) >/dev/null 2>&1 ;;\n" }
        script += "esac\n"
        if case .string(let command)? = value("command") {
            set("command", script + command)
        } else {
            let text: String = if case .string(let t)? = value("full_text") { t } else { "" }
            set("command", script + "printf '%s\\n' " + shellQuoted(text))
            if value("interval") == nil { set("interval", "once") }
        }
        clicks = []
    }

    static func buttonNumber(_ button: String) -> Int {
        ["left": 1, "middle": 2, "right": 3, "up": 4, "down": 5][button] ?? 1
    }

    /// A click, unless the block already has one for that button.
    mutating func addClick(_ button: String, _ cmd: String) {
        guard !cmd.isEmpty, !clicks.contains(where: { $0.button == button }) else { return }
        clicks.append(ImportedClick(button: button, cmd: cmd))
    }
}

/// Modules a bar draws itself (workspaces, the window's title, the tray): nothing for
/// sysstats to show, and what the summary says of them.
let drawnByTheBar = "drawn by the bar itself; keep it in your bar's config"

/// A command for a module sysstats has no block for, as the summary suggests it.
func noBlockReason(_ suggestion: String?) -> String {
    guard let suggestion else { return "no sysstats block shows it; a command block that runs a script for it would" }
    return "no sysstats block shows it; a command block would: \(suggestion)"
}

/// A colour as sysstats takes it (`#RRGGBB[AA]`), from `#RGB`, `#RRGGBB`, or polybar's
/// `#AARRGGBB` (`alphaFirst`; an opaque alpha dropped); nil for anything else.
func importedColour(_ text: String, alphaFirst: Bool = false) -> String? {
    guard text.hasPrefix("#") else { return nil }
    var digits = String(text.dropFirst())
    guard digits.allSatisfy({ $0.isHexDigit }) else { return nil }
    if digits.count == 3 || digits.count == 4 { digits = String(digits.flatMap { [$0, $0] }) }
    if digits.count == 8 && alphaFirst { digits = String(digits.dropFirst(2)) + digits.prefix(2) }
    if digits.count == 8 && digits.uppercased().hasSuffix("FF") { digits = String(digits.prefix(6)) }
    return digits.count == 6 || digits.count == 8 ? "#" + digits : nil
}

/// `text` in single quotes for /bin/sh.
func shellQuoted(_ text: String) -> String { "'" + text.replacingAll("'", with: "'\\''") + "'" }

/// Whether `seconds` (a number's text) is a command interval the bar takes; its value as TOML.
func commandInterval(_ text: String) -> ImportValue? {
    if let whole = Int(text), whole >= 0 { return .integer(whole) }
    if let d = Double(text), d >= 0.1, d.isFinite { return .decimal(text) }
    return nil
}
