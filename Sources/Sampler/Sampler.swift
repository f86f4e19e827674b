import CLibc
import ProcFS
import SnapshotCodec
import HistoryRecords
import PrometheusText

/// Reads the system once per interval and keeps the snapshot up to date.
///
/// It only orchestrates: one probe per family (Probes/) owns its readers, its previous
/// readings and its part of the snapshot, and marks the part available when it could
/// measure it. All buffers (the read buffer, previous counters, top-list selections,
/// history rings and the snapshot's own arrays) are allocated in the first samples and
/// reused after; a steady-state sample allocates only when a new process appears (its
/// names) or a process exits (its record).
///
/// The per-sample state below is `@exclusivity(unchecked)`: one thread samples, no probe
/// calls back into the sampler, and `take` holds the snapshot for the whole sample — so no
/// two accesses can overlap, and the dynamic checks (calls into the runtime that touch its
/// thread-local state, several each sample) buy nothing.
public final class Sampler {
    public let configuration: SamplerConfiguration
    /// The snapshot as of the last ``sample(realtimeMs:monotonicNs:)`` (a copy: its ~20
    /// arrays retained; ``write(to:)`` publishes it without one).
    public var snapshot: Snapshot { latest }
    @exclusivity(unchecked) private var latest = Snapshot()

    private let buffer = ReadBuffer()
    private let kernel: KernelRelease?
    @exclusivity(unchecked) private var cpu: CPUProbe
    @exclusivity(unchecked) private var memory: MemoryProbe
    private let uptime: UptimeProbe
    private let load: LoadProbe
    @exclusivity(unchecked) private var pressure: PressureProbe
    @exclusivity(unchecked) private var battery: BatteryProbe
    private let processes: ProcessProbe
    @exclusivity(unchecked) private var own = SelfProbe()
    @exclusivity(unchecked) private var disks: DiskProbe
    @exclusivity(unchecked) private var diskIO: DiskIOProbe
    @exclusivity(unchecked) private var temperature: TemperatureProbe
    @exclusivity(unchecked) private var frequency: FrequencyProbe
    @exclusivity(unchecked) private var gpu: GPUProbe
    /// The processes using the GPUs, made when a renderer first asks (`top gpu`), then kept.
    private var gpuClients: GPUClientsProbe?
    /// The volume and microphone, from the sound helper while a bar shows one (not with `--once`).
    private let sound: PushingHelper<AudioHelperOutput>?
    /// The media players, from the media helper while a bar shows the media block (not with `--once`).
    private let media: PushingHelper<MediaHelperOutput>?
    private var gpuClientsAsked = false
    private let network: NetworkProbe
    /// Which parts some running renderer shows (``RendererWants``); nil: unknown, so every
    /// part is measured every sample. The parts in ``optionalParts`` that no renderer shows
    /// are measured every ``unshownEverySamples`` samples and carried over in between (their
    /// rates then span the samples between two measurements).
    public var shownParts: SnapshotSections?
    /// The parts measured only while shown: their sources are read for no one else (the
    /// sampler's own cost is two system calls a sample). CPU,
    /// memory, load, uptime, batteries and processes are always measured (history and the
    /// urgent flags need them; the process table must see every exit).
    public static let optionalParts: SnapshotSections = ListedPart.all.reduce([.network, .disks, .diskIO, .temperature, .frequency, .gpu, .sampler]) {
        $0.union($1.part)
    }
    /// How often an unshown optional part is still measured: about every 10 s (history's
    /// minute rollups, the Prometheus export and `sysstats report` keep seeing it).
    public let unshownEverySamples: UInt32
    /// Samples since each optional part was last measured, by its tag (due at once).
    @exclusivity(unchecked) private var unshownAge = [UInt32](repeating: .max / 2, count: Int(SectionTag.highest.rawValue) + 1)
    /// The listed parts' probes (PartProbes.swift).
    private let partProbes: [PartProbe]
    /// The optional parts available at their last measurement, for the samples that skip them.
    @exclusivity(unchecked) private var carriedAvailable: SnapshotSections = []
    /// The optional parts the last sample carried over without measuring them.
    @exclusivity(unchecked) private var carriedThisSample: SnapshotSections = []
    /// USER_HZ, for the CPU seconds the Prometheus export counts.
    private let ticksPerSecond: UInt64

