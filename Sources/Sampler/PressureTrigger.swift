import CLibc
import ProcFS
import CSamplerSys

/// The kernel's word that memory stalls happened: a PSI trigger on /proc/pressure/memory
/// (`some 1 2000000`: any stall at all within a 2-s window), whose events a thread of its own
/// counts (``csamplersys_event_watch``). While it stands and the last reading was 0.00, the
/// averages cannot have moved — avg10 rises only with stall time, and every stall fires the
/// trigger — so the sampler need not read the file every 2 s to see that they did not.
///
/// Unprivileged triggers need a 2-s window and Linux 6.5 (earlier kernels, and a file that is
/// not procfs's — a fixture tree — give no trigger: the sampler then reads every 2 s). The
/// kernel checks a 2-s trigger when it recomputes the averages, so an event comes with the
/// update that made avg10 move; events are rate-limited to one a window but never dropped.
/// As root (CAP_SYS_RESOURCE) the kernel serves the trigger with its real-time poller
/// (`psimon`) while stalls go on.
final class PressureTrigger {
    /// `some` stall time of at least 1 µs within a window of 2 s.
    static let specification = "some 1 2000000"

    private let descriptor: Int32
    /// The thread's count of events; bit 0 set once it stopped waiting (the trigger reported
    /// an error: events no longer come). Read it with ``state(of:)``; valid while `self` lives.
    let watch: UnsafePointer<csamplersys_event_watch>

    /// Arms a trigger on the PSI file at `path` and starts the thread that waits for it; nil
    /// when the file is not procfs's, the kernel refuses the trigger, or no thread starts.
    init?(path: String) {
        let fd = cPath(path).withUnsafeBufferPointer { p in
            cPath(Self.specification).withUnsafeBufferPointer { csamplersys_pressure_trigger_open(p.baseAddress!, $0.baseAddress!) }
        }
        guard fd >= 0 else { return nil }
        guard let watch = csamplersys_event_watch_start(fd) else {
            close(fd)
            return nil
        }
        descriptor = fd
        self.watch = UnsafePointer(watch)
    }

    deinit {
        csamplersys_event_watch_stop(UnsafeMutablePointer(mutating: watch))
        close(descriptor)
    }

    /// Twice the events the kernel signalled so far (wrapping around), plus 1 once the thread
    /// stopped waiting: one atomic load.
    @inline(__always)
    static func state(of watch: UnsafePointer<csamplersys_event_watch>) -> UInt32 {
        csamplersys_event_watch_state(watch)
    }

    /// Whether the thread still waits for events.
    var isWatching: Bool { Self.state(of: watch) & 1 == 0 }
}
