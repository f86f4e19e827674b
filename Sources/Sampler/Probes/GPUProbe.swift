import CLibc
import ProcFS
import SnapshotCodec

/// The GPUs: amdgpu, i915 and xe cards from sysfs (``GPUCards``), NVIDIA's through the
/// helper (``NVIDIAHelper``), which runs only where `/proc/driver/nvidia/gpus` lists a device
/// and only while the GPU is shown (or nothing is known of what is shown). A machine without
/// a GPU costs one listing of `/sys/class/drm` at start, and nothing a sample.
struct GPUProbe {
    private let cards: GPUCards
    private let nvidia: NVIDIAHelper?
    private var readings: [GPUReading] = []
    private let waitMs: Int32

    init(configuration: SamplerConfiguration) {
        cards = GPUCards(sysRoot: configuration.sysRoot)
        if GPUCards.nvidiaDeviceCount(procRoot: configuration.procRoot) > 0,
           let path = configuration.gpuHelperPath ?? programBesideThisOne("sysstatsd-gpu") {
            nvidia = NVIDIAHelper(path: path, intervalMs: configuration.intervalMs)
        } else {
            nvidia = nil
        }
        waitMs = configuration.once ? 3_000 : 0
        readings.reserveCapacity(GPUCards.maximumCards)
    }

    /// The helper (tests).
    var helper: NVIDIAHelper? { nvidia }

    /// `wanted`: the GPU is shown (or nothing is known): the NVIDIA helper runs; otherwise it
    /// is stopped, and NVIDIA cards are left out until it is wanted again.
    mutating func sample(into s: inout Snapshot, buffer: ReadBuffer, monotonicNs: UInt64, wanted: Bool) {
        cards.update(buffer, monotonicNs: monotonicNs, into: &readings)
        var n = 0
        for i in 0..<readings.count where n < Snapshot.maximumGPUs {
            GPUProbe.store(readings[i], into: &s.gpus, at: n)
            n += 1
        }
        if let nvidia {
            if wanted {
                nvidia.poll(nowNs: monotonicNs, waitMs: waitMs)
                for i in 0..<nvidia.readings.count where n < Snapshot.maximumGPUs {
                    GPUProbe.store(nvidia.readings[i], into: &s.gpus, at: n)
                    n += 1
                }
            } else if nvidia.isRunning {
                nvidia.stop()
            }
        }
        if s.gpus.count > n { s.gpus.removeLast(s.gpus.count - n) }
        s.available.insert(.gpu)
    }

    private static func store(_ r: GPUReading, into gpus: inout [GPUFigures], at n: Int) {
        if n == gpus.count { gpus.append(GPUFigures()) }
        gpus[n].index = UInt8(clamping: r.index)
        clean(r.driver, into: &gpus[n].driver)
        clean(r.name, into: &gpus[n].name)
        gpus[n].known = GPUFigures.Known(rawValue: r.known)
        gpus[n].busy = r.busy
        gpus[n].memoryBusy = r.memoryBusy
        gpus[n].vramUsedBytes = r.vramUsedBytes
        gpus[n].vramTotalBytes = r.vramTotalBytes
        gpus[n].gttUsedBytes = r.gttUsedBytes
        gpus[n].gttTotalBytes = r.gttTotalBytes
        gpus[n].milliCelsius = r.milliCelsius
        gpus[n].milliwatts = r.milliwatts
        gpus[n].clockMHz = r.clockMHz
        gpus[n].fan = r.fan
        gpus[n].powerLimitMilliwatts = r.powerLimitMilliwatts
    }

    /// A card's name or driver made display-ready as a process name is (``NameSanitizer``):
    /// sysfs gives what a driver wrote, and whatever program sits at the helper's path writes
    /// any bytes (ESC, BEL) after its figures, which reached `report --json` and the bars raw.
    /// An empty name stays empty (no `?`): that a card has none is worth keeping.
    private static func clean(_ name: FixedName, into out: inout [UInt8]) {
        if name.isEmpty {
            out.removeAll(keepingCapacity: true)
        } else {
            name.withUnsafeBytes { NameSanitizer.sanitize($0, into: &out) }
        }
    }
}
