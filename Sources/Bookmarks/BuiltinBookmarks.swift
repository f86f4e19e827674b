// The defaults shipped in `assets/bookmarks/defaults.sysstats-bookmarks`, compiled in
// (BuiltinBookmarks+Generated.swift, by scripts/make-builtin-bookmarks.py) so the
// sampler needs no file to start with sensible names.

/// The built-in bookmarks: friendly names for common desktop programs, browsers'
/// helper processes, audio servers, kernel workers and system services.
public enum BuiltinBookmarks {
    /// The defaults, in file order, with source `.builtin`. Parsed from the compiled-in
    /// text on each use and not kept: the sampler compiles them into a ``NameResolver``
    /// (only while it has no rules cache) and needs no copy of the rules besides.
    public static var rules: [BookmarkRule] {
        let bytes = file.withUTF8Buffer { Array($0) }
        guard var rules = try? BookmarkFile.parse(bytes).rules else {
            // BookmarksTests parse the same text; the generator refuses what the reader would.
            preconditionFailure("the compiled-in bookmarks do not parse")
        }
        for i in rules.indices { rules[i].source = .builtin }
        return rules
    }
}
