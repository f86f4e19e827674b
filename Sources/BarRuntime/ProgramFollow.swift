// The bar follows its package (``ProgramFile``): at each minute's turn, on a wake-up the loop
// has anyway, it looks at the file it was started from. A new program there (an upgrade), it
// starts again from it in place, on the same stdin and stdout: an i3bar stream goes on where
// it was, without a second header. Gone (a purge, the tarball's `--uninstall`), it says so
// once, in the bar for a minute and on stderr, and shows the figures on until it is closed.

import BarCore
import CBarSys
import CLibc
import CommandOptions

/// Set for the image that replaces a bar in place (``Bar/restartFromProgram()``): i3bar has
/// the header and the stream's `[` already. Taken and removed at the loop's start, so that no
/// command block or sampler inherits it.
let continuedStreamVariable: StaticString = "SYSSTATS_BAR_CONTINUED_STREAM"

/// Whether this image continues a stream an earlier one began (``continuedStreamVariable``);
/// the variable is gone from the environment after.
func takeContinuedStream() -> Bool {
    let name = continuedStreamVariable
    return name.utf8Start.withMemoryRebound(to: CChar.self, capacity: name.utf8CodeUnitCount + 1) { n -> Bool in
        guard getenv(n) != nil else { return false }
        unsetenv(n)
        return true
    }
}

extension Bar {
    /// What the bar shows for a minute once its program is gone.
    static var removedNotice: StaticString { "sysstats was removed: this bar stops at logout" }

    /// Looks at the program's file and does what the look says.
    mutating func followProgram() {
        let now = nowMs()
        guard let verdict = program?.look(nowMs: now) else { return }
        switch verdict {
        case .unchanged, .settling: return
        case .removed: sayRemoved(nowMs: now)
        case .replaced: restartFromProgram()
        }
    }

    /// The removal, once: on stderr with the path, and leading the line until the next look.
    mutating func sayRemoved(nowMs now: UInt64) {
        guard let program else { return }
        var line = ByteWriter(capacity: 128 + program.path.count)
        line.append("sysstats-bar: ")
        line.append(escaped: program.path, .plain)
        line.append(" was removed (its package uninstalled?): this bar shows the figures on until it is closed\n")
        _ = line.bytes.withUnsafeBytes { writeAll(2, $0) }
        let text = Bar.removedNotice
        programNotice = Array(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        programNoticeUntilMs = now &+ program.periodMs
        emit()
    }

    /// Starts the new program at the path in place of this image, with the same arguments,
    /// descriptors and pid. The command blocks end first, as at the bar's exit (the new image
    /// starts its own); the sampler this bar started runs on. Returns only when the exec
    /// failed: then says so once, follows the file no more and goes on as it was.
    mutating func restartFromProgram() {
        guard let program, let argv = clibc_argv() else { return }
        _ = stopCommands(returning: 0)
        var line = ByteWriter(capacity: 128 + program.path.count)
        line.append("sysstats-bar: ")
        line.append(escaped: program.path, .plain)
        line.append(" was replaced (an upgrade?): starting again from the new program\n")
        _ = line.bytes.withUnsafeBytes { writeAll(2, $0) }
        let name = continuedStreamVariable
        let continues = options.output == .i3bar
        name.utf8Start.withMemoryRebound(to: CChar.self, capacity: name.utf8CodeUnitCount + 1) { n in
            if continues { _ = setenv(n, "1", 1) }
        }
        program.cPath.withUnsafeBufferPointer { _ = execv($0.baseAddress!, argv) }
        let error = cbarsys_errno()
        _ = takeContinuedStream()
        writeFailed("sysstats-bar: cannot start the new program; this one runs on: ", error)
        self.program = nil
        commands.startAll(nowMs: nowMs(), renderer: &renderer)
    }
}
