import Foundation
import XCTest

/// A private D-Bus session bus (Debian's `dbus-daemon --session`) in a folder of its own, and
/// test MPRIS players on it (Tests/Fixtures/mpris-player.py), changed through the players'
/// own test interface with `dbus-send`.
final class SessionBus {
    let folder: URL
    var address: String { "unix:path=" + folder.appendingPathComponent("bus").path }
    var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }
    private(set) var pid: Int32 = 0

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sysstats-bus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Starts the bus (again). Forked, not a child of the test: Foundation's Process waits on
    /// each child it started in turn (PulseServer says why that matters).
    func start() throws {
        // Through detach.py (it says why); its pid through a file.
        let pidFile = folder.appendingPathComponent("pid").path
        try? FileManager.default.removeItem(atPath: pidFile)
        try run(capturing: false, "/usr/bin/python3", [Self.detach, "--wait", pidFile, "/usr/bin/dbus-daemon", "--session", "--fork",
                                                       "--nopidfile", "--print-pid=1", "--address=" + address])
        let text = (try? String(contentsOfFile: pidFile, encoding: .utf8)) ?? ""
        pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        XCTAssertGreaterThan(pid, 0, "dbus-daemon printed no pid: \(text)")
    }

    /// Kills the bus (SIGKILL, as a crash) and waits until it is gone.
    func stop() {
        guard pid > 0 else { return }
        kill(pid, SIGKILL)
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline && kill(pid, 0) == 0 { usleep(20_000) }
        pid = 0
        try? FileManager.default.removeItem(at: folder.appendingPathComponent("bus"))
    }

    /// Starts a test player owning `org.mpris.MediaPlayer2.WORD`, in the background, and
    /// waits until it is on the bus; its log of the Player methods called is `log(of:)`.
    func startPlayer(_ word: String, identity: String) throws {
        try startService("mpris-player.py", [word, identity, "--log", log(of: word)], output: "\(word).out")
    }

    /// Starts the Python service `script` of Tests/Fixtures on this bus, in the background,
    /// and waits until it says it is ready (in `output`, a file of this folder).
    func startService(_ script: String, _ arguments: [String], output: String) throws {
        let path = BarProcess.packageRoot.appendingPathComponent("Tests/Fixtures/" + script).path
        let out = folder.appendingPathComponent(output).path
        try run(capturing: false, "/usr/bin/python3", [Self.detach, out, "/usr/bin/python3", path] + arguments)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if (try? String(contentsOfFile: out, encoding: .utf8))?.contains("ready") == true { return }
            usleep(50_000)
        }
        XCTFail("\(script) did not start: \((try? String(contentsOfFile: out, encoding: .utf8)) ?? "")")
    }

    static let detach = BarProcess.packageRoot.appendingPathComponent("Tests/Fixtures/detach.py").path

    func log(of word: String) -> String { folder.appendingPathComponent("\(word).calls").path }

    /// Calls the test interface's `method` on player `word` with dbus-send's typed `arguments`.
    func call(_ word: String, _ method: String, _ arguments: [String] = []) throws {
        _ = try run("/usr/bin/dbus-send", ["--session", "--print-reply", "--dest=org.mpris.MediaPlayer2." + word,
                                           "/org/mpris/MediaPlayer2", "org.sysstats.TestPlayer." + method] + arguments)
    }

    /// Runs `path` with `arguments` and waits for it; its stdout when `capturing`. A command
    /// that leaves a daemon behind runs without a pipe: Foundation's child keeps the pipe's
    /// descriptors, and the daemon with them, so reading to the end would wait for the daemon.
    @discardableResult
    private func run(capturing: Bool = true, _ path: String, _ arguments: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        p.environment = ["PATH": "/usr/bin:/bin", "HOME": folder.path].merging(environment) { $1 }
        let out = Pipe()
        p.standardOutput = capturing ? out : FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = capturing ? out.fileHandleForReading.readDataToEndOfFile() : Data()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
        return String(decoding: data, as: UTF8.self)
    }
}

/// The media block against a real session bus: the sampler's media helper (`sysstatsd-media`,
/// release build beside the sampler) pushes each change a player signals, the bar shows it in
/// its next line, a click calls the player. The sampler runs on the desktop fixture tree; only
/// the players come from outside it.
final class MediaPlayerTests: HelperTestCase {
    var bus: SessionBus!
    override var serverEnvironment: [String: String] { bus.environment }

