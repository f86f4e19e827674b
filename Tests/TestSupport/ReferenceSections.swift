import Foundation

/// docs/reference.md's generated parts (and another file's, named): each between `<!-- generated: NAME -->` and
/// `<!-- end: NAME -->` (in a manual page, `.\" generated: NAME` and `.\" end: NAME`), written
/// from the code by the test that names it. Compared with the committed file, or written into
/// it with SYSSTATS_UPDATE_MANUAL=1 (scripts/generate-manual.sh), as the manual pages'
/// generated sections are.
public enum ReferenceSections {
    public static let relativePath = "docs/reference.md"

    /// How a file marks its generated parts: comments its readers never see.
    public enum Markers: Sendable {
        /// Markdown: `<!-- … -->` lines.
        case markdown
        /// A manual page: `.\" …` lines, which roff skips without breaking the paragraph.
        case roff

        func line(_ text: String) -> String {
            switch self {
            case .markdown: "<!-- \(text) -->"
            case .roff: ".\\\" \(text)"
            }
        }
    }

    /// Sets each named part to its text; returns the names of those that differed from the
    /// committed file (or are missing from it). When updating, writes the file and returns
    /// only the missing ones.
    public static func differing(_ sections: [(name: String, text: String)], in file: String = relativePath,
                                 markers: Markers = .markdown) throws -> [String] {
        let url = Fixtures.packageRoot.appendingPathComponent(file)
        var page = try String(contentsOf: url, encoding: .utf8)
        var differing: [String] = [], missing: [String] = []
        for (name, text) in sections {
            let open = markers.line("generated: \(name)") + "\n", close = markers.line("end: \(name)")
            guard let start = page.range(of: open)?.upperBound,
                  let end = page.range(of: close, range: start..<page.endIndex)?.lowerBound else {
                missing.append("\(name) (no such part in \(file))")
                continue
            }
            let body = text.hasSuffix("\n") ? text : text + "\n"
            if page[start..<end] != body {
                differing.append(name)
                page.replaceSubrange(start..<end, with: body)
            }
        }
        if !differing.isEmpty && ProcessInfo.processInfo.environment["SYSSTATS_UPDATE_MANUAL"] == "1" {
            try page.write(to: url, atomically: true, encoding: .utf8)
            return missing
        }
        return differing + missing
    }

    /// A Markdown table cell: `|` escaped, newlines as spaces.
    public static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
