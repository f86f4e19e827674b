import CommandOptions
import Foundation

/// A manual page's sections that a program's option table writes (SYNOPSIS, OPTIONS):
/// compared with the committed page, or written into it with SYSSTATS_UPDATE_MANUAL=1
/// (scripts/generate-manual.sh).
public enum ManualSections {
    /// Each section named in `sections` (the text after `.SH NAME\n` up to the next `.SH`)
    /// set to its generated text; returns the sections that differed from the committed page
    /// (and, when updating, writes the page).
    public static func differing(_ relativePath: String, _ sections: [(name: String, text: String)]) throws -> [String] {
        let url = Fixtures.packageRoot.appendingPathComponent(relativePath)
        var page = try String(contentsOf: url, encoding: .utf8)
        var differing: [String] = []
        for (name, text) in sections {
            let heading = ".SH \(name)\n"
            guard let start = page.range(of: heading)?.upperBound else { differing.append(name + " (no such section)"); continue }
            let end = page.range(of: "\n.SH ", range: start..<page.endIndex).map { page.index(after: $0.lowerBound) } ?? page.endIndex
            if page[start..<end] != text {
                differing.append(name)
                page.replaceSubrange(start..<end, with: text)
            }
        }
        if !differing.isEmpty && ProcessInfo.processInfo.environment["SYSSTATS_UPDATE_MANUAL"] == "1" {
            try page.write(to: url, atomically: true, encoding: .utf8)
            return []
        }
        return differing
    }

    /// The sections of `relativePath` that differ from what `table` writes (SYNOPSIS, OPTIONS).
    public static func differing(_ relativePath: String, from table: CommandOptions) throws -> [String] {
        var synopsis: [UInt8] = [], options: [UInt8] = []
        table.writeManualSynopsis(into: &synopsis)
        table.writeManualOptions(into: &options)
        return try differing(relativePath, [("SYNOPSIS", String(decoding: synopsis, as: UTF8.self)),
                                            ("OPTIONS", String(decoding: options, as: UTF8.self))])
    }
}