    override func setUpWithError() throws {
        for tool in ["/usr/bin/dbus-daemon", "/usr/bin/dbus-send"] where !FileManager.default.isExecutableFile(atPath: tool) {
            XCTFail("\(tool) is missing: install/deps.sh installs it"); throw CocoaError(.fileNoSuchFile)
        }
        bus = try SessionBus()
        try makeRuntime("media")
    }

    override func tearDown() {
        removeRuntime()
        for word in ["spotify", "mpv"] { try? bus.call(word, "Quit") }
        bus = nil
    }

    func testATrackOrStatusChangeShowsInTheBarsNextLineWithin100Milliseconds() throws {
        try bus.startPlayer("spotify", identity: "Spotify")
        try startSampler()
        let bar = try bar(config: """
            [[block]]
            block = "media"
            format = "{label}: {artist} - {title} ({length})"
            format_paused = "{label} {status}: {title}"
            """)
        XCTAssertTrue(bar.waitFor(timeout: 10) { $0.last == "Spotify stopped: " }, "\(bar.lines)")
        let changes: [([String], String)] = [
            (["SetTrack", "string:Nude", "string:Radiohead", "string:In Rainbows", "int64:255000000"], "Spotify stopped: Nude"),
            (["SetStatus", "string:Playing"], "Spotify: Radiohead - Nude (04:15)"),
            (["SetTrack", "string:Reckoner", "string:Radiohead", "string:In Rainbows", "int64:290000000"], "Spotify: Radiohead - Reckoner (04:50)"),
            (["SetStatus", "string:Paused"], "Spotify paused: Reckoner"),
        ]
        // Each change is one signal round trip (player → bus → helper → sampler → bar): a few
        // ms on a quiet machine.
        try assertChangesShowWithin100Milliseconds(bar, changes) { try bus.call("spotify", $0[0], Array($0[1...])) }
    }

    /// A player tells its position only when asked and when it jumps (`Seeked`), never as it
    /// plays: the sampler counts it on at each sample while it plays (every 5 s here), a jump
    /// shows in the next line, a pause stops the count.
    func testThePositionCountsOnWhilePlayingAJumpShowsAtOnceAndAPauseStopsIt() throws {
        try bus.startPlayer("spotify", identity: "Spotify")
        try bus.call("spotify", "SetTrack", ["string:Nude", "string:Radiohead", "string:", "int64:255000000"])
        try bus.call("spotify", "JumpTo", ["int64:60000000"])
        try bus.call("spotify", "SetStatus", ["string:Playing"])
        try startSampler()
        let bar = try bar(config: """
            [[block]]
            block = "media"
            format = "{title} {position}/{length}"
            format_paused = "{title} paused at {position}"
            """)
        XCTAssertTrue(bar.waitFor(timeout: 10) { $0.last?.hasPrefix("Nude 01:0") == true }, "\(bar.lines)")
        let first = bar.lines.last ?? ""
        // The next sample is up to an interval (5 s) away: the wait is that and a margin for a loaded machine.
        XCTAssertTrue(bar.waitFor(timeout: 8) { ($0.last ?? first) > first && $0.last?.hasSuffix("/04:15") == true },
                      "the position moves on with no signal from the player: \(bar.lines.suffix(3))")
        try bus.call("spotify", "JumpTo", ["int64:200000000"])
        let jumped = Date()
        XCTAssertTrue(bar.waitFor(timeout: 5) { $0.last == "Nude 03:20/04:15" || $0.last == "Nude 03:21/04:15" }, "\(bar.lines.suffix(3))")
        XCTAssertLessThan(Date().timeIntervalSince(jumped), 0.9, "pushed by Seeked, not found at a later sample")
        try bus.call("spotify", "SetStatus", ["string:Paused"])
        XCTAssertTrue(bar.waitFor(timeout: 5) { $0.last?.hasPrefix("Nude paused at 03:2") == true }, "\(bar.lines.suffix(3))")
        let paused = bar.lines.last
        usleep(2_500_000)
        XCTAssertEqual(bar.lines.last, paused, "paused: the position stays")
    }

