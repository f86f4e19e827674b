import BarCore
@testable import BarRuntime
import CSamplerSys
import Foundation
import SnapshotCodec
import XCTest

/// Keeps every line shown; reports EPIPE once `closed`. Its poll descriptor is the harness's
/// ``LoopWaker``, when given.
struct RecordingSink: BarSink {
    var lines: [String] = []
    var closed = false
    var wakeFD: Int32 = -1
    var pollFD: Int32 { wakeFD }
    mutating func show(_ line: [UInt8]) -> Int32 {
        if closed { return EPIPE }
        lines.append(String(decoding: line, as: UTF8.self))
        return 0
    }
    mutating func handleEvents() -> Int { 0 }
}

/// What wakes the loop in-process besides its own descriptors: a command child's end
/// (SIGCHLD's stand-in: the test process has no signalfd, and a signal's disposition is the
/// whole process's) and the end of the test's turns (a loop with nothing scheduled sleeps in
/// poll() for good, as the program rightly does). An epoll descriptor over a pidfd of each
/// running child and a timer, given to the bar as its sink's descriptor.
final class LoopWaker {
    /// glibc's epoll, timerfd and pidfd calls, which the Glibc module does not import.
    private typealias CreateFn = @convention(c) (Int32) -> Int32
    private typealias ControlFn = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    private typealias PidfdOpenFn = @convention(c) (pid_t, UInt32) -> Int32
    private typealias TimerCreateFn = @convention(c) (Int32, Int32) -> Int32
    private typealias TimerSetFn = @convention(c) (Int32, Int32, UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32
    private static func libc<T>(_ name: String, _: T.Type) -> T { unsafeBitCast(dlsym(nil, name)!, to: T.self) }
    private static let create = libc("epoll_create1", CreateFn.self)
    private static let control = libc("epoll_ctl", ControlFn.self)
    private static let pidfdOpen = libc("pidfd_open", PidfdOpenFn.self)
    private static let timerCreate = libc("timerfd_create", TimerCreateFn.self)
    private static let timerSet = libc("timerfd_settime", TimerSetFn.self)

    let epollFD = LoopWaker.create(O_CLOEXEC)
    private let timerFD = LoopWaker.timerCreate(CLOCK_MONOTONIC, O_CLOEXEC | O_NONBLOCK)
    private var pidFDs: [Int32] = []

    init() { add(timerFD) }

    /// Readable once `seconds` have passed (from now), until armed again.
    func arm(in seconds: Double) {
        var time = itimerspec()
        time.it_value.tv_sec = Int(seconds)
        time.it_value.tv_nsec = max(1, Int((seconds - Double(Int(seconds))) * 1e9))
        _ = LoopWaker.timerSet(timerFD, 0, &time, nil)
    }

    /// Watches the children `pids` (0: none) in place of those watched before.
    func watch(_ pids: [Int32]) {
        for fd in pidFDs { close(fd) }   // closing takes it out of the epoll set
        pidFDs.removeAll()
        for pid in pids where pid > 0 {
            let fd = LoopWaker.pidfdOpen(pid, 0)
            guard fd >= 0 else { continue }
            add(fd)
            pidFDs.append(fd)
        }
    }

    private func add(_ fd: Int32) {
        // struct epoll_event, packed: EPOLLIN (1), then the 8-byte data.
        var event = [UInt8](repeating: 0, count: 12)
        event[0] = 1
        _ = event.withUnsafeMutableBytes { LoopWaker.control(epollFD, 1 /* EPOLL_CTL_ADD */, fd, $0.baseAddress) }
    }

    deinit {
        for fd in pidFDs + [timerFD, epollFD] { close(fd) }
    }
}

/// A runtime directory of the test's own (0700, removed at the end), snapshots written into
/// it by rename as the sampler writes them, and bars over it that show on a recording sink.
class RuntimeDirectoryHarness: XCTestCase {
    typealias Sink = RecordingSink
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sysstats-runtime-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        setenv("SYSSTATS_NO_START_SAMPLER", "1", 1)
        // No bar started as the program starts reads the build machine's own config file.
        savedConfigHome = getenv("XDG_CONFIG_HOME").map { String(cString: $0) }
        setenv("XDG_CONFIG_HOME", directory.appendingPathComponent("config-home").path, 1)
        waker = LoopWaker()
    }

