// Writes the bookmarks format. Canonical: parsing the output and encoding it again
// gives the same bytes.

enum BookmarkFileEncoder {
    static func encode(_ rules: [BookmarkRule], withSource: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + rules.count * 48)
        append(BookmarkFile.formatTag, to: &out)
        out.append(0x20)
        out.append(contentsOf: Array(String(BookmarkFile.version).utf8))
        out.append(0x0A)
        append("# sysstats bookmarks (application/x-sysstats-bookmarks): KIND<TAB>PATTERN<TAB>FRIENDLY NAME[<TAB>OPTION]...; see docs/bookmarks-format.md\n", to: &out)
        for rule in rules {
            append(rule.kind.name, to: &out)
            out.append(0x09)
            Escaping.escape(rule.pattern, into: &out)
            out.append(0x09)
            Escaping.escape(rule.friendlyName, into: &out)
            if rule.strip != .none {
                out.append(0x09)
                append("strip=", to: &out)
                appendStrip(rule.strip, to: &out)
            }
            if withSource {
                out.append(0x09)
                append("source=", to: &out)
                append(rule.source.name, to: &out)
            }
            out.append(0x0A)
        }
        return out
    }

    /// `version`, `after:X` (X escaped as a field), or `none`.
    static func appendStrip(_ strip: SuffixStrip, to out: inout [UInt8]) {
        switch strip {
        case .none: append("none", to: &out)
        case .version: append("version", to: &out)
        case .after(let byte):
            append("after:", to: &out)
            Escaping.escape([byte], into: &out)
        }
    }

    static func append(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }
}

extension SuffixStrip {
    /// How the file format writes this strip (`none`, `version`, `after:~`); also the
    /// history database's `strip` column.
    public var text: [UInt8] {
        var out: [UInt8] = []
        BookmarkFileEncoder.appendStrip(self, to: &out)
        return out
    }

    /// The inverse of ``text``; nil when it is not one.
    public init?(text: [UInt8]) {
        guard let strip = try? BookmarkFileParser.strip(text[...], line: 0) else { return nil }
        self = strip
    }
}
