// The event loop: one thread, one poll() over inotify on the runtime dir (the
// sampler's rename wakes it), stdin (i3bar click events) and a signalfd. The
// timers: staleness, and the clock of the time blocks (at the next second or minute,
// snapshot or not). Everything is allocated before the loop.

import BarCoreEmbedded
import CBarSys
import SnapshotCodecEmbedded

/// Where the rendered updates go: stdout, an X11 root window name, a PNG file, a dock window.
///
/// Text outputs get ``show(_:)``; image outputs (``OutputKind/isImage``) get
/// ``showImage(_:)`` with the panel redrawn once per snapshot (and after a click).
public protocol BarSink {
    /// A descriptor the event loop polls besides its own (the X connection), or -1.
    var pollFD: Int32 { get }
    /// Shows one rendered update. Returns 0, or the errno that stopped it (EPIPE: the bar is gone).
    mutating func show(_ line: [UInt8]) -> Int32
    /// Shows the redrawn panel image. Returns 0, or the errno that stopped it.
    /// The image is the renderer's own: copy the pixels to keep them (an X11 sink
    /// keeps a server-side pixmap for exposes).
    mutating func showImage(_ image: PanelImage) -> Int32
    /// Called when ``pollFD`` is readable. Returns the mouse button of a click on the
    /// panel (1 left, 3 right; the loop cycles the graph form and redraws), or 0;
    /// the loop calls it again after a click until it returns 0 (one click per call).
    mutating func handleEvents() -> Int
    /// True when events wait in the sink's own queue that poll() on ``pollFD`` would not
    /// report: an X library reads the socket while it writes. Makes no system call.
    mutating func hasQueuedEvents() -> Bool
}

extension BarSink {
    /// Text sinks show no image.
    public mutating func showImage(_ image: PanelImage) -> Int32 { ENOTSUP }
    /// Sinks without a queue of their own have nothing waiting.
    public mutating func hasQueuedEvents() -> Bool { false }
}

