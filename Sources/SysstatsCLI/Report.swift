#if canImport(Glibc)
import Glibc
#endif
import ProcFS
import SystemDirs
import SnapshotCodec

/// What a command prints and how it exits, kept apart from the printing so tests can check it.
public struct CommandOutput: Equatable {
    public var stdout: [String] = []
    public var stderr: [String] = []
    public var status: Int32 = 0

    public init(stdout: [String] = [], stderr: [String] = [], status: Int32 = 0) {
        self.stdout = stdout; self.stderr = stderr; self.status = status
    }
}

/// `sysstats report`: one line (or one JSON object) from the snapshot.
public enum Report {
    /// Reads the snapshot at `path` and renders it.
    public static func run(path: String, json: Bool, nowMs: UInt64 = Clock.realtimeMs()) -> CommandOutput {
        render(SnapshotFile.read(path: path), path: path, json: json, nowMs: nowMs)
    }

    /// Missing or corrupt → the message on stderr, exit 1. Stale → the line on
    /// stdout plus a warning on stderr, exit 0 (and `"stale": true` in JSON).
    public static func render(_ result: Result<Snapshot, SnapshotReadError>, path: String, json: Bool,
                              nowMs: UInt64) -> CommandOutput {
        var out = CommandOutput()
        switch result {
        case .failure(let error):
            out.stderr = ["sysstats: \(error.message)"]
            out.status = 1
        case .success(let snapshot):
            let stale = snapshot.isStale(nowMs: nowMs)
            out.stdout = [json ? ReportJSON.format(snapshot, stale: stale) : ReportLine.format(snapshot)]
            if stale { out.stderr = ["sysstats: " + StalenessText.message(snapshot, path: path, nowMs: nowMs)] }
        }
        return out
    }

    /// The text `--watch` shows in place: the line, with a short note when stale,
    /// or what is wrong (the snapshot is not there yet, or does not decode).
    /// The line fits `columns` (stale note included) by leaving parts out, never by cutting one.
    public static func watchText(_ result: Result<Snapshot, SnapshotReadError>, nowMs: UInt64,
                                 columns: Int = ReportLine.columns) -> String {
        switch result {
        case .failure(let error) where error.kind == .missing:
            return "waiting for a snapshot: \(error.message)"
        case .failure(let error):
            return error.message
        case .success(let snapshot):
            guard snapshot.isStale(nowMs: nowMs) else { return ReportLine.format(snapshot, columns: columns) }
            let note = " [stale: \(StalenessText.formatAge(ms: snapshot.ageMs(nowMs: nowMs))) old]"
            return ReportLine.format(snapshot, columns: columns - note.count) + note
        }
    }

    /// `--watch`: re-prints whenever the snapshot file changes (polled every 250 ms) or
    /// its staleness note changes, until interrupted. On a terminal the line is rewritten
    /// in place; otherwise each new line (or JSON object) is printed on its own line.
    ///
    /// In place, the line is cut to the terminal's width (less one column, so that it never
    /// wraps: `\r` and erase-line reach only the row the cursor is on), read with TIOCGWINSZ
    /// at start and again after each SIGWINCH.
    public static func watch(path: String, json: Bool) -> Never {
        let inPlace = !json && isatty(STDOUT_FILENO) == 1
        installInterruptHandler(newline: inPlace)
        var width = 0
        if inPlace {
            signal(SIGWINCH, { _ in terminalResized = 1 })
            width = TerminalFit.lineWidth(columns: terminalColumns(STDOUT_FILENO))
        }
        var shown: String?
        while true {
            // Read each time (a few hundred bytes): the sampler's two files take turns under
            // the name, and it writes them through a mapping, which leaves their mtime alone,
            // so no stat of the name tells one snapshot from the one two before it.
            let result = SnapshotFile.read(path: path)
            let nowMs = Clock.realtimeMs()
            if inPlace && terminalResized != 0 {
                terminalResized = 0
                width = TerminalFit.lineWidth(columns: terminalColumns(STDOUT_FILENO))
            }
            var text: String
            if json {
                guard case .success(let snapshot) = result else {
                    if case .failure(let error) = result, shown != error.message {
                        printError("sysstats: \(error.message)")
                        shown = error.message
                    }
                    sleepMs(250)
                    continue
                }
                text = ReportJSON.format(snapshot, stale: snapshot.isStale(nowMs: nowMs))
            } else {
                text = watchText(result, nowMs: nowMs, columns: inPlace ? width : ReportLine.columns)
                if inPlace { text = TerminalFit.cut(text, toColumns: width) }
            }
            if text != shown {
                shown = text
                writeStdout(inPlace ? "\r\u{1B}[K" + text : text + "\n")
            }
            sleepMs(250)
        }
    }

    /// Ctrl-C (and SIGTERM) end `--watch` cleanly: finish the line, exit 0.
    private static func installInterruptHandler(newline: Bool) {
        let handler: @convention(c) (Int32) -> Void = newline
            ? { _ in _ = write(STDOUT_FILENO, "\n", 1); _exit(0) }
            : { _ in _exit(0) }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
    }
}

/// Set by the SIGWINCH handler of `report --watch`; the loop re-reads the width.
nonisolated(unsafe) private var terminalResized: sig_atomic_t = 0

/// The width of the terminal on `fd` in columns (TIOCGWINSZ), nil when it is not a terminal
/// or does not say.
func terminalColumns(_ fd: Int32) -> Int? {
    var size = winsize()
    guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
}

func sleepMs(_ ms: UInt32) {
    usleep(ms * 1000)
}

/// Writes to standard output unbuffered (`write(2)`), so an in-place line shows at once.
/// A failed write (a full disk, a closed pipe, /dev/full) ends the program: one line on
/// stderr, status 1 — never a silent success with nothing written.
func writeStdout(_ text: String) {
    if let error = writeAll(STDOUT_FILENO, text) {
        printError("sysstats: cannot write to standard output: \(error.description)")
        exit(1)
    }
}

func printError(_ line: String) {
    _ = writeAll(STDERR_FILENO, line + "\n")
}

/// Writes text to standard error as it is (`measure`'s report goes there, as GNU time's does).
func writeStderr(_ text: String) {
    _ = writeAll(STDERR_FILENO, text)
}

private func writeAll(_ fd: Int32, _ text: String) -> Errno? {
    var text = text
    return text.withUTF8 { bytes in
        FileDescriptor(rawValue: fd).writeAll(UnsafeRawBufferPointer(bytes))
    }
}
