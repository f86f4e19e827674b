// The event loop: one thread, one poll() over inotify on the runtime dir (the
// sampler's rename wakes it), stdin (i3bar click events) and a signalfd. The
// timers: staleness, and the clock of the time blocks (at the next second or minute,
// snapshot or not). Everything is allocated before the loop.

import BarCore
import CommandOptions
import SnapshotCodec
import CBarSys

/// Outcome of reading the snapshot file.
enum LoadResult {
    case fresh
    case missing
    /// Not shown: ``Bar/problem`` says why.
    case refused
}

/// The renderer program's state.
public struct Bar<Sink: BarSink> {
    var sink: Sink
    var renderer: Renderer
    /// The panel image, for image outputs only (nil keeps text modes at their budget).
    var panel: PanelRenderer?
    /// The command line over the config file (a reload replaces it).
    var options: BarOptions
    var snapshot = Snapshot()
    var haveSnapshot = false
    /// The last read found no snapshot (nor perhaps the runtime directory), and none was ever
    /// read: no sampler has run, which is not "stopped" (``absentMessage``).
    var snapshotMissing = false
    var sawSnapshot = false
    /// The sampler's two snapshot files, once seen taking turns.
    var keptSnapshots = KeptSnapshots()
    /// Why there is no snapshot to show although a file may be there: it does not decode,
    /// is not a regular file, or the runtime directory is refused. nil: missing or shown.
    var problem: StaticString? = nil
    /// The runtime directory passed the check and has not gone away since (a directory of
    /// ours cannot change hands: only its owner can chmod it, only root chown it).
    var dirChecked = false

    /// Runtime dir and snapshot path, NUL-terminated.
    let dirPath: [UInt8]
    let snapshotPath: [UInt8]
    let statmPath: [UInt8]
    let fileBuffer: UnsafeMutableRawBufferPointer
    let eventBuffer: UnsafeMutableRawBufferPointer

    var inotifyFD: Int32 = -1
    var watch: Int32 = -1
    var signalFD: Int32 = -1
    var readClicks: Bool
    /// Where click events come from: stdin, where i3bar writes them (a test gives a pipe).
    var clickInput: Int32 = 0
    var clicks = ClickScanner()
    var paused = false
    /// The command blocks' children.
    var commands: CommandRunner
    /// Groups of stopped commands, killed when their grace ends (a reload, the bar's exit).
    var stopping = StoppingGroups()
    /// When the last update was written (realtime ms), and when one a command asked for is due:
    /// command output is shown at most every ``commandUpdateGapMs``.
    var lastEmitMs: UInt64 = 0
    var emitDueMs: UInt64? = nil
    /// The first update waits until then for a mount, sensor or interface the blocks name and
    /// the running sampler did not measure yet (``holdsFirstUpdate(nowMs:)``); nil: not held.
    var firstUpdateHeldUntilMs: UInt64? = nil
    /// At most this many updates a second come from command output (a flood of lines is
    /// coalesced to the newest; i3bar could not draw more anyway).
    static var commandUpdatesPerSecond: UInt64 { 20 }
    static var commandUpdateGapMs: UInt64 { 1000 / commandUpdatesPerSecond }
    /// Why the sampler this bar started ended (its log's last line), shown while there is no
    /// current snapshot; empty: none. Kept until a snapshot written after it comes.
    var samplerProblem: [UInt8] = []
    var samplerProblemMs: UInt64 = 0
    /// The config file's mistake as the bar shows it (``configNotice(_:path:)``); empty: none.
    var configMistake: [UInt8] = []
    /// The file this program was started from, looked at on the loop's wake-ups at each
    /// minute's turn (ProgramFollow.swift); nil: not followed (`--once`, the in-process tests).
    var program: ProgramFile? = nil
    /// That it was removed, leading the line until ``programNoticeUntilMs``; empty: none.
    var programNotice: [UInt8] = []
    var programNoticeUntilMs: UInt64 = 0
    /// The last line written (text outputs): an update that would write the same is not written.
    var lastLine: [UInt8] = []
    /// Set when the bar is to end (stdout gone, SIGTERM, its window closed): the loop returns
    /// this status once the command blocks are stopped. The first reason given wins.
    var exitStatus: Int32? = nil
    /// Starts sysstatsd when none runs for this runtime directory.
    var starter: SamplerStarter
    /// The config file (no NUL) and the inotify watch on its directory; nil / -1 without.
    let configPath: [UInt8]?
    var configWatch: Int32 = -1
    /// While the config's folder does not exist: the name of the next folder on the way to it,
    /// which ``configWatch`` (on its nearest existing ancestor) waits for; empty otherwise.
    var configWatchNext: [UInt8] = []
    /// Set by an event that moves the config's watch (the awaited folder appeared, or the
    /// watched one went); ``readInotify()`` follows it after its events.
    var configWatchMoves = false
    /// Set by ``readInotify()`` when the config file (or an i3blocks file it names) was
    /// written or replaced.
    var configChanged = false
    /// The i3blocks files the config names: the watch on each one's folder and its name.
    var includeWatches: [(watch: Int32, name: [UInt8])] = []
    /// The poll set: the loop's five descriptors (``fixedFDs``), then the command blocks' pipes.
    var fds: UnsafeMutablePointer<pollfd>
    /// signalfd, inotify, stdin, the sink's, stdout.
    static var fixedFDs: Int { 5 }
    /// Stdout is watched for its reader's end (not for the image outputs, which do not print).
    var watchStdout: Bool
    var fdCapacity: Int

