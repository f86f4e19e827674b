// The bookmarks file type (application/x-sysstats-bookmarks): a versioned,
// line-based text format with a format tag on the first line, documented in
// docs/bookmarks-format.md. The same format (with `source=`) is the rules cache
// the CLI writes for the sampler.

/// Why a bookmarks file was refused. One line each, for stderr.
public enum BookmarkFileError: Error, Equatable, Sendable {
    /// Larger than ``BookmarkFile/maximumSize``.
    case tooLarge(size: Int)
    /// The first line is not `sysstats-bookmarks N`.
    case notBookmarks
    /// Written by a newer sysstats (format version above ``BookmarkFile/version``).
    case newerVersion(Int)
    /// A line that does not parse (1-based line number, what is wrong).
    case syntax(line: Int, reason: String)
    /// A rule that would match every process (`glob *`, an empty pattern, ...).
    case matchesEverything(line: Int)
    /// More than ``BookmarkFile/maximumRules`` rules.
    case tooManyRules

    /// One line for stderr, naming the file.
    public func message(file: String) -> String {
        switch self {
        case .tooLarge(let size): "\(TerminalText.escape(file)): \(size) bytes is too large for a bookmarks file (at most \(BookmarkFile.maximumSize))"
        case .notBookmarks: "\(TerminalText.escape(file)): not a sysstats bookmarks file (the first line must be 'sysstats-bookmarks \(BookmarkFile.version)')"
        case .newerVersion(let v): "\(TerminalText.escape(file)): bookmarks format version \(v) is newer than this sysstats reads (\(BookmarkFile.version)); update sysstats"
        case .syntax(let line, let reason): "\(TerminalText.escape(file)):\(line): \(reason)"
        case .matchesEverything(let line): "\(TerminalText.escape(file)):\(line): this rule would match every process; refused"
        case .tooManyRules: "\(TerminalText.escape(file)): more than \(BookmarkFile.maximumRules) rules"
        }
    }
}

/// A parsed bookmarks file.
public struct BookmarkFile: Equatable, Sendable {
    /// The tag on the first line, followed by a space and the version.
    public static let formatTag: StaticString = "sysstats-bookmarks"
    /// The format version this build writes and the newest it reads.
    public static let version = 1
    /// Files larger than this are refused before parsing.
    public static let maximumSize = 256 * 1024
    public static let maximumRules = 4096
    /// Longest friendly name kept (longer ones are cut on a character boundary).
    public static let maximumNameLength = 48
    /// Longest pattern accepted.
    public static let maximumPatternLength = 256

    /// The rules, in file order. Their `source` is what `source=` said, else `.imported`.
    public var rules: [BookmarkRule]
    /// How many friendly names were sanitized (control characters replaced, cut to length).
    public var sanitizedNames: Int

    public init(rules: [BookmarkRule], sanitizedNames: Int = 0) {
        self.rules = rules
        self.sanitizedNames = sanitizedNames
    }

    /// Parses a whole file. Refuses it (throws) rather than import part of it: the first
    /// problem in file order, with its line number. Friendly names are sanitized
    /// (``sanitizeName(_:)``) and counted in ``sanitizedNames``; patterns keep their bytes.
    public static func parse(_ bytes: [UInt8]) throws(BookmarkFileError) -> BookmarkFile {
        try BookmarkFileParser.parse(bytes)
    }

    /// The file for `rules`, in their order; `withSource` adds `source=` to each rule (the
    /// rules cache). Canonical: `encode(parse(encode(r)).rules) == encode(r)`.
    public static func encode(_ rules: [BookmarkRule], withSource: Bool = false) -> [UInt8] {
        BookmarkFileEncoder.encode(rules, withSource: withSource)
    }
}
