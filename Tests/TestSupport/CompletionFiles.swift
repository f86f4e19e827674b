import CommandOptions
import Foundation

/// What the bash, zsh and fish completions in assets/completions offer for one program: its
/// long options, and the words a named list holds (sysstats-bar's `blocks`, `--output`'s
/// values), read from each shell's file as that shell's syntax writes them.
public struct CompletionFiles {
    public let program: String
    /// The shells' files' text: bash, zsh, fish.
    public let texts: [(shell: String, text: String)]

    public init(program: String) throws {
        self.program = program
        let root = Fixtures.packageRoot.appendingPathComponent("assets/completions")
        texts = try [("bash", "bash/\(program)"), ("zsh", "zsh/_\(program)"), ("fish", "fish/\(program).fish")].map {
            ($0.0, try String(contentsOf: root.appendingPathComponent($0.1), encoding: .utf8))
        }
    }

    /// The long options (`--name`) each shell's file completes.
    public func longOptions(_ shell: String, _ text: String) -> Set<String> {
        switch shell {
        case "fish":
            return Set(matches(#"-l ([a-z][a-z0-9-]*)"#, text).map { "--" + $0 })
        case "bash":
            // The last `compgen -W "…"`: the options offered when no option waits for a value.
            let lists = matches(#"compgen -W "([^"]*)" -- "\$cur"\)\)\n\}"#, text)
            return Set((lists.last ?? "").split(separator: " ").map(String.init).filter { $0.hasPrefix("--") })
        default:
            return Set(matches(#"(?:^|[,'"*)])(--[a-z][a-z0-9-]*)[=\[}]"#, text))
        }
    }

    /// The words of a list the shell's file names: `blocks` (`local blocks="…"` in bash,
    /// `local blocks=(…)` in zsh, `"echo a\nb"` after `-l blocks` in fish), or an option's
    /// values (`--output`).
    public func words(_ shell: String, _ text: String, list: String) -> [String] {
        let found: String?
        switch (shell, list.hasPrefix("--")) {
        case ("bash", false): found = matches(#"local \#(list)="([^"]*)""#, text).first
        case ("zsh", false): found = matches(#"local \#(list)=\(([^)]*)\)"#, text).first
        case ("fish", false):
            found = matches(#"-l \#(list) [^\n]*"echo ([^"]*)""#, text).first?.replacingOccurrences(of: "\\n", with: " ")
        case ("bash", true): found = matches(#"\#(list)\)\n\s*COMPREPLY=\(\$\(compgen -W "([^"]*)""#, text).first
        case ("zsh", true):
            found = matches(#"'\#(list)=\[[^\]]*\]:[a-z]+:\(([^)]*)\)'"#, text).first?.replacingOccurrences(of: "\\:", with: ":")
        default: found = matches(#"-l \#(list.dropFirst(2)) -x -a '([^']*)'"#, text).first
        }
        return (found ?? "").split(separator: " ").map(String.init)
    }

    /// Each shell's differences from `table`'s long options: `+--x` completed but not an
    /// option, `-shell --x` an option the shell does not complete. Empty when all agree.
    public func differences(from table: CommandOptions) -> [String] {
        let options = Set(table.options.map { "\($0.name)" }.filter { $0.hasPrefix("--") })
        var out: [String] = []
        for (shell, text) in texts {
            let offered = longOptions(shell, text)
            out += options.subtracting(offered).sorted().map { "\(shell) lacks \($0)" }
            out += offered.subtracting(options).sorted().map { "\(shell) offers \($0), no option" }
        }
        return out
    }

    private func matches(_ pattern: String, _ text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines]) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}
