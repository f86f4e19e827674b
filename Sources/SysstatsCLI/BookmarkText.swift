import Glibc
import Bookmarks

/// How rules are shown: in `bookmarks list`, in the messages of add/remove, as JSON.
public enum BookmarkText {
    /// The command-line flag that selects a kind.
    static func flag(_ kind: MatchKind) -> String {
        switch kind {
        case .comm: "--comm"
        case .truncated: "--truncated"
        case .executable: "--exe"
        case .glob: "--glob"
        case .commandLine: "--cmdline"
        }
    }

    static func stripText(_ strip: SuffixStrip) -> String? {
        switch strip {
        case .none: nil
        case .after(let byte): "after:" + TerminalText.escape([byte])
        case .version: "version"
        }
    }

    /// `--truncated gnome-control-center` (with ` --strip-after ~` / ` --strip-version`).
    static func selector(_ rule: BookmarkRule) -> String {
        var text = flag(rule.kind) + " " + TerminalText.escape(rule.pattern)
        switch rule.strip {
        case .none: break
        case .after(let byte): text += " --strip-after " + TerminalText.escape([byte])
        case .version: text += " --strip-version"
        }
        return text
    }

    /// `--truncated gnome-control-center → "Settings"`.
    static func describe(_ rule: BookmarkRule) -> String {
        let name = rule.friendlyName.isEmpty ? "(its own name, suffix stripped)" : "\"" + TerminalText.escape(rule.friendlyName) + "\""
        return selector(rule) + " → " + name
    }

    static let header = Columns.left("SOURCE", 10) + Columns.left("KIND", 11) + Columns.left("PATTERN", 32)
        + Columns.left("STRIP", 10) + "NAME"

    /// One line per rule, in precedence order; every text escaped for the terminal.
    public static func lines(_ rules: [BookmarkRule]) -> [String] {
        [header] + rules.map { r in
            Columns.left(r.source.name.description, 10) + Columns.left(r.kind.name.description, 11)
                + Columns.left(TerminalText.escape(r.pattern), 32) + Columns.left(stripText(r.strip) ?? "-", 10)
                + (r.friendlyName.isEmpty ? "(own name)" : TerminalText.escape(r.friendlyName))
        }
    }

    /// `--json`: an array in precedence order.
    public static func json(_ rules: [BookmarkRule]) -> String {
        struct Item: Encodable {
            var source: String, kind: String, pattern: String, friendly_name: String, strip: String?
        }
        let items = rules.map { r in
            Item(source: r.source.name.description, kind: r.kind.name.description, pattern: TerminalText.escape(r.pattern),
                 friendly_name: TerminalText.escape(r.friendlyName), strip: stripText(r.strip))
        }
        return JSONText.encode(items)
    }
}
