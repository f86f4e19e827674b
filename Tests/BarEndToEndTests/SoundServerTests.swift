import Foundation
import XCTest

/// A real PulseAudio server with null sinks and a null source (Debian's `pulseaudio`, no
/// hardware), in a folder of its own, changed with its own tool, `pactl`.
final class PulseServer {
    let folder: URL
    var socket: String { folder.appendingPathComponent("native").path }
    var environment: [String: String] { ["PULSE_SERVER": "unix:" + socket] }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sysstats-pulse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Starts the server (again) and waits until it answers. Daemonized, not a child of the
    /// test: Foundation's Process waits on each child it started in turn, and a blocking
    /// wait on a server that runs on held up every later `pactl`'s end.
    func start(file: StaticString = #filePath, line: UInt = #line) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/pulseaudio")
        p.arguments = ["-n", "--daemonize=yes", "--exit-idle-time=-1", "--disable-shm=yes", "--use-pid-file=no",
                       "--log-target=stderr", "--log-level=error",
                       "-L", "module-native-protocol-unix auth-anonymous=1 socket=\(socket)",
                       "-L", "module-null-sink sink_name=speakers sink_properties=device.description=Speakers",
                       "-L", "module-null-sink sink_name=headphones sink_properties=device.description=Headphones",
                       "-L", "module-null-source source_name=mic description=Mic"]
        // Its cookie, state and runtime files in this folder, not the user's.
        p.environment = ["HOME": folder.path, "XDG_RUNTIME_DIR": folder.path, "XDG_CONFIG_HOME": folder.path,
                         "PULSE_RUNTIME_PATH": folder.appendingPathComponent("runtime").path, "PATH": "/usr/bin:/bin"]
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()   // the daemon's parent returns once it runs
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if (try? pactl("info")) != nil {
                try pactl("set-default-sink", "speakers")
                try pactl("set-default-source", "mic")
                return
            }
            usleep(50_000)
        }
        XCTFail("pulseaudio did not answer within 10 s", file: file, line: line)
    }

    /// The server's pid: the pulseaudio process whose command line names this socket.
    var pid: Int32? {
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry),
                  let command = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(entry)/cmdline")) else { continue }
            let words = command.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            if words.first?.hasSuffix("pulseaudio") == true && words.contains(where: { $0.contains("socket=" + socket) }) { return pid }
        }
        return nil
    }

    /// Kills the server (SIGKILL: gone without a word, as a crash) and waits until it is gone.
    func stop() {
        guard let pid else { return }
        kill(pid, SIGKILL)
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline && kill(pid, 0) == 0 && self.pid != nil { usleep(20_000) }
        try? FileManager.default.removeItem(atPath: socket)
    }

    /// Runs `pactl` against this server; its stdout.
    @discardableResult
    func pactl(_ arguments: String...) throws -> String { try pactl(arguments) }

    @discardableResult
    func pactl(_ arguments: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/pactl")
        p.arguments = arguments
        p.environment = environment.merging(["HOME": folder.path]) { $1 }
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
        return String(decoding: data, as: UTF8.self)
    }

    /// The volume of `sink` in whole percent, as pactl says it (`Volume: front-left: … / 40% / …`).
    func volume(of sink: String) throws -> Int? {
        let text = try pactl("get-sink-volume", sink)
        guard let slash = text.range(of: " / ") else { return nil }
        return Int(text[slash.upperBound...].drop { $0 == " " }.prefix { $0.isNumber })
    }
}

