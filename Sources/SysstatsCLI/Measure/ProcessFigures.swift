// The per-process figures `sysstats measure` reads each sample, parsed from the bytes of
// /proc/PID/smaps_rollup and /proc/PID/stat. The parsers take bytes so that tests feed them
// fixtures; every number saturates (a hostile or future kernel format cannot trap them).

/// Memory of one process, KiB, from smaps_rollup.
public struct MemoryFigures: Equatable, Sendable {
    public var rssKiB: UInt64 = 0
    /// Proportional set size: each shared page divided among the processes mapping it.
    public var pssKiB: UInt64 = 0
    /// Unique set size: Private_Clean + Private_Dirty, what exiting would give back.
    public var ussKiB: UInt64 = 0
    public var swapKiB: UInt64 = 0
    /// The program's own memory that is not file cache: anonymous memory, private (heap,
    /// stacks, anonymous maps) or shared (MAP_SHARED|MAP_ANONYMOUS, memfd, System V and POSIX
    /// shared memory, files on tmpfs: the kernel's shmem), resident or swapped out, each
    /// shared page divided among its users: Pss_Anon + Pss_Shmem + SwapPss. A pre-fork
    /// server's 64 MiB shared arena is its memory, once for the tree, as much as a heap is;
    /// smaps_rollup's `Anonymous` leaves shmem out (0.4 MiB for that tree). Before Linux 5.3
    /// (no Pss_Anon) it is Anonymous + Swap, shared memory left out: the kernel's rollup says
    /// nothing of shmem there.
    public var anonKiB: UInt64 = 0

    public init(rssKiB: UInt64 = 0, pssKiB: UInt64 = 0, ussKiB: UInt64 = 0, swapKiB: UInt64 = 0, anonKiB: UInt64 = 0) {
        self.rssKiB = rssKiB; self.pssKiB = pssKiB; self.ussKiB = ussKiB; self.swapKiB = swapKiB; self.anonKiB = anonKiB
    }

    /// Parses smaps_rollup ("Rss:   1234 kB" lines after a header); nil without an Rss line
    /// (a zombie's or a kernel thread's file is the header alone).
    public static func parseSmapsRollup(_ bytes: UnsafeRawBufferPointer) -> MemoryFigures? {
        var figures = MemoryFigures(), sawRss = false
        var privateClean: UInt64 = 0, privateDirty: UInt64 = 0, anonymous: UInt64 = 0
        var pssAnon: UInt64?, pssShmem: UInt64 = 0, swapPss: UInt64 = 0
        forEachLine(bytes) { key, value in
            switch key {
            case .rss: figures.rssKiB = value; sawRss = true
            case .pss: figures.pssKiB = value
            case .privateClean: privateClean = value
            case .privateDirty: privateDirty = value
            case .swap: figures.swapKiB = value
            case .anonymous: anonymous = value
            case .pssAnon: pssAnon = value
            case .pssShmem: pssShmem = value
            case .swapPss: swapPss = value
            }
        }
        figures.ussKiB = saturatingSum(privateClean, privateDirty)
        if let pssAnon {
            figures.anonKiB = saturatingSum(saturatingSum(pssAnon, pssShmem), swapPss)
        } else {
            figures.anonKiB = saturatingSum(anonymous, figures.swapKiB)
        }
        return sawRss ? figures : nil
    }

    /// The lines of smaps_rollup `measure` reads.
    enum Key: CaseIterable {
        case rss, pss, privateClean, privateDirty, swap, anonymous, pssAnon, pssShmem, swapPss

        var bytes: [UInt8] {
            switch self {
            case .anonymous: Array("Anonymous".utf8)
            case .rss: Array("Rss".utf8)
            case .pss: Array("Pss".utf8)
            case .privateClean: Array("Private_Clean".utf8)
            case .privateDirty: Array("Private_Dirty".utf8)
            case .swap: Array("Swap".utf8)
            case .pssAnon: Array("Pss_Anon".utf8)
            case .pssShmem: Array("Pss_Shmem".utf8)
            case .swapPss: Array("SwapPss".utf8)
            }
        }
    }
    // Built once: a sample reads this file for every process a hundred times a second.
    static let keys: [(Key, [UInt8])] = Key.allCases.map { ($0, $0.bytes) }

    /// Calls `body` with each known "Key: number" line's key and number; other lines are skipped.
    static func forEachLine(_ bytes: UnsafeRawBufferPointer, _ body: (Key, UInt64) -> Void) {
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            var colon = start
            while colon < end && bytes[colon] != 0x3A { colon += 1 }
            if colon < end, let key = keys.first(where: { $0.1.elementsEqual(bytes[start..<colon]) })?.0 {
                var i = colon + 1
                while i < end && (bytes[i] == 0x20 || bytes[i] == 0x09) { i += 1 }
                if let value = saturatingDecimal(bytes, from: i, to: end) { body(key, value) }
            }
            start = end + 1
        }
    }
}

/// `a + b`, UInt64.max where that overflows (a hostile or future kernel's numbers).
func saturatingSum(_ a: UInt64, _ b: UInt64) -> UInt64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? .max : sum
}

/// VmHWM from /proc/PID/status, KiB: the kernel's high-water mark of the process's RSS since
/// its exec. It only rises, so its last reading before the process ends holds every spike
/// between two samples but those of the last interval. nil without the line.
public func parseStatusHWM(_ bytes: UnsafeRawBufferPointer) -> UInt64? {
    statusNumber(bytes, key: "VmHWM:")
}

