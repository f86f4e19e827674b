/// `sysstatsd`'s command line, parsed by hand: the sampler links no argument library.
public enum SamplerOptions {
    public enum Parsed: Equatable {
        case run(SamplerConfiguration)
        case help
        case version
    }

    public static let usage = """
        usage: sysstatsd [--interval SEC] [--once] [--runtime-dir DIR]
                         [--data-dir DIR | --no-history]
                         [--proc-root DIR] [--sys-root DIR] [--freed-threshold MIB]

        Samples CPU, memory, load, batteries and processes every interval and
        writes a snapshot for status-bar renderers.

          --interval SEC        seconds between samples, fractions allowed (default 1)
          --once                take two samples one interval apart, write one snapshot, exit
          --runtime-dir DIR     where to write the snapshot
                                (default $XDG_RUNTIME_DIR/sysstats, else /tmp/sysstats-$UID)
          --data-dir DIR        where to keep history.sqlite and read the bookmark rules
                                (default $XDG_DATA_HOME/sysstats, else $HOME/.local/share/sysstats)
          --no-history          write no history (--once never does)
          --proc-root DIR       read /proc from DIR (tests, containers)
          --sys-root DIR        read /sys from DIR
          --freed-threshold MIB report memory freed by an exit only from this much (default 4)
          -h, --help            show this help
          --version             show the version
        """

    /// Parses the arguments after the program name. The error is one line for stderr.
    public static func parse(_ arguments: [String]) -> Result<Parsed, OptionsError> {
        var config = SamplerConfiguration()
        var i = 0
        while i < arguments.count {
            var flag = arguments[i]
            var inlineValue: String?
            if flag.hasPrefix("--"), let eq = flag.firstIndex(of: "=") {
                inlineValue = String(flag[flag.index(after: eq)...])
                flag = String(flag[..<eq])
            }
            func value() -> Result<String, OptionsError> {
                if let v = inlineValue { return .success(v) }
                i += 1
                guard i < arguments.count else { return .failure(OptionsError("\(flag) needs a value")) }
                return .success(arguments[i])
            }
            switch flag {
            case "-h", "--help": return .success(.help)
            case "--version": return .success(.version)
            case "--once": config.once = true
            case "--no-history": config.history = false
            case "--interval":
                switch value().flatMap(parseInterval) {
                case .success(let ms): config.intervalMs = ms
                case .failure(let e): return .failure(e)
                }
            case "--runtime-dir", "--data-dir", "--proc-root", "--sys-root":
                switch value() {
                case .failure(let e): return .failure(e)
                case .success(let v):
                    guard !v.isEmpty else { return .failure(OptionsError("\(flag) needs a directory")) }
                    if flag == "--runtime-dir" { config.runtimeDirectory = v }
                    else if flag == "--data-dir" { config.dataDirectory = v }
                    else if flag == "--proc-root" { config.procRoot = v }
                    else { config.sysRoot = v }
                }
            case "--freed-threshold":
                switch value() {
                case .failure(let e): return .failure(e)
                case .success(let v):
                    guard let mib = UInt64(v), mib <= 1 << 20 else {
                        return .failure(OptionsError("--freed-threshold takes whole MiB (0 to 1048576), not '\(v)'"))
                    }
                    config.freedThresholdKiB = mib * 1024
                }
            default:
                return .failure(OptionsError("unknown option '\(flag)' (see sysstatsd --help)"))
            }
            i += 1
        }
        return .success(.run(config))
    }

    /// "1", "0.25", "2.5" → milliseconds; from 0.05 s to one hour.
    public static func parseInterval(_ text: String) -> Result<UInt32, OptionsError> {
        let bad = OptionsError("--interval takes seconds between 0.05 and 3600 (e.g. 1 or 0.25), not '\(text)'")
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let wholePart = parts.first, wholePart.count <= 4, wholePart.allSatisfy({ $0.isASCII && $0.isNumber }) else { return .failure(bad) }
        var ms = (UInt32(wholePart) ?? 0) * 1000
        if wholePart.isEmpty && parts.count == 1 { return .failure(bad) }
        if parts.count == 2 {
            let fraction = parts[1]
            guard !fraction.isEmpty || !wholePart.isEmpty, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return .failure(bad) }
            var scale: UInt32 = 100
            for digit in fraction.prefix(3) {
                ms += UInt32(digit.asciiValue! - 48) * scale
                scale /= 10
            }
        }
        guard ms >= 50, ms <= 3_600_000 else { return .failure(bad) }
        return .success(ms)
    }
}

/// A bad command line; `description` is the one-line message.
public struct OptionsError: Error, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