/// The volume and microphone blocks against a real sound server: the sampler's sound helper
/// (`sysstatsd-audio`, release build beside the sampler) pushes each change, the bar shows it
/// in its next line, a wheel event changes the server's volume. The sampler runs on the
/// desktop fixture tree; only the sound comes from outside it.
final class SoundServerTests: XCTestCase {
    var server: PulseServer!
    var runtime: String!
    var sampler: Process?
    var samplerLog: URL!

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pulseaudio") else {
            XCTFail("/usr/bin/pulseaudio is missing: install/deps.sh installs it"); throw CocoaError(.fileNoSuchFile)
        }
        server = try PulseServer()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sysstats-sound-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        runtime = dir.path
        samplerLog = dir.appendingPathComponent("sampler.log")
    }

    override func tearDown() {
        if let s = sampler, s.isRunning { s.terminate(); s.waitUntilExit() }
        server = nil
        try? FileManager.default.removeItem(atPath: runtime)
    }

    func startSampler() throws {
        let tree = BarProcess.packageRoot.appendingPathComponent("Tests/Fixtures/sampler-desktop/1")
        let bin = URL(fileURLWithPath: try BarProcess.binary()).deletingLastPathComponent()
        let p = Process()
        p.executableURL = bin.appendingPathComponent("sysstatsd")
        p.arguments = ["--runtime-dir", runtime, "--config", "/dev/null", "--no-history", "--interval", "5",
                       "--proc-root", tree.appendingPathComponent("proc").path, "--sys-root", tree.appendingPathComponent("sys").path]
        p.environment = ProcessInfo.processInfo.environment.merging(server.environment) { $1 }
        FileManager.default.createFile(atPath: samplerLog.path, contents: nil)
        p.standardError = try FileHandle(forWritingTo: samplerLog)
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        sampler = p
    }

    func bar(_ extra: [String] = [], config: String? = nil) throws -> BarProcess {
        var arguments = ["--runtime-dir", runtime!] + extra
        if let config {
            let path = runtime + "/config.toml"
            try config.write(toFile: path, atomically: true, encoding: .utf8)
            arguments += ["--config", path]
        } else {
            arguments += ["--config", "/dev/null"]
        }
        // The bar runs the sound helper for a wheel or a click: it must find the same server.
        return try BarProcess(arguments, environment: server.environment)
    }

    /// Runs `change` (a pactl call) and waits for the bar's line that `expected` accepts: how
    /// long after the call returned it came (nil: not within 5 s).
    func latency(_ bar: BarProcess, _ change: () throws -> Void, until expected: @escaping (String) -> Bool) throws -> TimeInterval? {
        try change()
        let start = Date()
        guard bar.waitFor(timeout: 5, { $0.last.map(expected) ?? false }) else { return nil }
        return Date().timeIntervalSince(start)
    }

    func testAChangeMadeWithPactlShowsInTheBarsNextLineWithin100Milliseconds() throws {
        try startSampler()
        let bar = try bar(config: """
            [[block]]
            block = "volume"
            format = "{device}: {volume}% on {port}"
            format_muted = "{device}: muted"
            [[block]]
            block = "microphone"
            """)
        XCTAssertTrue(bar.waitFor(timeout: 10) { $0.last == "Speakers: 100% on  | mic 100%" }, "\(bar.lines)")
        var delays: [TimeInterval] = []
        for (change, expected) in [(["set-sink-volume", "speakers", "37%"], "Speakers: 37% on  | mic 100%"),
                                   (["set-sink-mute", "speakers", "1"], "Speakers: muted | mic 100%"),
                                   (["set-default-sink", "headphones"], "Headphones: 100% on  | mic 100%"),
                                   (["set-source-mute", "mic", "1"], "Headphones: 100% on  | mic muted (100%)"),
                                   (["set-source-volume", "mic", "45%"], "Headphones: 100% on  | mic muted (45%)")] {
            let delay = try latency(bar, { try server.pactl(change) }) { $0 == expected }
            XCTAssertNotNil(delay, "\(change): \(bar.lines.suffix(3))")
            delays.append(delay ?? 5)
        }
        // Each change is one event round trip (server → helper → sampler → bar): a few ms on
        // a quiet machine; the 100 ms the issue allows, with the median against noise.
        let median = delays.sorted()[delays.count / 2]
        XCTAssertLessThan(median, 0.1, "delays \(delays)")
        XCTAssertLessThan(delays.max() ?? 0, 0.5, "delays \(delays)")
    }

    func testTheServerKilledShowsNAAndItsReturnShowsTheVolumeAgain() throws {
        try startSampler()
        let bar = try bar(["--blocks", "volume,load"])
        XCTAssertTrue(bar.waitFor(timeout: 10) { $0.last?.hasPrefix("vol 100% | load ") == true }, "\(bar.lines)")
        server.stop()
        XCTAssertTrue(bar.waitFor(timeout: 5) { $0.last?.hasPrefix("vol n/a | load ") == true }, "\(bar.lines.suffix(3))")
        try server.start()
        try server.pactl("set-sink-volume", "speakers", "61%")
        // The helper tries again after 1, 2, 4 and then every 5 s.
        XCTAssertTrue(bar.waitFor(timeout: 12) { $0.last?.hasPrefix("vol 61% | load ") == true }, "\(bar.lines.suffix(3))")
        let log = try String(contentsOf: samplerLog, encoding: .utf8)
        XCTAssertEqual(log.components(separatedBy: "no sound server answers").count - 1, 1, log)
        XCTAssertTrue(log.contains("the sound server answers again"), log)
    }

    func testAWheelEventChangesTheServersVolumeByTheStepAndALeftClickMutes() throws {
        try startSampler()
        try server.pactl("set-sink-volume", "speakers", "40%")
        let bar = try bar(["--output", "i3bar"], config: """
            [[block]]
            block = "volume"
            step = 3
            max = 45
            """)
        XCTAssertTrue(bar.waitFor(timeout: 10) { $0.last?.contains(#""full_text":"vol 40%""#) == true }, "\(bar.lines)")
        bar.send("[\n{\"name\":\"volume\",\"instance\":\"volume\",\"button\":4}\n")
        XCTAssertTrue(bar.waitFor(timeout: 5) { $0.last?.contains(#""full_text":"vol 43%""#) == true }, "\(bar.lines.suffix(2))")
        XCTAssertEqual(try server.volume(of: "speakers"), 43)
        bar.send(",{\"name\":\"volume\",\"instance\":\"volume\",\"button\":4}\n")
        XCTAssertTrue(bar.waitFor(timeout: 5) { $0.last?.contains(#""full_text":"vol 45%""#) == true }, "max caps the step")
        bar.send(",{\"name\":\"volume\",\"instance\":\"volume\",\"button\":5}\n")
        XCTAssertTrue(bar.waitFor(timeout: 5) { $0.last?.contains(#""full_text":"vol 42%""#) == true }, "\(bar.lines.suffix(2))")
        bar.send(",{\"name\":\"volume\",\"instance\":\"volume\",\"button\":1}\n")
        XCTAssertTrue(bar.waitFor(timeout: 5) { $0.last?.contains(#""full_text":"vol muted (42%)""#) == true }, "\(bar.lines.suffix(2))")
        XCTAssertTrue(try server.pactl("get-sink-mute", "speakers").contains("yes"))
    }

    func testAnUnchangedVolumeCostsTheHelperNoSystemCallAtAll() throws {
        try startSampler()
        let bar = try bar(["--blocks", "volume"])
        XCTAssertTrue(bar.waitFor(timeout: 10) { $0.last == "vol 100%" }, "\(bar.lines)")
        let samplerPid = try XCTUnwrap(sampler?.processIdentifier)
        let helper = try XCTUnwrap(childNamed("sysstatsd-audio", of: samplerPid))
        // strace -c over 10 s of an unchanged volume: the helper sleeps in poll the whole
        // time. The sampler, traced beside it, samples twice meanwhile: the control that
        // strace saw something (it prints no table for a process that made no call).
        func trace(_ pid: Int32, _ name: String) throws -> Process {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/strace")
            p.arguments = ["-c", "-p", "\(pid)", "-o", runtime + "/" + name]
            p.standardError = FileHandle.nullDevice
            try p.run()
            return p
        }
        let tracers = [try trace(helper, "helper.txt"), try trace(samplerPid, "sampler.txt")]
        sleep(10)
        for t in tracers { kill(t.processIdentifier, SIGINT); t.waitUntilExit() }
        func calls(_ name: String) throws -> Int {
            let table = try String(contentsOfFile: runtime + "/" + name, encoding: .utf8)
            let total = table.split(separator: "\n").last { $0.contains("total") }
            return total.flatMap { Int($0.split(separator: " ").dropFirst(3).first ?? "") } ?? 0
        }
        XCTAssertGreaterThan(try calls("sampler.txt"), 0, "strace saw the sampler sample")
        let helperTable = try String(contentsOfFile: runtime + "/helper.txt", encoding: .utf8)
        XCTAssertEqual(try calls("helper.txt"), 0, helperTable)
    }

    /// The pid of the child of `parent` whose command is `name`.
    func childNamed(_ name: String, of parent: Int32) -> Int32? {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
                guard let pid = Int32(entry),
                      let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                      let close = stat.range(of: ") ", options: .backwards) else { continue }
                let fields = stat[close.upperBound...].split(separator: " ")
                if fields.count > 1, Int32(fields[1]) == parent, stat.contains("(\(name))") { return pid }
            }
            usleep(50_000)
        }
        return nil
    }
}