    public init(configuration: SamplerConfiguration) {
        self.configuration = configuration
        let procRoot = configuration.procRoot
        kernel = KernelRelease.read(procRoot: procRoot)
        cpu = CPUProbe(procRoot: procRoot)
        memory = MemoryProbe(procRoot: procRoot, kernel: kernel)
        uptime = UptimeProbe(procRoot: procRoot, readsThisMachine: configuration.readsThisMachine)
        load = LoadProbe(procRoot: procRoot)
        pressure = PressureProbe(procRoot: procRoot, kernel: kernel, intervalMs: configuration.intervalMs,
                                 watch: !configuration.once)
        battery = BatteryProbe(sysRoot: configuration.sysRoot)
        processes = ProcessProbe(configuration: configuration)
        disks = DiskProbe(mounts: configuration.measuredDisks)
        diskIO = DiskIOProbe(procRoot: procRoot, sysRoot: configuration.sysRoot, buffer: buffer)
        temperature = TemperatureProbe(sysRoot: configuration.sysRoot, names: configuration.sensors)
        frequency = FrequencyProbe(sysRoot: configuration.sysRoot, procRoot: procRoot)
        gpu = GPUProbe(configuration: configuration)
        partProbes = Sampler.partProbes(configuration, rules: processes.rules)
        sound = configuration.once ? nil
            : (configuration.soundHelperPath ?? programBesideThisOne("sysstatsd-audio")).map { PushingHelper(path: $0) }
        media = configuration.once ? nil
            : (configuration.mediaHelperPath ?? programBesideThisOne("sysstatsd-media")).map { PushingHelper(path: $0) }
        // Netlink shows this machine's interfaces: not with a fixture /proc.
        network = NetworkProbe(procRoot: procRoot, sysRoot: configuration.sysRoot, interfaces: configuration.interfaces,
                               useNetlink: configuration.readsThisMachine)
        let hz = sysconf(Int32(_SC_CLK_TCK))
        ticksPerSecond = hz > 0 ? UInt64(hz) : 100
        unshownEverySamples = max(1, 10_000 / max(1, configuration.intervalMs))
        latest.intervalMs = configuration.intervalMs
        latest.coreBusy.reserveCapacity(64)
        latest.cpuHistory.reserveCapacity(Snapshot.historyLength)
        latest.iowaitHistory.reserveCapacity(Snapshot.historyLength)
        latest.memoryHistory.reserveCapacity(Snapshot.historyLength)
        // Storage of their own, even while empty: the runtime's shared empty storage is a page
        // of its own, touched each time a sample looks at an empty list's count.
        latest.exits.reserveCapacity(Snapshot.maximumExits)
        latest.topCPU.reserveCapacity(Snapshot.maximumTopEntries)
        latest.topMemory.reserveCapacity(Snapshot.maximumTopEntries)
        latest.topGPU.reserveCapacity(Snapshot.maximumTopEntries)
        latest.disks.reserveCapacity(Snapshot.maximumDisks)
        latest.diskIO.reserveCapacity(Snapshot.maximumDiskDevices)
        latest.temperatures.reserveCapacity(Snapshot.maximumSensors)
        latest.gpus.reserveCapacity(Snapshot.maximumGPUs)
        latest.interfaces.reserveCapacity(Snapshot.maximumInterfaces)
        latest.listed.reserveCapacity()
        latest.rxHistory.reserveCapacity(Snapshot.historyLength)
        latest.txHistory.reserveCapacity(Snapshot.historyLength)
    }

