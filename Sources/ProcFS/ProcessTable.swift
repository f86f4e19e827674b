#if canImport(Glibc)
import Glibc
#endif

/// Every process under the proc root, scan after scan, with what changed between two scans.
///
/// Each scan lists the proc root (`readdir`, on a directory kept open) and, per
/// numeric entry, reads `PID/stat`, then `PID/statm` when the process has
/// memory and its resident size changed (see ``privateRefreshScans``). Paths are built in a fixed buffer and opened with `openat(2)`
/// relative to the proc root. Names (`PID/cmdline`, the `PID/exe` link) are read
/// only for a process not seen in the previous scan; a known process reuses its
/// previous ``ProcessSample``, so a steady scan allocates nothing per process.
///
/// A process is identified by its pid *and* start time: a reused pid is the
/// exit of the old process and a new one. A process that vanishes mid-scan or
/// cannot be read is skipped and counted in ``skippedCount``; if it was in the
/// previous scan it is reported in ``exited``.
public final class ProcessTable {
    /// The system's page size in KiB, from `sysconf(_SC_PAGESIZE)` (4 if unknown).
    public static var systemPageSizeKiB: UInt64 {
        let bytes = sysconf(Int32(_SC_PAGESIZE))
        return bytes >= 1024 ? UInt64(bytes) / 1024 : 4
    }

    /// Longest command line kept, in bytes.
    public static let commandLineCapacity = 256

    /// Private memory is re-read from `statm` when resident memory (from `stat`)
    /// changed, and otherwise every this many scans, staggered by pid: a process
    /// whose rss did not move rarely changed its private/shared split, and this
    /// saves most `statm` opens (one file per process per scan, not two).
    public static let privateRefreshScans: UInt32 = 10

    /// Where proc is mounted (`/proc`, or a fixture tree).
    public let procRoot: String
    /// KiB per page, for the page counts in `stat` and `statm`.
    public let pageSizeKiB: UInt64

    /// The processes of the last scan, in directory order.
    public private(set) var processes: [ProcessSample] = []
    /// Processes of the previous scan that are gone in the last one, with their last values.
    public private(set) var exited: [ProcessSample] = []
    /// Processes in state `R` in the last scan.
    public private(set) var runningCount = 0
    /// Numeric entries of the last scan that vanished or could not be read.
    public private(set) var skippedCount = 0

    private let directory: DirectoryStream
    private let path = PathBuffer()
    private var previous: [ProcessSample] = []
    private var indexByPid = PidIndex()
    private var previousIndexByPid = PidIndex()
    private var matched: [Bool] = []
    private var scanCount: UInt32 = 0
    /// Scratch for a new process's cmdline (first part) and exe link target (rest).
    private let scratch = UnsafeMutableRawBufferPointer.allocate(
        byteCount: ProcessTable.commandLineCapacity + Int(PATH_MAX), alignment: 8)

    /// - Parameters:
    ///   - procRoot: where proc is mounted (`--proc-root`; a fixture tree in tests).
    ///   - pageSizeKiB: the page size that `stat` and `statm` count in.
    public init(procRoot: String = "/proc", pageSizeKiB: UInt64 = ProcessTable.systemPageSizeKiB) {
        self.procRoot = procRoot
        self.pageSizeKiB = pageSizeKiB
        directory = DirectoryStream(procRoot)
    }

    deinit { scratch.deallocate() }

    /// Scans the proc root: every numeric directory is a process.
    ///
    /// Replaces ``processes``, ``exited``, ``runningCount`` and ``skippedCount``.
    /// If the proc root cannot be listed, the scan finds no process (and every
    /// process of the previous scan is reported as exited).
    /// - Parameter buffer: the shared buffer each file is read into.
    /// Returns false when the proc root could not be listed (nothing is known: the
    /// table is empty and no process is reported as exited).
    @discardableResult
    public func scan(_ buffer: ReadBuffer) -> Bool {
        scanCount &+= 1
        swap(&previous, &processes)
        swap(&previousIndexByPid, &indexByPid)
        processes.removeAll(keepingCapacity: true)
        indexByPid.removeAll()
        matched.removeAll(keepingCapacity: true)
        for _ in 0..<previous.count { matched.append(false) }
        processes.reserveCapacity(previous.count)
        runningCount = 0
        skippedCount = 0

        let listed = directory.forEachEntry { name, type in
            guard type == UInt8(DT_DIR) || type == UInt8(DT_UNKNOWN),
                  let pid = processID(name), path.setDirectory(name) else { return }
            if !readProcess(pid, buffer) { skippedCount += 1 }
        }

        exited.removeAll(keepingCapacity: true)
        guard listed else {
            // Not listed is not "every process exited": keep the last table for next time.
            swap(&previous, &processes)
            swap(&previousIndexByPid, &indexByPid)
            return false
        }
        for i in previous.indices where !matched[i] { exited.append(previous[i]) }
        return true
    }

