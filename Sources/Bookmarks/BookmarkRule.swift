// A bookmark: one rule from "what the kernel calls a process" to "what a person
// calls it". No Foundation, no Glibc: the sampler links this module.

/// How a rule recognises a process.
public enum MatchKind: UInt8, CaseIterable, Sendable {
    /// `comm` equals the pattern (after the rule's suffix strip).
    case comm
    /// The pattern is a program's full name; matches when `comm` is it, or is its
    /// 15-byte truncation (the kernel keeps at most 15 bytes of a task name).
    case truncated
    /// The executable's basename (`/proc/PID/exe`, else argv[0]'s) equals the pattern
    /// (after the rule's suffix strip).
    case executable
    /// A shell-style glob (`*`, `?`, `[abc]`, `[a-z]`, `[!x]`) over `comm`
    /// and, failing that, the executable's basename; e.g. `kworker/*`.
    case glob
    /// The command line (arguments joined by spaces) contains the pattern.
    case commandLine

    /// The name in bookmark files and on the command line.
    public var name: StaticString {
        switch self {
        case .comm: "comm"
        case .truncated: "truncated"
        case .executable: "exe"
        case .glob: "glob"
        case .commandLine: "cmdline"
        }
    }
}

/// What a rule cuts off a process name before comparing it and before showing it.
public enum SuffixStrip: Hashable, Sendable {
    /// Nothing.
    case none
    /// Everything from the first occurrence of this byte on (e.g. `~` in `Web Content~2`).
    case after(UInt8)
    /// A trailing version number: an optional `-`, `_`, `.` or space, then digits and
    /// dots, at the end (`python3.11` → `python3`, `firefox-128.0.2` → `firefox`).
    case version
}

/// Where a rule came from. Earlier cases win: the user's own rules over imported
/// ones, imported ones over the defaults in `assets/bookmarks/`.
public enum RuleSource: UInt8, CaseIterable, Comparable, Sendable {
    case user
    case imported
    case builtin

    public static func < (a: RuleSource, b: RuleSource) -> Bool { a.rawValue < b.rawValue }

    /// The name in the database and in `source=` of the rules cache.
    public var name: StaticString {
        switch self {
        case .user: "user"
        case .imported: "imported"
        case .builtin: "builtin"
        }
    }
}

/// What identifies a rule: two rules with the same key are the same rule (an import
/// of one changes the other's friendly name).
public struct RuleKey: Hashable, Sendable {
    public var kind: MatchKind
    public var pattern: [UInt8]
    public var strip: SuffixStrip
    public init(kind: MatchKind, pattern: [UInt8], strip: SuffixStrip = .none) {
        self.kind = kind
        self.pattern = pattern
        self.strip = strip
    }
}

/// One bookmark.
public struct BookmarkRule: Hashable, Sendable {
    public var kind: MatchKind
    /// What is matched: a name, a glob, or a command-line substring. UTF-8 expected,
    /// but any bytes are kept (process names are).
    public var pattern: [UInt8]
    /// The name shown for a matching process; empty means "the process's own name,
    /// with the suffix stripped".
    public var friendlyName: [UInt8]
    public var strip: SuffixStrip
    public var source: RuleSource

    public init(kind: MatchKind, pattern: [UInt8], friendlyName: [UInt8],
                strip: SuffixStrip = .none, source: RuleSource = .user) {
        self.kind = kind
        self.pattern = pattern
        self.friendlyName = friendlyName
        self.strip = strip
        self.source = source
    }

    public var key: RuleKey { RuleKey(kind: kind, pattern: pattern, strip: strip) }
}
