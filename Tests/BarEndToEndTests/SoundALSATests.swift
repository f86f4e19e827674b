import Foundation
import XCTest

/// A sound card's mixer without sound hardware: the tests' alsa-lib control plugin
/// (Tests/Fixtures/alsa-mixer/mixer_plugin.c, built with cc once per test process) as ALSA's
/// `default` control device, named by an asoundrc in a home folder of its own, with no sound
/// server (`PULSE_SERVER` names a socket nobody listens on). Changed with amixer, as a user
/// changes it, or by writing its state file.
final class ALSAMixer {
    nonisolated(unsafe) private static var plugin: String?
    let folder: URL
    /// Where no server listens (until a test starts one there).
    let pulseSocket: String
    var state: String { folder.appendingPathComponent("mixer-state").path }
    var environment: [String: String] {
        ["HOME": folder.path, "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path,
         "PULSE_SERVER": "unix:" + pulseSocket, "LC_ALL": "C"]
    }

    /// The plugin's library, built once (nil with cc's complaint where it cannot be).
    static func buildPlugin() throws -> String {
        if let plugin { return plugin }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sysstats-alsa-plugin-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let library = dir.appendingPathComponent("libasound_module_ctl_sysstats_test.so").path
        let cc = Process()
        cc.executableURL = URL(fileURLWithPath: "/usr/bin/cc")
        cc.arguments = ["-shared", "-fPIC", "-DPIC", "-o", library,
                        BarProcess.packageRoot.appendingPathComponent("Tests/Fixtures/alsa-mixer/mixer_plugin.c").path, "-lasound"]
        let err = Pipe()
        cc.standardError = err
        try cc.run()
        let complaint = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        cc.waitUntilExit()
        guard cc.terminationStatus == 0 else {
            XCTFail("cc could not build the ALSA test plugin (install/deps.sh installs libasound2-dev): \(complaint)")
            throw CocoaError(.executableLoad)
        }
        plugin = library
        return library
    }