/// Writes each update to stdout with one write().
public struct StdoutSink: BarSink {
    public init() {}
    public var pollFD: Int32 { -1 }
    public mutating func show(_ line: [UInt8]) -> Int32 { line.withUnsafeBytes { writeAll(1, $0) } }
    public mutating func handleEvents() -> Int { 0 }
}

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
    /// At most this many updates a second come from command output (a flood of lines is
    /// coalesced to the newest; i3bar could not draw more anyway).
    static var commandUpdatesPerSecond: UInt64 { 20 }
    static var commandUpdateGapMs: UInt64 { 1000 / commandUpdatesPerSecond }
    /// The last line written (text outputs): an update that would write the same is not written.
    var lastLine: [UInt8] = []
    /// Starts sysstatsd when none runs for this runtime directory.
    var starter: SamplerStarter
    /// The config file (no NUL) and the inotify watch on its directory; nil / -1 without.
    let configPath: [UInt8]?
    var configWatch: Int32 = -1
    /// The poll set: the loop's five descriptors (``fixedFDs``), then the command blocks' pipes.
    var fds: UnsafeMutablePointer<pollfd>
    /// signalfd, inotify, stdin, the sink's, stdout.
    static var fixedFDs: Int { 5 }
    /// Stdout is watched for its reader's end (not for the image outputs, which do not print).
    var watchStdout: Bool
    var fdCapacity: Int

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
        wantsUsage = options.blocks.contains { $0.kind == .selfCost }
        commands = CommandRunner(blocks: renderer.blocks)
        starter = SamplerStarter(options: options, runtimeDir: runtimeDir,
                                 environmentSaysNo: getenv("SYSSTATS_NO_START_SAMPLER").map { $0.pointee != 0 && $0.pointee != 0x30 } ?? false)
        configPath = configFilePath(options)
        fdCapacity = Bar.fixedFDs + commands.children.count
        fds = .allocate(capacity: fdCapacity)
        lastLine.reserveCapacity(8192)
        let page = sysconf(Int32(_SC_PAGESIZE))
        pageKiB = page > 0 ? UInt64(page) / 1024 : 4
    }

    /// Reads and decodes the snapshot into the reused ``snapshot``, from a runtime
    /// directory that passes the sampler's check, and only from a regular file.
    mutating func load() -> LoadResult {
        haveSnapshot = false
        problem = nil
        if !dirChecked {
            switch checkRuntimeDir(dirPath) {
            case .ours:
                dirChecked = true
                registerWants()
            case .missing: return .missing
            case .refused(let why): problem = why; return .refused
            }
        }
        let parts = partsShown
        // The sampler's two files, kept open: one pread when it can tell which is `snapshot`.
        let kept = keptSnapshots.candidate
        if kept >= 0 {
            let n = readWhole(kept, into: fileBuffer, positioned: true)
            if n > 0 {
                do throws(SnapshotDecodeError) {
                    try snapshot.decode(from: UnsafeRawBufferPointer(rebasing: fileBuffer[0..<n]), only: parts)
                    if keptSnapshots.isNext(snapshot.sequence) {
                        keptSnapshots.shownCandidate(sequence: snapshot.sequence)
                        haveSnapshot = true
                        return .fresh
                    }
                } catch {}
            }
            keptSnapshots.lostTrack()
        }
        // A refused file is read once more: the sampler rewrites the file a reader opened one
        // interval before (its two files take turns), and a reader that slow may have read
        // it mid-write; the checksum refused that read, the next open finds the new one.
        for attempt in 0..<2 {
            let (n, fd, identity) = readFileKeepingOpen(snapshotPath, into: fileBuffer)
            if n == notRegularFile { problem = "snapshot is not a regular file: refused"; return .refused }
            if n < 0 {
                if fd >= 0 { _ = close(fd) }
                return .missing
            }
            do throws(SnapshotDecodeError) {
                try snapshot.decode(from: UnsafeRawBufferPointer(rebasing: fileBuffer[0..<n]), only: parts)
                haveSnapshot = true
                if options.once { _ = close(fd) } else { keptSnapshots.shownFromPath(fd, identity, sequence: snapshot.sequence) }
                return .fresh
            } catch {
                _ = close(fd)
                if attempt == 1 { problem = error.message }
            }
        }
        return .refused
    }

    /// Tells the sampler which parts this bar shows (`wants/<pid>` in the runtime dir, removed
    /// at exit): parts no running renderer shows are measured less often. A one-shot run
    /// does not (it reads one snapshot); a picture shows every part. Best effort: without
    /// the file the sampler measures everything every interval.
    func registerWants() {
        if options.once { return }
        let text = partsShown.wantsFileText
        _ = dirPath.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { dir in
                text.withUnsafeBufferPointer { cbarsys_register_wants(dir, $0.baseAddress, Int32($0.count)) }
            }
        }
    }

    /// The parts of the snapshot this bar shows (a picture shows every part): the ones it
    /// decodes, and asks the sampler to measure every interval.
    var partsShown: SnapshotSections { panel != nil ? .all : renderer.partsShown }

    func nowMs() -> UInt64 { UInt64(cbarsys_realtime_ms()) }

    /// True when there is a snapshot and it is not stale.
    func isCurrent(_ now: UInt64) -> Bool {
        haveSnapshot && !snapshot.isStale(nowMs: now)
    }

    /// Renders the current state into the renderer's line (or the panel image), with the
    /// newest line of each command that has one waiting.
    mutating func draw() {
        _ = commands.flushPending(renderer: &renderer)
        let now = nowMs()
        if panel != nil {
            // Optional chaining mutates in place: no copy of the image.
            if isCurrent(now) {
                panel?.render(snapshot, nowMs: now)
            } else if let p = problem {
                panel?.renderMessage(p)
            } else {
                panel?.renderMessage(staleMessage)
            }
            return
        }
        if isCurrent(now) {
            var usage = RendererUsage()
            if wantsUsage {
                let cpu = UInt64(cbarsys_cputime_us()), mono = UInt64(cbarsys_monotonic_ms())
                if lastMonoMs != 0 && mono > lastMonoMs {
                    // µs of CPU per ms of wall time ×10 = hundredths of a percent.
                    usage.cpu = (cpu - lastCPUus) * 10 / (mono - lastMonoMs)
                }
                lastCPUus = cpu; lastMonoMs = mono
                usage.residentKiB = residentKiB(statm: statmPath, buffer: eventBuffer, pageKiB: pageKiB)
            }
            renderer.render(snapshot, nowMs: now, usage: usage)
        } else if let p = problem {
            renderer.renderMessage(p, nowMs: now)
        } else {
            renderer.renderMessage(staleMessage, nowMs: now)
        }
    }

    /// Draws and writes one update (one write()), unless it is the line written last. Exits 0
    /// when stdout is gone.
    mutating func emit() {
        if paused { return }
        draw()
        lastEmitMs = nowMs()
        emitDueMs = nil
        if panel == nil {
            if renderer.line.bytes == lastLine { return }
            lastLine.removeAll(keepingCapacity: true)
            lastLine.append(contentsOf: renderer.line.bytes)
        }
        let err = showDrawn()
        if err == EPIPE { exitBar(0) }
        if err != 0 { reportWriteFailure(err); exitBar(1) }
    }

    /// An update that command output asked for: now, or when ``commandUpdateGapMs`` has passed
    /// since the last one (the lines that come meanwhile are coalesced to the newest).
    mutating func emitSoon() {
        let now = nowMs()
        if now < lastEmitMs || now >= lastEmitMs + Bar.commandUpdateGapMs {
            emit()
        } else if emitDueMs == nil {
            emitDueMs = lastEmitMs + Bar.commandUpdateGapMs
        }
    }

    /// Ends the bar: every command block's group gets SIGTERM, then SIGKILL after its grace,
    /// and is reaped before the exit, so no command outlives the bar.
    mutating func exitBar(_ status: Int32) -> Never {
        commands.stopAll(into: &stopping, nowMs: nowMs())
        stopping.finish(nowMs: { UInt64(cbarsys_realtime_ms()) })
        exit(status)
    }

    /// The one line on stderr for a failed update: what could not be written, and why.
    func reportWriteFailure(_ err: Int32) {
        if panel == nil {
            writeFailed("sysstats-bar: cannot write to stdout: ", err)
        } else if let path = options.imagePath {
            writeFailed("sysstats-bar: cannot write the panel image ", path: path, err)
        } else {
            writeFailed("sysstats-bar: cannot show the panel image: ", err)
        }
    }

    /// Hands what ``draw()`` drew to the sink: the image for image outputs, else the line.
    mutating func showDrawn() -> Int32 {
        if let p = panel { return sink.showImage(p.image) }
        return sink.show(renderer.line.bytes)
    }

    /// A click reported by the sink (an X ButtonPress on the panel): next/previous graph form.
    mutating func panelClick(_ button: Int) {
        guard button != 0, panel != nil else { return }
        if panel?.click(button: button) == true { emit() }
    }

    /// Watches the runtime dir for the sampler's rename; false when the dir is not there (yet).
    mutating func addWatch() -> Bool {
        // Only the exchange (or rename) of `snapshot` wakes us: writes into .snapshot.tmp do not.
        // IN_MOVED_FROM only keeps two IN_MOVED_TO of `snapshot` apart: inotify merges an event
        // into an identical one just before it (the cookie is not compared), and a rename
        // followed by an exchange would otherwise read as one exchange (``KeptSnapshots``).
        // IN_DELETE: `snapshot` deleted says the directory is being removed (`rm -rf`). Its
        // IN_DELETE_SELF comes only once nothing holds it, and the files this bar keeps open
        // hold it (a file pins its directory), as may the sampler's: without this the bar would
        // watch the old directory for good after the sampler made a new one.
        let mask = UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM) | UInt32(IN_DELETE) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)
            | UInt32(IN_MASK_ADD)
        watch = dirPath.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { inotify_add_watch(inotifyFD, $0, mask) }
        }
        // A config file in a directory that came back: watch it again.
        if watch >= 0 { addConfigWatch() }
        return watch >= 0
    }

    /// Reads pending inotify events (one read; poll wakes again if more are left);
    /// true when the snapshot was replaced (or events were lost).
    mutating func readInotify() -> Bool {
        var changed = false
        do {
            let n = readSome(inotifyFD, eventBuffer)
            if n <= 0 { return false }
            var off = 0
            while off + 16 <= n {
                let wd = eventBuffer.load(fromByteOffset: off, as: Int32.self)
                let mask = eventBuffer.load(fromByteOffset: off + 4, as: UInt32.self)
                let len = Int(eventBuffer.load(fromByteOffset: off + 12, as: UInt32.self))
                if wd >= 0 && wd == configWatch {
                    if mask & UInt32(IN_IGNORED) != 0 { configWatch = -1 }
                    if isConfigName(off + 16, len) && mask & (UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE)) != 0 {
                        configChanged = true
                    }
                    // The same directory as the runtime dir's: one watch, read for both.
                    if wd != watch { off += 16 + len; continue }
                }
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    changed = true
                    keptSnapshots.lostTrack()
                }
                // Only the runtime watch's own: an IN_IGNORED left queued for a watch removed
                // earlier (the directory went and came back) must not drop the one added since.
                let gone = mask & (UInt32(IN_IGNORED) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)) != 0
                let going = mask & UInt32(IN_DELETE) != 0 && isSnapshotName(off + 16, len)
                if wd == watch && (gone || going) {
                    // The dir went away (or is going): drop the watch and the files kept open in
                    // it, and look for the directory again on the timer (the sampler re-creates it).
                    // While it is going, nothing is read or written there now (the bar's wants file
                    // would race `rm -rf`); the staleness timer says so if it stays away.
                    if watch >= 0 { _ = inotify_rm_watch(inotifyFD, watch) }
                    watch = -1
                    dirChecked = false
                    if gone { changed = true }
                    keptSnapshots.forget()
                }
                if mask & UInt32(IN_MOVED_TO) != 0 && isSnapshotName(off + 16, len) {
                    changed = true
                    keptSnapshots.noteSnapshotMoved()
                } else if mask & UInt32(IN_MOVED_TO) != 0 && isName(".snapshot.tmp", off + 16, len) {
                    keptSnapshots.noteSpareMoved()
                }
                off += 16 + len
            }
            keptSnapshots.endOfEvents()
        }
        return changed
    }

    /// Set by ``readInotify()`` when the config file was written or replaced.
    var configChanged = false

    /// True when the event name at `offset` (NUL-padded, `len` bytes) is the config file's.
    func isConfigName(_ offset: Int, _ len: Int) -> Bool {
        guard let path = configPath else { return false }
        var start = path.count
        while start > 0 && path[start - 1] != UInt8(ascii: "/") { start -= 1 }
        let count = path.count - start
        guard len >= count, count > 0 else { return false }
        for i in 0..<count where eventBuffer[offset + i] != path[start + i] { return false }
        return len == count || eventBuffer[offset + count] == 0
    }

    /// Watches the config file's directory for the file being written or replaced.
    mutating func addConfigWatch() {
        guard configWatch < 0, let path = configPath else { return }
        var dir = path
        while let last = dir.last, last != UInt8(ascii: "/") { dir.removeLast() }
        if dir.count > 1 { dir.removeLast() }
        guard !dir.isEmpty else { return }
        dir.append(0)
        // IN_MASK_ADD: when the config file lives in the runtime directory, inotify returns the
        // same watch, whose mask this adds to rather than replaces.
        let mask = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE) | UInt32(IN_MASK_ADD)
        configWatch = dir.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { inotify_add_watch(inotifyFD, $0, mask) }
        }
    }

    /// Reads the config file again: a good one replaces the blocks, the theme and the command
    /// children; a bad or missing one keeps them and shows why in a notice block.
    mutating func reloadConfig() {
        guard let path = configPath else { return }
        switch loadConfig(path, explicit: true) {
        case .none: return
        case .failed(let line):
            renderer.notice = line
        case .loaded(let config):
            let o = options.applying(config)
            var fresh = Renderer(output: o.output, blocks: o.blocks, formats: o.formats, theme: o.theme, streaming: !o.once)
            fresh.memForm = renderer.memForm
            fresh.continueStream()
            commands.stopAll(into: &stopping, nowMs: nowMs())
            commands.deallocate()
            options = o
            renderer = fresh
            if dirChecked { registerWants() }
            commands = CommandRunner(blocks: renderer.blocks)
            if Bar.fixedFDs + commands.children.count > fdCapacity {
                fds.deallocate()
                fdCapacity = Bar.fixedFDs + commands.children.count
                fds = .allocate(capacity: fdCapacity)
            }
            commands.startAll(nowMs: nowMs(), renderer: &renderer)
            // The snapshot was decoded for the old blocks: read it for the new ones.
            if dirChecked { _ = load() }
        }
        emit()
    }

    /// True when the event name at `offset` (NUL-padded, `len` bytes) is `snapshot`.
    func isSnapshotName(_ offset: Int, _ len: Int) -> Bool { isName("snapshot", offset, len) }

    /// True when the event name at `offset` (NUL-padded, `len` bytes) is `name`.
    func isName(_ name: StaticString, _ offset: Int, _ len: Int) -> Bool {
        let count = name.utf8CodeUnitCount
        guard len > count else { return len == count && matches(offset, name) }
        return matches(offset, name) && eventBuffer[offset + count] == 0
    }

    private func matches(_ offset: Int, _ name: StaticString) -> Bool {
        let p = name.utf8Start
        for i in 0..<name.utf8CodeUnitCount where eventBuffer[offset + i] != p[i] { return false }
        return true
    }

    /// Handles pending signals; exits on SIGTERM/SIGINT.
    mutating func readSignals() {
        while true {
            let n = readSome(signalFD, eventBuffer)
            if n < 128 { return }
            var off = 0
            while off + 128 <= n {
                let signo = Int32(eventBuffer.load(fromByteOffset: off, as: UInt32.self))
                if signo == SIGTERM || signo == SIGINT { exitBar(0) }
                if signo == SIGUSR1 { paused = true }
                if signo == SIGUSR2 && paused { paused = false; emit() }
                if signo == SIGCHLD { reapChildren() }
                if signo == SIGHUP { reloadConfig() }
                // Every real-time signal is read here; one no block listens to does nothing.
                if signo >= cbarsys_sigrtmin() { commands.signal(signo - cbarsys_sigrtmin(), nowMs: nowMs(), renderer: &renderer) }
                off += 128
            }
        }
    }

    /// Reaps every child that ended; redraws when a command block changed.
    mutating func reapChildren() {
        var changed = false
        var status: Int32 = 0
        while true {
            let pid = cbarsys_reap(&status)
            if pid <= 0 { break }
            if commands.reaped(pid: pid, status: status, nowMs: nowMs(), renderer: &renderer) { changed = true }
        }
        if !stopping.isEmpty { stopping.sweep(nowMs: nowMs()) }
        if changed { emitSoon() }
    }

    /// A click action's command, detached (its own session: the bar neither waits nor owns it
    /// beyond reaping it), with i3blocks' variables.
    func runDetached(_ command: [UInt8], _ click: ClickEvent) {
        var c: [CChar] = command.map { CChar(bitPattern: $0) }
        c.append(0)
        var storage: [[CChar]] = [environmentEntry("BLOCK_BUTTON=", click.button), environmentEntry("BLOCK_X=", click.x),
                                  environmentEntry("BLOCK_Y=", click.y)]
        var name: [CChar] = Array("BLOCK_NAME=".utf8).map { CChar(bitPattern: $0) }
        name.append(contentsOf: click.block.name.utf8Start.withMemoryRebound(to: CChar.self, capacity: click.block.name.utf8CodeUnitCount) {
            Array(UnsafeBufferPointer(start: $0, count: click.block.name.utf8CodeUnitCount))
        })
        name.append(0)
        storage.append(name)
        var instance: [CChar] = Array("BLOCK_INSTANCE=".utf8).map { CChar(bitPattern: $0) }
        instance.append(contentsOf: click.instance.filter { $0 != 0 }.map { CChar(bitPattern: $0) })
        instance.append(0)
        storage.append(instance)
        var env: [UnsafeMutablePointer<CChar>?] = []
        storage.withUnsafeMutableBufferPointer { all in
            for k in all.indices { env.append(all[k].withUnsafeMutableBufferPointer { $0.baseAddress }) }
            env.append(nil)
            _ = c.withUnsafeBufferPointer { cmd in env.withUnsafeMutableBufferPointer { cbarsys_spawn_detached(cmd.baseAddress!, $0.baseAddress!) } }
        }
    }

    /// Reads click events from stdin; false at end of file (clicks are then off).
    mutating func readStdin() -> Bool {
        let n = readSome(0, eventBuffer)
        if n == 0 || n == -Int(EBADF) || n == -Int(EINVAL) { return false }
        if n < 0 { return true }
        var changed = false
        let bytes = UnsafeRawBufferPointer(rebasing: eventBuffer[0..<n])
        var position = 0
        while let click = clicks.next(in: bytes, position: &position) {
            if click.wrappedBlock >= 0 {
                commands.forward(click, renderer: renderer)
            } else if click.block == .command {
                _ = commands.click(name: click.name[...], instance: click.instance[...], button: click.button,
                                   x: click.x, y: click.y, nowMs: nowMs(), renderer: &renderer)
            } else {
                switch renderer.click(click) {
                case .none: break
                case .redraw: changed = true
                case .run(let command): runDetached(command, click)
                }
            }
        }
        if changed { emit() }
        return true
    }

    /// Runs until a signal ends it or stdout closes.
    public mutating func run() -> Never {
        cbarsys_ignore_sigpipe()
        signalFD = cbarsys_signalfd()
        inotifyFD = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
        if signalFD < 0 || inotifyFD < 0 { writeError("sysstats-bar: cannot set up signalfd/inotify"); exit(1) }
        // Stdin stays as it is (blocking): its open file description is shared with whoever
        // started the bar (a terminal, a pipe), and a flag set on it would outlive the bar.
        // It is read only after poll() says it is readable, which a read does not block.
        // No sampler for this runtime directory: start one (it creates the directory, which
        // the watch below then finds).
        _ = starter.startIfNeeded(nowMs: nowMs())
        if options.output == .i3bar {
            // The header alone in the first write: bars decide JSON vs text from it.
            let h = i3barHeader
            if writeAll(1, UnsafeRawBufferPointer(start: h.utf8Start, count: h.utf8CodeUnitCount)) == EPIPE { exit(0) }
        }
        _ = addWatch()
        addConfigWatch()
        _ = load()
        commands.startAll(nowMs: nowMs(), renderer: &renderer)
        emit()
        while true {
            let now = nowMs()
            var timeout: Int32 = -1
            if watch < 0 || (!dirChecked && problem != nil) {
                // No directory to watch yet, or a refused one: look again every 2 s.
                timeout = 2000
            } else if isCurrent(now) {
                timeout = Int32(min(snapshot.msUntilStale(nowMs: now), 3_600_000))
            }
            if let tick = renderer.nextClockTick(after: now), !paused {
                let untilTick = Int32(min(tick - now, 3_600_000))
                timeout = timeout < 0 ? untilTick : min(timeout, untilTick)
            }
            if !isCurrent(now) && starter.enabled {
                // Nothing current to show: look for a sampler again when the retry is due.
                let untilRetry = Int32(min(starter.isDue(nowMs: now) ? 0 : starter.lastAttemptMs + SamplerStarter.retryMs - now, 3_600_000))
                timeout = timeout < 0 ? untilRetry : min(timeout, untilRetry)
            }
            for due in [commands.nextDeadline(), stopping.nextDeadline, emitDueMs] {
                guard let due else { continue }
                let untilDue = Int32(min(due > now ? due - now : 0, 3_600_000))
                timeout = timeout < 0 ? untilDue : min(timeout, untilDue)
            }
            // Events the X library read off the socket while it wrote (showing an image): a window
            // manager's notice, a click. poll() would not wake for them.
            if sink.hasQueuedEvents() {
                var button = sink.handleEvents()
                while button != 0 { panelClick(button); button = sink.handleEvents() }
                continue
            }
            fds[0] = pollfd(fd: signalFD, events: Int16(POLLIN), revents: 0)
            fds[1] = pollfd(fd: inotifyFD, events: Int16(POLLIN), revents: 0)
            fds[2] = pollfd(fd: readClicks ? 0 : -1, events: Int16(POLLIN), revents: 0)
            fds[3] = pollfd(fd: sink.pollFD, events: Int16(POLLIN), revents: 0)
            // Stdout, for its end alone (no event asked): the bar that read it has gone.
            fds[4] = pollfd(fd: watchStdout ? 1 : -1, events: 0, revents: 0)
            let children = commands.pollFDs(into: fds, from: Bar.fixedFDs)
            let ready = poll(fds, nfds_t(Bar.fixedFDs + children), timeout)
            if ready < 0 {
                if cbarsys_errno() == EINTR { continue }
                writeError("sysstats-bar: poll failed"); exitBar(1)
            }
            if !stopping.isEmpty { stopping.sweep(nowMs: nowMs()) }
            if ready == 0 {
                // Staleness timer, the clock, a command due, or the retry for a missing or refused runtime dir.
                // Nothing current: start a sampler if none runs (the line below then watches its directory).
                if !isCurrent(nowMs()) { _ = starter.startIfNeeded(nowMs: nowMs()) }
                if watch < 0 && addWatch() { _ = load() } else if !dirChecked { _ = load() }
                _ = commands.runDue(nowMs: nowMs(), renderer: &renderer)
                emit()
                continue
            }
            // Read the results first: a reload (SIGHUP, the config file changed) may replace the poll set.
            let signalsReady = fds[0].revents != 0, inotifyReady = fds[1].revents != 0
            let stdinReady = fds[2].revents != 0, sinkReady = fds[3].revents != 0
            // The reader of stdout closed its end (i3bar, waybar, a pipe's reader exited):
            // exit now rather than at the next write, which may be long (no sampler, no clock).
            if fds[4].revents & Int16(POLLERR | POLLHUP) != 0 { exitBar(0) }
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
            if sinkReady {
                // The X library may have read several events off the socket at once: take every
                // click now, poll() would not wake again for those already queued.
                var button = sink.handleEvents()
                while button != 0 { panelClick(button); button = sink.handleEvents() }
            }
            if let due = emitDueMs, nowMs() >= due { emit() }
        }
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

    /// `--once`: prints the current snapshot (or the stale message) and exits;
    /// status 0 for a current snapshot, 1 otherwise.
    public mutating func runOnce() -> Never {
        cbarsys_ignore_sigpipe()
        runCommandsOnce()
        if case .refused = load(), let p = problem { writeError("sysstats-bar: ", p) }
        let current = isCurrent(nowMs())
        draw()
        let err = showDrawn()
        if err != 0 { reportWriteFailure(err) }
        exitBar(err == 0 && current ? 0 : 1)
    }
}

/// `prefix` and a decimal number, NUL-terminated.
func environmentEntry(_ prefix: StaticString, _ n: Int) -> [CChar] {
    var w = ByteWriter(capacity: 24)
    w.appendDecimal(n)
    return environmentEntry(prefix, w.bytes)
}

/// `prefix` followed by `value` (NUL bytes dropped) and a NUL.
func environmentEntry(_ prefix: StaticString, _ value: [UInt8]) -> [CChar] {
    var out: [CChar] = []
    for i in 0..<prefix.utf8CodeUnitCount { out.append(CChar(bitPattern: prefix.utf8Start[i])) }
    for b in value where b != 0 { out.append(CChar(bitPattern: b)) }
    out.append(0)
    return out
}