    /// The file blocks' looks at the file system (run_watch, path_exists, read_file).
    var looker = FileLooker()

    // The renderer's own cost (for the self block).
    let wantsUsage: Bool
    let pageKiB: UInt64
    var lastCPUus: UInt64 = 0
    var lastMonoMs: UInt64 = 0

    /// Sets up buffers for `options`, reading snapshots from `runtimeDir`, showing them on `sink`.
    public init(options: BarOptions, runtimeDir: [UInt8], sink: Sink) {
        self.sink = sink
        self.options = options
        renderer = Renderer(output: options.output, blocks: options.blocks, formats: options.formats,
                            theme: options.theme, streaming: !options.once)
        panel = options.output.isImage ? PanelRenderer(width: options.width, height: options.height) : nil
        var d = runtimeDir
        var s = runtimeDir
        s.append(contentsOf: [UInt8(ascii: "/")])
        for b in "snapshot".utf8 { s.append(b) }
        d.append(0); s.append(0)
        dirPath = d
        snapshotPath = s
        var st: [UInt8] = []
        for b in "/proc/self/statm".utf8 { st.append(b) }
        st.append(0)
        statmPath = st
        // One byte more than the largest snapshot, so an oversized file is noticed.
        fileBuffer = .allocate(byteCount: SnapshotFormat.maximumEncodedSize + 1, alignment: 16)
        eventBuffer = .allocate(byteCount: 4096, alignment: 16)
        readClicks = options.output == .i3bar && !options.once
        watchStdout = !options.output.isImage
        wantsUsage = options.blocks.contains { $0.kind.descriptor.showsRendererCost }
        commands = CommandRunner(blocks: renderer.blocks)
        starter = SamplerStarter(options: options, runtimeDir: runtimeDir,
                                 environmentSaysNo: getenv("SYSSTATS_NO_START_SAMPLER").map { $0.pointee != 0 && $0.pointee != 0x30 } ?? false)
        configPath = configFilePath(options)
        fdCapacity = Bar.fixedFDs + commands.pollSlots
        fds = .allocate(capacity: fdCapacity)
        lastLine.reserveCapacity(8192)
        let page = sysconf(Int32(_SC_PAGESIZE))
        pageKiB = page > 0 ? UInt64(page) / 1024 : 4
    }

