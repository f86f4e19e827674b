// The fixed parts' tables (``FixedPart``): each figure's width in its section, its unit, its
// `report --json` member, its Prometheus family and its field of the snapshot.

extension FixedPart {
    /// Every fixed part, in the order of their tags.
    public static let all: [FixedPart] = [uptime, cpu, memory, pressure, load, processes, battery, sampler, frequency]

    /// Section 2: boot time (seconds since the epoch) and uptime (1/100 s).
    static let uptime = FixedPart(.uptime, figures: [
        FixedFigure(.u64, .seconds, json: nil,
                    prometheus: "sysstats_boot_time_seconds", "When the machine booted, seconds since the epoch.",
                    value: { $0.pointee.bootTime }, store: { $0.bootTime = $1 }),
        FixedFigure(.u64, .centiseconds, json: "uptime_seconds",
                    prometheus: "sysstats_uptime_seconds", "Seconds since the machine booted.",
                    value: { $0.pointee.uptimeCentiseconds }, store: { $0.uptimeCentiseconds = $1 }),
    ])

    /// Section 3: busy and iowait shares, then each core's busy share and the busy and iowait
    /// histories (``CPUTail``).
    static let cpu = FixedPart(.cpu, figures: [
        FixedFigure(.u16, .permyriad, json: "cpu_percent", prometheus: "sysstats_cpu_busy_ratio",
                    "Share of all CPUs' time busy over the sampler's last interval (what the bar shows).",
                    value: { UInt64($0.pointee.cpuBusy) }, store: { $0.cpuBusy = share($1) }),
        FixedFigure(.u16, .permyriad, json: nil, prometheus: "sysstats_cpu_iowait_ratio",
                    "Share of all CPUs' time waiting for I/O over the sampler's last interval.",
                    value: { UInt64($0.pointee.cpuIOWait) }, store: { $0.cpuIOWait = share($1) }),
    ], tail: CPUTail.tail)

    /// Section 4: the memory figures (KiB), then the used-share history (``MemoryTail``).
    static let memory = FixedPart(.memory, figures: [
        FixedFigure(.u64, .kib, json: "memory_mib.total",
                    prometheus: "sysstats_memory_total_bytes", "Memory the kernel manages (MemTotal).",
                    value: { $0.pointee.memory.total }, store: { $0.memory.total = $1 }),
        memoryPart("free", json: "memory_mib.free", value: { $0.pointee.memory.free }, store: { $0.memory.free = $1 }),
        memoryPart("active", json: "memory_mib.active", value: { $0.pointee.memory.active }, store: { $0.memory.active = $1 }),
        memoryPart("inactive", json: "memory_mib.inactive", value: { $0.pointee.memory.inactive }, store: { $0.memory.inactive = $1 }),
        memoryPart("wired", json: "memory_mib.wired", value: { $0.pointee.memory.wired }, store: { $0.memory.wired = $1 }),
        memoryPart("other", json: "memory_mib.other", value: { $0.pointee.memory.other }, store: { $0.memory.other = $1 }),
        FixedFigure(.u64, .kib, json: "memory_mib.available", prometheus: "sysstats_memory_available_bytes",
                    "Memory available to start programs without swapping (MemAvailable).",
                    value: { $0.pointee.memory.available }, store: { $0.memory.available = $1 }),
        FixedFigure(.u64, .kib, json: "memory_mib.used", prometheus: nil,
                    value: { $0.pointee.memory.used }, store: { $0.memory.used = $1 }),
        FixedFigure(.u64, .kib, json: "swap.total", prometheus: "sysstats_swap_total_bytes", "Swap space.",
                    value: { $0.pointee.memory.swapTotal }, store: { $0.memory.swapTotal = $1 }),
        FixedFigure(.u64, .kib, json: "swap.used", prometheus: "sysstats_swap_used_bytes", "Swap space in use.",
                    value: { $0.pointee.memory.swapUsed }, store: { $0.memory.swapUsed = $1 }),
    ], exportOrder: [1, 2, 3, 4, 5, 0, 6, 7, 8, 9], tail: MemoryTail.tail)

    /// One of the parts the memory is split into: a member of `memory_mib` and a sample of
    /// `sysstats_memory_bytes` labelled with its name.
    private static func memoryPart(_ name: StaticString, json: StaticString, value: @escaping @Sendable (SnapshotPointer) -> UInt64,
                                   store: @escaping @Sendable (inout Snapshot, UInt64) -> Void) -> FixedFigure {
        FixedFigure(.u64, .kib, json: json, prometheus: "sysstats_memory_bytes",
                    "Memory by part: free, active, inactive, wired (kernel, unevictable, locked) and other; the parts sum to the total.",
                    label: "part", name, value: value, store: store)
    }

