// The command blocks' children (i3blocks' model): each block's command runs through
// `/bin/sh -c` in a process group of its own, on its interval, on SIGRTMIN+n, on a click,
// or for good (`persist`). The event loop polls their output pipes (non-blocking) and
// reaps them on SIGCHLD; it never waits on a child. Output is read into one fixed buffer
// per block: a command that prints megabytes costs the bar nothing more than its buffer
// (the rest is read and dropped), and one that hangs past its timeout is killed, group and all.
// A run ends when its command exits: what it wrote is read, and a background process left
// holding the pipe is not waited for. A persistent command's (or a wrapped program's) lines
// are coalesced: the newest line waits for the next update, and its pipe is not read
// meanwhile, so a command that prints as fast as it can costs the bar a bounded share of a core.

import BarCore
import CBarSys

/// The running state of the command blocks.
struct CommandRunner {
    /// Bytes kept of one run's output (or of one line of a persistent command).
    static let bufferSize = 4096
    /// A persistent command that ended is started again after this, doubling up to a minute
    /// (whether or not it printed); one that ran longer than a minute starts over at this.
    static let firstBackOffMs: UInt64 = 1000
    static let maximumBackOffMs: UInt64 = 60_000
    /// Bytes kept of the last line a run wrote to stderr.
    static let errorLineLength = 256

    struct Child {
        let blockIndex: Int
        let spec: CommandSpec
        /// The command as a C string.
        let command: [CChar]
        var pid: Int32 = 0
        var fd: Int32 = -1
        /// A run's stderr (-1 for a persistent command or a wrapped program: /dev/null).
        var errorFD: Int32 = -1
        /// The last line the run wrote to stderr (its first 256 bytes): what the shell said
        /// when a command was not found.
        var errorLine: [UInt8] = []
        var errorLineEnded = false
        /// The run was started by a click: its end leaves the interval's schedule as it was.
        var startedByClick = false
        /// A wrapped i3bar program's stdin (click events go there); -1 otherwise.
        var inputFD: Int32 = -1
        /// Click events written to it since it started (the first opens the endless array).
        var clicksWritten = 0
        var buffer: UnsafeMutableRawBufferPointer
        var count = 0
        /// More output than the buffer: the rest of the run (or line) is dropped.
        var overflowed = false
        /// The newest complete line of a persistent command or a flowing wrapped program, not
        /// shown yet (`pendingCount` bytes); its pipe is not polled while one waits.
        var pending: UnsafeMutableRawBufferPointer? = nil
        var pendingCount = 0
        var hasPending = false
        var startedMs: UInt64 = 0
        var nextRunMs: UInt64 = 0
        var backOffMs: UInt64 = CommandRunner.firstBackOffMs
        /// The exit status once reaped, while the pipe still has output to read.
        var exitStatus: Int32? = nil
        var killed = false
        /// The block's keys as its command's environment (``CommandEnvironment``), C strings.
        var baseEnvironment: [[CChar]] = []
        /// What the last run printed, for the next run's environment.
        var feedback: [[CChar]] = []
        /// The environment of the next run (a click's fields), C strings.
        var clickEnvironment: [[CChar]] = []
        /// Something to show since the start: a run ended (or was killed), a persistent
        /// command printed a line, a wrapped program an array (`--once` waits for it).
        var settled = false
    }

