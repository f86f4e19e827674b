#if canImport(Glibc)
import Glibc
#endif
import ProcFS

/// A memory cgroup made for one measured command, for the kernel's exact peak of the tree.
///
/// It is made inside the cgroup `measure` runs in (so any limit over it still applies):
/// cgroup v2 where the memory controller is enabled there (`memory.peak`, Linux 5.19+),
/// else v1's memory hierarchy (`memory.max_usage_in_bytes`). `measure` moves itself in just
/// before it spawns the command, which the command then inherits, and straight back out: its
/// own memory stays charged where it was. Usually only root, or a user given a delegated
/// subtree, may do this; otherwise ``create(pid:)`` says why not.
public final class MeasureCgroup {
    public let directory: String
    public let peakFile: String
    public let source: String
    private let homeProcs: String
    private let statFile: String
    private let statBuffer = ReadBuffer(capacity: 8192, maximumCapacity: 1 << 16)

    init(directory: String, peakFile: String, source: String, homeProcs: String) {
        self.directory = directory; self.peakFile = peakFile; self.source = source; self.homeProcs = homeProcs
        statFile = directory + "/memory.stat"
    }

    /// Makes the cgroup, named after the measuring process `pid`; the reason when none can be.
    /// `membership` and `mounts` are /proc/self/cgroup's and /proc/self/mountinfo's text
    /// (read when nil; tests give a fixture whose mounts point into a scratch folder).
    public static func create(pid: Int32 = getpid(), membership: String? = nil,
                              mounts: String? = nil) -> Result<MeasureCgroup, CgroupUnavailable> {
        let membership = membership ?? readText("/proc/self/cgroup"), mounts = mounts ?? readText("/proc/self/mountinfo")
        let name = "sysstats-measure-\(pid)"
        var reasons: [String] = []
        if let path = CgroupPaths.v2Path(membership), let mount = CgroupPaths.mountPoint(mounts, v2: true) {
            let home = CgroupPaths.join(mount.point, CgroupPaths.relative(path, toRoot: mount.root))
            switch make(home: home, name: name, peak: "memory.peak", enable: true) {
            case .success(let dir):
                return .success(MeasureCgroup(directory: dir, peakFile: dir + "/memory.peak",
                                              source: "cgroup v2 memory.peak", homeProcs: home + "/cgroup.procs"))
            case .failure(let why): reasons.append("v2: \(why.reason)")
            }
        }
        if let path = CgroupPaths.v1MemoryPath(membership), let mount = CgroupPaths.mountPoint(mounts, v2: false) {
            let home = CgroupPaths.join(mount.point, CgroupPaths.relative(path, toRoot: mount.root))
            switch make(home: home, name: name, peak: "memory.max_usage_in_bytes", enable: false) {
            case .success(let dir):
                return .success(MeasureCgroup(directory: dir, peakFile: dir + "/memory.max_usage_in_bytes",
                                              source: "cgroup v1 memory.max_usage_in_bytes", homeProcs: home + "/cgroup.procs"))
            case .failure(let why): reasons.append("v1: \(why.reason)")
            }
        }
        return .failure(CgroupUnavailable(reason: reasons.isEmpty ? "no memory cgroup is mounted" : reasons.joined(separator: "; ")))
    }

    /// Makes `home/name` and checks that it has the peak file; its path or why not.
    private static func make(home: String, name: String, peak: String, enable: Bool) -> Result<String, CgroupUnavailable> {
        let dir = home + "/" + name
        if mkdir(dir, 0o755) != 0 && errno != EEXIST { return .failure(CgroupUnavailable(reason: "cannot make \(dir): \(Errno.current)")) }
        if access(dir + "/" + peak, R_OK) != 0 && enable {
            // Only a cgroup without processes of its own (or the root) may enable it for its children.
            _ = writeText("+memory", to: home + "/cgroup.subtree_control")
        }
        guard access(dir + "/" + peak, R_OK) == 0 else {
            rmdir(dir)
            return .failure(CgroupUnavailable(reason: "\(dir) has no \(peak) (the memory controller is not enabled there, or the kernel is too old)"))
        }
        return .success(dir)
    }

    /// Moves the calling process into the cgroup; false when the kernel refused.
    public func enter() -> Bool { writeText("\(getpid())", to: directory + "/cgroup.procs") }

    /// Moves the calling process back where it was.
    public func leave() { _ = writeText("\(getpid())", to: homeProcs) }

    /// Anonymous memory (heap, stacks, anonymous maps) and page cache charged to the cgroup
    /// now, bytes, from memory.stat (v2's `anon` and `file`, v1's `total_rss` and
    /// `total_cache`); nil when it cannot be read. The kernel keeps no peak of either: the
    /// loop samples it.
    public func memoryStat() -> CgroupMemoryStat? {
        guard case .success(let bytes) = statBuffer.fill(path: statFile) else { return nil }
        return CgroupMemoryStat.parse(bytes)
    }

    /// The peak, bytes; nil when it cannot be read.
    public func peakBytes() -> UInt64? {
        var text = readText(peakFile)
        return text.withUTF8 { saturatingDecimal(UnsafeRawBufferPointer($0), from: 0, to: $0.count) }
    }

    /// Removes the cgroup once its processes are gone (a process left behind keeps it).
    public func remove() { rmdir(directory) }
}