    /// Measures also the mounts, sensors and interfaces the renderers' blocks name
    /// (``RendererWants/named``), besides those configured: a `disk:/home` block works
    /// without a `[sampler]` entry. Allocates (probes are made again): called only when a
    /// listing of the wants folder found the names changed.
    public func measureAlso(_ named: RendererRequest) {
        let mounts = Sampler.union(configuration.measuredDisks, named.disks)
        disks = DiskProbe(mounts: mounts)
        latest.disks.removeAll(keepingCapacity: true)
        let sensors = Sampler.union(configuration.sensors, named.sensors)
        temperature = TemperatureProbe(sysRoot: configuration.sysRoot, names: sensors,
                                       includingCPUPackage: configuration.sensors.isEmpty)
        network.show(Sampler.union(configuration.interfaces, named.interfaces))
        gpuClientsAsked = named.gpuClients
        if gpuClientsAsked && gpuClients == nil { gpuClients = GPUClientsProbe(procRoot: configuration.procRoot) }
        // Measured at the next sample, shown or not.
        unshownAge[Int(SectionTag.disks.rawValue)] = .max / 2
        unshownAge[Int(SectionTag.temperature.rawValue)] = .max / 2
        unshownAge[Int(SectionTag.network.rawValue)] = .max / 2
    }

    /// `configured`, then the names in `asked` it lacks (compared as bytes: see ``SamplerConfiguration/readsThisMachine``).
    static func union(_ configured: [String], _ asked: [[UInt8]]) -> [String] {
        var all = configured
        var known: [[UInt8]] = []
        for c in configured { known.append(utf8Bytes(c)) }
        for name in asked where !known.contains(name) {
            known.append(name)
            all.append(String(decoding: name, as: UTF8.self))
        }
        return all
    }

    /// The loop's inotify watch on the rules cache: with it the rules are looked at only
    /// when their folder changed.
    var changeWatch: ChangeWatch? {
        get { processes.rules.changes }
        set { processes.rules.changes = newValue }
    }

    /// The process probe (tests).
    var processProbe: ProcessProbe { processes }

    /// The NVIDIA helper, where the machine has an NVIDIA device (tests).
    var nvidiaHelper: NVIDIAHelper? { gpu.helper }

    /// The pressure probe (tests: how often it read, whether a trigger stands).
    var pressureProbe: PressureProbe { pressure }

    /// Feeds netlink messages to the network probe (tests: committed dumps stand in for the kernel's).
    public func applyNetlinkMessages(_ bytes: UnsafeRawBufferPointer) { network.apply(messages: bytes) }

    /// `--sensor` names that match no sensor on this machine (for a warning at start).
    public var unresolvedSensorNames: [String] { temperature.unresolvedNames }

    /// The kernel release the sampler gated its features on, if readable.
    public var kernelRelease: KernelRelease? { kernel }

    /// The kernel's name and the friendly name of each exit in ``snapshot``'s `exits`.
    public var exitNames: [ExitNames] { processes.exitNames }

    /// Processes whose name resolution ran out of its work budget (a hostile rules file).
    public var resolverBudgetHits: Int { processes.resolverBudgetHits }

    /// The counters the Prometheus export adds to ``snapshot``: CPU ticks since boot, process
    /// exits and the memory they freed since the sampler started (``PrometheusCounters/boots``
    /// is the loop's: it comes from the history writer).
    public var prometheusCounters: PrometheusCounters {
        var c = PrometheusCounters()
        if let t = cpu.lastTotal {
            c.cpuTicks = PrometheusCounters.CPUTicks(busy: t.busy, iowait: t.iowait, idle: t.idle)
        }
        c.ticksPerSecond = ticksPerSecond
        if processes.scanned {
            c.exits = processes.exitsTotal
            c.freedKiB = processes.freedKiBTotal
        }
        return c
    }

    /// Takes one sample. The first one primes the counters: its CPU shares are not
    /// available yet. A part whose source could not be read this time is marked not
    /// available (shown as `n/a`), never left at its last or a zero value.
    public func sample(realtimeMs: UInt64, monotonicNs: UInt64) {
        take(into: &latest, realtimeMs: realtimeMs, monotonicNs: monotonicNs)
    }

    /// Publishes the latest snapshot through `writer`, lent rather than copied (a copy of a
    /// class's stored snapshot retains and releases each of its ~20 arrays), with the parts
    /// the last sample carried over unmeasured: their sections the writer may copy from its
    /// last encoding.
    public func write(to writer: SnapshotWriter) -> Result<Void, SnapshotWriteError> {
        Self.write(&latest, unchanged: carriedThisSample, to: writer)
    }

