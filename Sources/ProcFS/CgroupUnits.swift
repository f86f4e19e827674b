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
    public var unitName: ArraySlice<UInt8> { CgroupUnits.lastComponent(path) }
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
        let buffer = ReadBuffer(capacity: 4096, maximumCapacity: 65536)
        var units: [UnitCounters] = []
        for folder in list(root: root) where folder.isUnit { units.append(counters(root, folder.path, buffer)) }
        return units
    }

    /// One folder of the tree as ``list(root:)`` gives it.
    public struct Folder: Equatable, Sendable {
        /// Below the tree's root (`user.slice/user-1000.slice/…/app-firefox-1234.scope`); empty for the root.
        public var path: [UInt8]
        /// Its parent's position in the listing; -1 for the root.
        public var parent: Int
        public var isUnit: Bool
    }

    /// The tree's units and the folders that hold them, each parent before its children, the
    /// root first: a unit (``isUnit(_:in:)``) is not looked into, but a user's service manager
    /// (`user@1000.service`), whose units are the user's apps and services, holds units as a
    /// slice does; a folder that holds no unit is left out. The one listing of the sampler's
    /// units part and `top --units`. Allocates: run when the tree changed.
    public static func list(root: String) -> [Folder] {
        var found = [Folder(path: [], parent: -1, isUnit: false)]
        var folders = 0, units = 0
        _ = walk(root, 0, depth: 0, &found, &folders, &units)
        return found
    }

    /// Adds the units and containers below `found[index]`; whether it holds a unit.
    private static func walk(_ root: String, _ index: Int, depth: Int, _ found: inout [Folder], _ folders: inout Int,
                             _ units: inout Int) -> Bool {
        guard depth < maximumDepth, folders < maximumFolders else { return false }
        folders += 1
        let base = found[index].path
        var children: [[UInt8]] = []
        _ = DirectoryStream(base.isEmpty ? root : root + "/" + pathString(bytes: base)).forEachEntry { name, type in
            // DT_DIR (4), or DT_UNKNOWN (0) where the file system does not say: a file's read fails later.
            if type == 4 || type == 0, !name.isEmpty, name[0] != 0x2E { children.append(Array(name)) }
        }
        // The kernel lists a folder in an order of its own: sorted, a tree lists the same each time.
        children.sort { $0.lexicographicallyPrecedes($1) }
        var holds = false
        let parent = lastComponent(base)
        for child in children {
            let path = base.isEmpty ? child : base + [0x2F] + child
            if isUnit(child[...], in: parent) && !isUserManager(child) {
                guard units < maximumUnits else { continue }
                found.append(Folder(path: path, parent: index, isUnit: true))
                units += 1
                holds = true
            } else {
                let at = found.count
                found.append(Folder(path: path, parent: index, isUnit: false))
                if walk(root, at, depth: depth + 1, &found, &folders, &units) { holds = true } else { found.removeSubrange(at...) }
            }
        }
        return holds
    }

    /// `user@1000.service`: a user's service manager, whose units are the user's apps and services.
    static func isUserManager(_ name: [UInt8]) -> Bool {
        UnitNaming.hasPrefix(name, "user@") && UnitNaming.hasSuffix(name, ".service")
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
