// The units of the cgroup v2 tree (docs/metrics.md, "Units"): each app scope, service,
// container and session the kernel keeps a cgroup for, with the counters it keeps for each
// (cpu.stat, memory.current and memory.stat, io.stat, pids.current, the pressure files).
// Exact from the kernel: a unit's short-lived processes count, as they are charged to it.

/// One unit's counters as one read saw them; a figure the tree does not have (the memory
/// controller on a cgroup v1 hierarchy of its own) is nil.
public struct UnitCounters: Equatable, Sendable {
    /// Its path below the tree's root (`user.slice/user-1000.slice/…/app-firefox-1234.scope`).
    public var path: [UInt8]
    /// CPU time used, microseconds (cpu.stat's `usage_usec`).
    public var cpuUsec: UInt64?
    /// Memory charged to it (memory.current), and of that the anonymous and file pages (memory.stat).
    public var memoryBytes: UInt64?
    public var anonBytes: UInt64?
    public var fileBytes: UInt64?
    /// Bytes read and written, summed over its devices (io.stat's `rbytes`, `wbytes`).
    public var readBytes: UInt64?
    public var writtenBytes: UInt64?
    /// Its tasks (pids.current).
    public var tasks: UInt64?
    /// PSI `some avg10` of CPU, memory and I/O, hundredths of a percent.
    public var cpuPressure: UInt64?
    public var memoryPressure: UInt64?
    public var ioPressure: UInt64?

    public init(path: [UInt8]) { self.path = path }

    /// The unit's own name: the last part of its path.
    public var unitName: ArraySlice<UInt8> {
        guard let slash = path.lastIndex(of: 0x2F) else { return path[...] }
        return path[(slash + 1)...]
    }
}

/// Reads the cgroup v2 tree under `<sysRoot>/fs/cgroup` (or its `unified` folder, where a
/// host mounts cgroup v1 beside it).
public enum CgroupUnits {
    /// The deepest a unit is looked for (a user's app scope is at the fifth level).
    public static let maximumDepth = 8
    /// The most units one read lists, and the most folders it looks into: a host with
    /// thousands of containers stays bounded.
    public static let maximumUnits = 4096
    public static let maximumFolders = 16384

    /// Where the tree is mounted: `<sysRoot>/fs/cgroup` on a cgroup v2 host, its `unified`
    /// folder on a hybrid one; nil where no cgroup v2 tree is (a cgroup v1 host).
    public static func root(sysRoot: String) -> String? {
        for candidate in [sysRoot + "/fs/cgroup", sysRoot + "/fs/cgroup/unified"] {
            if case .success = readConfigFile(candidate + "/cgroup.controllers", limit: 4096) { return candidate }
        }
        return nil
    }

    /// Whether a folder is a unit: a scope or a service (a slice holds units; its own
    /// processes, if any, are in a unit too), or a container Docker's cgroupfs driver made
    /// (`docker/<64 hex digits>`, no systemd scope). `parent`: the folder holding it.
    static func isUnit(_ name: ArraySlice<UInt8>, in parent: ArraySlice<UInt8>) -> Bool {
        hasSuffix(name, ".scope") || hasSuffix(name, ".service")
            || (UnitNaming.isContainerID(name) && parent.elementsEqual("docker".utf8))
    }

    /// The last component of a path below the root (the whole path without a `/`).
    static func lastComponent(_ path: [UInt8]) -> ArraySlice<UInt8> {
        var i = path.count
        while i > 0 && path[i - 1] != 0x2F { i -= 1 }
        return path[i...]
    }

    static func hasSuffix(_ name: ArraySlice<UInt8>, _ suffix: StaticString) -> Bool {
        let n = suffix.utf8CodeUnitCount
        guard name.count > n else { return false }
        let start = name.endIndex - n
        for i in 0..<n where name[start + i] != suffix.utf8Start[i] { return false }
        return true
    }

    /// Every unit below `root` with its counters. A service that holds units of its own (a
    /// user's manager, `user@1000.service`) is left out: its units are listed instead.
    public static func read(root: String) -> [UnitCounters] {
        var units: [UnitCounters] = []
        var folders = 0
        let buffer = ReadBuffer(capacity: 4096, maximumCapacity: 65536)
        walk(root, relative: [], depth: 0, units: &units, folders: &folders, buffer: buffer)
        return units
    }