    func nowMs() -> UInt64 { UInt64(cbarsys_realtime_ms()) }

    /// True when there is a snapshot and it is not stale.
    func isCurrent(_ now: UInt64) -> Bool {
        haveSnapshot && !snapshot.isStale(nowMs: now)
    }

    /// Sets up the signal and inotify descriptors, the sampler, the i3bar header, the watches,
    /// the first snapshot, the command blocks and the first line; an exit status when the
    /// bar cannot go on.
    mutating func start() -> Int32? {
        cbarsys_ignore_sigpipe()
        signalFD = cbarsys_signalfd()
        inotifyFD = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
        if signalFD < 0 || inotifyFD < 0 { writeError("sysstats-bar: cannot set up signalfd/inotify"); return 1 }
        // Stdin stays as it is (blocking): its open file description is shared with whoever
        // started the bar (a terminal, a pipe), and a flag set on it would outlive the bar.
        // It is read only after poll() says it is readable, which a read does not block.
        // No sampler for this runtime directory: start one (it creates the directory, which
        // the watch below then finds).
        let continued = takeContinuedStream()
        _ = starter.startIfNeeded(nowMs: nowMs())
        if options.output == .i3bar && continued {
            // Started again in place (ProgramFollow.swift): i3bar has the header and the `[`.
            renderer.continueStream()
        } else if options.output == .i3bar {
            // The header alone in the first write: bars decide JSON vs text from it.
            let h = i3barHeader
            if writeAll(1, UnsafeRawBufferPointer(start: h.utf8Start, count: h.utf8CodeUnitCount)) == EPIPE { return 0 }
        }
        begin()
        return nil
    }

    /// What ``start()`` does once its descriptors are open and the header is written: the
    /// watches, the first snapshot, the command blocks and the first line.
    mutating func begin() {
        _ = addWatch()
        addConfigWatch()
        if case .fresh = load(), isCurrent(nowMs()), renderer.namesMissing(from: snapshot) {
            // The sampler measures what this bar's wants file names from its next sample.
            firstUpdateHeldUntilMs = nowMs() + Bar.namedPartsWaitMs(intervalMs: snapshot.intervalMs)
        }
        commands.startAll(nowMs: nowMs(), renderer: &renderer)
        emit()
    }

    /// How long a first update waits for what its blocks name: two of the sampler's intervals.
    static func namedPartsWaitMs(intervalMs: UInt32) -> UInt64 { min(2 * UInt64(max(intervalMs, 100)) + 100, 20_000) }

    /// Whether the first update still waits for a snapshot with what the blocks name (a bar
    /// that shows `n/a` for a second and then the figures slides, and `--once` would print it).
    mutating func holdsFirstUpdate(nowMs now: UInt64) -> Bool {
        guard let until = firstUpdateHeldUntilMs else { return false }
        if now < until && haveSnapshot && renderer.namesMissing(from: snapshot) { return true }
        firstUpdateHeldUntilMs = nil
        return false
    }

    /// Runs until a signal ends it, stdout closes or its window goes; returns the exit status.
    public mutating func run() -> Int32 {
        if let status = start() { return status }
        while exitStatus == nil { turn() }
        return stopCommands(returning: exitStatus ?? 0)
    }

