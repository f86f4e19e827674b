import CLibc
import Bookmarks
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
            // The path may hold any byte (ProcFS's pathString): shown escaped, as the CLI shows it.
            printError("sysstatsd: " + TerminalText.escape(error.description))
            return 1
        }
        installSignalHandlers()
        var configuration = configuration
        if configuration.rulesPath == nil, let data = dataDirectory(configuration) {
            configuration.rulesPath = DataDirectory.join(data, "bookmarks.rules")
        }
        // `--textfile-dir`: refused at start when it is not a usable directory (a bad command
        // line, or [sampler]); its buffer exists only then.
        var textfile: TextfileWriter?
        if let path = configuration.textfileDirectory {
            switch TextfileWriter.open(path) {
            case .success(let t): textfile = t
            case .failure(let e):
                printError("sysstatsd: \(e)")
                return 2
            }
        }
        let loop = SamplerRun(configuration, directory, textfile: textfile, reloadArguments: reloadArguments)
        let intervalNs = UInt64(configuration.intervalMs) * 1_000_000
        // The first sample has no rates (CPU shares, I/O per second): it is not published. The
        // second comes soon after (the priming interval), so the first snapshot a bar shows
        // after start carries real figures; then the samples follow every interval from there.
        let primeNs = configuration.once ? intervalNs : min(intervalNs, SamplerLoop.primingIntervalNs)
        var deadline = Clock.monotonicNs() &+ primeNs
        while stopRequested == 0 {
            if loop.sleep(untilMonotonicNs: deadline) {
                // A volume pushed between samples: shown now, the samples keep their deadlines.
                if stopRequested != 0 { break }
                if let status = loop.publish(deadline: 0) { return status }
                continue
            }
            if stopRequested != 0 || loop.takeReload() { break }
            let now = Clock.monotonicNs(), wallNow = Clock.realtimeMs()
            // Before this sample can end the minute and start a history writer of a new release.
            if loop.followProgram(realtimeMs: wallNow) || loop.isUnwatched(now) { break }
            loop.sampler.sample(realtimeMs: wallNow, monotonicNs: now)
            if let status = loop.publish(deadline: deadline) { return status }
            if configuration.once { break }
            if !loop.holdsHistory { loop.recordHistory() }
            deadline &+= intervalNs
            // After a suspend or a long stall, start again from now instead of catching up.
            if deadline < now { deadline = now &+ intervalNs }
        }
        return loop.finish()
    }

    /// The collector and the writer hand-off, with the boot recorded by a first batch;
    /// nil (after one line on stderr) when history cannot be kept.
    /// `--data-dir`, else the XDG rule (history and the bookmark rules cache live there).
    static func dataDirectory(_ configuration: SamplerConfiguration) -> String? {
        DataDirectory.resolve(dataDir: configuration.dataDirectory,
                              xdgDataHome: environmentValue("XDG_DATA_HOME"), home: environmentValue("HOME"))
    }

    static func startHistory(_ configuration: SamplerConfiguration, first: Snapshot) -> (collector: HistoryCollector, handoff: HistoryHandoff)? {
        guard let directory = dataDirectory(configuration) else {
            printError("sysstatsd: no data directory (give --data-dir, or set XDG_DATA_HOME or HOME); running without history")
            return nil
        }
        guard let writer = HistoryHandoff.defaultWriterPath() else {
            printError("sysstatsd: cannot find this program's path to start sysstatsd-history; running without history")
            return nil
        }
        guard let bootID = BootID.read(procRoot: configuration.procRoot) else {
            printError("sysstatsd: cannot read the boot id (\(TerminalText.escape(configuration.procRoot))/sys/kernel/random/boot_id); running without history")
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
        clibc_ignore_signal(SIGPIPE)
    }
}

/// Prints one line to stderr after the local time (``LogLine``; none on a terminal or into
/// the journal), in one unbuffered write.
public func printError(_ message: String) {
    LogLine.write(message, to: STDERR_FILENO, stamped: LogLine.stderrWantsTime)
}

