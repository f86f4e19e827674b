// Reads the bookmarks format (docs/bookmarks-format.md). All or nothing: the first
// problem refuses the whole file, with its line number, so an import never applies
// half a file.

struct BookmarkFileParser {
    /// The version line's minor number: a file from a newer 1.x may carry options this
    /// reader does not know, which it then ignores; in a 1 / 1.0 file they are errors.
    var ignoresUnknownOptions = false
    var rules: [BookmarkRule] = []
    var sanitizedNames = 0

    static let tagLength = BookmarkFile.formatTag.utf8CodeUnitCount

    static func parse(_ bytes: [UInt8]) throws(BookmarkFileError) -> BookmarkFile {
        guard bytes.count <= BookmarkFile.maximumSize else { throw .tooLarge(size: bytes.count) }
        var parser = BookmarkFileParser()
        var lineNumber = 0
        var start = 0
        while start < bytes.count || lineNumber == 0 {
            lineNumber += 1
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            var line = bytes[start..<end]
            start = end + 1
            if line.last == 0x0D { line = line.dropLast() }   // CRLF from an editor elsewhere
            if lineNumber == 1 {
                try parser.header(line)
            } else {
                try parser.ruleLine(line, number: lineNumber)
            }
        }
        return BookmarkFile(rules: parser.rules, sanitizedNames: parser.sanitizedNames)
    }

    /// `sysstats-bookmarks MAJOR[.MINOR]`.
    mutating func header(_ line: ArraySlice<UInt8>) throws(BookmarkFileError) {
        let tag = BookmarkFile.formatTag
        let n = BookmarkFileParser.tagLength
        guard line.count > n + 1 else { throw .notBookmarks }
        for i in 0..<n where line[line.startIndex + i] != tag.utf8Start[i] { throw .notBookmarks }
        guard line[line.startIndex + n] == 0x20 else { throw .notBookmarks }
        let version = line[(line.startIndex + n + 1)...]
        let dot = version.firstIndex(of: 0x2E)
        guard let major = BookmarkFileParser.number(version[..<(dot ?? version.endIndex)]), major >= 1 else {
            throw .notBookmarks
        }
        var minor = 0
        if let dot {
            guard let value = BookmarkFileParser.number(version[(dot + 1)...]) else { throw .notBookmarks }
            minor = value
        }
        if major > BookmarkFile.version { throw .newerVersion(major) }
        ignoresUnknownOptions = minor > 0
    }

    /// A decimal number of 1 to 9 digits.
    static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 9 else { return nil }
        var value = 0
        for d in digits {
            guard d >= 0x30 && d <= 0x39 else { return nil }
            value = value * 10 + Int(d - 0x30)
        }
        return value
    }

    mutating func ruleLine(_ line: ArraySlice<UInt8>, number: Int) throws(BookmarkFileError) {
        if line.first == UInt8(ascii: "#") || line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
        let fields = line.split(separator: 0x09, omittingEmptySubsequences: false)
        guard fields.count >= 3 else {
            throw .syntax(line: number, reason: "expected KIND<TAB>PATTERN<TAB>FRIENDLY NAME, found \(fields.count) field\(fields.count == 1 ? "" : "s") (fields are separated by tabs)")
        }
        guard let kind = MatchKind.allCases.first(where: { BookmarkFileParser.equals(fields[0], $0.name) }) else {
            throw .syntax(line: number, reason: "unknown kind '\(TerminalText.escape(fields[0], limit: 32))' (comm, truncated, exe, glob or cmdline)")
        }
        let pattern = try BookmarkFileParser.unescape(fields[1], line: number)
        let rawName = try BookmarkFileParser.unescape(fields[2], line: number)
        var strip: SuffixStrip? = nil
        var source: RuleSource? = nil
        for option in fields[3...] {
            try self.option(option, line: number, strip: &strip, source: &source)
        }
        let name = BookmarkFile.sanitizeName(rawName)
        if name != rawName { sanitizedNames += 1 }
        let rule = BookmarkRule(kind: kind, pattern: pattern, friendlyName: name, strip: strip ?? .none,
                                source: source ?? .imported)
        do throws(BookmarkRuleProblem) {
            try rule.validate()
        } catch {
            switch error {
            case .matchesEverything: throw .matchesEverything(line: number)
            case .patternTooLong: throw .syntax(line: number, reason: error.message)
            }
        }
        guard rules.count < BookmarkFile.maximumRules else { throw .tooManyRules }
        rules.append(rule)
    }

    /// `strip=none|version|after:X` or `source=user|imported|builtin`.
    func option(_ field: ArraySlice<UInt8>, line: Int, strip: inout SuffixStrip?,
                source: inout RuleSource?) throws(BookmarkFileError) {
        guard let equals = field.firstIndex(of: UInt8(ascii: "=")) else {
            if field.isEmpty { throw .syntax(line: line, reason: "an empty option (a stray tab at the end of the line?)") }
            throw .syntax(line: line, reason: "option '\(TerminalText.escape(field, limit: 32))' is not key=value")
        }
        let key = field[..<equals]
        let value = field[(equals + 1)...]
        if BookmarkFileParser.equals(key, "strip") {
            guard strip == nil else { throw .syntax(line: line, reason: "strip= given twice") }
            strip = try BookmarkFileParser.strip(value, line: line)
        } else if BookmarkFileParser.equals(key, "source") {
            guard source == nil else { throw .syntax(line: line, reason: "source= given twice") }
            guard let found = RuleSource.allCases.first(where: { BookmarkFileParser.equals(value, $0.name) }) else {
                throw .syntax(line: line, reason: "unknown source '\(TerminalText.escape(value, limit: 32))' (user, imported or builtin)")
            }
            source = found
        } else if !ignoresUnknownOptions {
            throw .syntax(line: line, reason: "unknown option '\(TerminalText.escape(key, limit: 32))' (this version knows strip= and source=)")
        }
    }

    static func strip(_ value: ArraySlice<UInt8>, line: Int) throws(BookmarkFileError) -> SuffixStrip {
        if equals(value, "none") { return .none }
        if equals(value, "version") { return .version }
        let after: StaticString = "after:"
        if value.count > after.utf8CodeUnitCount && equals(value.prefix(after.utf8CodeUnitCount), after) {
            let byte = try unescape(value.dropFirst(after.utf8CodeUnitCount), line: line)
            guard byte.count == 1 else {
                throw .syntax(line: line, reason: "strip=after: takes one byte, e.g. strip=after:~")
            }
            return .after(byte[0])
        }
        throw .syntax(line: line, reason: "unknown strip '\(describe(value))' (none, version or after:X)")
    }

    static func describe(_ bytes: ArraySlice<UInt8>) -> String { TerminalText.escape(bytes, limit: 32) }

    static func unescape(_ field: ArraySlice<UInt8>, line: Int) throws(BookmarkFileError) -> [UInt8] {
        switch Escaping.unescape(field) {
        case .success(let bytes): return bytes
        case .failure(let problem): throw .syntax(line: line, reason: problem.reason)
        }
    }

    static func equals(_ bytes: ArraySlice<UInt8>, _ text: StaticString) -> Bool {
        guard bytes.count == text.utf8CodeUnitCount else { return false }
        var i = 0
        for byte in bytes {
            if byte != text.utf8Start[i] { return false }
            i += 1
        }
        return true
    }
}
