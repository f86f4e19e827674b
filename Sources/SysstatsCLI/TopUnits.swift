#if canImport(Glibc)
import Glibc
#endif
import Bookmarks
import ProcFS

/// `sysstats top --units`: the units of the cgroup v2 tree (apps, services, containers,
/// sessions) by CPU or memory, from the kernel's own counters: what a unit's short-lived
/// processes used counts too.
public enum TopUnits {
    /// One unit as two reads, `elapsedNs` apart, saw it.
    public struct Row: Equatable, Sendable {
        public var path: String
        public var kind: UnitKind
        public var name: String
        /// Whether a bookmark rule gave ``name``.
        public var bookmarked = false
        /// CPU over the interval, hundredths of a percent of one core; nil: not counted.
        public var cpuPermyriad: UInt64?
        public var memoryBytes: UInt64?
        public var anonBytes: UInt64?
        public var fileBytes: UInt64?
        /// Bytes read and written per second over the interval.
        public var readPerSecond: UInt64?
        public var writtenPerSecond: UInt64?
        public var tasks: UInt64?
        /// PSI `some avg10`, hundredths of a percent.
        public var cpuPressure: UInt64?
        public var memoryPressure: UInt64?
        public var ioPressure: UInt64?
    }

    /// The rows of the units in `after`, with rates from the same units in `before`. Names:
    /// a user's bookmark rule first (matched as for a process, ``UnitNames/bookmarkName(of:)``
    /// as its name and the unit's as its command line), then the app's desktop file, then an
    /// imported or built-in rule, then the unit's own name.
    public static func rows(before: [UnitCounters], after: [UnitCounters], elapsedNs: UInt64,
                            desktopName: (String) -> String? = { _ in nil }, resolver: NameResolver? = nil) -> [Row] {
        var earlier: [[UInt8]: UnitCounters] = [:]
        for c in before { earlier[c.path] = c }
        return after.map { c in
            let unit = String(decoding: c.unitName, as: UTF8.self)
            let ruled = resolver.flatMap { bookmarked(unit, $0) }
            // The desktop file is read once, and not at all where the user's rule names the unit.
            var desktop: String?
            var (kind, name) = UnitNames.name(of: unit) { id in
                desktop = ruled?.user == true ? nil : desktopName(id)
                return desktop
            }
            let named = ruled.map { $0.user || desktop == nil } ?? false
            if named, let ruled { name = ruled.name }
            let old = earlier[c.path]
            func rate(_ now: UInt64?, _ then: UInt64?, scale: UInt64) -> UInt64? {
                guard let now, let then, elapsedNs > 0, now >= then else { return nil }
                let (high, low) = (now - then).multipliedFullWidth(by: scale)
                guard high < elapsedNs else { return .max }
                return elapsedNs.dividingFullWidth((high, low)).quotient
            }
            return Row(path: String(decoding: c.path, as: UTF8.self), kind: kind, name: name,
                       bookmarked: named,
                       // usage_usec over ns: percent of one core in hundredths is Δµs × 10⁷ / Δns.
                       cpuPermyriad: rate(c.cpuUsec, old?.cpuUsec, scale: 10_000_000),
                       memoryBytes: c.memoryBytes, anonBytes: c.anonBytes, fileBytes: c.fileBytes,
                       readPerSecond: rate(c.readBytes, old?.readBytes, scale: 1_000_000_000),
                       writtenPerSecond: rate(c.writtenBytes, old?.writtenBytes, scale: 1_000_000_000),
                       tasks: c.tasks, cpuPressure: c.cpuPressure, memoryPressure: c.memoryPressure, ioPressure: c.ioPressure)
        }
    }

    /// The name a rule gives `unit`, and whether the rule is the user's own; nil when none matches.
    static func bookmarked(_ unit: String, _ resolver: NameResolver) -> (name: String, user: Bool)? {
        guard let name = UnitNames.bookmarkName(of: unit) else { return nil }
        let key = Array(name.utf8), line = Array(UnitNames.unescape(unit).utf8)
        var out: [UInt8] = []
        let found = key.withUnsafeBytes { k in line.withUnsafeBytes { l in resolver.resolveRule(comm: k, executable: k, commandLine: l, into: &out) } }
        guard let found, !out.isEmpty else { return nil }
        return (String(decoding: out, as: UTF8.self), resolver.rules[found.index].source == .user)
    }

    /// Largest first (a figure not counted is least); ties by the other measure, then by path.
    public static func sorted(_ rows: [Row], by sort: Top.Sort) -> [Row] {
        rows.sorted { a, b in
            let (x, y) = sort == .cpu ? (a.cpuPermyriad ?? 0, b.cpuPermyriad ?? 0) : (a.memoryBytes ?? 0, b.memoryBytes ?? 0)
            if x != y { return x > y }
            let (u, v) = sort == .cpu ? (a.memoryBytes ?? 0, b.memoryBytes ?? 0) : (a.cpuPermyriad ?? 0, b.cpuPermyriad ?? 0)
            if u != v { return u > v }
            return a.path < b.path
        }
    }

