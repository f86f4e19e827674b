#if canImport(Glibc)
import Glibc
#endif
import Bookmarks
import ProcFS
import SystemDirs

/// `sysstatsd`'s command line, parsed by hand: the sampler links no argument library.
public enum SamplerOptions {
    public enum Parsed: Equatable {
        case run(SamplerConfiguration)
        case help
        case version
    }

    public static let usage = """
        usage: sysstatsd [--interval SEC] [--once] [--runtime-dir DIR] [--config FILE]
                         [--data-dir DIR | --no-history]
                         [--proc-root DIR] [--sys-root DIR] [--freed-threshold MIB]
                         [--disk PATH]... [--sensor NAME]... [--net IFACE]...
                         [--textfile-dir DIR [--textfile-interval SEC]] [--exit-when-unwatched SEC]

        Samples CPU, memory, load, batteries, processes, network, disks, temperatures
        and CPU frequency every interval and writes a snapshot for status-bar renderers.

          --interval SEC        seconds between samples, fractions allowed (default 1)
          --once                take two samples one interval apart, write one snapshot, exit
          --config FILE         the config file whose [sampler] table sets these defaults
                                (default $XDG_CONFIG_HOME/sysstats/config.toml, else
                                ~/.config/sysstats/config.toml); the flags win over it
          --runtime-dir DIR     where to write the snapshot
                                (default $XDG_RUNTIME_DIR/sysstats, else /tmp/sysstats-$UID)
          --data-dir DIR        where to keep history.sqlite and read the bookmark rules
                                (default $XDG_DATA_HOME/sysstats, else $HOME/.local/share/sysstats)
          --no-history          write no history (--once never does)
          --proc-root DIR       read /proc from DIR (tests, containers)
          --sys-root DIR        read /sys from DIR
          --freed-threshold MIB report memory freed by an exit only from this much (default 4)
          --disk PATH           a mount point whose space to measure (repeatable, up to 8;
                                default / unless --proc-root is given)
          --sensor NAME         a temperature sensor: chip/label, chip or label, e.g.
                                coretemp/Package id 0 (repeatable; default the CPU package)
          --net IFACE           an interface to measure even if virtual (repeatable)
          --textfile-dir DIR    also write DIR/sysstats.prom for node_exporter's textfile
                                collector (Prometheus; see docs/fleet.md)
          --textfile-interval SEC
                                whole seconds between writes of sysstats.prom (default 15)
          --exit-when-unwatched SEC
                                stop once no renderer (sysstats-bar) has been alive for SEC
                                whole seconds, 1 to 3600 (sysstats-bar starts its sampler with
                                60, so it ends with the session that ran the bar)
          -h, --help            show this help
          --version             show the version
        """

    /// Parses the arguments after the program name. The error is one line for stderr.
    public static func parse(_ arguments: [String]) -> Result<Parsed, OptionsError> {
        parse(bytes: arguments.map { Array($0.utf8) })
    }

