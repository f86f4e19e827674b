// What a rule must be to be stored: the same checks for a file's rules and for
// `sysstats bookmarks add`.

/// Why a single rule is refused.
public enum BookmarkRuleProblem: Error, Equatable, Sendable {
    /// It would match every process (or every process of some name length).
    case matchesEverything(String)
    /// Its pattern is longer than ``BookmarkFile/maximumPatternLength``.
    case patternTooLong(Int)

    /// One line for the user.
    public var message: String {
        switch self {
        case .matchesEverything(let why): "this rule would match every process (\(why)); refused"
        case .patternTooLong(let n): "the pattern is \(n) bytes, more than \(BookmarkFile.maximumPatternLength)"
        }
    }
}

extension BookmarkRule {
    /// Throws when the rule cannot be stored: an empty pattern, a glob with no literal
    /// byte outside brackets (`*`, `??`, `[a-z]*`), a command-line substring with fewer
    /// than 2 bytes that are not spaces, or a pattern over 256 bytes.
    public func validate() throws(BookmarkRuleProblem) {
        if pattern.isEmpty { throw .matchesEverything("empty pattern") }
        if pattern.count > BookmarkFile.maximumPatternLength { throw .patternTooLong(pattern.count) }
        switch kind {
        case .glob:
            if pattern.withUnsafeBytes({ Glob.isWildcardOnly($0) }) {
                throw .matchesEverything("a glob needs a literal character outside [...]")
            }
        case .commandLine:
            if pattern.filter({ $0 != 0x20 }).count < 2 {
                throw .matchesEverything("a command-line substring needs at least 2 characters that are not spaces")
            }
        case .comm, .truncated, .executable:
            break
        }
    }
}
