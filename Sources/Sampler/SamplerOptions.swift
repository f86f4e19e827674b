import CLibc
import Bookmarks
import CommandOptions
import ProcFS
import SystemDirs

/// `sysstatsd`'s command line, parsed by hand: the sampler links no argument library.
public enum SamplerOptions {
    public enum Parsed: Equatable {
        case run(SamplerConfiguration)
        case help
        case version
    }

    /// What each option of the table is.
    public enum Flag: UInt8, Sendable {
        case interval, once, config, runtimeDir, dataDir, noHistory, procRoot, sysRoot, freedThreshold
        case disk, sensor, net, textfileDir, textfileInterval, exitWhenUnwatched, help, version
    }

    /// The command line: parsed by ``parse(bytes:base:)``, written out by `--help` and the
    /// manual's SYNOPSIS and OPTIONS (assets/man/sysstatsd.1, checked by a test).
    public static let table = CommandOptions(program: "sysstatsd", [
        CommandOption(Flag.interval, "--interval", value: "SEC", "seconds between samples, fractions allowed (default 1)"),
        CommandOption(Flag.once, "--once", "take two samples one interval apart, write one snapshot, exit"),
        CommandOption(Flag.config, "--config", value: "FILE", """
            the config file whose [sampler] table sets these defaults
            (default $XDG_CONFIG_HOME/sysstats/config.toml, else
            ~/.config/sysstats/config.toml; man sysstats-config); the flags win over it
            """,
                      manual: #"""
            The config file whose [sampler] table sets these defaults (default
            $XDG_CONFIG_HOME/sysstats/config.toml, else ~/.config/sysstats/config.toml;
            .BR sysstats\-config (5));
            the flags win over it.
            """#),
        CommandOption(Flag.runtimeDir, "--runtime-dir", value: "DIR", """
            where to write the snapshot
            (default $XDG_RUNTIME_DIR/sysstats, else /tmp/sysstats-$UID)
            """,
                      manual: #"""
            Where to write the snapshot (default $XDG_RUNTIME_DIR/sysstats, else
            /tmp/sysstats\-$UID). It must be a directory of this user's, mode 0700.
            """#),
        CommandOption(Flag.dataDir, "--data-dir", value: "DIR", """
            where to keep history.sqlite and read the bookmark rules
            (default $XDG_DATA_HOME/sysstats, else $HOME/.local/share/sysstats)
            """,
                      manual: #"""
            Where to keep history.sqlite and read the bookmark rules (default
            $XDG_DATA_HOME/sysstats, else $HOME/.local/share/sysstats).
            """#),
        CommandOption(Flag.noHistory, "--no-history", "write no history (--once never does)"),
        CommandOption(Flag.procRoot, "--proc-root", value: "DIR", "read /proc from DIR (tests, containers)"),
        CommandOption(Flag.sysRoot, "--sys-root", value: "DIR", "read /sys from DIR"),
        CommandOption(Flag.freedThreshold, "--freed-threshold", value: "MIB",
                      "report memory freed by an exit only from this much (default 4)"),
        CommandOption(Flag.disk, "--disk", value: "PATH", repeatable: true, """
            a mount point whose space to measure (repeatable, up to 8;
            default / unless --proc-root is given)
            """,
                      manual: #"""
            A mount point whose space to measure (repeatable, up to 8; default / unless
            \-\-proc\-root is given). The mounts, sensors and interfaces the renderers' blocks
            name are measured besides these.
            """#),
        CommandOption(Flag.sensor, "--sensor", value: "NAME", repeatable: true, """
            a temperature sensor: chip/label, chip or label, e.g.
            coretemp/Package id 0 (repeatable, up to 8; default the CPU package)
            """,
                      manual: #"""
            A temperature sensor: chip/label, chip or label (repeatable; default the CPU package).
            """#),
        CommandOption(Flag.net, "--net", value: "IFACE", repeatable: true,
                      "an interface to measure even if virtual (repeatable, up to 8)",
                      manual: #"""
            An interface to measure even if virtual (repeatable).
            """#),
        CommandOption(Flag.textfileDir, "--textfile-dir", value: "DIR", """
            also write DIR/sysstats.prom for node_exporter's textfile
            collector (Prometheus; see docs/fleet.md)
            """,
                      manual: #"""
            Also write DIR/sysstats.prom for node_exporter's textfile collector. DIR must be a
            directory of this user's (or root's) that neither group nor others may write.
            """#),
        CommandOption(Flag.textfileInterval, "--textfile-interval", value: "SEC",
                      "whole seconds between writes of sysstats.prom (default 15)"),
        CommandOption(Flag.exitWhenUnwatched, "--exit-when-unwatched", value: "SEC", """
            stop once no renderer (sysstats-bar) has been alive for SEC
            whole seconds, 1 to 3600 (sysstats-bar starts its sampler with
            60, so it ends with the session that ran the bar)
            """,
                      manual: #"""
            Stop once no renderer has been alive for SEC whole seconds (1 to 3600).
            .BR sysstats\-bar (1)
            starts the sampler it needs with 60, so that it ends with the session that ran the bar;
            one started by the systemd unit or by hand runs until stopped.
            """#),
        CommandOption(Flag.help, "--help", alias: "-h", inSynopsis: false, "show this help",
                      manual: #"""
            Show the usage and exit.
            """#),
        CommandOption(Flag.version, "--version", inSynopsis: false, "show the version",
                      manual: #"""
            Show the version and exit.
            """#),
    ])

    /// What `--help` prints: the usage, what the program does, each option.
    public static var usage: String {
        var text: [UInt8] = []
        table.writeUsage(into: &text)
        text.append(contentsOf: """

            Samples CPU, memory, load, batteries, processes, network, disks, temperatures,
            CPU frequency and GPUs every interval and writes a snapshot for status-bar renderers.


            """.utf8)
        table.writeOptions(into: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Parses the arguments after the program name. The error is one line for stderr.
    public static func parse(_ arguments: [String]) -> Result<Parsed, OptionsError> {
        parse(bytes: arguments.map { Array($0.utf8) })
    }

    /// Parses the arguments after the program name, each as its bytes (what
    /// `programArguments()` returns). The error is one line for stderr.
    ///
    /// Over bytes: comparing `String`s against each option name, and the strings
    /// `CommandLine.arguments` makes, ran standard-library code (string comparison, the
    /// arguments' one-time initialisation) that nothing else in the sampler runs; each
    /// such function kept a 64 KiB window of code pages resident (docs/performance-history.md).
    public static func parse(bytes arguments: [[UInt8]], base: SamplerConfiguration = SamplerConfiguration())
        -> Result<Parsed, OptionsError> {
        var config = base
        var stopped: Parsed?   // --help or --version: whatever follows is not looked at
        // The first of each repeatable flag replaces the config file's list.
        var givenDisks = false, givenSensors = false, givenInterfaces = false
        do throws(OptionsError) {
            try table.parse(arguments, failure: describe) { id, value throws(OptionsError) in
                guard let flag = Flag(rawValue: id) else { return true }
                // Every byte kept (ProcFS's pathString): a path that is not UTF-8 names its
                // own folder, not a repaired one; anything else shows the bytes in its error.
                let text = value.map { pathString(bytes: Array($0)) } ?? ""
                switch flag {
                case .help: stopped = .help; return false
                case .version: stopped = .version; return false
                case .once: config.once = true
                case .noHistory: config.history = false
                case .interval: config.intervalMs = try parseInterval(text).get()
                case .config: config.configPath = try directory(text, "--config")
                case .runtimeDir: config.runtimeDirectory = try directory(text, "--runtime-dir")
                case .dataDir: config.dataDirectory = try directory(text, "--data-dir")
                case .procRoot: config.procRoot = try directory(text, "--proc-root")
                case .sysRoot: config.sysRoot = try directory(text, "--sys-root")
                case .textfileDir: config.textfileDirectory = try directory(text, "--textfile-dir")
                case .exitWhenUnwatched: config.exitWhenUnwatchedSeconds = try wholeSeconds(text, "--exit-when-unwatched")
                case .textfileInterval: config.textfileIntervalSeconds = try wholeSeconds(text, "--textfile-interval")
                case .freedThreshold:
                    guard let mib = UInt64(text), mib <= 1 << 20 else {
                        throw OptionsError("--freed-threshold takes whole MiB (0 to 1048576), not '\(TerminalText.escape(text))'")
                    }
                    config.freedThresholdKiB = mib * 1024
                case .disk:
                    guard text.utf8.first == UInt8(ascii: "/"), (value?.count ?? 0) <= 64, !text.utf8.contains(0) else {
                        throw OptionsError("--disk takes an absolute path of at most 64 bytes, not '\(TerminalText.escape(text))'")
                    }
                    var disks = givenDisks ? config.disks ?? [] : []
                    givenDisks = true
                    guard disks.count < 8 else { throw OptionsError("--disk: at most 8 mount points") }
                    if !disks.contains(text) { disks.append(text) }
                    config.disks = disks
                case .sensor:
                    guard !text.isEmpty, !text.utf8.contains(0) else { throw OptionsError("--sensor needs a value") }
                    if !givenSensors { config.sensors = []; givenSensors = true }
                    guard config.sensors.count < 8 else { throw OptionsError("--sensor: at most 8 sensors") }
                    config.sensors.append(text)
                case .net:
                    guard !text.isEmpty, text.utf8.count <= 15, !text.utf8.contains(UInt8(ascii: "/")), !text.utf8.contains(0) else {
                        throw OptionsError("--net takes an interface name (at most 15 bytes, no '/'), not '\(TerminalText.escape(text))'")
                    }
                    if !givenInterfaces { config.interfaces = []; givenInterfaces = true }
                    guard config.interfaces.count < 8 else { throw OptionsError("--net: at most 8 interfaces") }
                    config.interfaces.append(text)
                }
                return true
            }
        } catch {
            return .failure(error)
        }
        return .success(stopped ?? .run(config))
    }

    /// The one line for a command line the table itself refuses. The name is the user's bytes
    /// (ESC, invalid UTF-8): escaped, as every argument echoed back is, so that the terminal
    /// shows it rather than obeys it.
    static func describe(_ error: CommandOptionError) -> OptionsError {
        switch error {
        case .unknown(let name): OptionsError("unknown option '\(TerminalText.escape(name))' (see sysstatsd --help)")
        case .missingValue(let name): OptionsError("\(String(decoding: name, as: UTF8.self)) needs a value")
        case .unexpectedValue(let name): OptionsError("\(String(decoding: name, as: UTF8.self)) takes no value")
        }
    }

    /// A directory or file value: not empty.
    static func directory(_ value: String, _ name: String) throws(OptionsError) -> String {
        guard !value.isEmpty else { throw OptionsError("\(name) needs a directory") }
        return value
    }

    /// A value of whole seconds, 1 to 3600 (--textfile-interval, --exit-when-unwatched).
    static func wholeSeconds(_ value: String, _ name: String) throws(OptionsError) -> UInt32 {
        guard let seconds = UInt32(value), seconds >= 1, seconds <= 3600 else {
            throw OptionsError("\(name) takes whole seconds from 1 to 3600, not '\(TerminalText.escape(value))'")
        }
        return seconds
    }

    /// Parses the arguments over the config file's `[sampler]` table: the file sets the
    /// defaults, the flags win. A missing file at the default place is no file; a file given
    /// with `--config` must be there. A bad file is an error (one line, `FILE:LINE:COL: reason`).
    public static func parseWithConfigFile(bytes arguments: [[UInt8]]) -> Result<Parsed, OptionsError> {
        let first = parse(bytes: arguments)
        guard case .success(.run(let flags)) = first else { return first }
        // Most machines have no config file: find that out over bytes, before any String is
        // made (String building at start keeps its code pages resident: docs/performance-history.md).
        if flags.configPath == nil && !defaultConfigFileExists() { return first }
        guard let path = flags.configPath ?? SamplerSettings.defaultPath() else { return first }
        let bytes: [UInt8]
        switch readConfigFile(path, limit: 65_536) {
        case .success(let b): bytes = b
        case .failure(let e):
            if e.isMissing && flags.configPath == nil { return first }
            return .failure(OptionsError("cannot read the config file \(TerminalText.escape(path)): \(e)"))
        }
        switch SamplerSettings.parse(bytes) {
        case .failure(let e): return .failure(OptionsError(e.describe(file: TerminalText.escape(path))))
        case .success(let settings):
            var base = SamplerConfiguration()
            base.apply(settings)
            return parse(bytes: arguments, base: base)
        }
    }

    /// Whether `$XDG_CONFIG_HOME/sysstats/config.toml` (else `$HOME/.config/…`) exists, by
    /// bytes and access(2).
    static func defaultConfigFileExists() -> Bool {
        var path: [UInt8] = []
        func appendEnvironment(_ name: StaticString) -> Bool {
            guard let value = name.withUTF8Buffer({ n in n.withMemoryRebound(to: CChar.self) { getenv($0.baseAddress!) } }),
                  value.pointee == 0x2F else { return false }   // "/": absolute only
            var p = value
            while p.pointee != 0 { path.append(UInt8(bitPattern: p.pointee)); p += 1 }
            return true
        }
        let tail: StaticString = "/sysstats/config.toml"
        if !appendEnvironment("XDG_CONFIG_HOME") {
            path.removeAll()
            guard appendEnvironment("HOME") else { return false }
            let config: StaticString = "/.config"
            config.withUTF8Buffer { path.append(contentsOf: $0) }
        }
        tail.withUTF8Buffer { path.append(contentsOf: $0) }
        path.append(0)
        return path.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { access($0, F_OK) == 0 }
        }
    }

    /// "1", "0.25", "2.5" → milliseconds; from 0.05 s to one hour.
    ///
    /// Over the UTF-8 bytes, and the error's text made only when it is needed: `split`,
    /// `Character.isNumber` and an interpolation run at every start would keep their
    /// standard-library code pages (and Unicode tables) resident for the sampler's life.
    public static func parseInterval(_ text: String) -> Result<UInt32, OptionsError> {
        func bad() -> Result<UInt32, OptionsError> {
            .failure(OptionsError("--interval takes seconds between 0.05 and 3600 (e.g. 1 or 0.25), not '\(TerminalText.escape(text))'"))
        }
        var whole: UInt32 = 0, wholeDigits = 0
        var fraction: UInt32 = 0, fractionDigits = 0, scale: UInt32 = 100
        var sawDot = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: "."), !sawDot {
                sawDot = true
            } else if byte >= 0x30, byte <= 0x39 {
                let digit = UInt32(byte - 0x30)
                if sawDot {
                    fractionDigits += 1
                    if fractionDigits <= 3 { fraction += digit * scale; scale /= 10 }
                } else {
                    wholeDigits += 1
                    guard wholeDigits <= 4 else { return bad() }
                    whole = whole * 10 + digit
                }
            } else {
                return bad()
            }
        }
        guard wholeDigits > 0 || fractionDigits > 0 else { return bad() }
        let ms = whole * 1000 + fraction
        guard ms >= 50, ms <= 3_600_000 else { return bad() }
        return .success(ms)
    }
}

/// A bad command line; `description` is the one-line message.
public struct OptionsError: Error, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