    /// One turn of the loop: sleep in poll() until a descriptor is ready or the earliest
    /// deadline, then handle what woke it. Sets ``exitStatus`` when the bar is to end.
    mutating func turn() {
        // After the wake-up the turn before handled (none is added for it), and before the poll
        // set is filled: a failed restart starts the command blocks again with new pipes.
        if !paused, program?.isDue(nowMs: nowMs()) == true {
            followProgram()
            if exitStatus != nil { return }
        }
        let now = nowMs()
        let timeout = nextTimeout(now: now)
        // Events the X library read off the socket while it wrote (showing an image): a window
        // manager's notice, a click. poll() would not wake for them.
        if sink.hasQueuedEvents() {
            takeSinkEvents()
            return
        }
        let children = fillPollSet()
        let ready = poll(fds, nfds_t(Bar.fixedFDs + children), timeout)
        if ready < 0 {
            if cbarsys_errno() == EINTR { return }
            writeError("sysstats-bar: poll failed"); end(1); return
        }
        if !stopping.isEmpty { stopping.sweep(nowMs: nowMs()) }
        if ready == 0 {
            // The sink's writes waited their whole time (no POLLOUT came): it ends the bar.
            if sink.writeWaitMs == 0 { takeSinkEvents(); if exitStatus != nil { return } }
            // Staleness timer, the clock, a command due, or the retry for a missing or refused runtime dir.
            // Nothing current: start a sampler if none runs (the line below then watches its directory).
            if !isCurrent(nowMs()) { _ = starter.startIfNeeded(nowMs: nowMs()) }
            if watch < 0 && addWatch() { _ = load() } else if !dirChecked { _ = load() }
            _ = commands.runDue(nowMs: nowMs(), renderer: &renderer)
            emit()
            return
        }
        // Read the results first: a reload (SIGHUP, the config file changed) may replace the poll set.
        let signalsReady = fds[0].revents != 0, inotifyReady = fds[1].revents != 0
        let stdinReady = fds[2].revents != 0, sinkReady = fds[3].revents != 0
        // The reader of stdout closed its end (i3bar, waybar, a pipe's reader exited):
        // exit now rather than at the next write, which may be long (no sampler, no clock).
        if fds[4].revents & Int16(POLLERR | POLLHUP) != 0 { end(0); return }
        if fds[4].revents & Int16(POLLNVAL) != 0 { watchStdout = false }   // no stdout at all: nothing to watch
        var commandChanged = false
        for k in 0..<children where fds[Bar.fixedFDs + k].revents != 0 {
            if commands.readOutput(fd: fds[Bar.fixedFDs + k].fd, nowMs: nowMs(), renderer: &renderer) { commandChanged = true }
        }
        if commands.runDue(nowMs: nowMs(), renderer: &renderer) { commandChanged = true }
        if commandChanged { emitSoon() }
        if signalsReady { readSignals() }
        if inotifyReady {
            let snapshotChanged = readInotify()
            if configChanged { configChanged = false; reloadConfig() }
            if snapshotChanged {
                _ = load()
                if watch < 0 { _ = addWatch() }
                emit()
            }
        }
        if stdinReady && !readStdin() { readClicks = false }
        // Its peer's time up (no POLLOUT came) counts too, though other descriptors woke the loop.
        if sinkReady || sink.writeWaitMs == 0 { takeSinkEvents() }
        if let due = emitDueMs, nowMs() >= due { emit() }
    }

    /// Fills ``fds``: the signalfd, inotify, stdin (while clicks are read), the output's own
    /// descriptor, stdout (for its end alone), then the command blocks' pipes; returns how
    /// many of those there are.
    func fillPollSet() -> Int {
        fds[0] = pollfd(fd: signalFD, events: Int16(POLLIN), revents: 0)
        fds[1] = pollfd(fd: inotifyFD, events: Int16(POLLIN), revents: 0)
        fds[2] = pollfd(fd: readClicks ? clickInput : -1, events: Int16(POLLIN), revents: 0)
        fds[3] = pollfd(fd: sink.pollFD, events: sink.pollEvents, revents: 0)
        // No event asked: its end alone (the bar that read it has gone) shows.
        fds[4] = pollfd(fd: watchStdout ? 1 : -1, events: 0, revents: 0)
        return commands.pollFDs(into: fds, from: Bar.fixedFDs)
    }

