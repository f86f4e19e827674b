import CLibc
import Bookmarks
import CommandOptions
import HistoryRecords
import ProcFS
import PrometheusText
import SnapshotCodec
import SystemDirs

/// One run of ``SamplerLoop/run(_:reloadArguments:)``: what the loop keeps between samples
/// and each step of an iteration (the sleep, a reload, the program's own file, the unwatched
/// limit, publishing, history, the end).
final class SamplerRun {
    let configuration: SamplerConfiguration
    let sampler: Sampler
    let writer: SnapshotWriter
    /// What would be a stat or two per sample (the rules cache, the renderers' wants), as
    /// inotify events that wake the sleep only when something changed.
    let changes: ChangeWatch?
    /// Which parts the running renderers show (not for one snapshot: everything then).
    let wants: RendererWants?
    let textfile: TextfileWriter?
    /// How earlier boots ended, from the history writer (the sampler has no SQLite).
    let boots: BootSummaryReader?
    var history: (collector: HistoryCollector, handoff: HistoryHandoff)?
    let reloads: [[UInt8]]?
    let configPath: String?
    var restart = false
    /// The restart is for a new program at this one's path, not for new settings.
    var restartForProgram = false
    /// The file this program was started from, looked at each minute's turn (ProgramFollow.swift);
    /// nil with `--once` or where /proc/self/exe cannot be read.
    var program: ProgramFile?
    let textfileIntervalNs: UInt64
    var textfileDue: UInt64 = 0
    var reportedWriteError = false
    var reportedTextfileError = false
    /// `--exit-when-unwatched`: counted from the start (a renderer registers within seconds).
    let startedNs: UInt64
    /// A removed program sets it when none was given (ProgramFollow.swift).
    var unwatchedLimitNs: UInt64?

    init(_ configuration: SamplerConfiguration, _ directory: OpenRuntimeDirectory, textfile: TextfileWriter?,
         reloadArguments: [[UInt8]]?) {
        // The minute the image before this one was collecting (a restart in place): taken,
        // and gone from the environment before anything is started.
        let carriedMinute = getenv(MinuteRollup.environmentName).map { String(cString: $0) }
        unsetenv(MinuteRollup.environmentName)
        self.configuration = configuration
        sampler = Sampler(configuration: configuration)
        reloads = configuration.once ? nil : reloadArguments
        configPath = reloads == nil ? nil : configuration.configPath ?? SamplerSettings.defaultPath()
        changes = configuration.once ? nil : ChangeWatch(rulesPath: configuration.rulesPath, configPath: configPath)
        if reloads != nil { SamplerReload.installHandler() }
        // A re-execution kept them blocked until the handlers above were in place.
        SamplerReload.unblockHandledSignals()
        sampler.changeWatch = changes
        sampler.pushesSignalWhenReadable = changes?.isSignalled ?? false
        for name in sampler.unresolvedSensorNames {
            // Not fatal: a sensor's driver may load later; the temp block says n/a meanwhile.
            printError("sysstatsd: --sensor \(name): no such temperature sensor (see /sys/class/hwmon)")
        }
        writer = SnapshotWriter(directory: directory)
        writer.changes = changes
        wants = configuration.once ? nil : RendererWants()
        self.textfile = textfile
        textfileIntervalNs = UInt64(configuration.textfileIntervalSeconds) * 1_000_000_000
        let wantsHistory = !configuration.once && configuration.history
        boots = textfile != nil && wantsHistory
            ? SamplerLoop.dataDirectory(configuration).map { BootSummaryReader(dataDirectory: $0) } : nil
        sampler.sample(realtimeMs: Clock.realtimeMs(), monotonicNs: Clock.monotonicNs())
        for line in sampler.takePartNotices() { printError("sysstatsd: " + TerminalText.escape(line)) }   // a path under --sys-root
        history = wantsHistory ? SamplerLoop.startHistory(configuration, first: sampler.snapshot) : nil
        if let carriedMinute, history != nil, !history!.collector.resume(carriedMinute, nowMs: sampler.snapshot.timestampMs) {
            printError("sysstatsd: the minute carried over the restart could not be taken up; its row keeps what came after")
        }
        startedNs = Clock.monotonicNs()
        unwatchedLimitNs = configuration.exitWhenUnwatchedSeconds.map { UInt64($0) * 1_000_000_000 }
        program = reloads == nil ? nil : ProgramFile.current(nowMs: Clock.realtimeMs())
    }

    /// Sleeps until `deadline`; true when it woke early because a helper pushed a change
    /// (the caller publishes it at once).
    func sleep(untilMonotonicNs deadline: UInt64) -> Bool {
        guard let changes else { Clock.sleep(untilMonotonicNs: deadline); return false }
        return changes.sleep(untilMonotonicNs: deadline, pushes: sampler)
    }

