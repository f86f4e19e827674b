import Glibc
// `sysstats config check [FILE]` and `sysstats config example`: the same checks the bar
// (BarCore's BarConfig) and the sampler (SystemDirs' SamplerSettings) make when they load
// the file, so a file that passes here loads there.
import ArgumentParser
import BarCore
import ConfigImport
import Bookmarks
import ProcFS
import SystemDirs
import TOML

enum ConfigCommands {
    /// Checks the file at `path` (nil: the default place). One line per problem on stderr,
    /// `FILE:LINE:COL: reason`, status 1; `FILE: ok` and status 0. Then, for each running
    /// bar (`runningBars`) that reads this file, a note naming the flags that override it.
    static func check(path: String?, runningBars: [RunningBars.Bar] = []) -> CommandOutput {
        var out = checkFile(path: path)
        if let file = path ?? SamplerSettings.defaultPath() {
            out.stdout += RunningBars.overrideNotes(configFile: file, defaultPath: SamplerSettings.defaultPath(), bars: runningBars)
        }
        return out
    }

    private static func checkFile(path: String?) -> CommandOutput {
        guard let file = path ?? SamplerSettings.defaultPath() else {
            return CommandOutput(stdout: [], stderr: ["sysstats: no config file: neither $XDG_CONFIG_HOME nor $HOME is set"], status: 1)
        }
        let shown = TerminalText.escape(file)
        let bytes: [UInt8]
        switch readConfigFile(file, limit: 65_536) {
        case .success(let b): bytes = b
        case .failure(let e):
            if e.isMissing && path == nil {
                return CommandOutput(stdout: ["\(shown): no such file (the built-in defaults apply; `sysstats config example` prints them)"],
                                     stderr: [], status: 0)
            }
            return CommandOutput(stdout: [], stderr: ["\(shown): \(e)"], status: 1)
        }
        let document: TOMLDocument
        do throws(TOMLError) {
            document = try TOMLDocument.parse(bytes)
        } catch {
            return CommandOutput(stdout: [], stderr: ["\(shown):\(error.line):\(error.column): \(error.reason.message)"], status: 1)
        }
        var problems: [String] = []
        var notes: [String] = []
        do throws(ConfigError) {
            let config = try BarConfig.parse(document)
            for block in config.blocks ?? [] {
                if let spec = block.command, spec.wrapsI3bar, BarConfig.isI3status(spec.command),
                   let note = i3statusOutputNote(String(decoding: spec.command, as: UTF8.self)) {
                    notes.append(note)
                }
            }
            // Each i3blocks file it names, read and checked as the bar reads it.
            var included: [IncludedFileError] = []
            let expanded = config.expandingI3blocksFiles(problems: &included) { written in
                let resolved = resolveIncluded(String(decoding: written, as: UTF8.self), relativeTo: file)
                switch readConfigFile(resolved, limit: I3blocksImport.maximumFileSize) {
                case .success(let b): return (Array(resolved.utf8), b, [])
                case .failure(let e): return (Array(resolved.utf8), nil, Array("\(e)".utf8))
                }
            }
            if case .failure(let e) = expanded { included.append(e) }
            for e in included {
                var line: [UInt8] = []
                e.error.describe(file: e.file.isEmpty ? Array(shown.utf8) : Array(TerminalText.escape(e.file).utf8), into: &line)
                problems.append(String(decoding: line, as: UTF8.self))
            }
        } catch {
            var line: [UInt8] = []
            error.describe(file: Array(shown.utf8), into: &line)
            problems.append(String(decoding: line, as: UTF8.self))
        }
        do throws(SettingsError) {
            _ = try SamplerSettings.parse(document)
        } catch {
            problems.append(error.describe(file: shown))
        }
        if problems.isEmpty { return CommandOutput(stdout: ["\(shown): ok"] + notes, stderr: [], status: 0) }
        return CommandOutput(stdout: [], stderr: problems, status: 1)
    }
}

struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Check the config file, print one with the built-in defaults, or import an i3blocks config.",
        subcommands: [ConfigCheck.self, ConfigExample.self, ConfigImport.self])
}

struct ConfigCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a config file as sysstats-bar and sysstatsd load it.",
        discussion: """
            Without FILE, $XDG_CONFIG_HOME/sysstats/config.toml (else ~/.config/sysstats/config.toml).
            Prints FILE: ok (status 0), or one FILE:LINE:COL: reason line per problem (status 1);
            then a note for each running sysstats-bar whose flags (--blocks, --format) override the file.
            Every key and what it does: man sysstats-config.
            """)
    @Argument(help: ArgumentHelp("The file.", valueName: "file"))
    var file: String?
    @OptionGroup var runtime: RuntimeDirectoryOption

    func run() throws {
        emit(ConfigCommands.check(path: ExactArguments.path(file), runningBars: RunningBars.list(runtimeDirectory: runtime.resolved)))
    }
}