    /// Returns whether the folder at `relative` holds a unit.
    @discardableResult
    private static func walk(_ root: String, relative: [UInt8], depth: Int, units: inout [UnitCounters], folders: inout Int,
                             buffer: ReadBuffer) -> Bool {
        guard depth < maximumDepth, folders < maximumFolders else { return false }
        folders += 1
        var children: [[UInt8]] = []
        let folder = relative.isEmpty ? root : root + "/" + String(decoding: relative, as: UTF8.self)
        // DT_DIR (4), or DT_UNKNOWN (0) where the file system does not say: a file's read fails later.
        _ = DirectoryStream(folder).forEachEntry { name, type in
            if type == 4 || type == 0, !name.isEmpty, name[0] != 0x2E { children.append(Array(name)) }
        }
        children.sort { $0.lexicographicallyPrecedes($1) }
        var holdsUnit = false
        let parent = lastComponent(relative)
        for child in children {
            let path = relative.isEmpty ? child : relative + [0x2F] + child
            let inner = walk(root, relative: path, depth: depth + 1, units: &units, folders: &folders, buffer: buffer)
            holdsUnit = holdsUnit || inner
            if isUnit(child[...], in: parent) && !inner && units.count < maximumUnits {
                units.append(counters(root, path, buffer))
                holdsUnit = true
            } else if isUnit(child[...], in: parent) {
                holdsUnit = true
            }
        }
        return holdsUnit
    }

    /// The counters of the unit at `path`.
    static func counters(_ root: String, _ path: [UInt8], _ buffer: ReadBuffer) -> UnitCounters {
        var c = UnitCounters(path: path)
        let base = root + "/" + String(decoding: path, as: UTF8.self) + "/"
        func read(_ file: String, _ body: (UnsafeRawBufferPointer) -> Void) {
            guard case .success(let bytes) = ProcFile(base + file).read(into: buffer) else { return }
            body(bytes)
        }
        read("cpu.stat") { c.cpuUsec = keyedValue($0, "usage_usec") }
        read("memory.current") { c.memoryBytes = parseUnsignedLine($0) }
        read("memory.stat") { c.anonBytes = keyedValue($0, "anon"); c.fileBytes = keyedValue($0, "file") }
        read("io.stat") { bytes in
            let (r, w) = ioTotals(bytes)
            c.readBytes = r; c.writtenBytes = w
        }
        read("pids.current") { c.tasks = parseUnsignedLine($0) }
        read("cpu.pressure") { c.cpuPressure = someAverage10($0) }
        read("memory.pressure") { c.memoryPressure = someAverage10($0) }
        read("io.pressure") { c.ioPressure = someAverage10($0) }
        return c
    }

    /// The value of the line `KEY VALUE` (cpu.stat, memory.stat); nil without one.
    public static func keyedValue(_ bytes: UnsafeRawBufferPointer, _ key: StaticString) -> UInt64? {
        var s = ByteScanner(bytes)
        while !s.isAtEnd {
            if let word = s.word(), bytesEqual(word, key) { return s.unsigned() }
            s.skipLine()
        }
        return nil
    }

    /// io.stat's `rbytes=` and `wbytes=` summed over its lines (one per device), saturating.
    public static func ioTotals(_ bytes: UnsafeRawBufferPointer) -> (UInt64?, UInt64?) {
        var read: UInt64? = nil, written: UInt64? = nil
        var s = ByteScanner(bytes)
        while !s.isAtEnd {
            while let word = s.word() {
                var w = ByteScanner(word)
                if w.consume("rbytes="), let v = w.unsigned() { read = (read ?? 0).addingSaturated(v) }
                else if w.consume("wbytes="), let v = w.unsigned() { written = (written ?? 0).addingSaturated(v) }
                if s.current == 0x0A { break }
            }
            s.skipLine()
        }
        return (read, written)
    }

    /// `some avg10=1.23 …`'s avg10 in hundredths (123); nil without a `some` line.
    public static func someAverage10(_ bytes: UnsafeRawBufferPointer) -> UInt64? {
        var s = ByteScanner(bytes)
        while !s.isAtEnd {
            if let word = s.word(), bytesEqual(word, "some") {
                s.skipBlanks()
                guard s.consume("avg10=") else { return nil }
                return s.fixedPoint(scale: 2)
            }
            s.skipLine()
        }
        return nil
    }
}

extension UInt64 {
    /// `self + other`, or UInt64.max when it does not fit (outside input).
    func addingSaturated(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}