    /// `sysstats top --units`: reads the tree twice, `intervalMs` apart.
    static func run(sysRoot: String, directory: String? = nil, count: Int, sort: Top.Sort, intervalMs: Int, json: Bool,
                           environment: [String: String] = SystemFiles.environment()) -> CommandOutput {
        var rules = BuiltinBookmarks.rules
        if let directory {
            switch BookmarkCommands.readRules(directory: directory) {
            case .success(let found): rules = found
            case .failure(let error): return HistoryAccess.failure(error.message)
            }
        }
        guard let root = CgroupUnits.root(sysRoot: sysRoot) else {
            return CommandOutput(stderr: ["sysstats top: no cgroup v2 tree at \(TerminalText.escape(sysRoot))/fs/cgroup: --units needs the unified hierarchy (cgroup v2), which this host does not mount"],
                                 status: 1)
        }
        let before = CgroupUnits.read(root: root)
        let start = monotonicNs()
        if intervalMs > 0 { usleep(UInt32(min(intervalMs, 60_000)) * 1000) }
        let after = CgroupUnits.read(root: root)
        let names = DesktopNames(environment: environment)
        let all = rows(before: before, after: after, elapsedNs: monotonicNs() &- start, desktopName: { names.name(of: $0) },
                       resolver: NameResolver(rules: rules))
        let shown = Array(sorted(all, by: sort).prefix(count))
        return CommandOutput(stdout: json ? [self.json(shown)] : lines(shown))
    }

    static let header = Columns.left("UNIT", 28) + Columns.left("KIND", 10) + Columns.right("CPU %", 7) + Columns.right("MEM MiB", 9)
        + Columns.right("READ/s", 11) + Columns.right("WRITE/s", 11) + Columns.right("TASKS", 6) + Columns.right("PSI %", 7)

    /// The table: PSI the most of the unit's three (CPU, memory, I/O); `-` where not counted.
    public static func lines(_ rows: [Row]) -> [String] {
        func or(_ v: UInt64?, _ f: (UInt64) -> String) -> String { v.map(f) ?? "-" }
        return [header] + rows.map { r in
            Columns.left(TerminalText.escape(r.name), 28) + Columns.left(r.kind.rawName, 10)
                + Columns.right(or(r.cpuPermyriad) { Columns.percentOneDecimal($0) }, 7)
                + Columns.right(or(r.memoryBytes) { Columns.mib($0 / 1024) }, 9)
                + Columns.right(or(r.readPerSecond) { Columns.bytes($0) }, 11) + Columns.right(or(r.writtenPerSecond) { Columns.bytes($0) }, 11)
                + Columns.right(or(r.tasks) { "\($0)" }, 6)
                + Columns.right(or([r.cpuPressure, r.memoryPressure, r.ioPressure].compactMap { $0 }.max()) { Columns.percentOneDecimal($0) }, 7)
        }
    }

    /// `--json`: an array, figures absent (null) where the tree does not count them.
    public static func json(_ rows: [Row]) -> String {
        struct Item: Encodable {
            var unit: String, path: String, kind: String, bookmarked: Bool, cpu_percent: Double?, memory_mib: Double?, anon_mib: Double?, file_mib: Double?
            var read_bytes_per_second: UInt64?, write_bytes_per_second: UInt64?, tasks: UInt64?
            var cpu_pressure: Double?, memory_pressure: Double?, io_pressure: Double?
        }
        func mib(_ bytes: UInt64?) -> Double? { bytes.map { ReportJSON.mib($0 / 1024) } }
        func hundredths(_ v: UInt64?) -> Double? { v.map { Double($0) / 100 } }
        return JSONText.encode(rows.map { r in
            Item(unit: TerminalText.escape(r.name), path: TerminalText.escape(r.path), kind: r.kind.rawName, bookmarked: r.bookmarked,
                 cpu_percent: hundredths(r.cpuPermyriad), memory_mib: mib(r.memoryBytes), anon_mib: mib(r.anonBytes),
                 file_mib: mib(r.fileBytes), read_bytes_per_second: r.readPerSecond, write_bytes_per_second: r.writtenPerSecond,
                 tasks: r.tasks, cpu_pressure: hundredths(r.cpuPressure), memory_pressure: hundredths(r.memoryPressure),
                 io_pressure: hundredths(r.ioPressure))
        })
    }
}

/// The desktop files' names for `top --units` (ProcFS's DesktopEntryNames, which the
/// sampler's units part uses too), as Strings.
struct DesktopNames {
    let entries: DesktopEntryNames

    init(environment: [String: String]) {
        entries = DesktopEntryNames(home: environment["HOME"], dataHome: environment["XDG_DATA_HOME"], dataDirs: environment["XDG_DATA_DIRS"])
    }

    func name(of id: String) -> String? {
        entries.name(of: Array(id.utf8)[...]).map { String(decoding: $0, as: UTF8.self) }
    }
}