struct ConfigExample: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "example",
        abstract: "Print a commented config file equal to the built-in defaults.")

    func run() throws { emit(CommandOutput(stdout: [ExampleConfig.text], stderr: [], status: 0)) }
}

struct ConfigImport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Print another bar's config (i3blocks, i3status, i3status-rust, waybar, polybar) as config.toml.",
        discussion: """
            Without FILE, the file that program itself reads (i3status: ~/.config/i3status/config, \
            ~/.i3status.conf, /etc/xdg/i3status/config, /etc/i3status.conf; i3status-rust: \
            ~/.config/i3status-rust/config.toml; waybar: ~/.config/waybar/config, config.jsonc; \
            polybar: ~/.config/polybar/config.ini, config; i3blocks: ~/.config/i3blocks/config, \
            ~/.i3blocks.conf, /etc/xdg/i3blocks/config, /etc/i3blocks.conf). Each module becomes the \
            sysstats block that shows it, in bar order, with its formats, thresholds and clicks \
            translated; custom scripts become command blocks; what cannot be carried over is one \
            FILE:LINE: line on stderr each, and a comment in the result. An i3blocks file's \
            sections become command blocks with the same keys. A line the program would refuse \
            is FILE:LINE:COL: reason on stderr (status 1).
            """)
    @Argument(help: ArgumentHelp("What to import: i3blocks, i3status, i3status-rust, waybar or polybar.", valueName: "program"))
    var program: String
    @Argument(help: ArgumentHelp("The file.", valueName: "file"))
    var file: String?
    @Option(help: ArgumentHelp("The bar to import, of a polybar or waybar config with several (default: the first).", valueName: "name"))
    var bar: String?
    @Flag(help: "Write the result into the config file (sysstats config check's default), keeping the file there as FILE.bak.")
    var write = false
    @Flag(help: "Exit 1 when anything was not carried over.")
    var strict = false

    func validate() throws {
        guard program == "i3blocks" || ImportSource(rawValue: program) != nil else {
            throw ValidationError("cannot import '\(program)': i3blocks, i3status, i3status-rust, waybar or polybar")
        }
        if bar != nil, program != "polybar", program != "waybar" { throw ValidationError("--bar is for polybar and waybar configs") }
    }

    func run() throws {
        let path = ExactArguments.path(file)
        var output: CommandOutput
        if let source = ImportSource(rawValue: program) {
            output = ConfigCommands.importBar(source, path: path ?? ConfigCommands.defaultPath(of: source), bar: bar, strict: strict)
        } else {
            output = ConfigCommands.importI3blocks(path: path ?? ConfigCommands.i3blocksDefaultPath())
        }
        if write, output.status == 0, let text = output.stdout.first {
            output = ConfigCommands.writeImported(text, summary: output.stderr)
        }
        emit(output)
    }
}

extension ConfigCommands {
    /// The first i3blocks config that exists, in i3blocks' own order; nil if none.
    static func i3blocksDefaultPath(environment: [String: String] = SystemFiles.environment()) -> String? {
        var candidates: [String] = []
        if let home = environment["HOME"] {
            candidates.append((environment["XDG_CONFIG_HOME"] ?? home + "/.config") + "/i3blocks/config")
            candidates.append(home + "/.i3blocks.conf")
        }
        candidates.append((environment["XDG_CONFIG_DIRS"] ?? "/etc/xdg") + "/i3blocks/config")
        candidates.append("/etc/i3blocks.conf")
        return candidates.first { SystemFiles.exists($0) }
    }

