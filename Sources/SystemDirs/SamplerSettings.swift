// The sampler's part of config.toml: the [sampler] table (docs/configuration.md). The
// sampler and `sysstats config check` read it with the same code; the bar's part
// ([theme], [[block]]) is BarCore's.

import CLibc
import ProcFS
import TOML

/// What `[sampler]` says; nil for a key the file does not set.
public struct SamplerSettings: Equatable, Sendable {
    public var intervalMs: UInt32?
    public var history: Bool?
    public var freedThresholdKiB: UInt64?
    public var disks: [String]?
    public var sensors: [String]?
    public var interfaces: [String]?
    /// Units of the cgroup v2 tree always measured and kept in the units part, by name.
    public var units: [String]?
    /// `unit_history`: the units part measured every sample for `history --units`.
    public var unitHistory: Bool?
    /// `textfile_dir`: an absolute directory for `sysstats.prom` (docs/fleet.md).
    public var textfileDirectory: String?
    /// `textfile_interval`: whole seconds, 1 to 3600.
    public var textfileIntervalSeconds: UInt32?
    public init() {}

    /// The config file: `$XDG_CONFIG_HOME/sysstats/config.toml` (an absolute XDG_CONFIG_HOME),
    /// else `$HOME/.config/sysstats/config.toml`; nil without either.
    public static func defaultPath(xdgConfigHome: String? = environmentValue("XDG_CONFIG_HOME"),
                                   home: String? = environmentValue("HOME")) -> String? {
        if let xdg = xdgConfigHome, xdg.utf8.first == UInt8(ascii: "/") { return xdg + "/sysstats/config.toml" }
        if let home, home.utf8.first == UInt8(ascii: "/") { return home + "/.config/sysstats/config.toml" }
        return nil
    }

    /// Parses `[sampler]` of a whole file's bytes. Other tables are not the sampler's concern.
    public static func parse(_ bytes: [UInt8]) -> Result<SamplerSettings, SettingsError> {
        let document: TOMLDocument
        do throws(TOMLError) {
            document = try TOMLDocument.parse(bytes)
        } catch {
            return .failure(SettingsError(line: error.line, column: error.column, reason: "\(error.reason.message)"))
        }
        do throws(SettingsError) {
            return .success(try parse(document))
        } catch {
            return .failure(error)
        }
    }