    /// True when a SIGHUP or a config change asks for settings that need a restart.
    func takeReload() -> Bool {
        guard let reloads, reloadRequested != 0 || changes?.takeConfigChange() == true else { return false }
        reloadRequested = 0
        switch SamplerReload.decide(arguments: reloads, running: configuration) {
        case .unchanged: break
        case .refused(let why): printError("sysstatsd: \(why); keeping the running settings")
        case .restart: restart = true
        }
        return restart
    }

    /// Reads the renderers' wants; true when `--exit-when-unwatched`'s limit has passed. While
    /// a renderer is counted it runs; once none is, the limit counts from the last time one
    /// was seen alive (a killed bar is noticed at the next 30-s look).
    func isUnwatched(_ now: UInt64) -> Bool {
        guard let wants else { return false }
        sampler.shownParts = wants.update(in: writer.directory.descriptor, monotonicNs: now, changes: changes)
        if wants.takeNamesChange() { sampler.measureAlso(wants.named) }
        guard let limit = unwatchedLimitNs, wants.shown == nil, now &- max(wants.watchedNs, startedNs) >= limit else { return false }
        printError("sysstatsd: no renderer has been running for \(limit / 1_000_000_000) s (--exit-when-unwatched); stopping")
        return true
    }

    /// Writes the snapshot, and the textfile when due; an exit status when the run must end.
    func publish(deadline: UInt64) -> Int32? {
        switch sampler.write(to: writer) {
        case .success:
            if reportedWriteError { printError("sysstatsd: writing \(TerminalText.escape(writer.path)) again") }
            reportedWriteError = false
        case .failure(.takenOver(let e)):
            printError("sysstatsd: the runtime directory was re-created and another sysstatsd took it: \(TerminalText.escape(e.description)); stopping")
            return 1
        case .failure(let e):
            if configuration.once {
                printError("sysstatsd: " + TerminalText.escape("cannot write \(writer.path): \(e)"))
                return 1
            }
            if !reportedWriteError { printError("sysstatsd: " + TerminalText.escape("cannot write \(writer.path): \(e) (will retry)")) }
            reportedWriteError = true
        }
        // From the second sample on (the first has no CPU shares yet), then every textfile
        // interval, counted on the samples' deadlines (not the wake-up times, which jitter:
        // a wake-up a few µs early would skip a write).
        guard let t = textfile, deadline > 0, deadline >= textfileDue else { return nil }   // 0: a push between samples
        var counters = sampler.prometheusCounters
        counters.boots = boots?.read()
        switch t.write(sampler.snapshot, counters: counters) {
        case .success:
            if reportedTextfileError { printError("sysstatsd: writing \(TerminalText.escape(t.path)) again") }
            reportedTextfileError = false
        case .failure(let e):
            if configuration.once {
                printError("sysstatsd: cannot write \(TerminalText.escape(t.path)): \(e)")
                return 1
            }
            if !reportedTextfileError { printError("sysstatsd: cannot write \(TerminalText.escape(t.path)): \(e) (will retry)") }
            reportedTextfileError = true
        }
        textfileDue = deadline &+ textfileIntervalNs
        return nil
    }

    func recordHistory() {
        guard history != nil else { return }
        if let batch = history!.collector.record(sampler.snapshot, exitNames: sampler.exitNames) {
            history!.handoff.send(batch)
        } else if history!.handoff.hasRunningWriters {
            history!.handoff.reap()
        }
    }

    /// Hands the history its last batch and, when the settings changed, starts again with
    /// them. The exit status.
    func finish() -> Int32 {
        if var h = history {
            let last: HistoryBatch
            if restart, reloads != nil {
                // The minute being collected goes on in the next image: no partial row now.
                let (batch, minute) = h.collector.handOver(nowMs: Clock.realtimeMs())
                last = batch
                if let minute { setenv(MinuteRollup.environmentName, minute, 1) }
            } else {
                last = h.collector.finish(nowMs: Clock.realtimeMs())
            }
            if let dropped = h.handoff.finish(last, deadlineMs: configuration.shutdownDeadlineMs) {
                printError(dropped)
            }
            history = nil
        }
        if restart, let reloads {
            // A child survives execv: the helper would be no one's to reap (a zombie per restart).
            sampler.nvidiaHelper?.stop()
            if restartForProgram {
                printError("sysstatsd: \(programName) was replaced (an upgrade?); starting again from the new program")
            } else {
                printError("sysstatsd: the [sampler] settings changed (\(TerminalText.escape(configPath ?? "config"))); starting again with them")
            }
            let why = SamplerReload.restart(arguments: reloads)
            printError("sysstatsd: cannot start again: \(why); stopping")
            return 1
        }
        return 0
    }
}