    var children: [Child] = []
    /// Where each read lands before its bytes are sorted into a child's buffer.
    let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)
    /// Reads per wake-up and pipe: a command that writes without pause (10,000 lines a second)
    /// is read 64 KiB at a time between the other descriptors, never starving them.
    static let readsPerWake = 16

    init(blocks: [BarBlock]) {
        for (i, block) in blocks.enumerated() {
            // A block of fixed text (full_text, no command) runs nothing.
            guard block.kind.runsCommand, let spec = block.command, !spec.command.isEmpty else { continue }
            var c: [CChar] = []
            // A wrapped program replaces its shell when it can: signals then reach the program.
            if spec.wrapsI3bar && BarConfig.isSimpleCommand(spec.command) && !spec.command.starts(with: "exec ".utf8) { for b in "exec ".utf8 { c.append(CChar(bitPattern: b)) } }
            for b in spec.command { c.append(CChar(bitPattern: b)) }
            c.append(0)
            // A wrapped program's line is a whole array of blocks: room for one.
            let size = spec.wrapsI3bar ? I3barStream.maximumLineLength : CommandRunner.bufferSize
            var child = Child(blockIndex: i, spec: spec, command: c, buffer: .allocate(byteCount: size, alignment: 1))
            child.baseEnvironment = CommandEnvironment.base(spec)
            // A block that waits for a click or a signal has nothing to wait for at the start.
            child.settled = !spec.runsAtStart
            // Pages untouched until a line comes: a buffer never written costs no memory.
            if spec.persist || spec.wrapsI3bar { child.pending = .allocate(byteCount: size, alignment: 1) }
            children.append(child)
        }
    }

    /// Starts every command that runs at the start (an interval, once, repeat, persist) at `nowMs`.
    mutating func startAll(nowMs: UInt64, renderer: inout Renderer) {
        for i in children.indices where children[i].spec.runsAtStart { start(i, nowMs: nowMs, renderer: &renderer) }
    }

    /// Descriptors a poll may need for the children: each one's output and its stderr.
    var pollSlots: Int { children.count * 2 }

    /// Starts child `i` unless it runs already; `byClick`: a click starts it.
    mutating func start(_ i: Int, nowMs: UInt64, renderer: inout Renderer, byClick: Bool = false) {
        guard children[i].pid == 0 else { return }
        var env: [UnsafeMutablePointer<CChar>?] = []
        // After the bar's own environment, and the later of two entries wins in /bin/sh: the
        // block's keys, what its last run printed, the click's fields (i3blocks' order).
        var storage = children[i].baseEnvironment + children[i].feedback + children[i].clickEnvironment
        var fd: Int32 = -1, inputFD: Int32 = -1, errorFD: Int32 = -1
        // A wrapped program takes click events on stdin, a persistent command its clicks.
        let duplex = children[i].spec.wrapsI3bar || children[i].spec.persist
        let pid: Int32 = storage.withUnsafeMutableBufferPointer { all in
            for k in all.indices { env.append(all[k].withUnsafeMutableBufferPointer { $0.baseAddress }) }
            env.append(nil)
            return children[i].command.withUnsafeBufferPointer { cmd in
                env.withUnsafeMutableBufferPointer { e in
                    duplex ? cbarsys_spawn_shell_duplex(cmd.baseAddress!, e.baseAddress!, &fd, &inputFD)
                           : cbarsys_spawn_shell(cmd.baseAddress!, e.baseAddress!, &fd, &errorFD)
                }
            }
        }
        children[i].clickEnvironment.removeAll()
        guard pid > 0 else {
            renderer.setCommandProblem(children[i].blockIndex, "cannot start the command")
            schedule(i, nowMs: nowMs)
            return
        }
        children[i].pid = pid
        children[i].fd = fd
        children[i].errorFD = errorFD
        children[i].errorLine.removeAll(keepingCapacity: true)
        children[i].errorLineEnded = false
        children[i].startedByClick = byClick
        children[i].inputFD = inputFD
        children[i].clicksWritten = 0
        children[i].count = 0
        children[i].overflowed = false
        children[i].hasPending = false
        children[i].exitStatus = nil
        children[i].killed = false
        children[i].startedMs = nowMs
    }

    /// Runs the commands listening to SIGRTMIN+`offset` now.
    mutating func signal(_ offset: Int32, nowMs: UInt64, renderer: inout Renderer) {
        for i in children.indices where children[i].spec.signal == offset { start(i, nowMs: nowMs, renderer: &renderer) }
    }

    /// A click on the command block named and instanced as `click` says: runs its command with
    /// the click's fields, or, for a persistent one, writes the click to its stdin. False when
    /// no command block has that name and instance.
    mutating func click(_ click: ClickEvent, nowMs: UInt64, renderer: inout Renderer) -> Bool {
        let name = click.blockName
        // A command block marked clickTagged answers only to clicks that came back with the
        // tag (ClickScanner makes those `.command`); the untagged ones are the built-in block's.
        for i in children.indices where !children[i].spec.wrapsI3bar && children[i].spec.name == name
            && children[i].spec.instance == click.instance && (!children[i].spec.clickTagged || click.block == .command) {
            if children[i].spec.persist {
                // Never blocks: a click the pipe has no room for is dropped.
                guard children[i].inputFD >= 0 else { return true }
                let line = CommandEnvironment.clickLine(click, children[i].spec)
                _ = line.bytes.withUnsafeBytes { write(children[i].inputFD, $0.baseAddress, $0.count) }
            } else if children[i].pid == 0 {
                // A click while the command runs is dropped, as i3blocks 1.5 drops it.
                children[i].clickEnvironment = CommandEnvironment.click(click)
                start(i, nowMs: nowMs, renderer: &renderer, byClick: true)
            }
            return true
        }
        return false
    }

    /// Fills `fds` (from index `first`) with the pipes to poll; returns how many. A pipe whose
    /// newest line waits for the next update is left alone until then (``flushPending(renderer:)``).
    func pollFDs(into fds: UnsafeMutablePointer<pollfd>, from first: Int) -> Int {
        var n = 0
        for c in children {
            if c.fd >= 0 && !c.hasPending {
                fds[first + n] = pollfd(fd: c.fd, events: Int16(POLLIN), revents: 0)
                n += 1
            }
            if c.errorFD >= 0 {
                fds[first + n] = pollfd(fd: c.errorFD, events: Int16(POLLIN), revents: 0)
                n += 1
            }
        }
        return n
    }

    /// Reads what the pipe of `fd` has; true when the block changed (a persistent command's
    /// line, or a run's end seen at end of file after its exit).
    mutating func readOutput(fd: Int32, nowMs: UInt64, renderer: inout Renderer) -> Bool {
        if let i = children.firstIndex(where: { $0.errorFD == fd }) {
            drainErrors(i)
            return false
        }
        guard let i = children.firstIndex(where: { $0.fd == fd }) else { return false }
        let (changed, ended) = drain(i, renderer: &renderer)
        if ended {
            // End of file: the run is over (its status comes with SIGCHLD, maybe already).
            _ = close(fd)
            children[i].fd = -1
            if let status = children[i].exitStatus { finish(i, status: status, nowMs: nowMs, renderer: &renderer); return true }
        }
        return changed
    }

    /// Reads child `i`'s pipe until it is empty (EAGAIN), at its end, or after ``readsPerWake``
    /// reads (one pipe's worth: a writer that never pauses cannot hold the loop). Returns
    /// whether the block changed or a line now waits, and whether the end of file was read.
    private mutating func drain(_ i: Int, renderer: inout Renderer) -> (changed: Bool, ended: Bool) {
        var changed = false
        let fd = children[i].fd
        for _ in 0..<CommandRunner.readsPerWake {
            let n = readSome(fd, scratch)
            if n < 0 { return (changed, false) }   // EAGAIN: more later
            if n == 0 { return (changed, true) }
            for k in 0..<n { if accept(i, scratch[k], renderer: &renderer) { changed = true } }
        }
        return (changed, false)
    }

    /// Reads child `i`'s stderr until it is empty or at its end (then closed), keeping its
    /// last line; at most ``readsPerWake`` reads.
    private mutating func drainErrors(_ i: Int) {
        let fd = children[i].errorFD
        for _ in 0..<CommandRunner.readsPerWake {
            let n = readSome(fd, scratch)
            if n < 0 { return }
            if n == 0 { _ = close(fd); children[i].errorFD = -1; return }
            for k in 0..<n {
                let b = scratch[k]
                if b == 0x0A { children[i].errorLineEnded = true; continue }
                if children[i].errorLineEnded { children[i].errorLine.removeAll(keepingCapacity: true); children[i].errorLineEnded = false }
                if children[i].errorLine.count < CommandRunner.errorLineLength { children[i].errorLine.append(b) }
            }
        }
    }

    /// Shows the newest line of every child that has one waiting: reads what its pipe holds
    /// now first (the line shown is the newest written), then hands it to the renderer.
    /// Returns true when a block changed. Called before every update.
    mutating func flushPending(renderer: inout Renderer) -> Bool {
        var changed = false
        for i in children.indices where children[i].hasPending {
            if children[i].fd >= 0 { _ = drain(i, renderer: &renderer) }
            if showPending(i, renderer: &renderer) { changed = true }
        }
        return changed
    }

    /// Hands child `i`'s waiting line to the renderer; true when the block changed.
    private mutating func showPending(_ i: Int, renderer: inout Renderer) -> Bool {
        guard children[i].hasPending, let pending = children[i].pending else { return false }
        children[i].hasPending = false
        let line = UnsafeRawBufferPointer(rebasing: pending[0..<children[i].pendingCount])
        return show(i, line: line, renderer: &renderer)
    }

    /// One complete line of a persistent command or a wrapped program, shown now.
    private mutating func show(_ i: Int, line: UnsafeRawBufferPointer, renderer: inout Renderer) -> Bool {
        if children[i].spec.wrapsI3bar {
            guard renderer.feedWrapped(children[i].blockIndex, line: line) else { return false }
        } else {
            renderer.setCommandOutput(children[i].blockIndex, line, exitStatus: 0)
        }
        children[i].settled = true
        return true
    }

    /// Child `i`'s line in its buffer is complete: kept as the waiting line (the buffers swap:
    /// no copy), or shown at once while a wrapped program's stream is still opening (its
    /// header and `[` must each be read). Returns true when a line waits or the block changed.
    private mutating func lineEnded(_ i: Int, renderer: inout Renderer) -> Bool {
        defer { children[i].count = 0; children[i].overflowed = false }
        // A wrapped program's line longer than the buffer is dropped whole; a persistent
        // command's shows its first bytes.
        if children[i].spec.wrapsI3bar && children[i].overflowed { return false }
        let flowing = !children[i].spec.wrapsI3bar || renderer.wrappedStreamIsFlowing(children[i].blockIndex)
        guard flowing, let pending = children[i].pending else {
            let line = UnsafeRawBufferPointer(rebasing: children[i].buffer[0..<children[i].count])
            return show(i, line: line, renderer: &renderer)
        }
        children[i].pending = children[i].buffer
        children[i].buffer = pending
        children[i].pendingCount = children[i].count
        children[i].hasPending = true
        children[i].settled = true
        return true
    }

    /// One output byte: into the buffer; a persistent command's newline shows the line.
    private mutating func accept(_ i: Int, _ byte: UInt8, renderer: inout Renderer) -> Bool {
        if byte == 0x0A && (children[i].spec.wrapsI3bar || children[i].spec.persist) {
            return lineEnded(i, renderer: &renderer)
        }
        if children[i].count < children[i].buffer.count {
            children[i].buffer[children[i].count] = byte
            children[i].count += 1
        } else {
            children[i].overflowed = true
        }
        return false
    }

    /// A child ended (SIGCHLD, reaped): its run is over. What it wrote is in the pipe already
    /// (it wrote before it exited) and is read now; the pipe is then closed, without waiting
    /// for its end: a background process the command left may hold it for hours.
    mutating func reaped(pid: Int32, status: Int32, nowMs: UInt64, renderer: inout Renderer) -> Bool {
        guard let i = children.firstIndex(where: { $0.pid == pid }) else { return false }
        if children[i].fd >= 0 { _ = drain(i, renderer: &renderer) }
        finish(i, status: status, nowMs: nowMs, renderer: &renderer)
        return true
    }

    private mutating func finish(_ i: Int, status: Int32, nowMs: UInt64, renderer: inout Renderer) {
        _ = showPending(i, renderer: &renderer)
        let c = children[i]
        children[i].settled = true
        if c.spec.wrapsI3bar {
            // Its blocks give way to the reason; it is started again after the back-off.
            renderer.setCommandProblem(c.blockIndex, status == 0 ? "ended, starting it again" : "failed, starting it again")
            if c.inputFD >= 0 { _ = close(c.inputFD); children[i].inputFD = -1 }
        } else if !c.killed && !c.spec.persist {
            if c.errorFD >= 0 { drainErrors(i) }
            let output = UnsafeRawBufferPointer(rebasing: c.buffer[0..<c.count])
            renderer.setCommandOutput(c.blockIndex, output, exitStatus: status, errorLine: children[i].errorLine)
            children[i].feedback = CommandEnvironment.feedback(output, json: c.spec.json)
        } else if c.spec.persist && c.count > 0 {
            // A last line without its newline.
            renderer.setCommandOutput(c.blockIndex, UnsafeRawBufferPointer(rebasing: c.buffer[0..<c.count]), exitStatus: 0)
        }
        children[i].pid = 0
        children[i].exitStatus = nil
        if c.fd >= 0 { _ = close(c.fd); children[i].fd = -1 }
        if children[i].errorFD >= 0 { _ = close(children[i].errorFD); children[i].errorFD = -1 }
        schedule(i, nowMs: nowMs)
    }

    /// True when every command has something to show (``Child/settled``).
    var allSettled: Bool { children.allSatisfy { $0.settled } }

    /// The longest a first run may take: the longest timeout (persistent ones have none: 5 s).
    var firstRunLimitMs: UInt64 {
        var limit: UInt64 = 0
        for c in children where c.spec.runsAtStart {
            limit = max(limit, c.spec.persist || c.spec.timeoutMs == 0 ? 5_000 : UInt64(c.spec.timeoutMs))
        }
        return limit
    }

    /// Frees the buffers (a reload replaces this runner; after ``stopAll(into:nowMs:)``).
    func deallocate() {
        for c in children {
            c.buffer.deallocate()
            c.pending?.deallocate()
        }
        scratch.deallocate()
    }

    /// Ends every child (the bar exits or reloads its configuration): its group gets SIGTERM
    /// now and SIGKILL after the grace (``StoppingGroups``); its pipes are closed. A line
    /// read and not shown yet stays, for `--once`'s last update.
    mutating func stopAll(into stopping: inout StoppingGroups, nowMs: UInt64) {
        for i in children.indices {
            if children[i].pid != 0 { stopping.terminate(children[i].pid, nowMs: nowMs); children[i].pid = 0 }
            if children[i].fd >= 0 { _ = close(children[i].fd); children[i].fd = -1 }
            if children[i].errorFD >= 0 { _ = close(children[i].errorFD); children[i].errorFD = -1 }
            if children[i].inputFD >= 0 { _ = close(children[i].inputFD); children[i].inputFD = -1 }
        }
    }
}