    /// How long the loop may sleep in poll(): until the earliest of its deadlines
    /// (``Deadlines``), -1 when none is set.
    func nextTimeout(now: UInt64) -> Int32 {
        var deadlines = Deadlines()
        if watch < 0 || (!dirChecked && problem != nil) {
            // No directory to watch yet, or a refused one: look again every 2 s.
            deadlines.add(in: 2000, from: now)
        } else if isCurrent(now) {
            deadlines.add(in: snapshot.msUntilStale(nowMs: now), from: now)
        }
        if !paused { deadlines.add(renderer.nextClockTick(after: now)) }
        if !isCurrent(now) && starter.enabled {
            // Nothing current to show: look for a sampler again when the retry is due.
            deadlines.add(starter.isDue(nowMs: now) ? now : starter.nextAttemptMs)
        }
        deadlines.add(commands.nextDeadline())
        deadlines.add(stopping.nextDeadline)
        deadlines.add(emitDueMs)
        deadlines.add(firstUpdateHeldUntilMs)
        // The sink's writes wait on its peer: woken to give up on it when its time is up.
        if let wait = sink.writeWaitMs { deadlines.add(in: wait, from: now) }
        return deadlines.timeout(now: now)
    }

    /// `--once` with command blocks: runs each command once (a persistent one or a wrapped
    /// program until its first line or array) and waits for them, each within its timeout,
    /// then ends those still running. Polls their pipes; reaps without SIGCHLD (WNOHANG).
    mutating func runCommandsOnce() {
        guard !commands.children.isEmpty else { return }
        let start = nowMs()
        let limit = start + commands.firstRunLimitMs
        commands.startAll(nowMs: start, renderer: &renderer)
        while !commands.allSettled && nowMs() < limit {
            let children = commands.pollFDs(into: fds, from: 0)
            _ = poll(fds, nfds_t(children), 20)
            let now = nowMs()
            for k in 0..<children where fds[k].revents != 0 {
                _ = commands.readOutput(fd: fds[k].fd, nowMs: now, renderer: &renderer)
            }
            var status: Int32 = 0
            while true {
                let pid = cbarsys_reap(&status)
                if pid <= 0 { break }
                _ = commands.reaped(pid: pid, status: status, nowMs: now, renderer: &renderer)
            }
            _ = commands.runDue(nowMs: now, renderer: &renderer)
        }
        commands.stopAll(into: &stopping, nowMs: nowMs())
    }

    /// `--once` naming a mount, sensor or interface the running sampler does not measure yet
    /// (`disk:/home`, first named here): asks for it (the wants file, removed at exit) and
    /// waits for a snapshot that has it, at most two of the sampler's intervals (a path that
    /// does not exist comes back marked missing: `no such mount`).
    mutating func waitForNamedParts() {
        registerWants(force: true)
        let deadline = nowMs() + Bar.namedPartsWaitMs(intervalMs: snapshot.intervalMs)
        let first = snapshot.sequence
        while nowMs() < deadline {
            _ = poll(nil, 0, 25)
            guard case .fresh = load() else { continue }
            if snapshot.sequence != first && !renderer.namesMissing(from: snapshot) { return }
        }
        // A read that failed last (the sampler mid-write) leaves nothing to show: once more.
        if !haveSnapshot { _ = load() }
    }

    /// `--once`: prints the current snapshot (or the stale message); returns status 0 for a
    /// current snapshot, 1 otherwise.
    public mutating func runOnce() -> Int32 {
        cbarsys_ignore_sigpipe()
        runCommandsOnce()
        let loaded = load()
        if case .refused = loaded, let p = problem { writeError("sysstats-bar: ", p) }
        if case .fresh = loaded, renderer.namesMissing(from: snapshot) { waitForNamedParts() }
        let current = isCurrent(nowMs())
        draw()
        let err = showDrawn()
        if err != 0 { reportWriteFailure(err) }
        return stopCommands(returning: err == 0 && current ? 0 : 1)
    }
}
