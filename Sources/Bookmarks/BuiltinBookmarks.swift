// The defaults shipped in `assets/bookmarks/defaults.sysstats-bookmarks`, compiled in
// (BuiltinBookmarks+Generated.swift, by scripts/make-builtin-bookmarks.py) so the
// sampler needs no file to start with sensible names.

/// The built-in bookmarks: friendly names for common desktop programs, browsers'
/// helper processes, audio servers, kernel workers and system services.
public enum BuiltinBookmarks {
    static func rule(_ kind: MatchKind, _ pattern: StaticString, _ name: StaticString,
                     _ strip: SuffixStrip = .none) -> BookmarkRule {
        BookmarkRule(kind: kind, pattern: bytes(pattern), friendlyName: bytes(name), strip: strip, source: .builtin)
    }

    private static func bytes(_ text: StaticString) -> [UInt8] {
        text.withUTF8Buffer { Array($0) }
    }
}
