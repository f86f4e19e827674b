@testable import Bookmarks

func b(_ text: String) -> [UInt8] { Array(text.utf8) }

func rule(_ kind: MatchKind, _ pattern: String, _ name: String, strip: SuffixStrip = .none,
          source: RuleSource = .user) -> BookmarkRule {
    BookmarkRule(kind: kind, pattern: b(pattern), friendlyName: b(name), strip: strip, source: source)
}

extension NameResolver {
    /// The friendly name as text, nil when no rule matches (tests only).
    func name(comm: String, exe: String = "", cmdline: String = "") -> String? {
        resolve(comm: b(comm), executable: b(exe), commandLine: b(cmdline)).map { String(decoding: $0, as: UTF8.self) }
    }
}

func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
