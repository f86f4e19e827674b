// When the command blocks run: each on its interval from the start of its last timed run
// (i3blocks: a 3-s command every 5 s, not 8), a click's run leaving that schedule as it was,
// `repeat` again at once, a persistent command again after a back-off, and a run past its
// timeout killed, group and all.

import BarCore
import CBarSys

extension CommandRunner {
    /// When child `i`, whose run ended at `nowMs`, runs next.
    mutating func schedule(_ i: Int, nowMs: UInt64) {
        let spec = children[i].spec
        if spec.persist {
            if nowMs >= children[i].startedMs + CommandRunner.maximumBackOffMs { children[i].backOffMs = CommandRunner.firstBackOffMs }
            children[i].nextRunMs = nowMs + children[i].backOffMs
            children[i].backOffMs = min(children[i].backOffMs * 2, CommandRunner.maximumBackOffMs)
        } else if children[i].startedByClick && spec.intervalMs > 0 && !spec.repeats && children[i].nextRunMs != 0 {
            // A click's run keeps the schedule (i3blocks 1.5); a run due meanwhile is skipped.
            let interval = UInt64(spec.intervalMs)
            if children[i].nextRunMs <= nowMs { children[i].nextRunMs += ((nowMs - children[i].nextRunMs) / interval + 1) * interval }
        } else if spec.repeats {
            // At once, but not more than ten times a second when the command fails at once.
            children[i].nextRunMs = max(nowMs, children[i].startedMs + 100)
        } else if spec.intervalMs > 0 {
            // From the start of the run that ended (i3blocks): a 3-s command every 5 s, not 8.
            children[i].nextRunMs = max(nowMs, children[i].startedMs + UInt64(spec.intervalMs))
        } else {
            children[i].nextRunMs = 0   // once: only a signal or a click runs it again
        }
    }

    /// The earliest deadline (a run due, a timeout), realtime ms; nil when none.
    func nextDeadline() -> UInt64? {
        var next: UInt64? = nil
        for c in children {
            if c.pid == 0, c.nextRunMs != 0 { next = min(next ?? .max, c.nextRunMs) }
            if c.pid != 0, !c.spec.persist, !c.killed, c.spec.timeoutMs > 0 {
                next = min(next ?? .max, c.startedMs + UInt64(c.spec.timeoutMs))
            }
        }
        return next
    }

    /// Starts what is due and kills what overran its timeout. Returns true when a block changed.
    mutating func runDue(nowMs: UInt64, renderer: inout Renderer) -> Bool {
        var changed = false
        for i in children.indices {
            if children[i].pid == 0, children[i].nextRunMs != 0, children[i].nextRunMs <= nowMs {
                start(i, nowMs: nowMs, renderer: &renderer)
            } else if children[i].pid != 0, !children[i].spec.persist, !children[i].killed, children[i].spec.timeoutMs > 0,
                      nowMs >= children[i].startedMs + UInt64(children[i].spec.timeoutMs) {
                _ = cbarsys_kill_group(children[i].pid, SIGKILL)
                children[i].killed = true
                renderer.setCommandProblem(children[i].blockIndex, "command timed out")
                children[i].settled = true
                changed = true
            }
        }
        return changed
    }
}
