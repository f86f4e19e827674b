#if canImport(Glibc)
import Glibc
#endif
import ProcFS
import HistoryRecords
import SnapshotCodec
import SystemDirs

/// Set by the SIGTERM/SIGINT handler; read by the loop between samples and by its sleep.
nonisolated(unsafe) var stopRequested: sig_atomic_t = 0

/// The sampler's main loop: one thread, sleeping on CLOCK_MONOTONIC to absolute
/// deadlines so the interval does not drift by the time each sample takes.
public enum SamplerLoop {
    /// How soon after the first sample the second, the first published, is taken.
    public static let primingIntervalNs: UInt64 = 200_000_000

    /// Runs until SIGTERM or SIGINT (or one snapshot with `once`). Returns the exit status.
    /// With `reloadArguments` (its command line after the name), a change of the config
    /// file or SIGHUP reads `[sampler]` again (``SamplerReload``).
    public static func run(_ configuration: SamplerConfiguration, reloadArguments: [[UInt8]]? = nil) -> Int32 {
        let directoryPath = configuration.runtimeDirectory ?? RuntimeDirectory.defaultPath()
        let directory: OpenRuntimeDirectory
        switch RuntimeDirectory.openForSampler(directoryPath) {
        case .success(let d): directory = d
        case .failure(let error):
            printError("sysstatsd: \(error)")
            return 1
        }
        installSignalHandlers()
        var configuration = configuration
        if configuration.rulesPath == nil, let data = dataDirectory(configuration) {
            configuration.rulesPath = DataDirectory.join(data, "bookmarks.rules")
        }
        let sampler = Sampler(configuration: configuration)
        // What would be a stat or two per sample (the rules cache, the renderers' wants), as
        // inotify events that wake the sleep only when something changed.
        let reloads = configuration.once ? nil : reloadArguments
        let configPath = reloads == nil ? nil : configuration.configPath ?? SamplerSettings.defaultPath()
        let changes = configuration.once ? nil : ChangeWatch(rulesPath: configuration.rulesPath, configPath: configPath)
        if reloads != nil { SamplerReload.installHandler() }
        // A re-execution kept them blocked until the handlers above were in place.
        SamplerReload.unblockHandledSignals()
        var restart = false
        sampler.changeWatch = changes
        for name in sampler.unresolvedSensorNames {
            // Not fatal: a sensor's driver may load later; the temp block says n/a meanwhile.
            printError("sysstatsd: --sensor \(name): no such temperature sensor (see /sys/class/hwmon)")
        }
        let writer = SnapshotWriter(directory: directory)
        writer.changes = changes
        // Which parts the running renderers show (not for one snapshot: everything then).
        let wants = configuration.once ? nil : RendererWants()
        // `--textfile-dir`: refused at start when it is not a usable directory; its buffer
        // exists only then.
        var textfile: TextfileWriter?
        if let path = configuration.textfileDirectory {
            switch TextfileWriter.open(path) {
            case .success(let t): textfile = t
            case .failure(let e):
                // A directory that cannot be used as given is a bad command line (or [sampler]).
                printError("sysstatsd: \(e)")
                return 2
            }
        }
        let textfileIntervalNs = UInt64(configuration.textfileIntervalSeconds) * 1_000_000_000
        var textfileDue: UInt64 = 0
        var reportedTextfileError = false
        let intervalNs = UInt64(configuration.intervalMs) * 1_000_000
        var reportedWriteError = false
        let wantsHistory = !configuration.once && configuration.history
        // How earlier boots ended, from the history writer (the sampler has no SQLite).
        let boots = textfile != nil && wantsHistory ? dataDirectory(configuration).map { BootSummaryReader(dataDirectory: $0) } : nil

        sampler.sample(realtimeMs: Clock.realtimeMs(), monotonicNs: Clock.monotonicNs())
        var history = wantsHistory ? startHistory(configuration, first: sampler.snapshot) : nil
        // The first sample has no rates (CPU shares, I/O per second): it is not published. The
        // second comes soon after (the priming interval), so the first snapshot a bar shows
        // after start carries real figures; then the samples follow every interval from there.
        let primeNs = configuration.once ? intervalNs : min(intervalNs, SamplerLoop.primingIntervalNs)
        var deadline = Clock.monotonicNs() &+ primeNs
        // `--exit-when-unwatched`: counted from the start (a renderer registers within seconds).
        let startedNs = Clock.monotonicNs()
        let unwatchedLimitNs = configuration.exitWhenUnwatchedSeconds.map { UInt64($0) * 1_000_000_000 }
        while stopRequested == 0 {
            if let changes { changes.sleep(untilMonotonicNs: deadline) } else { Clock.sleep(untilMonotonicNs: deadline) }
            if stopRequested != 0 { break }
            if let reloads, reloadRequested != 0 || changes?.takeConfigChange() == true {
                reloadRequested = 0
                switch SamplerReload.decide(arguments: reloads, running: configuration) {
                case .unchanged: break
                case .refused(let why): printError("sysstatsd: \(why); keeping the running settings")
                case .restart: restart = true
                }
                if restart { break }
            }
            let now = Clock.monotonicNs()
            if let wants {
                sampler.shownParts = wants.update(in: writer.directory.descriptor, monotonicNs: now, changes: changes)
                if wants.takeNamesChange() { sampler.measureAlso(wants.named) }
            }
            // While a renderer is counted it runs; once none is, the limit counts from the last
            // time one was seen alive (a killed bar is noticed at the next 30-s look).
            if let limit = unwatchedLimitNs, let wants, wants.shown == nil, now &- max(wants.watchedNs, startedNs) >= limit {
                printError("sysstatsd: no renderer has been running for \(limit / 1_000_000_000) s (--exit-when-unwatched); stopping")
                break
            }
            sampler.sample(realtimeMs: Clock.realtimeMs(), monotonicNs: now)
            switch sampler.write(to: writer) {
            case .success:
                if reportedWriteError { printError("sysstatsd: writing \(writer.path) again") }
                reportedWriteError = false
            case .failure(.takenOver(let e)):
                printError("sysstatsd: the runtime directory was re-created and another sysstatsd took it: \(e); stopping")
                return 1
            case .failure(let e):
                if configuration.once {
                    printError("sysstatsd: cannot write \(writer.path): \(e)")
                    return 1
                }
                if !reportedWriteError { printError("sysstatsd: cannot write \(writer.path): \(e) (will retry)") }
                reportedWriteError = true
            }
            // From the second sample on (the first has no CPU shares yet), then every textfile
            // interval, counted on the samples' deadlines (not the wake-up times, which jitter:
            // a wake-up a few µs early would skip a write).
            if let t = textfile, deadline >= textfileDue {
                var counters = sampler.prometheusCounters
                counters.boots = boots?.read()
                switch t.write(sampler.snapshot, counters: counters) {
                case .success:
                    if reportedTextfileError { printError("sysstatsd: writing \(t.path) again") }
                    reportedTextfileError = false
                case .failure(let e):
                    if configuration.once {
                        printError("sysstatsd: cannot write \(t.path): \(e)")
                        return 1
                    }
                    if !reportedTextfileError { printError("sysstatsd: cannot write \(t.path): \(e) (will retry)") }
                    reportedTextfileError = true
                }
                textfileDue = deadline &+ textfileIntervalNs
            }
            if configuration.once { break }
            if history != nil {
                if let batch = history!.collector.record(sampler.snapshot, exitNames: sampler.exitNames) {
                    history!.handoff.send(batch)
                } else if history!.handoff.hasRunningWriters {
                    history!.handoff.reap()
                }
            }
            deadline &+= intervalNs
            // After a suspend or a long stall, start again from now instead of catching up.
            if deadline < now { deadline = now &+ intervalNs }
        }
        if var h = history {
            if let dropped = h.handoff.finish(h.collector.finish(nowMs: Clock.realtimeMs()),
                                              deadlineMs: configuration.shutdownDeadlineMs) {
                printError(dropped)
            }
            history = nil
        }
        if restart, let reloads {
            printError("sysstatsd: the [sampler] settings changed (\(configPath ?? "config")); starting again with them")
            let why = SamplerReload.restart(arguments: reloads)
            printError("sysstatsd: cannot start again: \(why); stopping")
            return 1
        }
        return 0
    }

