// polybar's config language as polybar 3 reads it: `[section]`, `key = value` (spaces around
// trimmed, one pair of double quotes taken off), `;` and `#` comment lines, `include-file`,
// `inherit`, and `${section.key}`, `${self.key}`, `${root.key}`, `${env:NAME:fallback}`
// references (with a fallback after `:`).

struct PolybarINI {
    /// How many references one value may take in all, nested ones too: a file whose values
    /// refer to each other many times over (`${a.x}${a.x}` at each of 16 levels) ends here.
    final class Budget { var left = 4096 }

    struct Entry { var key: String; var value: String; var line: Int }
    struct Section { var name: String; var line: Int; var entries: [Entry] = [] }

    var sections: [Section] = []
    static let maximumIncludes = 16
    static let maximumReferenceDepth = 16

    static func parse(_ text: String, include: (String) -> String?) throws(ImportError) -> PolybarINI {
        var ini = PolybarINI()
        var includes = 0
        try ini.read(text, include: include, includes: &includes, fileLine: nil)
        return ini
    }

    private mutating func read(_ text: String, include: (String) -> String?, includes: inout Int, fileLine: Int?) throws(ImportError) {
        var current: Int? = nil
        var lineNumber = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let at = fileLine ?? lineNumber
            let line = raw.trimmingSpaces
            if line.isEmpty || line.hasPrefix(";") || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else { throw ImportError(line: at, "a section header needs its closing ]") }
                let name = String(line.dropFirst().dropLast())
                if let i = sections.firstIndex(where: { $0.name == name }) { current = i; continue }
                sections.append(Section(name: name, line: at))
                current = sections.count - 1
                continue
            }
            guard let eq = line.firstIndex(of: "=") else { throw ImportError(line: at, "expected key = value") }
            let key = String(line[..<eq].trimmingSpaces)
            var value = line[line.index(after: eq)...].trimmingSpaces
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
            if key == "include-file" {
                includes += 1
                guard includes <= Self.maximumIncludes else { throw ImportError(line: at, "more than \(Self.maximumIncludes) included files") }
                guard let included = include(String(value)) else { throw ImportError(line: at, "include-file \(oneLine(String(value))): the file cannot be read") }
                try read(included, include: include, includes: &includes, fileLine: at)
                continue
            }
            guard let c = current else { throw ImportError(line: at, "\(oneLine(key)) is outside any section") }
            sections[c].entries.append(Entry(key: key, value: String(value), line: at))
        }
    }

    func section(_ name: String) -> Section? { sections.first { $0.name == name } }

    /// `key` of `section`, its own, else the section it inherits from, with references resolved.
    func value(_ key: String, in section: String, depth: Int = 0, budget: Budget = Budget()) -> String? {
        guard depth < Self.maximumReferenceDepth, budget.left > 0, let s = self.section(section) else { return nil }
        budget.left -= 1
        if let e = s.entries.last(where: { $0.key == key }) { return resolve(e.value, in: section, depth: depth + 1, budget: budget) }
        if let parent = s.entries.last(where: { $0.key == "inherit" }) {
            for p in parent.value.split(separator: " ") { if let v = value(key, in: String(p), depth: depth + 1, budget: budget) { return v } }
        }
        return nil
    }

    func line(of key: String, in section: String) -> Int? { self.section(section)?.entries.last { $0.key == key }?.line }

    /// Every key of `section` with its inherited ones, in file order.
    func keys(in section: String, depth: Int = 0) -> [String] {
        // `inherit` chains end at the reference depth; a section inheriting itself ends there too.
        guard depth < Self.maximumReferenceDepth, let s = self.section(section) else { return [] }
        var all = s.entries.map(\.key)
        if let parent = s.entries.last(where: { $0.key == "inherit" }) {
            for p in parent.value.split(separator: " ") { all += keys(in: String(p), depth: depth + 1).filter { !all.contains($0) } }
        }
        return all
    }

    /// `${…}` references replaced; one that names nothing takes its fallback, else is left empty.
    func resolve(_ text: String, in section: String, depth: Int, budget: Budget) -> String {
        guard text.contains("${"), depth < Self.maximumReferenceDepth else { return text }
        var out = ""
        var rest = Substring(text)
        while let start = rest.range(of: "${") {
            out += rest[..<start.lowerBound]
            guard let close = rest[start.upperBound...].firstIndex(of: "}") else { out += rest[start.lowerBound...]; return out }
            let inner = String(rest[start.upperBound..<close])
            out += reference(inner, in: section, depth: depth, budget: budget) ?? ""
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    private func reference(_ inner: String, in section: String, depth: Int, budget: Budget) -> String? {
        if inner.hasPrefix("env:") {
            let parts = inner.dropFirst(4).split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            return parts.count > 1 ? String(parts[1]) : nil     // the importer does not read the environment: the fallback
        }
        if inner.hasPrefix("xrdb:") || inner.hasPrefix("file:") {
            let parts = inner.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            return parts.count > 2 ? String(parts[2]) : nil
        }
        var name = Substring(inner)
        var fallback: String? = nil
        if let colon = name.firstIndex(of: ":") { fallback = String(name[name.index(after: colon)...]); name = name[..<colon] }
        guard let dot = name.lastIndex(of: ".") else { return fallback }
        var target = String(name[..<dot])
        if target == "self" { target = section }
        if target == "root" { target = "" }
        return value(String(name[name.index(after: dot)...]), in: target, depth: depth + 1, budget: budget) ?? fallback
    }
}

extension StringProtocol {
    var trimmingSpaces: SubSequence {
        var s = self[...]
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
        return s
    }
}
