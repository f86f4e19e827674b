// `sysstats config check [FILE]` and `sysstats config example`: the same checks the bar
// (BarCore's BarConfig) and the sampler (SystemDirs' SamplerSettings) make when they load
// the file, so a file that passes here loads there.
import ArgumentParser
import BarCore
import Bookmarks
import ProcFS
import SystemDirs
import TOML

enum ConfigCommands {
    /// Checks the file at `path` (nil: the default place). One line per problem on stderr,
    /// `FILE:LINE:COL: reason`, status 1; `FILE: ok` and status 0.
    static func check(path: String?) -> CommandOutput {
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
        do throws(ConfigError) {
            _ = try BarConfig.parse(document)
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
        if problems.isEmpty { return CommandOutput(stdout: ["\(shown): ok"], stderr: [], status: 0) }
        return CommandOutput(stdout: [], stderr: problems, status: 1)
    }
}

struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Check the config file, or print one with the built-in defaults.",
        subcommands: [ConfigCheck.self, ConfigExample.self])
}

struct ConfigCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a config file as sysstats-bar and sysstatsd load it.",
        discussion: """
            Without FILE, $XDG_CONFIG_HOME/sysstats/config.toml (else ~/.config/sysstats/config.toml).
            Prints FILE: ok (status 0), or one FILE:LINE:COL: reason line per problem (status 1).
            Every key and what it does: man sysstats-config.
            """)
    @Argument(help: ArgumentHelp("The file.", valueName: "file"))
    var file: String?

    func run() throws { emit(ConfigCommands.check(path: file)) }
}

struct ConfigExample: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "example",
        abstract: "Print a commented config file equal to the built-in defaults.")

    func run() throws { emit(CommandOutput(stdout: [ExampleConfig.text], stderr: [], status: 0)) }
}
