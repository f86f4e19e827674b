import ProcFS
import SnapshotCodec

/// What the sampler itself costs (``SelfUsage``): its own CPU share and resident memory.
struct SelfProbe {
    private var usage = SelfUsage()

    mutating func sample(into s: inout Snapshot, buffer: ReadBuffer, monotonicNs: UInt64) {
        let own = usage.measure(monotonicNs: monotonicNs, buffer: buffer)
        s.samplerCPU = own.cpu
        s.samplerResidentKiB = own.residentKiB
        s.available.insert(.sampler)
    }
}