    private var savedConfigHome: String?

    /// The inotify descriptors ``giveInotify(_:)`` made, closed at the end.
    var inotifyFDs: [Int32] = []
    /// What wakes ``turns(_:seconds:until:)`` when a command child ends or its time is up
    /// (made for each test: XCTest keeps every test's instance to the end of the run).
    var waker: LoopWaker!

    override func tearDownWithError() throws {
        if let home = savedConfigHome { setenv("XDG_CONFIG_HOME", home, 1) } else { unsetenv("XDG_CONFIG_HOME") }
        for fd in inotifyFDs + clickEnds where fd >= 0 { close(fd) }
        clickEnds = [-1, -1]
        waker = nil
        try? FileManager.default.removeItem(at: directory)
    }

    /// The pipe a bar reads clicks from in place of stdin (``giveClickPipe(_:)``): read end,
    /// write end; closed at the end.
    var clickEnds: [Int32] = [-1, -1]

    /// A pipe in place of stdin for `b`'s clicks, its read end non-blocking as the loop reads
    /// it (only when poll() says so, never waiting); ``sendClicks(_:)`` writes to it.
    func giveClickPipe(_ b: inout Bar<Sink>) {
        for fd in clickEnds where fd >= 0 { close(fd) }
        XCTAssertEqual(pipe(&clickEnds), 0)
        _ = fcntl(clickEnds[0], F_SETFL, fcntl(clickEnds[0], F_GETFL) | O_NONBLOCK)
        b.clickInput = clickEnds[0]
    }

