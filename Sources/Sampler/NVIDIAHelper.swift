import CLibc
import Bookmarks
import ProcFS

/// The NVIDIA helper (`sysstatsd-gpu`, beside the sampler): started while NVIDIA figures are
/// wanted, read each sample without blocking, stopped when they are not. The sampler never
/// loads NVML itself (it is a static program; docs/architecture.md, "The GPU helper").
///
/// A helper that ends (NVML missing, the driver gone, a crash) is said once on stderr, with
/// the line it gave or the signal that ended it, and started again at most once a minute. One
/// that sends no frame for two intervals (a driver call that hangs) is stale: its figures go
/// (`n/a`, never shown as current), it is stopped, and started again after a minute, then two,
/// four … up to sixteen while it stays silent. Every wait on it is bounded (``ChildStop``): a
/// helper that outlives SIGKILL (uninterruptible sleep in the driver) is kept to be reaped
/// later, and the sampler goes on.
final class NVIDIAHelper {
    static let retryNs: UInt64 = 60_000_000_000
    /// How long a started helper may take for its first frame (NVML's start can take seconds).
    static let firstFrameNs: UInt64 = 10_000_000_000

    let path: String
    let intervalMs: UInt32
    private var pid: pid_t = -1
    private var readEnd: Int32 = -1
    private let output = NVMLHelperOutput()
    /// The last frame's cards.
    private(set) var readings: [GPUReading] = []
    /// The processes the last frame listed as using the cards (NVML's per-process figures).
    var processes: [NVMLProcess] { output.processes }
    private var lastStartNs: UInt64 = 0
    /// When the running helper last sent a frame (or was started, before its first).
    private var lastFrameNs: UInt64 = 0
    private var framesSinceStart = 0
    /// Helpers that went silent in a row: the restart waits ``retryNs``, doubled for each
    /// silence after the first (at most four times).
    private var silentStarts = 0
    /// Helpers that would not die, to be reaped when they go (never waited on).
    private var lingering: [pid_t] = []
    private var reported = false
    private var reportedStale = false
    private var reportedLingering = false
    /// Where one-line reports go (stderr; tests collect them).
    var reportLine: (String) -> Void = { printError($0) }
    /// Helpers started (tests).
    private(set) var starts = 0

    init(path: String, intervalMs: UInt32) {
        self.path = path
        self.intervalMs = intervalMs
        readings.reserveCapacity(GPUCards.maximumCards)
        lingering.reserveCapacity(4)
    }

    /// How long the running helper may be silent before its figures are stale: two intervals
    /// (at least two seconds), or ``firstFrameNs`` before its first frame.
    private var staleAfterNs: UInt64 {
        framesSinceStart == 0 ? Self.firstFrameNs : max(2 * UInt64(intervalMs) * 1_000_000, 2_000_000_000)
    }

    deinit { stop() }

    var isRunning: Bool { pid > 0 }

    /// Reads what the helper wrote since the last call (starting it when it is not running
    /// and may be started again); `waitMs` > 0 waits that long at most for a first frame
    /// (`--once`: one sample, no second chance).
    func poll(nowNs: UInt64, waitMs: Int32 = 0) {
        reapLingering()
        if pid <= 0 {
            let retry = Self.retryNs << UInt64(min(max(silentStarts, 1) - 1, 4))
            guard lastStartNs == 0 || nowNs &- lastStartNs >= retry else { return }
            lastStartNs = nowNs == 0 ? 1 : nowNs
            guard start() else { return }
            lastFrameNs = lastStartNs
            framesSinceStart = 0
        }
        var open = output.fill(from: FileDescriptor(rawValue: readEnd))
        var took = output.takeFrames(into: &readings)
        if !took && open && waitMs > 0 {
            var remaining = waitMs
            while !took && open && remaining > 0 {
                var p = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
                let step: Int32 = min(remaining, 100)
                _ = clibc_poll(&p, 1, step)
                remaining -= step
                open = output.fill(from: FileDescriptor(rawValue: readEnd))
                took = output.takeFrames(into: &readings)
            }
        }
        if !output.error.isEmpty && !reported {
            reported = true
            reportLine("sysstatsd: no NVIDIA figures: \(String(decoding: output.error, as: UTF8.self))")
        }
        if took {
            lastFrameNs = nowNs
            framesSinceStart &+= 1
            // A frame or two and then silence is the hung driver again: only a helper that
            // kept sending ends the back-off.
            if framesSinceStart >= 3 { silentStarts = 0 }
        }
        if !open {
            ended()
        } else if !took && nowNs &- lastFrameNs > staleAfterNs {
            if !reportedStale {
                reportedStale = true
                reportLine("sysstatsd: the NVIDIA helper sent nothing for \((nowNs &- lastFrameNs) / 1_000_000_000) s "
                           + "(a driver call that hangs?): its figures are n/a; it is started again later")
            }
            silentStarts &+= 1
            stop()
            readings.removeAll(keepingCapacity: true)
        }
    }

    /// The helper closed its output: reaped (said once if a signal ended it), its figures gone.
    private func ended() {
        if readEnd >= 0 { close(readEnd); readEnd = -1 }
        if pid > 0, let status = ChildStop.status(pid, withinMs: 100) {
            let signal = status & 0x7F
            if signal != 0 && signal != 0x7F && !reported {
                reported = true
                reportLine("sysstatsd: no NVIDIA figures: \(TerminalText.escape(path)) ended on signal \(signal)")
            }
            pid = -1
        }
        stop()
        readings.removeAll(keepingCapacity: true)
    }

    /// Reaps the helpers that would not die, those that have gone since.
    private func reapLingering() {
        var i = 0
        while i < lingering.count {
            if ChildStop.reap(lingering[i]) { lingering.remove(at: i) } else { i += 1 }
        }
    }

    private func start() -> Bool {
        var interval: [UInt8] = []
        var n = intervalMs
        repeat { interval.insert(UInt8(0x30 + n % 10), at: 0); n /= 10 } while n > 0
        // The helper dlopens libnvidia-ml.so.1: never from a folder LD_LIBRARY_PATH names relatively.
        switch SpawnedHelper.start(path, [String(decoding: interval, as: UTF8.self)]) {
        case .success(let helper):
            pid = helper.pid
            readEnd = helper.readEnd
            starts += 1
            return true
        case .failure(let e):
            if !reported {
                reported = true
                reportLine("sysstatsd: no NVIDIA figures: cannot start \(TerminalText.escape(path)): \(e.description)")
            }
            return false
        }
    }

    /// Ends the helper, if running, and reaps it, waiting a bounded time (``ChildStop``); one
    /// that would not die is kept to be reaped later, said once.
    func stop() {
        if readEnd >= 0 { close(readEnd); readEnd = -1 }
        guard pid > 0 else { return }
        if !ChildStop.stop(pid) {
            lingering.append(pid)
            if !reportedLingering {
                reportedLingering = true
                reportLine("sysstatsd: the NVIDIA helper (pid \(pid)) did not end on SIGKILL (stuck in the driver?); "
                           + "it is reaped when it goes")
            }
        }
        pid = -1
    }

    /// Helpers that would not die and are not reaped yet (tests).
    var lingeringCount: Int { lingering.count }

    /// The running helper's pid, or -1 (tests).
    var runningPid: pid_t { pid }
}
