// One line to start everything: when no sysstatsd holds the runtime directory's lock, the
// bar starts one, fully detached (its own session: i3bar stops and continues the bar's
// process group, never the sampler's), stdin and stdout closed, its messages appended to
// RUNTIME-DIR/sysstatsd.log. Several bars may race to start one: the sampler's own lock lets
// one win, the others log that it runs already and exit.

#if hasFeature(Embedded)
import BarCoreEmbedded
#else
import BarCore
#endif
import CBarSys

/// Starts sysstatsd for the bar's runtime directory when none runs, at most every 30 s.
struct SamplerStarter {
    /// Looks again this long after an attempt (a sampler that keeps failing is not restarted in a loop).
    static let retryMs: UInt64 = 30_000
    /// The log is emptied when it grew past this.
    static let maximumLogBytes = 1 << 20

    let enabled: Bool
    /// The runtime directory, NUL-terminated.
    let dirPath: [UInt8]
    /// sysstatsd's arguments (argv[1...]), each NUL-terminated.
    let arguments: [[CChar]]
    var lastAttemptMs: UInt64 = 0

    init(options: BarOptions, runtimeDir: [UInt8], environmentSaysNo: Bool) {
        enabled = options.startSampler && !environmentSaysNo && !options.once && options.click == 0
        var d = runtimeDir
        d.append(0)
        dirPath = d
        var args: [[UInt8]] = [Array("--runtime-dir".utf8), runtimeDir]
        // A sampler a long-running bar starts ends a minute after the last renderer did (the
        // session's end: i3 exits, the bar with it). genmon's one-shot runs register no
        // renderer, so the sampler they start runs on.
        if options.output != .genmon { args.append(contentsOf: [Array("--exit-when-unwatched".utf8), Array("60".utf8)]) }
        if let config = options.configPath { args.append(Array("--config".utf8)); args.append(config) }
        args.append(contentsOf: options.samplerOptions)
        arguments = args.map { arg in
            var c: [CChar] = []
            for b in arg { c.append(CChar(bitPattern: b)) }
            c.append(0)
            return c
        }
    }

    /// True when an attempt is due (for the event loop's timeout): none in the last 30 s.
    func isDue(nowMs: UInt64) -> Bool { enabled && (lastAttemptMs == 0 || nowMs >= lastAttemptMs + SamplerStarter.retryMs) }

    /// When it is due and no sampler holds the directory: creates the directory (0700) if
    /// missing and starts sysstatsd beside this program. Returns true when one was started.
    mutating func startIfNeeded(nowMs: UInt64) -> Bool {
        guard isDue(nowMs: nowMs) else { return false }
        lastAttemptMs = nowMs
        let running = dirPath.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { cbarsys_sampler_running($0) }
        }
        guard running == 0 else { return false }
        // The sampler creates its directory too; the bar does, so that the log has a place.
        _ = dirPath.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { mkdir($0, 0o700) }
        }
        guard case .ours = checkRuntimeDir(dirPath) else { return false }
        var program = siblingPath("sysstatsd")
        guard !program.isEmpty else { return false }
        var log = dirPath
        log.removeLast()
        for b in "/sysstatsd.log".utf8 { log.append(b) }
        log.append(0)
        let logFD = log.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { cbarsys_open_log($0, SamplerStarter.maximumLogBytes) }
        }
        defer { if logFD >= 0 { _ = close(logFD) } }
        var storage = arguments
        var name: [CChar] = []
        for b in "sysstatsd".utf8 { name.append(CChar(bitPattern: b)) }
        name.append(0)
        storage.insert(name, at: 0)
        var argv: [UnsafeMutablePointer<CChar>?] = []
        let pid: Int32 = storage.withUnsafeMutableBufferPointer { all in
            for k in all.indices { argv.append(all[k].withUnsafeMutableBufferPointer { $0.baseAddress }) }
            argv.append(nil)
            return program.withUnsafeMutableBufferPointer { path in
                path.baseAddress!.withMemoryRebound(to: CChar.self, capacity: path.count) { p in
                    argv.withUnsafeMutableBufferPointer { cbarsys_spawn_daemon(p, $0.baseAddress!, logFD) }
                }
            }
        }
        return pid > 0
    }
}

/// The program `name` in the directory of this executable (/proc/self/exe), NUL-terminated;
/// empty when that cannot be read.
func siblingPath(_ name: StaticString) -> [UInt8] {
    var path = [UInt8](repeating: 0, count: 4096 + 64)
    let n = path.withUnsafeMutableBufferPointer { p in
        p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: 4096) { readlink("/proc/self/exe", $0, 4096) }
    }
    guard n > 0 else { return [] }
    var end = n
    while end > 0 && path[end - 1] != UInt8(ascii: "/") { end -= 1 }
    path.removeLast(path.count - end)
    for i in 0..<name.utf8CodeUnitCount { path.append(name.utf8Start[i]) }
    path.append(0)
    return path
}