    /// Sets the friendly name of the process at `index` of ``processes`` (resolved by the
    /// caller, which knows the rules) and the rules version it came from. It is kept while
    /// the process lives, and reported with it in ``exited``.
    public func setFriendlyName(at index: Int, _ name: [UInt8], generation: UInt32) {
        processes[index].friendlyName = name
        processes[index].namesGeneration = generation
    }

    /// Reads one process into ``processes``. False if it vanished or is unreadable.
    private func readProcess(_ pid: Int32, _ buffer: ReadBuffer) -> Bool {
        guard let root = directory.descriptor,
              case .success(let bytes) = buffer.fill(relativeTo: root, path.path("stat")),
              let stat = ProcessStat(parsing: bytes) else { return false }

        var sample: ProcessSample
        let isNew: Bool
        if let i = previousIndexByPid[pid], previous[i].startTime == stat.startTime {
            sample = previous[i]
            matched[i] = true
            sample.cpuDelta = stat.cpuTicks >= sample.cpuTicks ? stat.cpuTicks - sample.cpuTicks : 0
            isNew = false
        } else {
            sample = ProcessSample()
            sample.pid = pid
            sample.startTime = stat.startTime
            sample.comm = Array(UnsafeRawBufferPointer(rebasing: bytes[stat.nameRange]))
            isNew = true
        }
        let residentKiB = saturatingProduct(stat.rssPages, pageSizeKiB)
        let refreshPrivate = isNew || residentKiB != sample.residentKiB
            || (UInt32(truncatingIfNeeded: pid) &+ scanCount) % ProcessTable.privateRefreshScans == 0
        sample.state = stat.state
        sample.cpuTicks = stat.cpuTicks
        sample.residentKiB = residentKiB
        sample.isKernelThread = stat.isKernelThread

        if stat.rssPages == 0 {
            sample.privateKiB = 0
        } else if refreshPrivate {
            // Gone between stat and statm: skip it rather than report it with no memory.
            guard case .success(let statmBytes) = buffer.fill(relativeTo: root, path.path("statm")),
                  let statm = ProcessStatm(parsing: statmBytes) else { return false }
            sample.privateKiB = saturatingProduct(statm.privatePages, pageSizeKiB)
        }
        if isNew { readNames(&sample, root) }

        if sample.state == 0x52 { runningCount += 1 }  // "R"
        indexByPid.set(pid, processes.count)
        processes.append(sample)
        return true
    }

    /// Fills the command line, executable name and best name of a new process.
    /// A kernel thread has neither; an unreadable file leaves its field empty.
    private func readNames(_ sample: inout ProcessSample, _ root: FileDescriptor) {
        var argument0 = UnsafeRawBufferPointer(start: nil, count: 0)
        if !sample.isKernelThread {
            let lineBuffer = UnsafeMutableRawBufferPointer(rebasing: scratch[0..<ProcessTable.commandLineCapacity])
            if let n = readPrefix(relativeTo: root, path.path("cmdline"), into: lineBuffer) {
                let raw = UnsafeRawBufferPointer(rebasing: lineBuffer[0..<n])
                sample.commandLine = commandLine(fromRaw: raw)
                argument0 = baseName(firstArgument(ofRaw: raw))
            }
            let linkBuffer = UnsafeMutableRawBufferPointer(rebasing: scratch[ProcessTable.commandLineCapacity...])
            if let n = readLink(relativeTo: root, path.path("exe"), into: linkBuffer) {
                sample.exeName = executableName(fromLink: UnsafeRawBufferPointer(rebasing: linkBuffer[0..<n]))
            }
        }
        sample.name = bestName(comm: sample.comm, executable: sample.exeName, firstArgumentBase: argument0)
    }
}

/// The pid an entry of the proc root names, or nil if it is not all digits.
private func processID(_ name: UnsafeRawBufferPointer) -> Int32? {
    guard !name.isEmpty, name.count <= 10 else { return nil }
    var value: Int64 = 0
    for b in name {
        guard b >= 0x30, b <= 0x39 else { return nil }
        value = value * 10 + Int64(b - 0x30)
    }
    return value > 0 && value <= Int64(Int32.max) ? Int32(value) : nil
}