/// The number after `key` (`VmHWM:`, `Tgid:`) on its line of /proc/PID/status; nil without the line.
func statusNumber(_ bytes: UnsafeRawBufferPointer, key: StaticString) -> UInt64? {
    let key = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
    var start = 0
    while start < bytes.count {
        var end = start
        while end < bytes.count && bytes[end] != 0x0A { end += 1 }
        if end - start > key.count && key.elementsEqual(bytes[start..<(start + key.count)]) {
            var i = start + key.count
            while i < end && (bytes[i] == 0x20 || bytes[i] == 0x09) { i += 1 }
            return saturatingDecimal(bytes, from: i, to: end)
        }
        start = end + 1
    }
    return nil
}

/// The fields of /proc/PID/stat `measure` keeps.
public struct StatFigures: Equatable, Sendable {
    /// The command name (comm), at most 15 bytes, as the process set it.
    public var name: [UInt8]
    public var state: UInt8
    public var parentPid: Int32
    /// utime + stime, clock ticks.
    public var cpuTicks: UInt64
    public var threads: UInt64
    /// Ticks after boot: with the pid, tells a process from a later one that reuses its pid.
    public var startTime: UInt64
    /// Page faults of the children it waited for (cminflt + cmajflt): 0 when it reaped none
    /// that ran (a program cannot run without faulting a page in).
    public var childrenFaults: UInt64 = 0
    /// Where its program's code and stack start; nil where the kernel hides them.
    public var image: ImageLayout?

    /// Parses stat's bytes; the name lies between the first "(" and the last ")", since a
    /// process may put anything in it, and the fields are counted from that last ")".
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> StatFigures? {
        guard let open = bytes.firstIndex(of: 0x28), let close = bytes.lastIndex(of: 0x29), open < close else { return nil }
        var fields: [UInt64] = [], state: UInt8 = 0
        var i = close + 1, field = 3
        while i < bytes.count && field <= 28 {
            while i < bytes.count && bytes[i] == 0x20 { i += 1 }
            var end = i
            while end < bytes.count && bytes[end] != 0x20 && bytes[end] != 0x0A { end += 1 }
            guard end > i else { break }
            if field == 3 { state = bytes[i] } else { fields.append(saturatingDecimal(bytes, from: i, to: end, allowMinus: true) ?? 0) }
            i = end; field += 1
        }
        // fields[0] is field 4 (ppid): fields 11, 13, 14, 15, 20 and 22 are at 7, 9, 10, 11, 16 and 18,
        // 26 to 28 (startcode, endcode, startstack) at 22 to 24.
        guard state != 0, fields.count >= 19 else { return nil }
        let (cpu, overflow) = fields[10].addingReportingOverflow(fields[11])
        let (faults, faultsOverflow) = fields[7].addingReportingOverflow(fields[9])
        // The kernel shows startstack as 0 to a reader without ptrace access, for a process
        // with no address space (a zombie, one exiting) and during an exec until the new
        // image's fields are all set, startstack last.
        let image = fields.count >= 25 && fields[24] != 0
            ? ImageLayout(codeStart: fields[22], codeEnd: fields[23], stackStart: fields[24]) : nil
        return StatFigures(name: Array(bytes[(open + 1)..<close].prefix(64)), state: state,
                           parentPid: Int32(clamping: fields[0]), cpuTicks: overflow ? .max : cpu,
                           threads: fields[16], startTime: fields[18], childrenFaults: faultsOverflow ? .max : faults,
                           image: image)
    }

    /// Whether the process `known` recorded has exec'd another program since: the same
    /// process (start time) with a new address space. Exec alone makes one, and ASLR lays
    /// each out anew, so its code and stack start elsewhere; a process that maps, unmaps,
    /// renames itself (prctl PR_SET_NAME) or exits keeps them. VmHWM is no sign: the kernel's
    /// high-water mark can fall by a few hundred KiB when memory is unmapped (its RSS
    /// counters are per-CPU estimates), and a row split there lost its exit and wait4
    /// figure. Where the kernel hides the layout, a new name is the sign.
    public func isExec(since known: RecordedProcess) -> Bool {
        guard startTime == known.startTime else { return false }
        if let before = known.image, let now = image { return before != now }
        return name != known.name
    }
}

/// Where a program's code and stack start and its code ends (/proc/PID/stat fields 26-28):
/// set by exec for each new address space, and by nothing a program does with its memory.
public struct ImageLayout: Equatable, Sendable {
    public var codeStart: UInt64
    public var codeEnd: UInt64
    public var stackStart: UInt64

    public init(codeStart: UInt64, codeEnd: UInt64, stackStart: UInt64) {
        self.codeStart = codeStart; self.codeEnd = codeEnd; self.stackStart = stackStart
    }
}

/// The decimal number filling bytes[from..<to] exactly (a trailing " kB" allowed), saturating
/// at UInt64.max; nil when it does not start with a digit. A minus sign reads as 0.
func saturatingDecimal(_ bytes: UnsafeRawBufferPointer, from: Int, to: Int, allowMinus: Bool = false) -> UInt64? {
    var i = from
    if allowMinus && i < to && bytes[i] == 0x2D { return 0 }
    var value: UInt64 = 0, digits = 0
    while i < to, bytes[i] >= 0x30, bytes[i] <= 0x39 {
        let (times, o1) = value.multipliedReportingOverflow(by: 10)
        let (sum, o2) = times.addingReportingOverflow(UInt64(bytes[i] - 0x30))
        value = o1 || o2 ? .max : sum
        i += 1; digits += 1
    }
    return digits > 0 ? value : nil
}