    /// Section 5: PSI memory "some" avg10, permyriad; absent when the kernel has no PSI
    /// (``Snapshot/memoryPressure`` is then nil).
    static let pressure = FixedPart(.pressure, figures: [
        FixedFigure(.u16, .permyriad, json: nil, prometheus: "sysstats_memory_pressure_ratio",
                    "Share of the last 10 s in which some task stalled on memory (PSI some avg10).",
                    value: { UInt64($0.pointee.memoryPressure ?? 0) }, store: { $0.memoryPressure = share($1) }),
    ], present: { $0.pointee.memoryPressure != nil })

    /// Section 6: the load averages × 100.
    static let load = FixedPart(.load, figures: [
        FixedFigure(.u32, .hundredths, json: "load[]", prometheus: "sysstats_load1", "Load average over 1 minute.",
                    value: { UInt64($0.pointee.load1) }, store: { $0.load1 = UInt32(clamping: $1) }),
        FixedFigure(.u32, .hundredths, json: "load[]", prometheus: "sysstats_load5", "Load average over 5 minutes.",
                    value: { UInt64($0.pointee.load5) }, store: { $0.load5 = UInt32(clamping: $1) }),
        FixedFigure(.u32, .hundredths, json: "load[]", prometheus: "sysstats_load15", "Load average over 15 minutes.",
                    value: { UInt64($0.pointee.load15) }, store: { $0.load15 = UInt32(clamping: $1) }),
    ])

    /// Section 7: how many processes there are, how many are running, and (version 2) how
    /// many threads.
    static let processes = FixedPart(.processes, figures: [
        FixedFigure(.u32, .count, json: "processes",
                    prometheus: "sysstats_processes", "Processes (and kernel threads) in the process table.",
                    value: { UInt64($0.pointee.processCount) }, store: { $0.processCount = UInt32(clamping: $1) }),
        FixedFigure(.u32, .count, json: "running",
                    prometheus: "sysstats_processes_running", "Tasks running or ready to run (procs_running).",
                    value: { UInt64($0.pointee.runningCount) }, store: { $0.runningCount = UInt32(clamping: $1) }),
        FixedFigure(.u32, .count, json: nil, prometheus: nil, since: 2,
                    value: { UInt64($0.pointee.threadCount) }, store: { $0.threadCount = UInt32(clamping: $1) }),
    ])

    /// Section 8: the batteries together. A count of 0 is a measured "no battery" (a desktop):
    /// then no other figure is given (`report --json`'s `battery` is null).
    static let battery = FixedPart(.battery, figures: [
        FixedFigure(.u8, .count, json: nil, prometheus: "sysstats_batteries", "Batteries found (0 on a machine without one).",
                    value: { UInt64($0.pointee.battery.count) }, store: { $0.battery.count = UInt8(clamping: $1) }),
        FixedFigure(.u8, .count, json: "battery.state", prometheus: "sysstats_battery_state",
                    "1 for the batteries' state, 0 for the others.", label: "state", given: hasBattery,
                    states: ["unknown", "charging", "discharging", "not_charging", "full"], refusal: .unknownBatteryState,
                    value: { UInt64($0.pointee.battery.state.rawValue) },
                    store: { $0.battery.state = BatteryFigures.State(rawValue: UInt8(clamping: $1)) ?? .unknown }),
        FixedFigure(.u16, .permyriad, json: "battery.percent", prometheus: "sysstats_battery_charge_ratio",
                    "Charge of the batteries together.", prometheusMaximum: UInt64(Snapshot.wholeShare), given: hasBattery,
                    value: { UInt64($0.pointee.battery.percent) }, store: { $0.battery.percent = share($1) }),
        FixedFigure(.u32, .milliwatts, json: nil, prometheus: "sysstats_battery_power_watts",
                    "Power flowing into or out of the batteries.",
                    given: { $0.pointee.battery.count > 0 && $0.pointee.battery.powerMilliwatts > 0 },
                    value: { UInt64($0.pointee.battery.powerMilliwatts) }, store: { $0.battery.powerMilliwatts = UInt32(clamping: $1) }),
        FixedFigure(.u32, .minutes, json: nil, prometheus: "sysstats_battery_remaining_seconds",
                    "Time until empty (discharging) or full (charging).", cleared: UInt64(UInt32.max),
                    given: { $0.pointee.battery.count > 0 && $0.pointee.battery.minutesRemaining != .max },
                    value: { UInt64($0.pointee.battery.minutesRemaining) }, store: { $0.battery.minutesRemaining = UInt32(clamping: $1) }),
    ], exportOrder: [0, 2, 1, 3, 4])

    @Sendable private static func hasBattery(_ s: SnapshotPointer) -> Bool { s.pointee.battery.count > 0 }

