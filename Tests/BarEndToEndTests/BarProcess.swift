import CSamplerSys
import Foundation
import SnapshotCodec
import XCTest

/// Runs the built `sysstats-bar` (release by default, as users run it; set
/// SYSSTATS_BIN_DIR for another build) and collects its output as it comes.
final class BarProcess: @unchecked Sendable {  // output is guarded by lock
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func binary(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        // A bar a test starts must not start a real sysstatsd on this machine's /proc; the tests
        // of that start it on a fixture tree (BarStartsSamplerTests).
        setenv("SYSSTATS_NO_START_SAMPLER", "1", 1)
        let dir = ProcessInfo.processInfo.environment["SYSSTATS_BIN_DIR"].map { URL(fileURLWithPath: $0) }
            ?? packageRoot.appendingPathComponent(".build/release")
        let path = dir.appendingPathComponent("sysstats-bar").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            XCTFail("\(path) is missing: run `swift build -c release --product sysstats-bar` first", file: file, line: line)
            throw CocoaError(.fileNoSuchFile)
        }
        return path
    }

    let process = Process()
    let stdinPipe = Pipe(), stdoutPipe = Pipe()
    private let lock = NSLock()
    private var output = Data()
    private var newlines = 0

    /// Starts sysstats-bar with `arguments`; with `wrapper` (e.g. valgrind and its
    /// options), runs `wrapper[0] wrapper[1...] sysstats-bar arguments`; `environment` adds
    /// to the test's own.
    init(_ arguments: [String], stdin: Bool = true, wrapper: [String] = [], binary: String? = nil,
         environment: [String: String] = [:]) throws {
        let binary = try binary ?? BarProcess.binary()
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let tool = wrapper.first {
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = Array(wrapper.dropFirst()) + [binary] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
        }
        process.standardInput = stdin ? stdinPipe : FileHandle.nullDevice
        process.standardOutput = stdoutPipe
        process.standardError = FileHandle.standardError
        stdoutPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            let count = data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            self.lock.lock(); self.output.append(data); self.newlines += count; self.lock.unlock()
        }
        try process.run()
    }

    deinit {
        if process.isRunning {
            process.terminate()
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            if process.isRunning { kill(pid, SIGKILL); process.waitUntilExit() }
        }
        stdoutPipe.fileHandleForReading.readabilityHandler = nil
    }

    var pid: Int32 { process.processIdentifier }

    /// Runs the built `sysstats-bar` with `args` to its end: its status, stdout and stderr.
    static func run(_ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try binary())
        p.arguments = args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let (status, o, e) = finish(p, stdout: out, stderr: err)
        return (status, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    /// Number of complete lines written so far (cheap: counted as output arrives).
    var lineCount: Int {
        lock.lock(); defer { lock.unlock() }
        return newlines
    }

    /// Waits until at least `count` lines were written; false on timeout.
    func waitForLineCount(_ count: Int, timeout: TimeInterval = 5) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while lineCount < count {
            if Date() >= deadline { return false }
            usleep(100)
        }
        return true
    }

    /// Complete lines written so far.
    var lines: [String] {
        lock.lock(); defer { lock.unlock() }
        var text = String(decoding: output, as: UTF8.self)
        if let last = text.lastIndex(of: "\n") { text = String(text[...last]) } else { return [] }
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Waits until `predicate` holds for the lines (true) or `timeout` passes (false).
    func waitFor(timeout: TimeInterval = 5, _ predicate: ([String]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if predicate(lines) { return true }
            usleep(1_000)
        }
        return predicate(lines)
    }

    func send(_ text: String) { stdinPipe.fileHandleForWriting.write(Data(text.utf8)) }

    /// The pid of this process's first child (the renderer, when run under a wrapper such as strace).
    var childPID: Int32? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8) else { return nil }
        return text.split(separator: " ").first.flatMap { Int32($0) }
    }

    /// Sends `signal` to `target` (default: this process) and waits for this process to exit; returns the exit status (nil if killed by a signal or timed out).
    func stop(_ signal: Int32 = SIGTERM, target: Int32? = nil, timeout: TimeInterval = 5) -> Int32? {
        kill(target ?? pid, signal)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        guard !process.isRunning else { return nil }
        return process.terminationReason == .exit ? process.terminationStatus : nil
    }
}

