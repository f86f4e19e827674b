// The snapshot's parts as Prometheus families (docs/fleet.md lists them): one function per
// part, called in order by PrometheusText's `write`. A part that was not measured writes
// nothing. One call per line, not loops over literal lists: an array literal allocates.

import SnapshotCodec

extension PrometheusText {
    /// The sample's time and the interval.
    static func writeSampleTimes(_ s: Snapshot, _ c: PrometheusCounters, _ w: inout ExpositionWriter) {
    w.family("sysstats_last_sample_timestamp_seconds", "When the sampler took the sample this file shows, seconds since the epoch.", .gauge)
    w.sample("sysstats_last_sample_timestamp_seconds", fixed: s.timestampMs, decimals: 3)
    w.family("sysstats_sampler_interval_seconds", "Seconds between the sampler's samples.", .gauge)
    w.sample("sysstats_sampler_interval_seconds", fixed: UInt64(s.intervalMs), decimals: 3)
    }

    /// Boot time and uptime.
    static func writeUptime(_ s: Snapshot, _ c: PrometheusCounters, _ w: inout ExpositionWriter) {
    writeFixed(.uptime, s, &w)
    }

    /// The earlier boots the history keeps.
    static func writeBoots(_ s: Snapshot, _ c: PrometheusCounters, _ w: inout ExpositionWriter) {
    if let boots = c.boots {
        // Gauges, not counters: history retention drops old boots, so the figures can fall.
        w.family("sysstats_boots", "Earlier boots the history keeps, by how they ended (clean: the sampler was stopped; unclean: crash or power loss).", .gauge)
        w.begin("sysstats_boots"); w.label("end", "clean"); w.value(boots.clean)
        w.begin("sysstats_boots"); w.label("end", "unclean"); w.value(boots.unclean)
        if let clean = boots.previousClean {
            w.family("sysstats_previous_boot_clean", "1 when the boot before this one ended cleanly, 0 after a crash or power loss.", .gauge)
            w.sample("sysstats_previous_boot_clean", clean ? 1 : 0)
        }
    }
    }

    /// CPU time since boot and over the last interval.
    static func writeCPU(_ s: Snapshot, _ c: PrometheusCounters, _ w: inout ExpositionWriter) {
    if let t = c.cpuTicks {
        w.family("sysstats_cpu_seconds_total", "CPU time since boot summed over all CPUs, by mode (busy excludes iowait; busy + iowait + idle is all of it).", .counter)
        let hz = max(c.ticksPerSecond, 1)
        // One call per line, not a loop over a literal list: an array literal allocates.
        w.begin("sysstats_cpu_seconds_total"); w.label("mode", "busy"); w.fixedValue(centiseconds(t.busy, hz), decimals: 2)
        w.begin("sysstats_cpu_seconds_total"); w.label("mode", "iowait"); w.fixedValue(centiseconds(t.iowait, hz), decimals: 2)
        w.begin("sysstats_cpu_seconds_total"); w.label("mode", "idle"); w.fixedValue(centiseconds(t.idle, hz), decimals: 2)
    }
    writeFixed(.cpu, s, &w)
    }

    /// The memory parts, swap and memory pressure.
    static func writeMemory(_ s: Snapshot, _ c: PrometheusCounters, _ w: inout ExpositionWriter) {
    writeFixed(.memory, s, &w)
    writeFixed(.pressure, s, &w)
    }

    /// The load averages.
    static func writeLoad(_ s: Snapshot, _ c: PrometheusCounters, _ w: inout ExpositionWriter) {
    writeFixed(.load, s, &w)
    }

    /// The process counts, exits and what they freed.
    static func writeProcesses(_ s: Snapshot, _ c: PrometheusCounters, _ w: inout ExpositionWriter) {
    writeFixed(.processes, s, &w)
    if let exits = c.exits {
        w.family("sysstats_process_exits_total", "Processes (not kernel threads) that exited since the sampler started.", .counter)
        w.sample("sysstats_process_exits_total", exits)
    }
    if let freed = c.freedKiB {
        w.family("sysstats_process_freed_bytes_total", "Memory freed by process exits since the sampler started, as the rise of available memory measured it.", .counter)
        w.sample("sysstats_process_freed_bytes_total", bytes(freed))
    }
    }

    /// The top processes by CPU and by memory.
    static func writeTop(_ s: Snapshot, _ c: PrometheusCounters, _ w: inout ExpositionWriter) {
    writeEntries(.top, s, &w)
    }

    /// The batteries.
    static func writeBattery(_ s: Snapshot, _ c: PrometheusCounters, _ w: inout ExpositionWriter) {
    writeFixed(.battery, s, &w)
    }

    /// The network interfaces' counters.
    static func writeNetwork(_ s: Snapshot, _ c: PrometheusCounters, _ w: inout ExpositionWriter) {
    writeEntries(.network, s, &w)
    }

    /// The disks' I/O and the file systems' space.
    static func writeDisks(_ s: Snapshot, _ c: PrometheusCounters, _ w: inout ExpositionWriter) {
    writeEntries(.diskIO, s, &w)
    writeEntries(.disks, s, &w)
    }

    /// The temperature sensors.
    static func writeTemperatures(_ s: Snapshot, _ c: PrometheusCounters, _ w: inout ExpositionWriter) {
    writeEntries(.temperature, s, &w)
    }

    /// The GPUs: one family per figure, a sample per card that gave it (labels: card, its
    /// index; driver; name).
    static func writeGPUs(_ s: Snapshot, _ c: PrometheusCounters, _ w: inout ExpositionWriter) {
    guard s.available.contains(.gpu), !s.gpus.isEmpty else { return }
    // By index: a for-in over the table allocates an iterator's element in debug builds.
    for i in 0..<GPUFigure.all.count { gpuFamily(s, GPUFigure.all[i], &w) }
    }

    /// One GPU figure's family: its header when a card gave the figure, then each such card's
    /// sample, written as the figure's unit says.
    private static func gpuFamily(_ s: Snapshot, _ f: GPUFigure, _ w: inout ExpositionWriter) {
        guard let name = f.prometheus else { return }
        let n = min(s.gpus.count, Snapshot.maximumGPUs)
        var any = false
        for i in 0..<n where s.gpus[i].known.isSuperset(of: f.known) { any = true }
        guard any else { return }
        w.family(name, f.prometheusHelp, .gauge)
        for i in 0..<n where s.gpus[i].known.isSuperset(of: f.known) {
            w.begin(name)
            w.label("card", decimal: UInt64(s.gpus[i].index))
            w.label("driver", bytes: s.gpus[i].driver)
            w.label("name", bytes: s.gpus[i].name)
            writeValue(f.unit, f.value(s.gpus[i]), &w)
        }
    }

    /// The sampler's own cost.
    static func writeSamplerCost(_ s: Snapshot, _ c: PrometheusCounters, _ w: inout ExpositionWriter) {
    writeFixed(.sampler, s, &w)
    }
}
