import ProcFS
import SnapshotCodec
import HistoryRecords

/// Turns the processes that left the table into exit records, with the memory
/// their exit freed as MemAvailable measured it.
///
/// The rise of MemAvailable across the interval is the only honest measure of
/// freed memory (private memory overstates it when pages were shared or
/// swapped). When several processes exit in one interval the rise is shared
/// among them in proportion to their last private memory. A share below
/// `freedThresholdKiB` is noise from other activity and is reported as 0.
public struct ExitTracker {
    public var freedThresholdKiB: UInt64
    /// Exits of processes this small that freed nothing are not recorded: a shell's
    /// short-lived commands would otherwise push out the exits that matter.
    public var minimumPrivateKiB: UInt64
    public let capacity: Int

    public init(freedThresholdKiB: UInt64 = 4 * 1024, minimumPrivateKiB: UInt64 = 1024,
                capacity: Int = Snapshot.maximumExits) {
        self.freedThresholdKiB = freedThresholdKiB
        self.minimumPrivateKiB = minimumPrivateKiB
        self.capacity = capacity
    }

    /// ``record(_:availableRiseKiB:timeMs:into:names:)`` without the names for history.
    @discardableResult
    public func record(_ exited: [ProcessSample], availableRiseKiB: UInt64, timeMs: UInt64,
                       into exits: inout [ExitEntry]) -> UInt64 {
        var names: [ExitNames] = []
        return record(exited, availableRiseKiB: availableRiseKiB, timeMs: timeMs, into: &exits, names: &names)
    }

    /// Adds the exits of one interval to `exits` (most recent first, at most `capacity`).
    /// - Parameters:
    ///   - exited: processes in the previous scan and not in this one.
    ///   - availableRiseKiB: MemAvailable now minus MemAvailable at the previous scan (≤ 0 → 0).
    ///   - exits: the snapshot's exits; each shows the friendly name when a bookmark gave one.
    ///   - names: kept in step with `exits`: the process's own name and its friendly name, for history.
    /// - Returns: the memory these exits freed, KiB (the sum of the recorded ``ExitEntry/freedKiB``).
    @discardableResult
    public func record(_ exited: [ProcessSample], availableRiseKiB: UInt64, timeMs: UInt64,
                       into exits: inout [ExitEntry], names: inout [ExitNames]) -> UInt64 {
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
            if freed < freedThresholdKiB { freed = 0 }
            if p.privateKiB < minimumPrivateKiB && freed == 0 { continue }
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