    /// `decibels`: whether Master's volume has a dB scale (-65.25 dB to 0), as a laptop's codec.
    init(decibels: Bool, pulseSocket: String? = nil) throws {
        let plugin = try Self.buildPlugin()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sysstats-alsa-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        self.pulseSocket = pulseSocket ?? folder.appendingPathComponent("no-server").path
        try """
            ctl_type.sysstats_test { lib "\(plugin)" }
            ctl.!default { type sysstats_test state "\(state)" db \(decibels) }

            """.write(to: folder.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
        try set(playback: 40)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// Writes the controls' values whole (the plugin signals the change to every opener).
    func set(playback: Int, on: Bool = true, capture: Int = 40, captureOn: Bool = true) throws {
        let temporary = state + ".tmp"
        try "\(playback) \(on ? 1 : 0) \(capture) \(captureOn ? 1 : 0)\n".write(toFile: temporary, atomically: false, encoding: .utf8)
        XCTAssertEqual(rename(temporary, state), 0)
    }

    /// The controls' values: `[playback, switch, capture, capture switch]`.
    var values: [Int] {
        ((try? String(contentsOfFile: state, encoding: .utf8)) ?? "").split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Runs `amixer -D default ARGUMENTS` against the mixer.
    func amixer(_ arguments: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/amixer")
        p.arguments = ["-q", "-D", "default"] + arguments
        p.environment = environment
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "amixer \(arguments)")
    }

    /// i3status's first line for one `volume` module on this mixer (`format` and
    /// `format_muted` as given): one run, ended as soon as it printed it.
    func i3statusLine(format: String, formatMuted: String) throws -> String {
        let config = folder.appendingPathComponent("i3status.conf")
        try """
            general { output_format = "none" interval = 60 }
            order += "volume master"
            volume master {
                format = "\(format)"
                format_muted = "\(formatMuted)"
                device = "default"
                mixer = "Master"
                mixer_idx = 0
            }

            """.write(to: config, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/i3status")
        p.arguments = ["-c", config.path]
        p.environment = environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        var printed = Data()
        while !printed.contains(10) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed.append(chunk)
        }
        // SIGKILL: i3status takes SIGTERM as a flag it reads after its sleep, and a SIGTERM
        // that lands between its line and its sleep waits out the interval.
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        return String(decoding: printed.prefix { $0 != 10 }, as: UTF8.self)
    }
}

/// The volume and microphone blocks where no sound server answers: the sound helper reads
/// ALSA's mixer (the `default` device's Master and Capture), pushed by the mixer's events as
/// the server's are, and sets it for a wheel or a click; side by side with i3status's volume
/// module on the same mixer.
final class SoundALSATests: HelperTestCase {
    var mixer: ALSAMixer!
    override var serverEnvironment: [String: String] { mixer.environment }

    override func setUpWithError() throws {
        for tool in ["/usr/bin/amixer", "/usr/bin/cc"] where !FileManager.default.isExecutableFile(atPath: tool) {
            XCTFail("\(tool) is missing: install/deps.sh installs it"); throw CocoaError(.fileNoSuchFile)
        }
        try makeRuntime("alsa")
    }

    override func tearDown() {
        removeRuntime()
        mixer = nil
    }

    func testWithoutASoundServerTheMixersChangesShowInTheBarsNextLineWithin100Milliseconds() throws {
        mixer = try ALSAMixer(decibels: true)
        try startSampler()
        let bar = try bar(config: """
            [[block]]
            block = "volume"
            format = "{device}: {volume}%"
            format_muted = "{device}: muted ({volume}%)"
            [[block]]
            block = "microphone"
            """)
        // 40 of 87 on the dB scale is -35.25 dB: 19 % as alsamixer and i3status show it; the
        // capture volume has no dB scale: 40 of 63, 63 %.
        XCTAssertTrue(bar.waitFor(timeout: 10) { $0.last == "Master: 19% | mic 63%" }, "\(bar.lines)")
        try assertChangesShowWithin100Milliseconds(bar, [(["sset", "Master", "50"], "Master: 29% | mic 63%"),
                                                         (["sset", "Master", "mute"], "Master: muted (29%) | mic 63%"),
                                                         (["sset", "Master", "87,87", "unmute"], "Master: 100% | mic 63%"),
                                                         (["sset", "Capture", "21"], "Master: 100% | mic 33%"),
                                                         (["sset", "Capture", "nocap"], "Master: 100% | mic muted (33%)")],
                                                   make: { try self.mixer.amixer($0) })
        let log = try String(contentsOf: samplerLog, encoding: .utf8)
        XCTAssertFalse(log.contains("no sound server answers"), "the mixer stands in: \(log)")
    }

    func testTheBarShowsWhatI3statusShowsForEveryVolumeOfAMixerWithADecibelScale() throws {
        try compareWithI3status(decibels: true)
    }

    func testTheBarShowsWhatI3statusShowsForEveryVolumeOfAMixerWithoutADecibelScale() throws {
        try compareWithI3status(decibels: false)
    }

    /// Every volume of Master (0 to 87), and muted, under i3status and under the bar, one
    /// i3status run each.
    func compareWithI3status(decibels: Bool) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/i3status") else {
            XCTFail("/usr/bin/i3status is missing: install/deps.sh installs it"); return
        }
        mixer = try ALSAMixer(decibels: decibels)
        try startSampler()
        let bar = try bar(config: """
            [[block]]
            block = "volume"
            format = "{device} {volume}%"
            format_muted = "{device} muted ({volume}%)"
            """)
        XCTAssertTrue(bar.waitFor(timeout: 10) { $0.last?.hasPrefix("Master ") == true }, "\(bar.lines)")
        var differences: [String] = [], theirs: [String: String] = [:]
        let values = Array(0...87)
        for (value, on) in values.map({ ($0, true) }) + [(40, false), (87, false)] {
            try mixer.set(playback: value, on: on)
            let line = try mixer.i3statusLine(format: "%devicename %volume", formatMuted: "%devicename muted (%volume)")
            theirs["\(value)\(on ? "" : " muted")"] = line
            if !bar.waitFor(timeout: 2, { $0.last == line }) {
                differences.append("\(value)\(on ? "" : " muted"): i3status \(line), bar \(bar.lines.last ?? "")")
            }
        }
        XCTAssertEqual(differences, [], "\(differences.count) of \(values.count + 2) differ")
        // i3status read the mixer (not a server, not nothing): 40 of 87 is -35.25 dB.
        XCTAssertEqual(theirs["40"], decibels ? "Master 19%" : "Master 46%")
        XCTAssertEqual(theirs["40 muted"], decibels ? "Master muted (19%)" : "Master muted (46%)")
        XCTAssertEqual(theirs["0"], "Master 0%")
        XCTAssertEqual(theirs["87"], "Master 100%")
    }