    /// Writes `text` (i3bar's click events) to the click pipe, all of it.
    func sendClicks(_ text: String) {
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { write(clickEnds[1], $0.baseAddress, $0.count) }
            XCTAssertGreaterThan(n, 0, "the pipe takes the events")
            guard n > 0 else { return }
            written += n
        }
    }

    /// The config file the program's tests write: `config.toml` in the runtime directory.
    var configFile: URL { directory.appendingPathComponent("config.toml") }

    /// Writes the config file by rename, as editors do (the watch sees IN_MOVED_TO).
    func writeConfig(_ text: String) throws {
        try text.write(to: configFile, atomically: true, encoding: .utf8)
    }

    /// The inotify descriptor the loop's start gives a bar.
    func giveInotify(_ b: inout Bar<Sink>) {
        b.inotifyFD = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
        XCTAssertGreaterThanOrEqual(b.inotifyFD, 0)
        inotifyFDs.append(b.inotifyFD)
    }

    func nowMs() -> UInt64 { UInt64(Date().timeIntervalSince1970 * 1000) }

    /// A snapshot written now (less `ageMs`) at a 1 s interval, its figures set by `fill`.
    func publish(ageMs: UInt64 = 0, _ fill: (inout Snapshot) -> Void) throws {
        var s = Snapshot()
        s.timestampMs = nowMs() - ageMs
        s.intervalMs = 1000
        fill(&s)
        var bytes: [UInt8] = []
        s.encode(into: &bytes)
        try Data(bytes).write(to: directory.appendingPathComponent("snapshot"), options: .atomic)
    }

    /// A bar over the runtime directory for `arguments`, with no config file unless they name one.
    func bar(_ arguments: [String]) throws -> Bar<Sink> {
        let config = arguments.contains("--config") ? [] : ["--config", directory.appendingPathComponent("none.toml").path]
        let options = try BarOptions.parse((arguments + config).map { Array($0.utf8) })
        return Bar(options: options, runtimeDir: Array(directory.path.utf8), sink: Sink())
    }

    /// The options the program runs with for `arguments`: the command line over the config
    /// file it names (``startOptions(_:)``), and the notice of the file's mistake. Fails the
    /// test when the command line ends the program instead.
    func runOptions(_ arguments: [String]) throws -> (options: BarOptions, notice: [UInt8]) {
        guard case .run(let options, let notice) = startOptions(arguments.map { Array($0.utf8) }) else {
            XCTFail("\(arguments) ends the program")
            throw CocoaError(.featureUnsupported)
        }
        return (options, notice)
    }

    /// The status the program ends with at once for `arguments` (nil: it runs), and what it
    /// says on stderr.
    func startExit(_ arguments: [String]) -> (status: Int32?, stderr: String) {
        let (start, stderr) = capturingStderr { startOptions(arguments.map { Array($0.utf8) }) }
        guard case .exit(let status) = start else { return (nil, stderr) }
        return (status, stderr)
    }

    /// The program's start for `arguments` as `main` makes it (``runOptions(_:)``), a mistake
    /// in the config file shown as a notice.
    func program(_ arguments: [String]) throws -> Bar<Sink> {
        let (options, notice) = try runOptions(arguments)
        var b = Bar(options: options, runtimeDir: Array(directory.path.utf8), sink: Sink())
        b.configMistake = notice
        return b
    }

    /// What the loop's start does after its descriptors (``Bar/begin()``): the watches, the
    /// first snapshot, the command blocks and the first line. Stdout is the test's: not watched.
    func begin(_ b: inout Bar<Sink>) {
        b.watchStdout = false
        giveInotify(&b)
        b.begin()
    }

    /// Turns of the loop for `seconds` (or until `done`), each followed by the reaping SIGCHLD
    /// would bring. Returns whether `done` came.
    @discardableResult
    func turns(_ b: inout Bar<Sink>, seconds: Double, until done: (Bar<Sink>) -> Bool = { _ in false }) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        waker.arm(in: seconds)
        b.sink.wakeFD = waker.epollFD
        while Date() < deadline && b.exitStatus == nil && !done(b) {
            waker.watch(b.commands.children.map(\.pid))
            b.turn()
            b.reapChildren()
        }
        return done(b)
    }

    /// Publishes as the sampler does once it runs: `snapshot` and `.snapshot.tmp` take
    /// turns, the new snapshot written into `.snapshot.tmp` and the two names exchanged
    /// (renameat2 RENAME_EXCHANGE). Makes whichever of the two is missing.
    func publishByExchange(_ fill: (inout Snapshot) -> Void) throws {
        var s = Snapshot()
        s.timestampMs = nowMs()
        s.intervalMs = 1000
        fill(&s)
        var bytes: [UInt8] = []
        s.encode(into: &bytes)
        let current = directory.appendingPathComponent("snapshot")
        if access(current.path, F_OK) != 0 { try Data(bytes).write(to: current) }
        try Data(bytes).write(to: directory.appendingPathComponent(".snapshot.tmp"))
        let folder = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { close(folder) }
        XCTAssertEqual(csamplersys_exchange(folder, ".snapshot.tmp", "snapshot"), 0)
    }

    /// What `body` writes on stderr (fd 2, redirected to a file meanwhile), and its result.
    func capturingStderr<T>(_ body: () throws -> T) rethrows -> (T, String) { try capturing(2, body) }

    /// What `body` writes on stdout (fd 1, as genmon prints its tags), and its result.
    func capturingStdout<T>(_ body: () throws -> T) rethrows -> (T, String) { try capturing(1, body) }

    /// What `body` writes on `fd` (redirected to a file meanwhile), and its result.
    func capturing<T>(_ fd: Int32, _ body: () throws -> T) rethrows -> (T, String) {
        // Outside the runtime directory, whose entries some tests count.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sysstats-fd\(fd)-\(UUID().uuidString)")
        let target = open(file.path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        fflush(nil)   // what the test process printed before goes where it was going
        let saved = dup(fd)
        dup2(target, fd)
        defer { fflush(nil); dup2(saved, fd); close(saved); close(target); unlink(file.path) }
        let result = try body()
        return (result, (try? String(contentsOf: file, encoding: .utf8)) ?? "")
    }
}

extension Snapshot {
    /// Load 0.52 0.48 0.40, 300 processes and 3.8 GiB used of 15.3: the figures the tests'
    /// lines show.
    mutating func fillSample() {
        load1 = 52; load5 = 48; load15 = 40
        processCount = 300
        memory.total = 16_000_000
        memory.used = 4_000_001
        memory.available = 11_999_999
        memory.free = 8_000_000
        memory.active = 4_000_000
        memory.inactive = 2_000_000
        memory.wired = 1_000_000
        memory.other = 1_000_000
    }
}