    /// Section 11: what the sampler itself costs: CPU (permyriad of one core) and resident KiB.
    static let sampler = FixedPart(.sampler, figures: [
        FixedFigure(.u16, .permyriad, json: nil, prometheus: "sysstats_sampler_cpu_ratio",
                    "The sampler's own CPU use over its last interval, as a share of one CPU.",
                    value: { UInt64($0.pointee.samplerCPU) }, store: { $0.samplerCPU = share($1) }),
        FixedFigure(.u32, .kib, json: nil, prometheus: "sysstats_sampler_resident_bytes", "The sampler's own resident memory.",
                    value: { UInt64($0.pointee.samplerResidentKiB) }, store: { $0.samplerResidentKiB = UInt32(clamping: $1) }),
    ], cached: true)

    /// Section 16: the current CPU frequency, MHz: average and highest.
    static let frequency = FixedPart(.frequency, figures: [
        FixedFigure(.u32, .megahertz, json: "cpu_mhz.average", prometheus: nil,
                    value: { UInt64($0.pointee.cpuMHzAverage) }, store: { $0.cpuMHzAverage = UInt32(clamping: $1) }),
        FixedFigure(.u32, .megahertz, json: "cpu_mhz.max", prometheus: nil,
                    value: { UInt64($0.pointee.cpuMHzMaximum) }, store: { $0.cpuMHzMaximum = UInt32(clamping: $1) }),
    ], cached: true)

    /// A decoded share, clamped to the whole (as every share the decoder reads).
    @inline(__always)
    static func share(_ v: UInt64) -> Permyriad { Permyriad(min(v, UInt64(Snapshot.wholeShare))) }
}

/// What section 3 carries after the CPU's shares: a u16 count of cores and each core's busy
/// share, then a u8 count of points and the busy history and the iowait history (oldest first).
enum CPUTail {
    static let tail = FixedTail(maximumSize: 2 + 2 * Snapshot.maximumCores + 1 + 4 * Snapshot.historyLength,
                                encode: encode, decode: decode, clear: clear)

    @Sendable static func encode(_ s: inout Snapshot, into b: inout EncodeCursor) {
        let cores = min(s.coreBusy.count, Snapshot.maximumCores)
        b.appendLE(UInt16(cores))
        b.appendLE(s.coreBusy, 0..<cores)
        let points = min(s.cpuHistory.count, Snapshot.historyLength)
        b.append(UInt8(points))
        b.appendLE(s.cpuHistory, (s.cpuHistory.count - points)..<s.cpuHistory.count)
        // Right-aligned on cpuHistory: iowait's newest point goes with the newest busy
        // point; points it lacks (a snapshot decoded from v1) are written as 0.
        let missing = max(0, points - s.iowaitHistory.count)
        b.appendZeros(missing * MemoryLayout<Permyriad>.size)
        b.appendLE(s.iowaitHistory, (s.iowaitHistory.count - (points - missing))..<s.iowaitHistory.count)
    }

    @Sendable static func decode(_ r: inout SnapshotReader, into s: inout Snapshot) throws(SnapshotDecodeError) {
        let cores = Int(try r.u16())
        guard cores <= Snapshot.maximumCores else { throw .malformed(.countOverLimit) }
        try r.shareArray(count: cores, into: &s.coreBusy)
        let points = Int(try r.u8())
        guard points <= Snapshot.historyLength else { throw .malformed(.countOverLimit) }
        try r.shareArray(count: points, into: &s.cpuHistory)
        try r.shareArray(count: points, into: &s.iowaitHistory)
    }

    @Sendable static func clear(_ s: inout Snapshot) {
        s.coreBusy.removeAll(keepingCapacity: true)
        s.cpuHistory.removeAll(keepingCapacity: true)
        s.iowaitHistory.removeAll(keepingCapacity: true)
    }
}

/// What section 4 carries after the memory figures: a u8 count of points and the used-share
/// history (oldest first).
enum MemoryTail {
    static let tail = FixedTail(maximumSize: 1 + 2 * Snapshot.historyLength, encode: encode, decode: decode, clear: clear)

    @Sendable static func encode(_ s: inout Snapshot, into b: inout EncodeCursor) {
        let points = min(s.memoryHistory.count, Snapshot.historyLength)
        b.append(UInt8(points))
        b.appendLE(s.memoryHistory, (s.memoryHistory.count - points)..<s.memoryHistory.count)
    }

    @Sendable static func decode(_ r: inout SnapshotReader, into s: inout Snapshot) throws(SnapshotDecodeError) {
        let points = Int(try r.u8())
        guard points <= Snapshot.historyLength else { throw .malformed(.countOverLimit) }
        try r.shareArray(count: points, into: &s.memoryHistory)
    }

    @Sendable static func clear(_ s: inout Snapshot) {
        s.memoryHistory.removeAll(keepingCapacity: true)
    }
}
