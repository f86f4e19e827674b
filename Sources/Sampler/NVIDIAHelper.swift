import CLibc
import ProcFS

/// The NVIDIA helper (`sysstatsd-gpu`, beside the sampler): started while NVIDIA figures are
/// wanted, read each sample without blocking, stopped when they are not. The sampler never
/// loads NVML itself (it is a static program; docs/architecture.md, "The GPU helper").
///
/// A helper that ends (NVML missing, the driver gone) is said once on stderr, with the line
/// it gave, and started again at most once a minute.
final class NVIDIAHelper {
    static let retryNs: UInt64 = 60_000_000_000

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
    private var reported = false
    /// Where one-line reports go (stderr; tests collect them).
    var reportLine: (String) -> Void = { printError($0) }
    /// Helpers started (tests).
    private(set) var starts = 0

    init(path: String, intervalMs: UInt32) {
        self.path = path
        self.intervalMs = intervalMs
        readings.reserveCapacity(GPUCards.maximumCards)
    }

    deinit { stop() }

    var isRunning: Bool { pid > 0 }

    /// Reads what the helper wrote since the last call (starting it when it is not running
    /// and may be started again); `waitMs` > 0 waits that long at most for a first frame
    /// (`--once`: one sample, no second chance).
    func poll(nowNs: UInt64, waitMs: Int32 = 0) {
        if pid <= 0 {
            guard lastStartNs == 0 || nowNs &- lastStartNs >= Self.retryNs else { return }
            lastStartNs = nowNs == 0 ? 1 : nowNs
            guard start() else { return }
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
        if !open {
            stop()
            readings.removeAll(keepingCapacity: true)
        }
    }

    private func start() -> Bool {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return false }
        let readFD = fds[0], writeFD = fds[1]
        _ = clibc_fcntl(readFD, F_SETFD, Int(FD_CLOEXEC))
        _ = clibc_fcntl(writeFD, F_SETFD, Int(FD_CLOEXEC))
        _ = clibc_fcntl(readFD, F_SETFL, Int(clibc_fcntl(readFD, F_GETFL, 0) | O_NONBLOCK))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeFD, STDOUT_FILENO)
        let pathC = cPath(path)
        var intervalC: [CChar] = [0]
        var n = intervalMs
        repeat { intervalC.insert(CChar(0x30 + n % 10), at: 0); n /= 10 } while n > 0
        var child: pid_t = 0
        let status = pathC.withUnsafeBufferPointer { p in
            intervalC.withUnsafeBufferPointer { i in
                var argv: [UnsafeMutablePointer<CChar>?] = [UnsafeMutablePointer(mutating: p.baseAddress!),
                                                            UnsafeMutablePointer(mutating: i.baseAddress!), nil]
                // The helper dlopens libnvidia-ml.so.1: never from a folder LD_LIBRARY_PATH names relatively.
                return ChildEnvironment.withFiltered { posix_spawn(&child, p.baseAddress!, &actions, nil, &argv, $0) }
            }
        }
        close(writeFD)
        guard status == 0 else {
            close(readFD)
            if !reported {
                reported = true
                reportLine("sysstatsd: no NVIDIA figures: cannot start \(path): \(Errno(rawValue: status).description)")
            }
            return false
        }
        pid = child
        readEnd = readFD
        starts += 1
        return true
    }

    /// Ends the helper, if running, and reaps it.
    func stop() {
        if readEnd >= 0 { close(readEnd); readEnd = -1 }
        guard pid > 0 else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        pid = -1
    }
}
