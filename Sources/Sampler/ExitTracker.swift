import ProcFS
import SnapshotCodec
import HistoryRecords

/// Turns the processes that left the table into exit records, with the memory
/// their exit freed as MemAvailable measured it.
///
/// The rise of MemAvailable across the interval is the only honest measure of
/// freed memory (private memory overstates it when pages were shared or
/// swapped). When several processes exit in one interval the rise is shared
/// among them in proportion to their last private memory, and no exit is credited
/// more than it could have held: its last private memory and its page tables
/// (``creditLimitKiB(privateKiB:)``); the rest of the rise came from elsewhere and is
/// not attributed. A share below `freedThresholdKiB` is noise from other activity and
/// is reported as 0.
public struct ExitTracker {
    public var freedThresholdKiB: UInt64
    /// Exits of processes this small that freed nothing are not recorded: a shell's
    /// short-lived commands would otherwise push out the exits that matter.
    public var minimumPrivateKiB: UInt64
    /// Exits that freed nothing of processes that lived less than this are not recorded
    /// either: every shell command's subshell (`bash had 1.0M`) is not news.
    public var minimumLifetimeSeconds: UInt64
    /// USER_HZ: the unit of a process's start time.
    public var ticksPerSecond: UInt64
    public let capacity: Int

    public init(freedThresholdKiB: UInt64 = 4 * 1024, minimumPrivateKiB: UInt64 = 1024,
                minimumLifetimeSeconds: UInt64 = 10, ticksPerSecond: UInt64 = 100,
                capacity: Int = Snapshot.maximumExits) {
        self.freedThresholdKiB = freedThresholdKiB
        self.minimumPrivateKiB = minimumPrivateKiB
        self.minimumLifetimeSeconds = minimumLifetimeSeconds
        self.ticksPerSecond = max(ticksPerSecond, 1)
        self.capacity = capacity
    }

    /// The most an exit can free: its private resident memory and the page tables that
    /// mapped it (8 bytes per 4 KiB page, and 16 KiB for the upper levels). Its file pages
    /// stay in the page cache, which MemAvailable already counts.
    public static func creditLimitKiB(privateKiB: UInt64) -> UInt64 {
        saturatingSum(saturatingSum(privateKiB, (privateKiB + 511) / 512), 16)
    }

    /// ``record(_:availableRiseKiB:timeMs:uptimeCentiseconds:into:names:)`` without the names for history.
    @discardableResult
    public func record(_ exited: [ProcessSample], availableRiseKiB: UInt64, timeMs: UInt64, uptimeCentiseconds: UInt64 = 0,
                       into exits: inout [ExitEntry]) -> UInt64 {
        var names: [ExitNames] = []
        return record(exited, availableRiseKiB: availableRiseKiB, timeMs: timeMs, uptimeCentiseconds: uptimeCentiseconds,
                      into: &exits, names: &names)
    }

    /// Adds the exits of one interval to `exits` (most recent first, at most `capacity`).
    /// - Parameters:
    ///   - exited: processes in the previous scan and not in this one.
    ///   - availableRiseKiB: MemAvailable now minus MemAvailable at the previous scan (≤ 0 → 0).
    ///   - uptimeCentiseconds: the uptime at this scan, for each process's lifetime (0: unknown,
    ///     no exit is left out for being short).
    ///   - exits: the snapshot's exits; each shows the friendly name when a bookmark gave one.
    ///   - names: kept in step with `exits`: the process's own name and its friendly name, for history.
    /// - Returns: the memory these exits freed, KiB (the sum of the recorded ``ExitEntry/freedKiB``).
    @discardableResult
    public func record(_ exited: [ProcessSample], availableRiseKiB: UInt64, timeMs: UInt64, uptimeCentiseconds: UInt64 = 0,
                       into exits: inout [ExitEntry], names: inout [ExitNames]) -> UInt64 {
        let nowTicks = saturatingProduct(uptimeCentiseconds, ticksPerSecond) / 100
        var freedSum: UInt64 = 0
        var totalPrivate: UInt64 = 0
        for p in exited where !p.isKernelThread { totalPrivate &+= p.privateKiB }
        for p in exited where !p.isKernelThread {
            var freed: UInt64 = 0
            if availableRiseKiB > 0 {
                freed = totalPrivate == 0
                    ? availableRiseKiB / UInt64(exited.count)
                    : UInt64((Double(availableRiseKiB) * Double(p.privateKiB) / Double(totalPrivate)).rounded())
            }
            freed = min(freed, ExitTracker.creditLimitKiB(privateKiB: p.privateKiB))
            if freed < freedThresholdKiB { freed = 0 }
            if freed == 0 {
                if p.privateKiB < minimumPrivateKiB { continue }
                let livedTicks = nowTicks > p.startTime ? nowTicks - p.startTime : 0
                if nowTicks != 0 && livedTicks < saturatingProduct(minimumLifetimeSeconds, ticksPerSecond) { continue }
            }
            freedSum &+= freed
            var entry = ExitEntry(pid: UInt32(clamping: p.pid), timeMs: timeMs,
                                  lastPrivateKiB: p.privateKiB, freedKiB: freed)
            NameSanitizer.sanitize(p.displayName, into: &entry.name)
            if exits.count == capacity { exits.removeLast() }
            exits.insert(entry, at: 0)
            var name: [UInt8] = []
            NameSanitizer.sanitize(p.name, into: &name)
            while names.count >= exits.count { names.removeLast() }
            names.insert(ExitNames(name: name, friendlyName: p.friendlyName), at: 0)
        }
        return freedSum
    }
}