    func testAClickCallsThePlayerAndThePlayerGoneHidesTheBlock() throws {
        try bus.startPlayer("spotify", identity: "Spotify")
        try bus.call("spotify", "SetTrack", ["string:Nude", "string:Radiohead", "string:", "int64:0"])
        try startSampler()
        let bar = try bar(["--output", "i3bar", "--blocks", "media,load"])
        XCTAssertTrue(bar.waitFor(timeout: 10) { $0.last?.contains(#""full_text":"media stopped: Radiohead - Nude""#) == true }, "\(bar.lines)")
        bar.send("[\n{\"name\":\"media\",\"instance\":\"media\",\"button\":1}\n")
        XCTAssertTrue(bar.waitFor(timeout: 5) { $0.last?.contains(#""full_text":"media Radiohead - Nude""#) == true },
                      "a left click: PlayPause, and the player says it plays: \(bar.lines.suffix(2))")
        bar.send(",{\"name\":\"media\",\"instance\":\"media\",\"button\":3}\n")
        bar.send(",{\"name\":\"media\",\"instance\":\"media\",\"button\":2}\n")
        let deadline = Date().addingTimeInterval(5)
        var calls = ""
        while Date() < deadline {
            calls = (try? String(contentsOfFile: bus.log(of: "spotify"), encoding: .utf8)) ?? ""
            if calls.split(separator: "\n").count >= 3 { break }
            usleep(50_000)
        }
        XCTAssertEqual(Set(calls.split(separator: "\n").map(String.init)), ["PlayPause", "Next", "Previous"], calls)
        try bus.call("spotify", "Quit")
        XCTAssertTrue(bar.waitFor(timeout: 5) { ($0.last?.contains(#""name":"load""#) ?? false) && !($0.last?.contains("media") ?? true) },
                      "the player gone: the default bar's rule, hidden: \(bar.lines.suffix(2))")
    }

    func testOfTwoPlayersTheOnePlayingIsShownAndTheArgumentPicksOne() throws {
        try bus.startPlayer("spotify", identity: "Spotify")
        try bus.startPlayer("mpv", identity: "mpv Media Player")
        try bus.call("spotify", "SetTrack", ["string:Nude", "string:Radiohead", "string:", "int64:0"])
        try bus.call("mpv", "SetTrack", ["string:clip.mkv", "string:", "string:", "int64:0"])
        try bus.call("mpv", "SetStatus", ["string:Playing"])
        try startSampler()
        let bar = try bar(config: "[[block]]\nblock = \"media\"\n[[block]]\nblock = \"media\"\nplayer = \"spotify\"\n")
        XCTAssertTrue(bar.waitFor(timeout: 10) { $0.last == "media clip.mkv | media stopped: Radiohead - Nude" }, "\(bar.lines)")
        try bus.call("mpv", "SetStatus", ["string:Paused"])
        try bus.call("spotify", "SetStatus", ["string:Playing"])
        XCTAssertTrue(bar.waitFor(timeout: 5) { $0.last == "media Radiohead - Nude | media Radiohead - Nude" }, "\(bar.lines.suffix(2))")
    }

    func testTheBusGoneShowsNAAndItsReturnShowsThePlayerAgain() throws {
        try bus.startPlayer("spotify", identity: "Spotify")
        try startSampler()
        let bar = try bar(config: "[[block]]\nblock = \"media\"\n[[block]]\nblock = \"load\"\n")
        XCTAssertTrue(bar.waitFor(timeout: 10) { $0.last?.hasPrefix("media stopped: Spotify | load ") == true }, "\(bar.lines)")
        bus.stop()
        XCTAssertTrue(bar.waitFor(timeout: 5) { $0.last?.hasPrefix("media n/a | load ") == true }, "\(bar.lines.suffix(3))")
        try bus.start()
        try bus.startPlayer("spotify", identity: "Spotify")
        // The helper tries again after 1, 2, 4 and then every 5 s.
        XCTAssertTrue(bar.waitFor(timeout: 12) { $0.last?.hasPrefix("media stopped: Spotify | load ") == true }, "\(bar.lines.suffix(3))")
        let log = try String(contentsOf: samplerLog, encoding: .utf8)
        XCTAssertEqual(log.components(separatedBy: "no session bus answers").count - 1, 1, log)
        XCTAssertTrue(log.contains("the session bus answers again"), log)
    }

    func testAnUnchangedPlayerCostsTheHelperNoSystemCallAtAll() throws {
        try bus.startPlayer("spotify", identity: "Spotify")
        try startSampler()
        let bar = try bar(["--blocks", "media"])
        XCTAssertTrue(bar.waitFor(timeout: 10) { $0.last == "media stopped: Spotify" }, "\(bar.lines)")
        // strace -c over 10 s of an unchanged player.
        try assertHelperMakesNoSystemCall("sysstatsd-media", over: 10)
    }
}
