/// The fields of `/proc/PID/stat` a process scan uses.
///
/// The name sits between the first `(` and the *last* `)`: a process may call
/// itself anything, spaces, parentheses and newlines included, so the fields
/// after the name are counted from that last `)`.
struct ProcessStat: Equatable {
    /// `PF_KTHREAD` in the flags field: the task is a kernel thread.
    static let kernelThreadFlag: UInt64 = 0x0020_0000

    /// Byte range of the name inside the parsed bytes (parentheses excluded).
    var nameRange: Range<Int>
    /// Field 3, e.g. `R`, `S`, `Z`.
    var state: UInt8
    /// Field 4, the parent's pid.
    var parentPid: Int32
    /// Field 9, the kernel's `PF_*` flags.
    var flags: UInt64
    /// Fields 14 + 15, utime + stime, clock ticks.
    var cpuTicks: UInt64
    /// Fields 16 + 17, cutime + cstime: the CPU time of its children it has waited for
    /// (negative values clamp to 0). A child reaped between two reads shows here, however short its life.
    var childTicks: UInt64
    /// Field 22, start time in ticks after boot.
    var startTime: UInt64
    /// Field 24, resident set size in pages (negative values clamp to 0).
    var rssPages: UInt64

    var isKernelThread: Bool { flags & ProcessStat.kernelThreadFlag != 0 }

    /// Parses the bytes of `/proc/PID/stat`; nil when empty or malformed.
    init?(parsing bytes: UnsafeRawBufferPointer) {
        guard let open = firstIndex(of: 0x28, in: bytes),           // "("
              let close = lastIndex(of: 0x29, in: bytes),           // ")"
              open < close else { return nil }
        nameRange = (open + 1)..<close
        var s = ByteScanner(bytes, position: close + 1)
        guard let stateWord = s.word(), let ppid = s.signed(), skip(&s, 4),   // fields 3, 4; 5...8
              let flags = s.unsigned(), skip(&s, 4),           // 9; 10...13
              let utime = s.unsigned(), let stime = s.unsigned(),  // 14, 15
              let cutime = s.signed(), let cstime = s.signed(), skip(&s, 4),   // 16, 17; 18...21
              let start = s.unsigned(), skip(&s, 1),           // 22; 23
              let rss = s.signed()                             // 24
        else { return nil }
        state = stateWord[0]
        parentPid = Int32(clamping: ppid)
        self.flags = flags
        cpuTicks = utime &+ stime
        childTicks = UInt64(max(cutime, 0)).addingSaturating(UInt64(max(cstime, 0)))
        startTime = start
        rssPages = UInt64(max(rss, 0))
    }
}

/// Skips `count` blank-separated fields; false if the line ends first.
private func skip(_ s: inout ByteScanner, _ count: Int) -> Bool {
    for _ in 0..<count where s.word() == nil { return false }
    return true
}

/// Resident and shared pages from `/proc/PID/statm` (`size resident shared ...`).
struct ProcessStatm: Equatable {
    var residentPages: UInt64
    var sharedPages: UInt64

    /// Private pages: resident − shared (never below 0).
    var privatePages: UInt64 { residentPages > sharedPages ? residentPages - sharedPages : 0 }

    /// Parses the bytes of `/proc/PID/statm`; nil when empty or malformed.
    init?(parsing bytes: UnsafeRawBufferPointer) {
        var s = ByteScanner(bytes)
        guard s.unsigned() != nil, let resident = s.unsigned(), let shared = s.unsigned() else { return nil }
        residentPages = resident
        sharedPages = shared
    }
}
