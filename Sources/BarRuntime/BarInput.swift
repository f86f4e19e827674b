// What wakes the bar besides snapshots and timers: signals (a signalfd), children that
// ended (SIGCHLD), clicks on stdin (i3bar's click events) and on the panel (the X sink).

import BarCore
import SnapshotCodec
import CBarSys

extension Bar {
    /// A click reported by the sink (an X ButtonPress on the panel): next/previous graph form.
    mutating func panelClick(_ button: Int) {
        guard button != 0, panel != nil else { return }
        if panel?.click(button: button) == true { emit() }
    }

    /// Handles pending signals; SIGTERM and SIGINT end the bar.
    mutating func readSignals() {
        while true {
            let n = readSome(signalFD, eventBuffer)
            if n < 128 { return }
            var off = 0
            while off + 128 <= n {
                handleSignal(Int32(eventBuffer.load(fromByteOffset: off, as: UInt32.self)))
                if exitStatus != nil { return }
                off += 128
            }
        }
    }

    /// What signal `signo` does: SIGTERM and SIGINT end the bar, SIGUSR1 pauses the output
    /// and SIGUSR2 resumes it (i3bar's stop and cont signals), SIGCHLD reaps, SIGHUP reloads
    /// the config, a real-time one reruns the command blocks that listen to it.
    mutating func handleSignal(_ signo: Int32) {
        if signo == SIGTERM || signo == SIGINT { end(0); return }
        if signo == SIGUSR1 { paused = true }
        if signo == SIGUSR2 && paused { paused = false; emit() }
        if signo == SIGCHLD { reapChildren() }
        if signo == SIGHUP { reloadConfig() }
        // Every real-time signal is read here; one no block listens to does nothing.
        if signo >= cbarsys_sigrtmin() { commands.signal(signo - cbarsys_sigrtmin(), nowMs: nowMs(), renderer: &renderer) }
    }

    /// Reaps every child that ended; redraws when a command block changed.
    mutating func reapChildren() {
        var changed = false
        var status: Int32 = 0
        while true {
            let pid = cbarsys_reap(&status)
            if pid <= 0 { break }
            if commands.reaped(pid: pid, status: status, nowMs: nowMs(), renderer: &renderer) { changed = true }
            if let reason = starter.ended(pid: pid, status: status) {
                // The sampler this bar started failed: its reason, until a snapshot comes.
                samplerProblem = reason
                samplerProblemMs = nowMs()
                changed = true
            }
        }
        if !stopping.isEmpty { stopping.sweep(nowMs: nowMs()) }
        if changed { emitSoon() }
    }

    /// A click action's command, detached (its own session: the bar neither waits nor owns it
    /// beyond reaping it), with i3blocks' variables, and the reading the block shows
    /// (``Renderer/readingEnvironment(of:in:nowMs:)``: `$BLOCK_UNIT` for a unit's block).
    func runDetached(_ command: [UInt8], _ click: ClickEvent, reading: [[UInt8]] = []) {
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
        for entry in reading { storage.append(entry.map { CChar(bitPattern: $0) } + [0]) }
        var env: [UnsafeMutablePointer<CChar>?] = []
        storage.withUnsafeMutableBufferPointer { all in
            for k in all.indices { env.append(all[k].withUnsafeMutableBufferPointer { $0.baseAddress }) }
            env.append(nil)
            _ = c.withUnsafeBufferPointer { cmd in env.withUnsafeMutableBufferPointer { cbarsys_spawn_detached(cmd.baseAddress!, $0.baseAddress!) } }
        }
    }

    /// The shell command that runs helper `program` beside this program with `arguments`
    /// (`exec '/usr/bin/sysstatsd-audio' 'change' 'sink' '500' '10000'`), each word quoted (a
    /// player's name comes from the snapshot): detached like a click's command, so that a
    /// server slow to answer never holds the bar.
    static func helperCommand(_ program: StaticString, _ arguments: [[UInt8]]) -> [UInt8] {
        var path = siblingPath(program)
        if path.last == 0 { path.removeLast() }
        var command: [UInt8] = Array("exec ".utf8)
        appendQuoted(path, to: &command)
        for word in arguments {
            command.append(UInt8(ascii: " "))
            appendQuoted(word, to: &command)
        }
        return command
    }

    /// `word` in single quotes for sh, a quote in it as `'\''`.
    private static func appendQuoted(_ word: [UInt8], to command: inout [UInt8]) {
        command.append(UInt8(ascii: "'"))
        for b in word {
            if b == UInt8(ascii: "'") { command += Array("'\\''".utf8) } else { command.append(b) }
        }
        command.append(UInt8(ascii: "'"))
    }

    /// Reads click events from ``clickInput`` (stdin); false at end of file (clicks are then off).
    mutating func readStdin() -> Bool {
        let n = readSome(clickInput, eventBuffer)
        if n == 0 || n == -Int(EBADF) || n == -Int(EINVAL) { return false }
        if n < 0 { return true }
        var changed = false
        let bytes = UnsafeRawBufferPointer(rebasing: eventBuffer[0..<n])
        var position = 0
        while let click = clicks.next(in: bytes, position: &position) {
            if click.wrappedBlock >= 0 {
                commands.forward(click, renderer: renderer)
            } else if commands.click(click, nowMs: nowMs(), renderer: &renderer) || click.block == .command {
                // A command block's (whatever its name: i3blocks' [time] is one), or no block's.
            } else {
                switch renderer.click(click) {
                case .none: break
                case .redraw: changed = true
                case .run(let command): runDetached(command, click, reading: renderer.readingEnvironment(of: click, in: snapshot, nowMs: nowMs()))
                case .sound(let change): runDetached(Self.helperCommand("sysstatsd-audio", change.arguments), click)
                case .media(let control): runDetached(Self.helperCommand("sysstatsd-media", control.arguments), click)
                case .brightness(let change): runDetached(Self.helperCommand("sysstatsd-media", change.arguments), click)
                }
            }
        }
        if changed { emit() }
        return true
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
