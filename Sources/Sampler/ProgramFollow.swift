import CLibc
import Bookmarks
import CommandOptions
import ProcFS

/// The sampler follows its package (``ProgramFile``): at each minute's turn, before the ended
/// minute's batch goes to a history writer that may be another release's, it looks at the file
/// it was started from. A new program there (an upgrade), it starts again from it in place as
/// a settings change does, the minute being collected carried over; gone (a purge, the
/// tarball's `--uninstall`), it says so once, ends history when the writer went too, and stops
/// a minute after its last renderer. One `stat` a minute; a division per sample.
extension SamplerRun {
    /// True when the program was replaced and the loop is to end for ``finish()``'s restart.
    /// A sample between two looks costs the check inlined here.
    @inline(__always)
    func followProgram(realtimeMs: UInt64) -> Bool {
        program?.isDue(nowMs: realtimeMs) == true && lookAtProgram(realtimeMs: realtimeMs)
    }

    /// The look itself, at the minute's turn (and while a change settles).
    func lookAtProgram(realtimeMs: UInt64) -> Bool {
        guard let verdict = program?.look(nowMs: realtimeMs) else { return false }
        switch verdict {
        case .unchanged, .settling:
            return false
        case .replaced:
            restart = true
            restartForProgram = true
            return true
        case .removed:
            programRemoved()
            return false
        }
    }

    /// While a change at the program's path settles (a few seconds of an install), the samples
    /// are not added to the minute's history: a new program is to take the minute over first.
    @inline(__always)
    var holdsHistory: Bool { program?.isSettling == true }

    /// The program's path as the log shows it.
    var programName: String { program.map { TerminalText.escape(pathString(bytes: $0.path)) } ?? "sysstatsd" }

    /// Says once that the program is gone, with what follows: history ends when its writer went
    /// too (a line at each minute's batch would say nothing new), and a sampler without
    /// `--exit-when-unwatched` (the systemd unit's) takes a minute's: nothing can start a bar
    /// or a CLI of this package any more.
    func programRemoved() {
        var line = "sysstatsd: \(programName) was removed (its package uninstalled?)"
        if let h = history {
            let writer = h.handoff.writerPath
            if access(cPath(writer), X_OK) == 0 {
                line += "; history goes on while \(TerminalText.escape(writer)) is there"
            } else {
                h.handoff.reap()
                history = nil
                line += ", and with it the history writer \(TerminalText.escape(writer)): history ends here (the minute being collected is lost)"
            }
        }
        if let limit = unwatchedLimitNs {
            line += "; it stops \(limit / 1_000_000_000) s after its last renderer ends"
        } else {
            unwatchedLimitNs = SamplerRun.removedUnwatchedLimitNs
            line += "; it stops a minute after its last renderer ends"
        }
        printError(line)
    }

    /// How long a removed sampler runs without a renderer when no `--exit-when-unwatched` was
    /// given: a minute, as a bar's own sampler.
    static var removedUnwatchedLimitNs: UInt64 { 60_000_000_000 }
}