/// What memory.stat says of a cgroup's memory, bytes.
public struct CgroupMemoryStat: Equatable, Sendable {
    public var anon: UInt64
    public var file: UInt64

    /// v2's `anon` and `file` lines, else v1's `total_rss` and `total_cache`; nil without them.
    /// A line that is not `KEY DIGITS` (or whose number overflows) is passed over.
    static func parse(_ text: String) -> CgroupMemoryStat? {
        var text = text
        return text.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    /// The same over the file's bytes (read once per sample that moved: no copy, no table).
    static func parse(_ bytes: UnsafeRawBufferPointer) -> CgroupMemoryStat? {
        var v2Anon, v2File, v1Anon, v1File: UInt64?
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            if let space = (start..<end).first(where: { bytes[$0] == 0x20 }),
               let value = decimal(bytes, space + 1, end) {
                let key = UnsafeRawBufferPointer(rebasing: bytes[start..<space])
                if key.elementsEqual("anon".utf8) { v2Anon = value }
                else if key.elementsEqual("file".utf8) { v2File = value }
                else if key.elementsEqual("total_rss".utf8) { v1Anon = value }
                else if key.elementsEqual("total_cache".utf8) { v1File = value }
            }
            start = end + 1
        }
        if let anon = v2Anon, let file = v2File { return CgroupMemoryStat(anon: anon, file: file) }
        if let anon = v1Anon, let file = v1File { return CgroupMemoryStat(anon: anon, file: file) }
        return nil
    }

    /// Digits only, at least one, no overflow.
    private static func decimal(_ bytes: UnsafeRawBufferPointer, _ from: Int, _ to: Int) -> UInt64? {
        guard from < to else { return nil }
        var n: UInt64 = 0
        for i in from..<to {
            let d = bytes[i]
            guard d >= 0x30, d <= 0x39 else { return nil }
            let (times, o1) = n.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(UInt64(d - 0x30))
            guard !o1, !o2 else { return nil }
            n = sum
        }
        return n
    }
}

/// Why no cgroup could be made.
public struct CgroupUnavailable: Error, Equatable {
    public var reason: String
}

/// Parsing /proc/self/cgroup and /proc/self/mountinfo.
enum CgroupPaths {
    /// The unified (v2) hierarchy's path: the "0::/path" line.
    static func v2Path(_ text: String) -> String? {
        text.split(separator: "\n").first { $0.hasPrefix("0::") }.map { String($0.dropFirst(3)) }
    }

    /// The v1 memory controller's path: the "N:…memory…:/path" line.
    static func v1MemoryPath(_ text: String) -> String? {
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            if parts.count == 3, parts[1].split(separator: ",").contains("memory") { return String(parts[2]) }
        }
        return nil
    }

    /// Where the v2 hierarchy (v2) or the v1 memory controller is mounted, and the cgroup
    /// path at that mount's root (not "/" inside some containers).
    static func mountPoint(_ mountinfo: String, v2: Bool) -> (point: String, root: String)? {
        for line in mountinfo.split(separator: "\n") {
            // The fields, then " - " once, then the file system's. Split on words, not on " - ":
            // a string separator is _StringProcessing's, whose regex engine it brings along.
            let words = line.split(separator: " ")
            guard let dash = words.firstIndex(of: "-"), !words[(dash + 1)...].contains("-") else { continue }
            let left = Array(words[..<dash]), right = Array(words[(dash + 1)...])
            guard left.count >= 5, right.count >= 3 else { continue }
            let matches = v2 ? right[0] == "cgroup2"
                             : right[0] == "cgroup" && right[2].split(separator: ",").contains("memory")
            if matches { return (unescape(String(left[4])), unescape(String(left[3]))) }
        }
        return nil
    }

    /// `path` relative to a mount whose root is `root`.
    static func relative(_ path: String, toRoot root: String) -> String {
        if root == "/" || root.isEmpty { return path }
        if path == root { return "/" }
        return path.hasPrefix(root + "/") ? String(path.dropFirst(root.count)) : path
    }

    static func join(_ mount: String, _ path: String) -> String {
        path == "/" ? mount : mount + path
    }

    /// mountinfo writes space, tab, newline and backslash as octal escapes (\040).
    static func unescape(_ field: String) -> String {
        guard field.contains("\\") else { return field }
        var bytes: [UInt8] = [], raw = Array(field.utf8), i = 0
        while i < raw.count {
            if raw[i] == 0x5C, i + 3 < raw.count, let value = UInt8(String(decoding: raw[(i + 1)...(i + 3)], as: UTF8.self), radix: 8) {
                bytes.append(value); i += 4
            } else { bytes.append(raw[i]); i += 1 }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A small kernel file's text ("" when unreadable).
func readText(_ path: String) -> String {
    let buffer = ReadBuffer(capacity: 4096, maximumCapacity: 1 << 20)
    guard case .success(let bytes) = buffer.fill(path: path) else { return "" }
    return String(decoding: bytes, as: UTF8.self)
}

/// Writes `text` to a kernel file in one write; whether it was taken.
func writeText(_ text: String, to path: String) -> Bool {
    let fd = retryingInterrupts { open(path, O_WRONLY | O_CLOEXEC) }
    guard fd >= 0 else { return false }
    defer { close(fd) }
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count
}
