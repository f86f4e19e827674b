// One line to start everything: when no sysstatsd holds the runtime directory's lock, the
// bar starts one, fully detached (its own session: i3bar stops and continues the bar's
// process group, never the sampler's), stdin and stdout closed, its messages appended to
// RUNTIME-DIR/sysstatsd.log. Several bars may race to start one: the sampler's own lock lets
// one win, the others log that it runs already and exit.

import BarCore
import CBarSys

/// Starts sysstatsd for the bar's runtime directory when none runs, at most every 30 s.
struct SamplerStarter {
    /// Looks again this long after an attempt (a sampler that keeps failing is not restarted in a loop).
    static let retryMs: UInt64 = 30_000
    /// Looks again this soon when the lock was held but no snapshot is current: the holder
    /// may be a sampler on its way out (`--exit-when-unwatched` just before this bar came).
    static let lockHeldRetryMs: UInt64 = 1_000
    /// The log is emptied when it grew past this.
    static let maximumLogBytes = 1 << 20

    let enabled: Bool
    /// The runtime directory, NUL-terminated.
    let dirPath: [UInt8]
    /// sysstatsd's arguments (argv[1...]), each NUL-terminated.
    let arguments: [[CChar]]
    /// When the next look is due (0: at once).
    var nextAttemptMs: UInt64 = 0
    /// The sampler this bar started last (0: none), and when: while it runs and has written
    /// no snapshot yet, the bar says `starting…`; when it ends, the bar shows why (its log).
    private(set) var startedPid: Int32 = 0
    private(set) var startedMs: UInt64 = 0
    /// How long a start may take before the bar says `stopped` again.
    static let startingMs: UInt64 = 10_000
    /// The log's path (NUL-terminated): the sampler's stderr.
    var logPath: [UInt8] {
        var log = dirPath
        log.removeLast()
        for b in "/sysstatsd.log".utf8 { log.append(b) }
        log.append(0)
        return log
    }

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

    /// True when an attempt is due (for the event loop's timeout): none started in the last
    /// 30 s, nor a running one found in the last second.
    func isDue(nowMs: UInt64) -> Bool { enabled && nowMs >= nextAttemptMs }

    /// When it is due and no sampler holds the directory: creates the directory (0700) if
    /// missing and starts sysstatsd beside this program. Returns true when one was started.
    mutating func startIfNeeded(nowMs: UInt64) -> Bool {
        guard isDue(nowMs: nowMs) else { return false }
        nextAttemptMs = nowMs &+ SamplerStarter.retryMs
        let running = dirPath.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { cbarsys_sampler_running($0) }
        }
        guard running == 0 else {
            nextAttemptMs = nowMs &+ SamplerStarter.lockHeldRetryMs
            return false
        }
        // The sampler creates its directory too; the bar does, so that the log has a place.
        _ = dirPath.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { mkdir($0, 0o700) }
        }
        guard case .ours = checkRuntimeDir(dirPath) else { return false }
        var program = siblingPath("sysstatsd")
        guard !program.isEmpty else { return false }
        let log = logPath
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
        if pid > 0 { startedPid = pid; startedMs = nowMs }
        return pid > 0
    }

    /// True while the sampler this bar started a moment ago (``startingMs``) still runs.
    func isStarting(nowMs: UInt64) -> Bool { startedPid > 0 && nowMs < startedMs + SamplerStarter.startingMs }

    /// The sampler this bar started ended (reaped with `status`): what it said last, from its
    /// log, as a line for the bar (`sysstatsd: REASON (log: PATH)`); nil when `pid` is not it
    /// or it ended well (status 0: stopped, or another sampler held the directory).
    mutating func ended(pid: Int32, status: Int32) -> [UInt8]? {
        guard pid == startedPid else { return nil }
        startedPid = 0
        guard status != 0 else { return nil }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        let log = logPath
        var n = readFileTail(log, into: buffer)
        while n > 0 && (buffer[n - 1] == 0x0A || buffer[n - 1] == 0x0D) { n -= 1 }
        var start = n
        while start > 0 && buffer[start - 1] != 0x0A { start -= 1 }
        // The bar's line has no room for the time; the log keeps it.
        start += SamplerStarter.logTimeLength(buffer, from: start, to: n)
        var line: [UInt8] = []
        if start < n {
            for i in start..<min(n, start + 200) { line.append(buffer[i]) }
        } else {
            for b in "sysstatsd: ended with status ".utf8 { line.append(b) }
            var w = ByteWriter(capacity: 12)
            w.appendDecimal(Int(status))
            line.append(contentsOf: w.bytes)
        }
        for b in " (log: ".utf8 { line.append(b) }
        line.append(contentsOf: log.dropLast())
        line.append(UInt8(ascii: ")"))
        return line
    }

    /// How many of the bytes `start..<end` of `bytes` are the local time a sampler's log line
    /// starts with and the space after it (`2026-11-29T07:03:12+01:00 `); 0 when that line has
    /// none (a sampler of an earlier release).
    static func logTimeLength(_ bytes: UnsafeMutableRawBufferPointer, from start: Int, to end: Int) -> Int {
        let shape: StaticString = "0000-00-00T00:00:00+00:00 "
        let count = shape.utf8CodeUnitCount
        guard end - start >= count else { return 0 }
        for i in 0..<count {
            let want = shape.utf8Start[i], b = bytes[start + i]
            if want == UInt8(ascii: "0") {
                if b < UInt8(ascii: "0") || b > UInt8(ascii: "9") { return 0 }
            } else if want == UInt8(ascii: "+") {
                if b != UInt8(ascii: "+") && b != UInt8(ascii: "-") { return 0 }
            } else if b != want {
                return 0
            }
        }
        return count
    }
}

/// The last bytes of the regular file at `path` (NUL-terminated): up to `buffer.count` from its
/// end. Returns how many, or 0 when it cannot be read.
func readFileTail(_ path: [UInt8], into buffer: UnsafeMutableRawBufferPointer) -> Int {
    let fd: Int32 = path.withUnsafeBufferPointer { p in
        p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { cbarsys_open_regular($0) }
    }
    guard fd >= 0 else { return 0 }
    defer { _ = close(fd) }
    let size = lseek(fd, 0, SEEK_END)
    guard size > 0 else { return 0 }
    let offset = max(0, Int(size) - buffer.count)
    let n = preadSome(fd, buffer, at: offset)
    return max(0, n)
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
