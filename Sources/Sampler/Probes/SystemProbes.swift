import CLibc
import ProcFS
import SnapshotCodec
import CSamplerSys

/// Uptime: on this machine CLOCK_BOOTTIME, the clock /proc/uptime prints (a vDSO call, no
/// file to read each sample); under a fixture proc root, its uptime file. A root whose
/// `uptime` is this machine's /proc/uptime itself (a tree of links to /proc's files, as
/// bench/floor.sh makes) reads the clock too.
struct UptimeProbe {
    private let reader: UptimeReader
    private let fromClock: Bool
    init(procRoot: String, readsThisMachine: Bool) {
        reader = UptimeReader(procRoot: procRoot)
        fromClock = readsThisMachine || Self.isThisMachinesUptime(cPath(joinPath(procRoot, "uptime")))
    }

    private static func isThisMachinesUptime(_ path: [CChar]) -> Bool {
        var linked = stat(), real = stat()
        let proc: [CChar] = [0x2F, 0x70, 0x72, 0x6F, 0x63, 0x2F, 0x75, 0x70, 0x74, 0x69, 0x6D, 0x65, 0]   // "/proc/uptime"
        return stat(path, &linked) == 0 && stat(proc, &real) == 0
            && linked.st_dev == real.st_dev && linked.st_ino == real.st_ino
    }

    func sample(into s: inout Snapshot, buffer: ReadBuffer) {
        if fromClock {
            var t = timespec()
            if clock_gettime(CLOCK_BOOTTIME, &t) == 0, t.tv_sec >= 0 {
                s.uptimeCentiseconds = UInt64(t.tv_sec) &* 100 &+ UInt64(t.tv_nsec / 10_000_000)
                s.available.insert(.uptime)
                return
            }
        }
        guard let up = reader.update(buffer) else { return }
        s.uptimeCentiseconds = up.uptimeCentiseconds
        s.available.insert(.uptime)
    }
}

/// Load averages from /proc/loadavg.
struct LoadProbe {
    private let reader: LoadAverageReader
    init(procRoot: String) { reader = LoadAverageReader(procRoot: procRoot) }

    /// Returns this sample's reading (nil when unreadable): the process probe's change counters.
    @discardableResult
    func sample(into s: inout Snapshot, buffer: ReadBuffer) -> LoadAverage? {
        guard let load = reader.update(buffer) else { return nil }
        s.load1 = load.load1; s.load5 = load.load5; s.load15 = load.load15
        s.available.insert(.load)
        return load
    }
}

/// Memory pressure (PSI "some" avg10) from /proc/pressure/memory, on kernels that have it.
///
/// The kernel recomputes the averages every 2 s, and the file is read that often — except
/// while a ``PressureTrigger`` stands and the last reading was 0.00: then the averages cannot
/// have risen without the trigger firing, and the file is read at the first sample after an
/// event (so pressure that starts from nothing shows within one interval of the kernel's
/// update, where a 2-s schedule could lag it by up to 2 s), then every 2 s until it reads
/// 0.00 again. A quiet machine's samples read nothing: the cold system call every 2 s was
/// ~7 µs a second of the sampler's ~190 (docs/performance-history.md, "The seventh pass").
struct PressureProbe {
    private let reader: PressureReader
    /// nil: no trigger (a fixture tree, an older kernel, `--once`); the file is read every 2 s.
    private let trigger: PressureTrigger?
    /// The trigger's state word, read without a retain of its owner.
    let watchState: UnsafePointer<csamplersys_event_watch>?
    private let everySamples: UInt32
    /// Samples since the file was last read (due at once).
    private var age: UInt32 = .max / 2
    /// The trigger's state when the file was last read.
    private var seenState: UInt32 = 1
    /// The last reading was 0.00: while the trigger is quiet, it stands.
    private var readZero = false
    /// How often the file was read (tests).
    private(set) var reads = 0

    /// `watch`: arm a trigger when the file is procfs's (not for one snapshot).
    init(procRoot: String, kernel: KernelRelease?, intervalMs: UInt32, watch: Bool) {
        reader = PressureReader(procRoot: procRoot, kernel: kernel)
        trigger = watch && reader.isEnabled ? PressureTrigger(path: joinPath(procRoot, "pressure/memory")) : nil
        watchState = trigger?.watch
        everySamples = max(1, 2_000 / max(1, intervalMs))
    }

    /// A probe that takes `watchState` for its trigger's (tests: a state word they change).
    init(procRoot: String, intervalMs: UInt32, watchState: UnsafePointer<csamplersys_event_watch>) {
        reader = PressureReader(procRoot: procRoot, kernel: nil)
        trigger = nil
        self.watchState = watchState
        everySamples = max(1, 2_000 / max(1, intervalMs))
    }

    /// Whether a trigger stands (its thread waits for events).
    var isTriggered: Bool { watchState.map { PressureTrigger.state(of: $0) & 1 == 0 } ?? false }

    mutating func sample(into s: inout Snapshot, buffer: ReadBuffer) {
        let state = watchState.map { PressureTrigger.state(of: $0) } ?? 1
        if readZero && state & 1 == 0 {
            if state == seenState { return }   // no stall since 0.00 was read
        } else if age &+ 1 < everySamples {
            age &+= 1
            return
        }
        age = 0
        // Taken before the read: an event that comes after it is one more read.
        seenState = state
        reads &+= 1
        let reading = reader.update(buffer)
        s.memoryPressure = reading.map { Permyriad(clamping: $0.someAvg10) }
        readZero = reading?.someAvg10 == 0
    }
}