    /// `sysstats config import i3blocks FILE`: the TOML on stdout, or the problems on stderr.
    static func importI3blocks(path: String?) -> CommandOutput {
        guard let path else {
            return CommandOutput(stderr: ["sysstats: no i3blocks config found (~/.config/i3blocks/config, ~/.i3blocks.conf, /etc/i3blocks.conf); name one"], status: 1)
        }
        let shown = TerminalText.escape(path)
        // The command line reached us as text: bytes that were not UTF-8 became U+FFFD, and
        // the name no longer names the file.
        if path.unicodeScalars.contains("\u{FFFD}") {
            return CommandOutput(stderr: ["\(shown): the file's name is not valid UTF-8, so it cannot be named here: rename it, or link to it from a name that is"], status: 1)
        }
        let bytes: [UInt8]
        switch readConfigFile(path, limit: I3blocksImport.maximumFileSize) {
        case .success(let b): bytes = b
        case .failure(let e): return CommandOutput(stderr: ["\(shown): \(e)"], status: 1)
        }
        let folder = Array(absoluteFolder(of: path).utf8)
        switch I3blocksImport.convert(bytes, folder: folder) {
        case .failure(let e):
            return CommandOutput(stderr: ["\(shown):\(e.line):1: \(e.reason)"], status: 1)
        case .success(let converted):
            if case .failure(let e) = I3blocksImport.blocks(from: bytes, folder: folder) {
                var line: [UInt8] = []
                e.describe(file: Array(shown.utf8), into: &line)
                return CommandOutput(stderr: [String(decoding: line, as: UTF8.self)], status: 1)
            }
            let header = "# Imported from \(shown) by `sysstats config import i3blocks`: one command block per\n"
                + "# section, with its keys (docs/configuration.md, \"Moving from i3blocks\").\n\n"
            var text = header + String(decoding: converted.toml, as: UTF8.self)
            while text.hasSuffix("\n") { text.removeLast() }
            return CommandOutput(stdout: [text])
        }
    }
}

/// The folder `path` is in, as an absolute path: the imported commands run from there
/// wherever the bar is started (`battery.conf` from the current folder, not `.`).
func absoluteFolder(of path: String, currentDirectory: String = SystemFiles.currentDirectory()) -> String {
    var folder = folderOf(path)
    if !folder.hasPrefix("/") { folder = folder.isEmpty || folder == "." ? currentDirectory : currentDirectory + "/" + folder }
    while folder.hasSuffix("/.") { folder.removeLast(2) }
    return folder.isEmpty ? "/" : folder
}

/// `~/…` from $HOME, a relative path from the config file's folder (as the bar resolves an
/// i3blocks block's `file`).
func resolveIncluded(_ written: String, relativeTo config: String) -> String {
    if written.hasPrefix("~/"), let home = environmentValue("HOME"), !home.isEmpty {
        return home + written.dropFirst()
    }
    if written.hasPrefix("/") { return written }
    return folderOf(config) + "/" + written
}

/// `path` without its last component, as NSString's deletingLastPathComponent: "a/b" → "a",
/// "a" → "", "/a" → "/", trailing slashes ignored.
func folderOf(_ path: String) -> String {
    var p = Substring(path)
    while p.count > 1 && p.hasSuffix("/") { p.removeLast() }
    guard let slash = p.lastIndex(of: "/") else { return "" }
    var folder = p[..<slash]
    while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
    return folder.isEmpty ? "/" : String(folder)
}

/// `text` without the characters of `set` at either end.
func trimmed<S: StringProtocol>(_ text: S, of set: Set<Character>) -> String {
    String(text.drop(while: { set.contains($0) }).reversed().drop(while: { set.contains($0) }).reversed())
}

extension ConfigCommands {
    /// A note when the i3status a `block = "i3bar"` runs reads a config without
    /// `output_format = "i3bar"`: i3status picks its output by its parent's name, so under
    /// sysstats-bar it would print plain text. Nil when it sets it or no file is found.
    static func i3statusOutputNote(_ command: String, environment: [String: String] = SystemFiles.environment()) -> String? {
        let words = command.split(separator: " ").map(String.init)
        var file: String?
        for (i, w) in words.enumerated() where (w == "-c" || w == "--config") && i + 1 < words.count {
            file = trimmed(words[i + 1], of: ["'", "\""])
        }
        if file == nil {
            var candidates: [String] = []
            if let home = environment["HOME"] {
                candidates.append((environment["XDG_CONFIG_HOME"] ?? home + "/.config") + "/i3status/config")
                candidates.append(home + "/.i3status.conf")
            }
            candidates.append((environment["XDG_CONFIG_DIRS"] ?? "/etc/xdg") + "/i3status/config")
            candidates.append("/etc/i3status.conf")
            file = candidates.first { SystemFiles.exists($0) }
        }
        guard let file, case .success(let bytes) = readConfigFile(file, limit: 1 << 20) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        for line in text.split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "=" })
            if words.count >= 2, words[0] == "output_format", trimmed(words[1], of: ["\""]) == "i3bar" {
                return nil
            }
        }
        return "note: i3status reads \(TerminalText.escape(file)), which does not set output_format = \"i3bar\" in its general section: "
            + "under sysstats-bar it would print plain text (add the line)"
    }
}