    /// Parses the arguments after the program name, each as its bytes (what
    /// ``processArguments()`` returns). The error is one line for stderr.
    ///
    /// Over bytes: comparing `String`s against each option name, and the strings
    /// `CommandLine.arguments` makes, ran standard-library code (string comparison, the
    /// arguments' one-time initialisation) that nothing else in the sampler runs; each
    /// such function kept a 64 KiB window of code pages resident (docs/performance-history.md).
    public static func parse(bytes arguments: [[UInt8]], base: SamplerConfiguration = SamplerConfiguration())
        -> Result<Parsed, OptionsError> {
        var config = base
        // The first of each repeatable flag replaces the config file's list.
        var givenDisks = false, givenSensors = false, givenInterfaces = false
        var i = 0
        while i < arguments.count {
            var flag = arguments[i]
            var inlineValue: [UInt8]?
            if flag.count > 2, flag[0] == UInt8(ascii: "-"), flag[1] == UInt8(ascii: "-"),
               let eq = flag.firstIndex(of: UInt8(ascii: "=")) {
                inlineValue = Array(flag[(eq + 1)...])
                flag.removeSubrange(eq...)
            }
            func name() -> String { String(decoding: flag, as: UTF8.self) }
            func value() -> Result<String, OptionsError> {
                if let v = inlineValue { return .success(String(decoding: v, as: UTF8.self)) }
                i += 1
                guard i < arguments.count else { return .failure(OptionsError("\(name()) needs a value")) }
                return .success(String(decoding: arguments[i], as: UTF8.self))
            }
            /// A value of whole seconds, 1 to 3600 (--textfile-interval, --exit-when-unwatched).
            func wholeSeconds(_ set: (inout SamplerConfiguration, UInt32) -> Void) -> OptionsError? {
                switch value() {
                case .failure(let e): return e
                case .success(let v):
                    guard let seconds = UInt32(v), seconds >= 1, seconds <= 3600 else {
                        return OptionsError("\(name()) takes whole seconds from 1 to 3600, not '\(v)'")
                    }
                    set(&config, seconds)
                    return nil
                }
            }
            func directory(_ set: (inout SamplerConfiguration, String) -> Void) -> OptionsError? {
                switch value() {
                case .failure(let e): return e
                case .success(let v):
                    guard !v.isEmpty else { return OptionsError("\(name()) needs a directory") }
                    set(&config, v)
                    return nil
                }
            }
            if flag.equals("-h") || flag.equals("--help") {
                return .success(.help)
            } else if flag.equals("--version") {
                return .success(.version)
            } else if flag.equals("--once") {
                config.once = true
            } else if flag.equals("--no-history") {
                config.history = false
            } else if flag.equals("--interval") {
                switch value().flatMap(parseInterval) {
                case .success(let ms): config.intervalMs = ms
                case .failure(let e): return .failure(e)
                }
            } else if flag.equals("--config") {
                if let e = directory({ $0.configPath = $1 }) { return .failure(e) }
            } else if flag.equals("--runtime-dir") {
                if let e = directory({ $0.runtimeDirectory = $1 }) { return .failure(e) }
            } else if flag.equals("--data-dir") {
                if let e = directory({ $0.dataDirectory = $1 }) { return .failure(e) }
            } else if flag.equals("--proc-root") {
                if let e = directory({ $0.procRoot = $1 }) { return .failure(e) }
            } else if flag.equals("--sys-root") {
                if let e = directory({ $0.sysRoot = $1 }) { return .failure(e) }
            } else if flag.equals("--textfile-dir") {
                if let e = directory({ $0.textfileDirectory = $1 }) { return .failure(e) }
            } else if flag.equals("--exit-when-unwatched") {
                if let e = wholeSeconds({ $0.exitWhenUnwatchedSeconds = $1 }) { return .failure(e) }
            } else if flag.equals("--textfile-interval") {
                if let e = wholeSeconds({ $0.textfileIntervalSeconds = $1 }) { return .failure(e) }
            } else if flag.equals("--disk") || flag.equals("--sensor") || flag.equals("--net") {
                let which = name()
                switch value() {
                case .failure(let e): return .failure(e)
                case .success(let v):
                    guard !v.isEmpty, !v.utf8.contains(0) else { return .failure(OptionsError("\(which) needs a value")) }
                    if which == "--disk" {
                        guard v.utf8.first == UInt8(ascii: "/"), v.utf8.count <= 64 else {
                            return .failure(OptionsError("--disk takes an absolute path of at most 64 bytes, not '\(v)'"))
                        }
                        var disks = givenDisks ? config.disks ?? [] : []
                        givenDisks = true
                        guard disks.count < 8 else { return .failure(OptionsError("--disk: at most 8 mount points")) }
                        if !disks.contains(v) { disks.append(v) }
                        config.disks = disks
                    } else if which == "--sensor" {
                        if !givenSensors { config.sensors = []; givenSensors = true }
                        guard config.sensors.count < 8 else { return .failure(OptionsError("--sensor: at most 8 sensors")) }
                        config.sensors.append(v)
                    } else {
                        guard v.utf8.count <= 15, !v.utf8.contains(UInt8(ascii: "/")) else {
                            return .failure(OptionsError("--net takes an interface name (at most 15 bytes, no '/'), not '\(v)'"))
                        }
                        if !givenInterfaces { config.interfaces = []; givenInterfaces = true }
                        guard config.interfaces.count < 8 else { return .failure(OptionsError("--net: at most 8 interfaces")) }
                        config.interfaces.append(v)
                    }
                }
            } else if flag.equals("--freed-threshold") {
                switch value() {
                case .failure(let e): return .failure(e)
                case .success(let v):
                    guard let mib = UInt64(v), mib <= 1 << 20 else {
                        return .failure(OptionsError("--freed-threshold takes whole MiB (0 to 1048576), not '\(v)'"))
                    }
                    config.freedThresholdKiB = mib * 1024
                }
            } else {
                return .failure(OptionsError("unknown option '\(name())' (see sysstatsd --help)"))
            }
            i += 1
        }
        return .success(.run(config))
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
            .failure(OptionsError("--interval takes seconds between 0.05 and 3600 (e.g. 1 or 0.25), not '\(text)'"))
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

extension Array where Element == UInt8 {
    /// Whether these bytes are exactly `literal`'s UTF-8.
    fileprivate func equals(_ literal: StaticString) -> Bool {
        guard count == literal.utf8CodeUnitCount else { return false }
        let other = literal.utf8Start
        for i in 0..<count where self[i] != other[i] { return false }
        return true
    }
}
