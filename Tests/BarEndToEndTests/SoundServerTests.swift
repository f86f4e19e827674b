import Foundation
import XCTest

/// A real PulseAudio server with null sinks and a null source (Debian's `pulseaudio`, no
/// hardware), in a folder of its own, changed with its own tool, `pactl`.
final class PulseServer: PactlServer {
    let folder: URL
    var socket: String { folder.appendingPathComponent("native").path }
    var environment: [String: String] { ["PULSE_SERVER": "unix:" + socket] }

    /// A folder for the server, and the server started in it unless `started` is false.
    init(started: Bool = true) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sysstats-pulse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if started { try start() }
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
final class SoundServerTests: HelperTestCase {
    var server: PulseServer!
    override var serverEnvironment: [String: String] { server.environment }

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pulseaudio") else {
            XCTFail("/usr/bin/pulseaudio is missing: install/deps.sh installs it"); throw CocoaError(.fileNoSuchFile)
        }
        server = try PulseServer()
        try makeRuntime("sound")
    }

    override func tearDown() {
        removeRuntime()
        server = nil
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
        let changes: [([String], String)] = [(["set-sink-volume", "speakers", "37%"], "Speakers: 37% on  | mic 100%"),
                                             (["set-sink-mute", "speakers", "1"], "Speakers: muted | mic 100%"),
                                             (["set-default-sink", "headphones"], "Headphones: 100% on  | mic 100%"),
                                             (["set-source-mute", "mic", "1"], "Headphones: 100% on  | mic muted (100%)"),
                                             (["set-source-volume", "mic", "45%"], "Headphones: 100% on  | mic muted (45%)")]
        // Each change is one event round trip (server → helper → sampler → bar): a few ms on
        // a quiet machine.
        let delays = try assertChangesShowWithin100Milliseconds(bar, changes) { try server.pactl($0) }
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
        // The helper tries again as the server's socket appears.
        XCTAssertTrue(bar.waitFor(timeout: 5) { $0.last?.hasPrefix("vol 61% | load ") == true }, "\(bar.lines.suffix(3))")
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

    func testWithoutASoundServerTheHelperMakesNoSystemCallUntilOneStarts() throws {
        server.stop()
        try startSampler()
        let bar = try bar(["--blocks", "volume,load"])
        XCTAssertTrue(bar.waitFor(timeout: 10) { $0.last?.hasPrefix("vol n/a | load ") == true }, "\(bar.lines)")
        XCTAssertNotNil(childProcess(named: "sysstatsd-audio", of: try XCTUnwrap(sampler?.processIdentifier)))
        usleep(500_000)   // its first try and the ALSA mixer's (there is none) behind it
        // It waits on its socket's folder (inotify), not on a timer.
        try assertHelperMakesNoSystemCall("sysstatsd-audio", over: 5)
        try server.start()
        let start = Date()
        XCTAssertTrue(bar.waitFor(timeout: 5) { $0.last?.hasPrefix("vol 100% | load ") == true }, "\(bar.lines.suffix(3))")
        XCTAssertLessThan(Date().timeIntervalSince(start), 2, "answered as its socket appeared")
    }

    func testAnUnchangedVolumeCostsTheHelperNoSystemCallAtAll() throws {
        try startSampler()
        let bar = try bar(["--blocks", "volume"])
        XCTAssertTrue(bar.waitFor(timeout: 10) { $0.last == "vol 100%" }, "\(bar.lines)")
        // strace -c over 10 s of an unchanged volume.
        try assertHelperMakesNoSystemCall("sysstatsd-audio", over: 10)
    }
}