    /// Checks `[sampler]` of a parsed document.
    public static func parse(_ document: TOMLDocument) throws(SettingsError) -> SamplerSettings {
        var settings = SamplerSettings()
        guard let table = document.root["sampler"] else { return settings }
        guard let entries = table.table else { throw SettingsError(table, "[sampler] must be a table") }
        for entry in entries {
            let key = String(decoding: entry.key, as: UTF8.self)
            switch key {
            case "interval":
                let seconds: Double
                if let n = entry.integer { seconds = Double(n) } else if let f = entry.float { seconds = f } else {
                    throw SettingsError(entry, "expected seconds (a number), found \(entry.kind.name)")
                }
                guard seconds >= 0.05, seconds <= 3600 else { throw SettingsError(entry, "interval is 0.05 to 3600 seconds") }
                settings.intervalMs = UInt32((seconds * 1000).rounded())
            case "history":
                guard let b = entry.bool else { throw SettingsError(entry, "expected true or false, found \(entry.kind.name)") }
                settings.history = b
            case "freed_threshold":
                guard let n = entry.integer else { throw SettingsError(entry, "expected whole MiB, found \(entry.kind.name)") }
                guard n >= 0, n <= 1 << 20 else { throw SettingsError(entry, "freed_threshold is 0 to 1048576 MiB") }
                settings.freedThresholdKiB = UInt64(n) * 1024
            case "disks":
                settings.disks = try strings(entry, maximumCount: 8) { (path, value) throws(SettingsError) in
                    guard path.utf8.first == UInt8(ascii: "/"), path.utf8.count <= 64 else {
                        throw SettingsError(value, "a disk is an absolute mount point of at most 64 bytes")
                    }
                }
            case "sensors":
                settings.sensors = try strings(entry, maximumCount: 8) { (name, value) throws(SettingsError) in
                    guard !name.isEmpty, name.utf8.count <= 96 else { throw SettingsError(value, "a sensor name is 1 to 96 bytes") }
                }
            case "interfaces":
                settings.interfaces = try strings(entry, maximumCount: 8) { (name, value) throws(SettingsError) in
                    guard !name.isEmpty, name.utf8.count <= 15, !name.utf8.contains(UInt8(ascii: "/")) else {
                        throw SettingsError(value, "an interface name is 1 to 15 bytes without '/'")
                    }
                }
            case "units":
                settings.units = try strings(entry, maximumCount: 8) { (name, value) throws(SettingsError) in
                    guard !name.isEmpty, name.utf8.count <= 64 else { throw SettingsError(value, "a unit's name is 1 to 64 bytes") }
                }
            case "unit_history":
                guard let b = entry.bool else { throw SettingsError(entry, "expected true or false, found \(entry.kind.name)") }
                settings.unitHistory = b
            case "textfile_dir":
                guard let path = entry.string else { throw SettingsError(entry, "expected a directory (a string), found \(entry.kind.name)") }
                guard path.first == UInt8(ascii: "/"), !path.contains(0), path.count <= 4096 else {
                    throw SettingsError(entry, "textfile_dir is an absolute path")
                }
                settings.textfileDirectory = pathString(bytes: path)   // as the command line's
            case "textfile_interval":
                guard let n = entry.integer else { throw SettingsError(entry, "expected whole seconds, found \(entry.kind.name)") }
                guard n >= 1, n <= 3600 else { throw SettingsError(entry, "textfile_interval is 1 to 3600 seconds") }
                settings.textfileIntervalSeconds = UInt32(n)
            default:
                let known: [StaticString] = ["interval", "history", "freed_threshold", "disks", "sensors", "interfaces",
                                             "units", "unit_history", "textfile_dir", "textfile_interval"]
                if let near = nearestKey(entry.key, known) {
                    throw SettingsError(entry, atKey: true, "unknown key \(quoted(entry.key)); did you mean \"\(near)\"?")
                }
                throw SettingsError(entry, atKey: true,
                                    "unknown key \(quoted(entry.key)) in [sampler] (interval, history, freed_threshold, disks, sensors, interfaces, units, unit_history, textfile_dir, textfile_interval)")
            }
        }
        return settings
    }

    static func strings(_ value: TOMLValue, maximumCount: Int,
                        _ check: (String, TOMLValue) throws(SettingsError) -> Void) throws(SettingsError) -> [String] {
        guard let array = value.array else { throw SettingsError(value, "expected an array of strings, found \(value.kind.name)") }
        guard array.count <= maximumCount else { throw SettingsError(value, "at most \(maximumCount) entries") }
        var out: [String] = []
        for element in array {
            guard let bytes = element.string else { throw SettingsError(element, "expected a string, found \(element.kind.name)") }
            guard !bytes.contains(0) else { throw SettingsError(element, "a name must not contain NUL") }
            let text = String(decoding: bytes, as: UTF8.self)
            try check(text, element)
            if !out.contains(text) { out.append(text) }
        }
        return out
    }
}

/// What is wrong with `[sampler]`, and where.
public struct SettingsError: Error, Equatable, Sendable {
    public var line: Int
    public var column: Int
    public var reason: String

    public init(line: Int, column: Int, reason: String) {
        self.line = line; self.column = column; self.reason = reason
    }

    init(_ value: TOMLValue, atKey: Bool = false, _ reason: String) {
        line = atKey ? value.keyLine : value.line
        column = atKey ? value.keyColumn : value.column
        self.reason = reason
    }

    /// `FILE:LINE:COL: reason`.
    public func describe(file: String) -> String { "\(file):\(line):\(column): \(reason)" }
}

/// A key from the file in quotes, control characters as `?`.
func quoted(_ bytes: ArraySlice<UInt8>) -> String {
    "\"" + String(decoding: bytes.prefix(64).map { $0 < 0x20 || $0 == 0x7F || $0 == 0x22 || $0 == 0x5C ? UInt8(ascii: "?") : $0 },
                  as: UTF8.self) + "\""
}
