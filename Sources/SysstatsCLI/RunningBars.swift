#if canImport(Glibc)
import Glibc
#endif
import ProcFS

/// The `sysstats-bar` processes running now, found by the files they leave in the runtime
/// directory's `wants/` folder (one per living bar, named by its pid), with their command
/// lines: `config check` says which of the file's settings a bar's flags override.
enum RunningBars {
    struct Bar: Equatable {
        let pid: Int32
        /// The arguments after the program's name.
        let arguments: [String]

        /// The config file it reads: `--config FILE`, else nil (the default place).
        var configPath: String? { value(of: "--config") }

        /// The value of `--flag VALUE` or `--flag=VALUE`, the last one given.
        func value(of flag: String) -> String? {
            var found: String?
            var i = 0
            while i < arguments.count {
                if arguments[i] == flag, i + 1 < arguments.count { found = arguments[i + 1]; i += 1 }
                else if arguments[i].hasPrefix(flag + "=") { found = String(arguments[i].dropFirst(flag.count + 1)) }
                i += 1
            }
            return found
        }

        func has(_ flag: String) -> Bool { value(of: flag) != nil }
    }

    /// The bars with a file in `<runtimeDirectory>/wants` whose process is a sysstats-bar;
    /// ordered by pid. Anything unreadable is passed over.
    static func list(runtimeDirectory: String, procRoot: String = "/proc") -> [Bar] {
        let names = SystemFiles.names(in: runtimeDirectory + "/wants") ?? []
        var bars: [Bar] = []
        for name in names {
            guard let pid = Int32(name), pid > 0,
                  let cmdline = SystemFiles.contents("\(procRoot)/\(pid)/cmdline", limit: 1 << 20), cmdline.count <= 1 << 20
            else { continue }
            let words = cmdline.split(separator: 0, omittingEmptySubsequences: false).map { pathString(bytes: Array($0)) }   // a bar's --config as its bytes
            guard let program = words.first, program.hasSuffix("sysstats-bar") else { continue }
            var arguments = Array(words.dropFirst())
            if arguments.last == "" { arguments.removeLast() }
            bars.append(Bar(pid: pid, arguments: arguments))
        }
        return bars.sorted { $0.pid < $1.pid }
    }

    /// One note per running bar that reads `configFile` and overrides some of it with flags.
    /// `defaultPath`: where a bar without `--config` reads.
    static func overrideNotes(configFile: String, defaultPath: String?, bars: [Bar]) -> [String] {
        let checked = canonical(configFile)
        var notes: [String] = []
        for bar in bars {
            guard let read = bar.configPath ?? defaultPath, canonical(read) == checked else { continue }
            var overrides: [String] = []
            if bar.has("--blocks") { overrides.append("--blocks replaces the file's [[block]] list, so edits to it change nothing") }
            if bar.has("--format") { overrides.append("--format sets formats where a block has none of its own") }
            guard !overrides.isEmpty else { continue }
            notes.append("note: the running sysstats-bar (pid \(bar.pid)) was started with flags: " + overrides.joined(separator: "; "))
        }
        return notes
    }

    private static func canonical(_ path: String) -> String {
        guard let resolved = realpath(cPath(path), nil) else { return path }
        defer { free(resolved) }
        return pathString(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
    }
}
