// Format strings in the other bars' languages, read into literal text and placeholders,
// then written in sysstats' own `{placeholder}` language from a module's table.

/// One piece of a format string.
enum FormatToken: Equatable {
    case literal(String)
    /// A placeholder by its name in the source language, with what followed the name
    /// (waybar's `:%H:%M`, i3status-rust's `.eng(w:2)`), which sysstats' fixed forms replace.
    case placeholder(String, spec: String)
}

/// A module's placeholders: the source's name → sysstats' format text for it (`"usage"` →
/// `"{busy}%"`; an empty text drops it without a word, as an icon).
struct PlaceholderTable {
    var pairs: [(String, String)]
    init(_ pairs: [(String, String)]) { self.pairs = pairs }
    subscript(name: String) -> String? { pairs.first { $0.0 == name }?.1 }
    var names: [String] { pairs.map(\.0) }
}

/// A table's text ending in this takes the unit the source wrote after a bare number
/// (waybar's `{used}GiB`) away: sysstats' sizes carry their own (`3.2G`).
let sizedMark = "\u{1}"

/// Writes `tokens` in sysstats' language: literal braces doubled, each placeholder from
/// `table`; a placeholder the table lacks is left out and its name added to `missing`.
func translate(_ tokens: [FormatToken], _ table: PlaceholderTable, missing: inout [String]) -> String {
    var out = ""
    var droppedBefore = false
    var sized = false
    for token in tokens {
        switch token {
        case .literal(let text):
            var t = text
            if sized { t = droppingUnit(t) }
            sized = false
            // A dropped placeholder between two spaces leaves one space, not two.
            if droppedBefore, t.hasPrefix(" "), out.hasSuffix(" ") || out.isEmpty { t.removeFirst() }
            for c in t.unicodeScalars { out += c == "{" ? "{{" : c == "}" ? "}}" : String(c) }
            droppedBefore = false
        case .placeholder(let name, _) where name.hasPrefix("\u{0}"):
            out += name.dropFirst()      // sysstats' own placeholder, put there by the importer
            droppedBefore = false
        case .placeholder(let name, _):
            if var ours = table[name] {
                sized = ours.hasSuffix(sizedMark)
                if sized { ours.removeLast() }
                out += ours
                droppedBefore = ours.isEmpty
            } else {
                if !missing.contains(name) { missing.append(name) }
                droppedBefore = true
            }
        }
    }
    // Ending on what was dropped leaves the space before it with nothing after.
    if droppedBefore { while out.hasSuffix(" ") { out.removeLast() } }
    return out
}

/// `text` without the unit it starts with (` GiB`, `G`, `MB`), where one is.
private func droppingUnit(_ text: String) -> String {
    var rest = Substring(text)
    if rest.first == " " { rest = rest.dropFirst() }
    for unit in ["GiB", "MiB", "KiB", "TiB", "GB", "MB", "KB", "TB", "Gb", "Mb", "G", "M", "K", "T"] where rest.hasPrefix(unit) {
        let after = rest.dropFirst(unit.count)
        if let next = after.first, next.isLetter { continue }
        return String(after)
    }
    return text
}

/// The literal text of `tokens` only (a format with no placeholder is a static label).
func literalText(_ tokens: [FormatToken]) -> String {
    tokens.map { if case .literal(let t) = $0 { t } else { "" } }.joined()
}

/// i3status: `%name`, the longest of `names` that the text goes on with; any other `%` is text.
func i3statusTokens(_ format: String, names: [String]) -> [FormatToken] {
    let sorted = names.sorted { $0.count > $1.count }
    var tokens: [FormatToken] = []
    var literal = ""
    var rest = Substring(format)
    while let c = rest.first {
        if c == "%", let name = sorted.first(where: { rest.dropFirst().hasPrefix($0) }) {
            if !literal.isEmpty { tokens.append(.literal(literal)); literal = "" }
            tokens.append(.placeholder(name, spec: ""))
            rest = rest.dropFirst(1 + name.count)
        } else {
            literal.append(c)
            rest = rest.dropFirst()
        }
    }
    if !literal.isEmpty { tokens.append(.literal(literal)) }
    return tokens
}

/// waybar's and i3status-rust's older language ({fmt}): `{name}`, `{name:spec}`, `{}`,
/// `{{` and `}}`; i3status-rust's `{name;unit}` too.
func braceTokens(_ format: String) -> [FormatToken] {
    var tokens: [FormatToken] = []
    var literal = ""
    var rest = Substring(format)
    var closes = format.contains("}")     // none left: no `{` opens a placeholder (and no search per `{`)
    while let c = rest.first {
        if (c == "{" || c == "}"), rest.dropFirst().first == c {
            literal.append(c); rest = rest.dropFirst(2); continue
        }
        if c == "{", closes, let close = rest.firstIndex(of: "}") ?? { closes = false; return nil }() {
            let inner = rest[rest.index(after: rest.startIndex)..<close]
            let cut = inner.firstIndex { $0 == ":" || $0 == ";" || $0 == "^" } ?? inner.endIndex
            let name = String(inner[inner.startIndex..<cut])
            if name.allSatisfy({ $0.isPlaceholderCharacter }) {
                if !literal.isEmpty { tokens.append(.literal(literal)); literal = "" }
                tokens.append(.placeholder(name, spec: String(inner[cut...])))
                rest = rest[rest.index(after: close)...]
                continue
            }
        }
        literal.append(c)
        rest = rest.dropFirst()
    }
    if !literal.isEmpty { tokens.append(.literal(literal)) }
    return tokens
}