/// A private runtime dir and a writer that publishes snapshots the way the sampler does.
final class RuntimeDir {
    let url: URL
    private var bytes: [UInt8] = []

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("sysstats-bar-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    var path: String { url.path }

    /// Writes `.snapshot.tmp`, then renames it over `snapshot`.
    func publish(_ snapshot: Snapshot) throws {
        bytes.removeAll(keepingCapacity: true)
        snapshot.encode(into: &bytes)
        let tmp = url.appendingPathComponent(".snapshot.tmp").path
        try Data(bytes).write(to: URL(fileURLWithPath: tmp))
        guard rename(tmp, url.appendingPathComponent("snapshot").path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }
}

extension RuntimeDir {
    /// Publishes as the sampler does: `snapshot` and `.snapshot.tmp` take turns, the new
    /// snapshot written into `.snapshot.tmp` (the same file, emptied) and the two names
    /// exchanged (renameat2 RENAME_EXCHANGE). Makes whichever of the two is missing.
    func publishByExchange(_ snapshot: Snapshot) throws {
        var bytes: [UInt8] = []
        snapshot.encode(into: &bytes)
        let spare = url.appendingPathComponent(".snapshot.tmp").path
        let current = url.appendingPathComponent("snapshot").path
        if access(current, F_OK) != 0 { try Data(bytes).write(to: URL(fileURLWithPath: current)) }
        let fd = open(spare, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == bytes.count else { throw CocoaError(.fileWriteUnknown) }
        let directory = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { close(directory) }
        guard csamplersys_exchange(directory, ".snapshot.tmp", "snapshot") == 0 else { throw CocoaError(.fileWriteUnknown) }
    }
}

/// Milliseconds since the epoch.
func realtimeMs() -> UInt64 { UInt64(Date().timeIntervalSince1970 * 1000) }

/// A plausible snapshot taken at `timestampMs`.
func sampleSnapshot(timestampMs: UInt64 = realtimeMs(), sequence: UInt64 = 1) -> Snapshot {
    var s = Snapshot()
    s.sequence = sequence
    s.timestampMs = timestampMs
    s.intervalMs = 1000
    s.uptimeCentiseconds = 360_000 + sequence * 100
    s.cpuBusy = Permyriad(sequence % 10_001)
    s.coreBusy = [1000, 2000]
    s.memory.total = 16_000_000
    s.memory.used = 4_000_000 + sequence
    s.memory.available = 12_000_000 - sequence
    s.memory.free = 8_000_000
    s.memory.active = 4_000_000
    s.memory.inactive = 2_000_000
    s.memory.wired = 1_000_000
    s.memory.other = 1_000_000
    s.load1 = 52; s.load5 = 48; s.load15 = 40
    s.processCount = 300
    s.cpuHistory = (0..<60).map { Permyriad((UInt64($0) * 167 + sequence) % 10_001) }
    s.iowaitHistory = s.cpuHistory.enumerated().map { Permyriad(min((UInt64($0.offset) * 31 + sequence) % 1500, 10_000 - UInt64($0.element))) }
    s.memoryHistory = Array(repeating: 2500, count: 60)
    // Notable (the default bar shows exits of 100 MiB and more), its name new each sequence:
    // every snapshot changes the default line.
    s.exits = [ExitEntry(pid: 7, timeMs: timestampMs, lastPrivateKiB: 1000, freedKiB: 204_800,
                         name: Array("job-\(sequence % 97)\"</span>".utf8))]
    return s
}

/// A process's peak resident memory (VmHWM), KiB; nil when it cannot be read.
func peakResidentKiB(pid: Int32) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }
    return nil
}

extension BarProcess {
    /// Reads `p`'s stderr (and stdout, when given) to their end and waits for `p` to end, both
    /// within `seconds`: a run whose end Foundation never saw (a SIGCHLD lost in a busy test
    /// process, seen once in a whole-suite run) fails the test after that long instead of
    /// holding the test command until CI's limit. The child is killed on a timeout; its
    /// status is then -1.
    static func finish(_ p: Process, stdout out: Pipe?, stderr err: Pipe, seconds: Double = 30,
                       file: StaticString = #filePath, line: UInt = #line) -> (status: Int32, stdout: Data, stderr: Data) {
        let ended = DispatchSemaphore(value: 0)
        let box = DataBox()
        DispatchQueue.global().async {
            let o = out?.fileHandleForReading.readDataToEndOfFile() ?? Data()
            let e = err.fileHandleForReading.readDataToEndOfFile()
            box.set(o, e)
            p.waitUntilExit()
            ended.signal()
        }
        guard ended.wait(timeout: .now() + seconds) == .success else {
            kill(p.processIdentifier, SIGKILL)
            XCTFail("the program did not end (or its end was not seen) within \(Int(seconds)) s", file: file, line: line)
            let (o, e) = box.get()
            return (-1, o, e)
        }
        let (o, e) = box.get()
        return (p.terminationStatus, o, e)
    }

    /// What the reading thread read, handed over under a lock.
    private final class DataBox: @unchecked Sendable {
        private let lock = NSLock()
        private var out = Data(), err = Data()
        func set(_ o: Data, _ e: Data) { lock.lock(); out = o; err = e; lock.unlock() }
        func get() -> (Data, Data) { lock.lock(); defer { lock.unlock() }; return (out, err) }
    }
}