    /// The collector and the writer hand-off, with the boot recorded by a first batch;
    /// nil (after one line on stderr) when history cannot be kept.
    /// `--data-dir`, else the XDG rule (history and the bookmark rules cache live there).
    private static func dataDirectory(_ configuration: SamplerConfiguration) -> String? {
        DataDirectory.resolve(dataDir: configuration.dataDirectory,
                              xdgDataHome: environmentValue("XDG_DATA_HOME"), home: environmentValue("HOME"))
    }

    private static func startHistory(_ configuration: SamplerConfiguration, first: Snapshot) -> (collector: HistoryCollector, handoff: HistoryHandoff)? {
        guard let directory = dataDirectory(configuration) else {
            printError("sysstatsd: no data directory (give --data-dir, or set XDG_DATA_HOME or HOME); running without history")
            return nil
        }
        guard let writer = HistoryHandoff.defaultWriterPath() else {
            printError("sysstatsd: cannot find this program's path to start sysstatsd-history; running without history")
            return nil
        }
        guard let bootID = BootID.read(procRoot: configuration.procRoot) else {
            printError("sysstatsd: cannot read the boot id (\(configuration.procRoot)/sys/kernel/random/boot_id); running without history")
            return nil
        }
        let uptime = first.uptimeCentiseconds / 100
        let collector = HistoryCollector(bootID: bootID.description, bootTime: first.bootTime, uptimeSeconds: uptime)
        let handoff = HistoryHandoff(writerPath: writer, dataDirectory: directory)
        handoff.send(collector.startBatch(uptimeSeconds: uptime, nowMs: first.timestampMs))
        return (collector, handoff)
    }

    private static func installSignalHandlers() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in stopRequested = 1 }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0  // no SA_RESTART: the sleep returns EINTR at once
        sigaction(SIGTERM, &action, nil)
        sigaction(SIGINT, &action, nil)
        signal(SIGPIPE, SIG_IGN)
    }
}

/// Prints one line to stderr, in one unbuffered write.
public func printError(_ message: String) {
    var line = message
    line.append("\n")
    line.withUTF8 { bytes in _ = Glibc.write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
}