/// polybar's labels: `%name%` and `%name:min:max%` (a width, which sysstats does not pad to).
func polybarTokens(_ label: String) -> [FormatToken] {
    var tokens: [FormatToken] = []
    var literal = ""
    var rest = Substring(label)
    var closes = true      // false once no `%` is left after one: no search per `%` then
    while let c = rest.first {
        if c == "%", closes, let close = rest.dropFirst().firstIndex(of: "%") ?? { closes = false; return nil }() {
            let inner = rest[rest.index(after: rest.startIndex)..<close]
            let cut = inner.firstIndex(of: ":") ?? inner.endIndex
            let name = String(inner[inner.startIndex..<cut])
            if !name.isEmpty, name.allSatisfy({ $0.isPlaceholderCharacter || $0 == "-" }) {
                if !literal.isEmpty { tokens.append(.literal(literal)); literal = "" }
                tokens.append(.placeholder(name, spec: String(inner[cut...])))
                rest = rest[rest.index(after: close)...]
                continue
            }
        }
        literal.append(c)
        rest = rest.dropFirst()
    }
    if !literal.isEmpty { tokens.append(.literal(literal)) }
    return tokens
}

extension Character {
    var isPlaceholderCharacter: Bool {
        guard let a = asciiValue else { return false }
        return (a >= 0x61 && a <= 0x7A) || (a >= 0x41 && a <= 0x5A) || (a >= 0x30 && a <= 0x39) || a == 0x5F
    }
}

/// i3status-rust 0.30's language: `$name` with formatter calls (`$utilization.eng(w:2)`,
/// `$timestamp.datetime(f:'%R')`) as its spec, icons `^icon_cpu` (the placeholder
/// `^icon_cpu`), `{a|b}` (the first branch: what shows while its placeholders have values),
/// and `\` before a character that is then text.
func dollarTokens(_ format: String) -> [FormatToken] {
    var tokens: [FormatToken] = []
    var literal = ""
    var skipping = 0          // depth of `{…}` groups in a branch after `|`, left out
    var depth = 0
    var chars = Array(format)
    var i = 0
    func flush() { if !literal.isEmpty { tokens.append(.literal(literal)); literal = "" } }
    while i < chars.count {
        let c = chars[i]
        if c == "\\", i + 1 < chars.count {
            if skipping == 0 { literal.append(chars[i + 1]) }
            i += 2; continue
        }
        if c == "{" { depth += 1; if skipping > 0 { skipping += 1 }; i += 1; continue }
        if c == "}" {
            if skipping > 0 { skipping -= 1 }
            depth = max(0, depth - 1); i += 1; continue
        }
        if c == "|", depth > 0, skipping == 0 { skipping = 1; i += 1; continue }
        if skipping > 0 { i += 1; continue }
        if (c == "$" || c == "^"), i + 1 < chars.count, chars[i + 1].isPlaceholderCharacter {
            var j = i + 1
            while j < chars.count, chars[j].isPlaceholderCharacter { j += 1 }
            let name = (c == "^" ? "^" : "") + String(chars[(i + 1)..<j])
            var spec = ""
            // `.method(args)` calls, and a bare `.method` as `.eng` takes.
            while j + 1 < chars.count, chars[j] == ".", chars[j + 1].isPlaceholderCharacter {
                var k = j + 1
                while k < chars.count, chars[k].isPlaceholderCharacter { k += 1 }
                if k < chars.count, chars[k] == "(" {
                    while k < chars.count, chars[k] != ")" { k += 1 }
                    k = min(k + 1, chars.count)
                }
                spec += String(chars[j..<k]); j = k
            }
            flush()
            tokens.append(.placeholder(name, spec: spec))
            i = j; continue
        }
        literal.append(c)
        i += 1
    }
    flush()
    chars.removeAll()
    return tokens
}

/// The strftime format inside `$timestamp.datetime(f:'%a %R')` (nil without one).
func datetimeFormat(inSpec spec: String) -> String? {
    guard let r = spec.range(of: "datetime(") else { return nil }
    var inner = spec[r.upperBound...]
    if let close = inner.lastIndex(of: ")") { inner = inner[..<close] }
    for key in ["f:", "format:"] {
        if let k = inner.range(of: key) {
            var v = inner[k.upperBound...]
            if let q = v.first, q == "'" || q == "\"" {
                v = v.dropFirst()
                if let end = v.firstIndex(of: q) { return String(v[..<end]) }
            }
            return String(v.prefix { $0 != "," })
        }
    }
    return nil
}

extension StringProtocol {
    func range(of needle: String) -> Range<Index>? {
        guard !needle.isEmpty else { return nil }
        var i = startIndex
        while i < endIndex {
            if self[i...].hasPrefix(needle) { return i..<index(i, offsetBy: needle.count) }
            i = index(after: i)
        }
        return nil
    }
}
