// `sysstats config import i3status|i3status-rust|waybar|polybar [FILE]`: the file read where
// its program reads it, made into config.toml (ConfigImport), checked as the bar loads it.
import BarCore
import Glibc
import Bookmarks
import ConfigImport
import ProcFS
import SystemDirs
import TOML

extension ConfigCommands {
    /// The largest file an import reads (i3status-rust's TOML: the TOML reader's own limit).
    static let importLimit = 262_144

    /// Where `source` itself looks for its config, the first that exists; nil if none. `etc`
    /// is the system's folder (a test's own).
    static func defaultPath(of source: ImportSource, environment: [String: String] = SystemFiles.environment(), etc: String = "/etc") -> String? {
        guard let home = environment["HOME"] else { return nil }
        let config = environment["XDG_CONFIG_HOME"] ?? home + "/.config"
        let systemDirs = (environment["XDG_CONFIG_DIRS"] ?? etc + "/xdg").split(separator: ":").map(String.init)
        var candidates: [String]
        switch source {
        case .i3status:
            candidates = [config + "/i3status/config", home + "/.i3status.conf"] + systemDirs.map { $0 + "/i3status/config" } + [etc + "/i3status.conf"]
        case .i3statusRust:
            candidates = [config + "/i3status-rust/config.toml"] + systemDirs.map { $0 + "/i3status-rust/config.toml" }
        case .waybar:
            let names = ["/waybar/config", "/waybar/config.jsonc"]
            candidates = names.map { config + $0 } + names.map { home + "/.config" + $0 } + names.map { home + $0 }
                + systemDirs.flatMap { d in names.map { d + $0 } }
        case .polybar:
            candidates = [config + "/polybar/config.ini", config + "/polybar/config"]
                + systemDirs.map { $0 + "/polybar/config.ini" } + [etc + "/polybar/config.ini"]
        }
        return candidates.first { SystemFiles.exists($0) }
    }

    /// The import of `path`: config.toml on stdout, one line per thing not carried over and a
    /// summary on stderr; status 1 for a file the program would refuse, or with `strict` when
    /// something was not carried over.
    static func importBar(_ source: ImportSource, path: String?, bar: String? = nil, strict: Bool = false) -> CommandOutput {
        guard let path else {
            return CommandOutput(stderr: ["sysstats: no \(source.rawValue) config found where \(source.rawValue) looks for one; name the file"], status: 1)
        }
        let shown = TerminalText.escape(path)
        if path.unicodeScalars.contains("\u{FFFD}") {
            return CommandOutput(stderr: ["\(shown): the file's name is not valid UTF-8, so it cannot be named here: rename it, or link to it from a name that is"], status: 1)
        }
        let bytes: [UInt8]
        switch readConfigFile(path, limit: importLimit) {
        case .success(let b): bytes = b
        case .failure(let e): return CommandOutput(stderr: ["\(shown): \(e)"], status: 1)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        var imported: ImportedConfig
        do throws(ImportError) {
            imported = try ConfigImporter.convert(text, from: source, bar: bar, include: { includePath in
                let resolved = resolveIncluded(includePath, relativeTo: path)
                guard case .success(let b) = readConfigFile(resolved, limit: importLimit) else { return nil }
                return String(decoding: b, as: UTF8.self)
            })
        } catch {
            return CommandOutput(stderr: ["\(shown):\(error.line):\(error.column): \(TerminalText.escape(error.reason))"], status: 1)
        }
        // A value this machine's bar refuses (a time zone it lacks, a path it will not take)
        // is taken out and named; the rest of the import stands.
        var toml = ""
        for attempt in 0... {
            let (text, origins) = imported.tomlWithOrigins(shownFile: path)
            toml = text
            guard let problem = loadProblem(Array(toml.utf8)) else { break }
            let origin = problem.line >= 1 && problem.line <= origins.count ? origins[problem.line - 1] : .none
            if attempt >= 64 || !imported.remove(origin, because: problem.reason) {
                return CommandOutput(stderr: ["sysstats: the import of \(shown) does not load (config.toml:\(problem.line): \(problem.reason)): please report this with the file"], status: 1)
            }
        }
        var result = toml
        while result.hasSuffix("\n") { result.removeLast() }
        let summary = imported.summaryLines(shownFile: path).map { TerminalText.escape($0) }
        return CommandOutput(stdout: [result], stderr: summary, status: strict && imported.lostSomething ? 1 : 0)
    }

    /// Why `bytes` would not load as config.toml, at which line, or nil when it loads (what
    /// `config check` says).
    static func loadProblem(_ bytes: [UInt8]) -> (line: Int, reason: String)? {
        let document: TOMLDocument
        do throws(TOMLError) { document = try TOMLDocument.parse(bytes) } catch {
            return (error.line, String(describing: error.reason.message))
        }
        do throws(ConfigError) { _ = try BarConfig.parse(document) } catch {
            return (error.line, String(decoding: error.reason, as: UTF8.self))
        }
        do throws(SettingsError) { _ = try SamplerSettings.parse(document) } catch {
            return (error.line, error.reason)
        }
        return nil
    }

    /// `--write`: the imported text into the config file, the file there kept as FILE.bak first.
    static func writeImported(_ text: String, summary: [String], environment: [String: String] = SystemFiles.environment()) -> CommandOutput {
        guard let target = SamplerSettings.defaultPath(xdgConfigHome: environment["XDG_CONFIG_HOME"], home: environment["HOME"]) else {
            return CommandOutput(stderr: ["sysstats: no config file: neither $XDG_CONFIG_HOME nor $HOME is set"], status: 1)
        }
        let shown = TerminalText.escape(target)
        var lines = summary
        switch readConfigFile(target, limit: 65_536) {
        case .success(let old):
            if let e = writeFileAtomically(old, to: target + ".bak", mode: 0o600) {
                return CommandOutput(stderr: summary + ["sysstats: \(e); \(shown) is left as it was"], status: 1)
            }
            lines.append("kept the old \(shown) as \(shown).bak")
        case .failure(let e) where !e.isMissing:
            return CommandOutput(stderr: summary + ["\(shown): \(e); it is left as it was"], status: 1)
        case .failure:
            _ = makeDirectories(folderOf(target))
        }
        if let e = writeFileAtomically(Array((text + "\n").utf8), to: target, mode: 0o600) {
            return CommandOutput(stderr: lines + ["sysstats: \(e)"], status: 1)
        }
        return CommandOutput(stderr: lines + ["wrote \(shown); the running bar reads it at once"])
    }
}

/// `mkdir -p` for the config's folder (mode 0700, as the user's own); false when one could not be made.
@discardableResult
func makeDirectories(_ path: String) -> Bool {
    var made = ""
    for part in path.split(separator: "/", omittingEmptySubsequences: true) {
        made += "/" + part
        if mkdir(cPath(made), 0o700) != 0 && errno != EEXIST { return false }
    }
    return true
}
