// The bar's output writer: an update drawn (with the newest line of each command and the
// notices that lead it) and written once, unless it would write the line written last;
// command output's updates spaced; the loop's end asked for and the command blocks stopped.

import BarCore
import SnapshotCodec
import CBarSys

extension Bar {
    /// Renders the current state into the renderer's line (or the panel image), with the
    /// newest line of each command that has one waiting and the file blocks' looks.
    mutating func draw() {
        _ = commands.flushPending(renderer: &renderer)
        lookAtFiles()
        let now = nowMs()
        if panel != nil {
            // Optional chaining mutates in place: no copy of the image.
            if isCurrent(now) {
                panel?.render(snapshot, nowMs: now)
            } else if let p = problem {
                panel?.renderMessage(p)
            } else {
                let message = absentPanelMessage
                panel?.renderMessage(message)
            }
            return
        }
        // A config mistake's notice, and while nothing current is shown, the started sampler's
        // failure: both lead the line.
        if !samplerProblem.isEmpty && isCurrent(now) && snapshot.timestampMs > samplerProblemMs { samplerProblem.removeAll() }
        if !programNotice.isEmpty && now >= programNoticeUntilMs { programNotice.removeAll() }
        let shownNotice = notice(current: isCurrent(now))
        if renderer.notice != shownNotice { renderer.notice = shownNotice }
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
        } else if samplerProblem.isEmpty && starter.isStarting(nowMs: now) {
            renderer.renderMessage(startingMessage, nowMs: now)
        } else {
            renderer.renderMessage(absentMessage, nowMs: now)
        }
    }

    /// The notice leading the line: the program's removal for a minute after it was seen, the
    /// config file's mistake, and the started sampler's failure while there is no current
    /// snapshot.
    func notice(current: Bool) -> [UInt8] {
        let rest: [UInt8]
        if current || samplerProblem.isEmpty {
            rest = configMistake
        } else if configMistake.isEmpty {
            rest = samplerProblem
        } else {
            rest = configMistake + Array("; ".utf8) + samplerProblem
        }
        if programNotice.isEmpty { return rest }
        return rest.isEmpty ? programNotice : programNotice + Array("; ".utf8) + rest
    }

    /// Draws and writes one update (one write()), unless it is the line written last. Exits 0
    /// when stdout is gone.
    mutating func emit() {
        if paused || exitStatus != nil || holdsFirstUpdate(nowMs: nowMs()) { return }
        draw()
        lastEmitMs = nowMs()
        emitDueMs = nil
        if panel == nil {
            if renderer.line.bytes == lastLine { return }
            lastLine.removeAll(keepingCapacity: true)
            lastLine.append(contentsOf: renderer.line.bytes)
        }
        let err = showDrawn()
        if err == EPIPE { end(0) }
        if err != 0 { reportWriteFailure(err); end(1) }
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

    /// Asks the loop to end with `status` (the first request wins).
    mutating func end(_ status: Int32) {
        if exitStatus == nil { exitStatus = status }
    }

    /// Stops every command block — SIGTERM to its group, then SIGKILL after its grace, and
    /// reaped — and returns `status`: no command outlives the bar.
    mutating func stopCommands(returning status: Int32) -> Int32 {
        commands.stopAll(into: &stopping, nowMs: nowMs())
        stopping.finish(nowMs: { UInt64(cbarsys_realtime_ms()) })
        return status
    }

    /// Takes what the sink has for the loop: every click (the X library may have read
    /// several events off the socket at once, and poll() would not wake again for them),
    /// or the end of its window.
    mutating func takeSinkEvents() {
        while exitStatus == nil {
            let event = sink.handleEvents()
            if event == 0 { return }
            if event == sinkClosed { end(0); return }
            if event == sinkDestroyed { end(1); return }
            panelClick(event)
        }
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
}