    func testAWheelEventChangesTheMixerByTheStepAndALeftClickMutes() throws {
        mixer = try ALSAMixer(decibels: false)
        try mixer.set(playback: 35)   // 40 %
        try startSampler()
        let bar = try bar(["--output", "i3bar"], config: """
            [[block]]
            block = "volume"
            step = 3
            max = 50
            """)
        func shows(_ text: String) -> Bool {
            bar.waitFor(timeout: 5) { $0.last?.contains(#""full_text":"\#(text)""#) == true }
        }
        XCTAssertTrue(shows("vol 40%"), "\(bar.lines)")
        // Up: 43 % is 37.6 of 87, the next step up 38 (43.68 %).
        bar.send("[\n{\"name\":\"volume\",\"instance\":\"volume\",\"button\":4}\n")
        XCTAssertTrue(shows("vol 44%"), "\(bar.lines.suffix(2))")
        XCTAssertEqual(mixer.values.first, 38)
        for _ in 0..<3 { bar.send(",{\"name\":\"volume\",\"instance\":\"volume\",\"button\":4}\n"); usleep(300_000) }
        XCTAssertTrue(shows("vol 51%"), "max caps the step (50 % is 43.5 of 87, 44 the step up): \(bar.lines.suffix(2))")
        XCTAssertEqual(mixer.values.first, 44)
        bar.send(",{\"name\":\"volume\",\"instance\":\"volume\",\"button\":5}\n")
        // Down: 47.57 % is 41.39 of 87, the step down 41 (47.13 %).
        XCTAssertTrue(shows("vol 47%"), "\(bar.lines.suffix(2))")
        bar.send(",{\"name\":\"volume\",\"instance\":\"volume\",\"button\":1}\n")
        XCTAssertTrue(shows("vol muted (47%)"), "\(bar.lines.suffix(2))")
        XCTAssertEqual(mixer.values, [41, 0, 40, 1])
    }

    func testAnUnchangedMixerCostsTheHelperNoSystemCallAtAll() throws {
        mixer = try ALSAMixer(decibels: true)
        try startSampler()
        let bar = try bar(["--blocks", "volume"])
        XCTAssertTrue(bar.waitFor(timeout: 10) { $0.last == "vol 19%" }, "\(bar.lines)")
        // strace -c over 5 s of an unchanged mixer and no server: the helper sleeps in poll
        // on the mixer and on the server socket's folder.
        try assertHelperMakesNoSystemCall("sysstatsd-audio", over: 5)
        try mixer.set(playback: 87)
        XCTAssertTrue(bar.waitFor(timeout: 2) { $0.last == "vol 100%" }, "\(bar.lines.suffix(2))")
    }

    func testASoundServerThatAnswersTakesOverFromTheMixerAndItsEndHandsBackWithoutNA() throws {
        let server = try PulseServer(started: false)
        mixer = try ALSAMixer(decibels: false, pulseSocket: server.socket)
        try startSampler()
        let bar = try bar(["--blocks", "volume"])
        XCTAssertTrue(bar.waitFor(timeout: 10) { $0.last == "vol 46%" }, "the mixer, 40 of 87: \(bar.lines)")
        try server.start()
        try server.pactl("set-sink-volume", "speakers", "61%")
        // The helper tries the server as its socket appears.
        XCTAssertTrue(bar.waitFor(timeout: 5) { $0.last == "vol 61%" }, "the server: \(bar.lines.suffix(3))")
        let answered = bar.lines.count
        try mixer.set(playback: 20)
        usleep(300_000)
        XCTAssertEqual(bar.lines.last, "vol 61%", "the mixer is not read while the server answers")
        server.stop()
        XCTAssertTrue(bar.waitFor(timeout: 5) { $0.last == "vol 23%" }, "the mixer again, 20 of 87: \(bar.lines.suffix(3))")
        XCTAssertFalse(bar.lines.dropFirst(answered - 2).contains("vol n/a"), "the hand-over is not missed: \(bar.lines)")
    }
}
