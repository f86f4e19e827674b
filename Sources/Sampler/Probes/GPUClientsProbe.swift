import ProcFS
import SnapshotCodec

/// The processes using the GPUs most, for the top block's GPU form (`top:gpu`): each
/// process's DRM clients (``DRMHolders``: amdgpu, i915, xe and every driver that publishes
/// the kernel's drm-usage-stats keys) and, on NVIDIA, NVML's processes through the helper.
/// Measured only while a renderer asks for it (`top gpu` in its wants file); a sample that
/// does not ask leaves the list empty and reads nothing.
final class GPUClientsProbe {
    private let holders: DRMHolders
    private var pids: [Int32] = []
    /// The chosen, busiest first (then the most memory): pid, busy permyriad, memory bytes.
    private var chosen: [(pid: Int32, busy: UInt64, memory: UInt64)] = []

    init(procRoot: String) {
        holders = DRMHolders(procRoot: procRoot)
        pids.reserveCapacity(1024)
        chosen.reserveCapacity(Snapshot.maximumTopEntries + 1)
    }

    /// Fills ``Snapshot/topGPU`` from the processes `table` holds (names as the top lists
    /// show them) and NVML's `nvidia` processes.
    func sample(into s: inout Snapshot, table: ProcessTable, nvidia: [NVMLProcess], buffer: ReadBuffer, monotonicNs: UInt64) {
        pids.removeAll(keepingCapacity: true)
        var i = 0
        while i < table.processes.count {
            if !table.processes[i].isKernelThread { pids.append(table.processes[i].pid) }
            i += 1
        }
        holders.update(pids: pids, monotonicNs: monotonicNs, buffer: buffer)
        chosen.removeAll(keepingCapacity: true)
        let uses = holders.uses
        i = 0
        while i < uses.count {
            consider(uses[i].pid, uses[i].busyPermyriad, uses[i].memoryBytes, nvidia)
            i += 1
        }
        i = 0
        while i < nvidia.count {
            if !holds(nvidia[i].pid, uses) { consider(nvidia[i].pid, 0, 0, nvidia) }
            i += 1
        }
        fill(&s.topGPU, table)
    }

    /// Whether the DRM holders include `pid` (then its NVIDIA figures were added with them).
    private func holds(_ pid: Int32, _ uses: [DRMHolders.Use]) -> Bool {
        var i = 0
        while i < uses.count {
            if uses[i].pid == pid { return true }
            i += 1
        }
        return false
    }

    /// Places `pid` among the chosen with its DRM figures and NVML's (memory added, busy the larger).
    private func consider(_ pid: Int32, _ drmBusy: UInt64, _ drmMemory: UInt64, _ nvidia: [NVMLProcess]) {
        var busy = drmBusy, memory = drmMemory
        var n = 0
        while n < nvidia.count {
            if nvidia[n].pid == pid {
                if let bytes = nvidia[n].vramBytes { memory = memory.addingReportingOverflow(bytes).overflow ? .max : memory + bytes }
                if let sm = nvidia[n].smPercent { busy = max(busy, min(sm, 100) * 100) }
            }
            n += 1
        }
        guard busy > 0 || memory > 0 else { return }
        var slot = chosen.count
        while slot > 0 && Self.ranksAbove((busy, memory, pid), chosen[slot - 1]) { slot -= 1 }
        guard slot < Snapshot.maximumTopEntries else { return }
        // Insert by shifting in place: Array.insert(_:at:) allocates in unoptimized builds.
        if chosen.count < Snapshot.maximumTopEntries { chosen.append((pid, busy, memory)) }
        var k = chosen.count - 1
        while k > slot { chosen[k] = chosen[k - 1]; k -= 1 }
        chosen[slot] = (pid, busy, memory)
    }

    private static func ranksAbove(_ a: (busy: UInt64, memory: UInt64, pid: Int32),
                                   _ b: (pid: Int32, busy: UInt64, memory: UInt64)) -> Bool {
        if a.busy != b.busy { return a.busy > b.busy }
        if a.memory != b.memory { return a.memory > b.memory }
        return a.pid < b.pid
    }

    /// The chosen into `entries` (reusing their name storage): `cpu` holds the GPU share,
    /// `privateKiB` the GPU memory; a pid the table no longer has is left out.
    private func fill(_ entries: inout [ProcessEntry], _ table: ProcessTable) {
        var n = 0, c = 0
        while c < chosen.count {
            if let index = table.index(ofPid: chosen[c].pid) {
                if n == entries.count { entries.append(ProcessEntry()) }
                entries[n].pid = UInt32(clamping: chosen[c].pid)
                entries[n].cpu = UInt16(clamping: chosen[c].busy)
                entries[n].privateKiB = chosen[c].memory / 1024
                table.processes[index].displayName.withUnsafeBytes { NameSanitizer.sanitize($0, into: &entries[n].name) }
                n += 1
            }
            c += 1
        }
        while entries.count > n { entries.removeLast() }
    }
}
