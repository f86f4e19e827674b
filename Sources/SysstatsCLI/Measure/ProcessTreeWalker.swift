#if canImport(Glibc)
import Glibc
#endif
import ProcFS

/// Finds every descendant of a process, each sample.
///
/// The kernel lists each thread's children in /proc/PID/task/TID/children: following those
/// from the measuring process costs reads in proportion to the tree, not to the machine
/// (a scan of every /proc/PID/stat for its parent costs a read per process on the system).
/// `measure` is a child subreaper, so an orphaned descendant becomes its child and is still
/// found. Kernels built without CONFIG_PROC_CHILDREN have no such file: then the walker
/// falls back to the scan of /proc.
public final class ProcessTreeWalker {
    public let procRoot: String
    /// The most processes a walk returns: a fork bomb must not take the measurer with it.
    public static let maximumProcesses = 65_536
    private let buffer = ReadBuffer(capacity: 4096)
    private var scanParents = false

    public init(procRoot: String = "/proc") { self.procRoot = procRoot }

    /// The descendants of `root` (not `root` itself), parents before their children; the
    /// `excluded` processes and their own descendants are left out.
    public func descendants(of root: Int32, excluding excluded: Set<Int32> = []) -> [Int32] {
        let parents: [Int32: [Int32]]? = scanParents ? childrenByParent() : nil
        var found: [Int32] = [], queue: [Int32] = [root], seen: Set<Int32> = [root], next = 0
        while next < queue.count && found.count < Self.maximumProcesses {
            let pid = queue[next]
            next += 1
            let children = parents.map { $0[pid] ?? [] } ?? children(of: pid)
            for child in children where !excluded.contains(child) && seen.insert(child).inserted {
                queue.append(child)
                found.append(child)
            }
        }
        return found
    }

    /// The children of every thread of `pid`, from the children files.
    func children(of pid: Int32) -> [Int32] {
        let taskPath = "\(procRoot)/\(pid)/task"
        // A task directory's link count is its threads + 2: a single-threaded process (most
        // of a tree) needs its one children file, not a listing.
        var info = stat()
        if stat(taskPath, &info) == 0 && info.st_nlink == 3 {
            switch buffer.fill(path: "\(taskPath)/\(pid)/children") {
            case .success(let bytes):
                var children: [Int32] = []
                appendNumbers(bytes, to: &children)
                return children
            case .failure(let e) where e.rawValue == ENOENT:
                break   // no children files: the listing below finds out and falls back
            case .failure:
                return []
            }
        }
        guard let directory = opendir(taskPath) else { return [] }
        defer { closedir(directory) }
        var children: [Int32] = []
        while let entry = readdir(directory) {
            let tid = withUnsafeBytes(of: entry.pointee.d_name) { raw -> Int32? in
                processID(UnsafeRawBufferPointer(rebasing: raw.prefix(while: { $0 != 0 })))
            }
            guard let tid else { continue }
            switch buffer.fill(path: "\(taskPath)/\(tid)/children") {
            case .success(let bytes): appendNumbers(bytes, to: &children)
            case .failure(let e) where e.rawValue == ENOENT && tid == pid:
                // The thread is there (its directory was listed) but not the file: this kernel
                // has no children files. Scan /proc instead, from now on.
                if access("\(taskPath)/\(tid)/stat", F_OK) == 0 {
                    scanParents = true
                    return childrenByParent()[pid] ?? []
                }
            case .failure: continue   // the thread ended between the listing and the read
            }
        }
        return children
    }

    /// Every process's children, from one pass over /proc/PID/stat.
    func childrenByParent() -> [Int32: [Int32]] {
        guard let directory = opendir(procRoot) else { return [:] }
        defer { closedir(directory) }
        var map: [Int32: [Int32]] = [:]
        while let entry = readdir(directory) {
            let pid = withUnsafeBytes(of: entry.pointee.d_name) { raw -> Int32? in
                processID(UnsafeRawBufferPointer(rebasing: raw.prefix(while: { $0 != 0 })))
            }
            guard let pid, case .success(let bytes) = buffer.fill(path: "\(procRoot)/\(pid)/stat"),
                  let stat = StatFigures.parse(bytes) else { continue }
            map[stat.parentPid, default: []].append(pid)
        }
        return map
    }

    /// Appends the blank-separated process IDs in `bytes` (a children file) to `out`.
    func appendNumbers(_ bytes: UnsafeRawBufferPointer, to out: inout [Int32]) {
        var i = 0
        while i < bytes.count {
            while i < bytes.count && (bytes[i] < 0x30 || bytes[i] > 0x39) { i += 1 }
            var end = i
            while end < bytes.count && bytes[end] >= 0x30 && bytes[end] <= 0x39 { end += 1 }
            if end > i, let pid = processID(UnsafeRawBufferPointer(rebasing: bytes[i..<end])) { out.append(pid) }
            i = end
        }
    }
}