    private static func write(_ snapshot: inout Snapshot, unchanged: SnapshotSections,
                              to writer: SnapshotWriter) -> Result<Void, SnapshotWriteError> {
        writer.write(lending: &snapshot, unchanged: unchanged)
    }

    /// The sample, into the snapshot held for its whole length (one exclusive access, where
    /// each probe's `&latest` would be one access check each).
    private func take(into snapshot: inout Snapshot, realtimeMs: UInt64, monotonicNs: UInt64) {
        snapshot.sequence &+= 1
        snapshot.timestampMs = realtimeMs
        snapshot.available = []
        carriedThisSample = []
        let ticksPerCore = cpu.sample(into: &snapshot, buffer: buffer)
        let availableRise = memory.sample(into: &snapshot, buffer: buffer)
        uptime.sample(into: &snapshot, buffer: buffer)
        let loadAverage = load.sample(into: &snapshot, buffer: buffer)
        pressure.sample(into: &snapshot, buffer: buffer)
        battery.sample(into: &snapshot, buffer: buffer, realtimeMs: realtimeMs)
        // Read before the process scan (/proc/stat by the CPU probe, /proc/loadavg by the load
        // probe): a task created after these reads moves them for the next sample.
        let counters = TaskCounters(forks: cpu.forks, loadAverage: loadAverage)
        processes.sample(into: &snapshot, buffer: buffer, ticksPerCore: ticksPerCore, availableRiseKiB: availableRise,
                         realtimeMs: realtimeMs, counters: counters, processTicks: cpu.processTicks)
        if due(.disks, &snapshot) { disks.sample(into: &snapshot, realtimeMs: realtimeMs); carry(.disks, snapshot) }
        if due(.diskIO, &snapshot) { diskIO.sample(into: &snapshot, buffer: buffer, monotonicNs: monotonicNs); carry(.diskIO, snapshot) }
        if due(.temperature, &snapshot) { temperature.sample(into: &snapshot, buffer: buffer); carry(.temperature, snapshot) }
        if due(.frequency, &snapshot) {
            frequency.sample(into: &snapshot, buffer: buffer, realtimeMs: realtimeMs)
            carry(.frequency, snapshot)
        }
        if due(.gpu, &snapshot) {
            gpu.sample(into: &snapshot, buffer: buffer, monotonicNs: monotonicNs,
                       wanted: shownParts == nil || shownParts!.contains(.gpu))
            carry(.gpu, snapshot)
        }
        if gpuClientsAsked, let gpuClients {
            gpuClients.sample(into: &snapshot, table: processes.processTable, nvidia: gpu.helper?.processes ?? [],
                              buffer: buffer, monotonicNs: monotonicNs)
        } else if !snapshot.topGPU.isEmpty {
            snapshot.topGPU.removeAll(keepingCapacity: true)
        }
        if due(.network, &snapshot) {
            network.sample(into: &snapshot, buffer: buffer, realtimeMs: realtimeMs, monotonicNs: monotonicNs)
            carry(.network, snapshot)
            // A point per measurement: carried samples add none (their section stays as it was).
            snapshot.recordNetworkRates()
        }
        if configuration.measureSelf, due(.sampler, &snapshot) {
            own.sample(into: &snapshot, buffer: buffer, monotonicNs: monotonicNs)
            carry(.sampler, snapshot)
        }
        for i in 0..<partProbes.count
        where partProbes[i].asked || due(partProbes[i].tag, &snapshot, onlyWhileShown: partProbes[i].onlyWhileShown) {
            if partProbes[i].read(&snapshot, buffer, monotonicNs) { snapshot.available.formUnion(partProbes[i].part) }
            carry(partProbes[i].part, snapshot)
        }
        if let sound { follow(sound, &snapshot, nowNs: monotonicNs) }
        if let media { follow(media, &snapshot, nowNs: monotonicNs) }
        snapshot.urgent = urgentConditions(snapshot)
    }

    /// Starts or stops `helper` as the bars' wants say, and takes what it wrote.
    private func follow<F>(_ helper: PushingHelper<F>, _ snapshot: inout Snapshot, nowNs: UInt64) {
        helper.update(wanted: shownParts.map { !$0.isDisjoint(with: F.parts) } ?? false, nowNs: nowNs)
        _ = helper.take()
        helper.fill(&snapshot)
    }

    /// The pushing helpers' pipes (-1: none running): their frames end the sampler's sleep.
    var pushReadEnds: (sound: Int32, media: Int32) { (sound?.readEnd ?? -1, media?.readEnd ?? -1) }

    /// The pushing helpers' pipes raise SIGIO (the change watch's handler is in place).
    var pushesSignalWhenReadable: Bool {
        get { sound?.signalsWhenReadable ?? media?.signalsWhenReadable ?? false }
        set { sound?.signalsWhenReadable = newValue; media?.signalsWhenReadable = newValue }
    }

    /// Takes what the helpers pushed since the last sample; true when the volume, the
    /// microphone or the media changed, and the snapshot, numbered anew, is to be published now.
    func takePushes() -> Bool {
        var took = false
        if let sound, sound.take() { sound.fill(&latest); took = true }
        if let media, media.take() { media.fill(&latest); took = true }
        if took { latest.sequence &+= 1 }
        return took
    }

    /// The sound helper and the media helper (tests).
    var soundHelper: PushingHelper<AudioHelperOutput>? { sound }
    var mediaHelper: PushingHelper<MediaHelperOutput>? { media }

    /// What the listed parts' readers cannot read on this machine, one line each, said once.
    public func takePartNotices() -> [String] {
        var lines: [String] = []
        for i in 0..<partProbes.count { if let line = partProbes[i].takeNotice() { lines.append(line) } }
        return lines
    }

    /// Whether the optional part of `tag` is measured this sample: shown (or nothing known),
    /// or `unshownEverySamples` since its last measurement. When not, its last values stay in
    /// the snapshot, available as they were.
    /// `onlyWhileShown`: only while a bar is known to show it (or for `--once`), never on
    /// the 10 s round nor before the bars' wants are known (``ListedPart/onlyWhileShown``);
    /// its readings are cleared once no bar shows it.
    private func due(_ tag: SectionTag, _ snapshot: inout Snapshot, onlyWhileShown: Bool = false) -> Bool {
        let part = SnapshotSections(tag: tag) ?? []
        let t = Int(tag.rawValue)
        if onlyWhileShown, !(shownParts?.contains(part) ?? configuration.once) {
            _ = snapshot.listed.update(tag) { if !$0.isEmpty { $0.removeAll(keepingCapacity: true) } }
            return false
        }
        if shownParts == nil || shownParts!.contains(part) || unshownAge[t] + 1 >= unshownEverySamples {
            unshownAge[t] = 0
            return true
        }
        unshownAge[t] += 1
        snapshot.available.formUnion(carriedAvailable.intersection(part))
        carriedThisSample.formUnion(part)
        return false
    }

    /// Remembers whether the optional `part` just measured was available.
    private func carry(_ part: SnapshotSections, _ snapshot: Snapshot) {
        carriedAvailable.subtract(part)
        carriedAvailable.formUnion(snapshot.available.intersection(part))
    }

    private func urgentConditions(_ snapshot: Snapshot) -> UrgentFlags {
        var flags: UrgentFlags = []
        let b = snapshot.battery
        if b.count > 0, b.state == .discharging, UInt32(b.percent) <= configuration.batteryLowPercent * 100 {
            flags.insert(.batteryLow)
        }
        let m = snapshot.memory
        if snapshot.available.contains(.memory), m.total > 0, m.available.multipliedReportingOverflow(by: 100).partialValue <= m.total &* UInt64(configuration.memoryLowPercent) {
            flags.insert(.memoryLow)
        }
        if let pressure = snapshot.memoryPressure, UInt32(pressure) > configuration.pressureThreshold {
            flags.insert(.memoryPressure)
        }
        return flags
    }
}
