import Foundation
import XCTest

/// A real PipeWire (Debian's `pipewire`, its session manager `wireplumber` and its PulseAudio
/// server `pipewire-pulse`), headless, in a folder of its own under a private session bus
/// (`dbus-run-session`, which WirePlumber wants), with null sinks loaded through
/// pipewire-pulse and changed with `pactl`, as a user's desktop would.
final class PipeWireServer: PactlServer {
    let folder: URL
    var socket: String { folder.appendingPathComponent("pulse/native").path }
    var environment: [String: String] { ["PULSE_SERVER": "unix:" + socket] }
    private var group: Int32 = 0

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sysstats-pipewire-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = folder.appendingPathComponent("run.sh").path
        try """
            pipewire &
            sleep 0.3
            wireplumber &
            exec pipewire-pulse
            """.write(toFile: script, atomically: true, encoding: .utf8)
        let pidFile = folder.appendingPathComponent("pid").path
        let detach = BarProcess.packageRoot.appendingPathComponent("Tests/Fixtures/detach.py").path
        // Through detach.py, in a process group of its own that stop() ends as a whole.
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = [detach, "--pid", pidFile, folder.appendingPathComponent("log").path,
                       "/usr/bin/dbus-run-session", "--", "/bin/sh", script]
        p.environment = ["HOME": folder.path, "XDG_RUNTIME_DIR": folder.path, "XDG_CONFIG_HOME": folder.path,
                         "PATH": "/usr/bin:/bin"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        group = Int32(((try? String(contentsOfFile: pidFile, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if (try? pactl("info"))?.contains("PipeWire") == true {
                try pactl("load-module", "module-null-sink", "sink_name=speakers", "sink_properties=device.description=Speakers")
                try pactl("load-module", "module-null-sink", "sink_name=headphones", "sink_properties=device.description=Headphones")
                // WirePlumber takes the first sink as the default once it has seen it.
                for _ in 0..<100 where (try? pactl("get-default-sink"))?.hasPrefix("speakers") != true {
                    try? pactl("set-default-sink", "speakers")
                    usleep(50_000)
                }
                return
            }
            usleep(100_000)
        }
        XCTFail("pipewire-pulse did not answer within 15 s: \((try? String(contentsOf: folder.appendingPathComponent("log"), encoding: .utf8)) ?? "")")
    }

    deinit {
        if group > 0 {
            kill(-group, SIGKILL)
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline && kill(group, 0) == 0 { usleep(20_000) }
        }
        try? FileManager.default.removeItem(at: folder)
    }
}

/// The volume block against PipeWire through pipewire-pulse, the sound server of most
/// desktops now: the same helper, the same protocol, another server behind it.
final class PipeWireServerTests: HelperTestCase {
    var server: PipeWireServer!
    override var serverEnvironment: [String: String] { server.environment }

    override func setUpWithError() throws {
        for tool in ["/usr/bin/pipewire", "/usr/bin/pipewire-pulse", "/usr/bin/wireplumber", "/usr/bin/dbus-run-session"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            XCTFail("\(tool) is missing: install/deps.sh installs it"); throw CocoaError(.fileNoSuchFile)
        }
        server = try PipeWireServer()
        try makeRuntime("pipewire")
    }

    override func tearDown() {
        removeRuntime()
        server = nil
    }

    func testAVolumeMuteOrDefaultSinkChangeShowsInTheBarsNextLineWithin100Milliseconds() throws {
        try startSampler()
        let bar = try bar(config: "[[block]]\nblock = \"volume\"\nformat = \"{device}: {volume}%\"\nformat_muted = \"{device}: muted\"\n")
        XCTAssertTrue(bar.waitFor(timeout: 10) { $0.last == "Speakers: 100%" }, "\(bar.lines)")
        try assertChangesShowWithin100Milliseconds(bar, [(["set-sink-volume", "speakers", "37%"], "Speakers: 37%"),
                                                         (["set-sink-mute", "speakers", "1"], "Speakers: muted"),
                                                         (["set-default-sink", "headphones"], "Headphones: 100%"),
                                                         (["set-sink-volume", "headphones", "64%"], "Headphones: 64%")]) {
            try server.pactl($0)
        }
    }

    func testAWheelEventChangesPipeWiresVolumeByTheStep() throws {
        try startSampler()
        try server.pactl("set-sink-volume", "speakers", "40%")
        let bar = try bar(["--output", "i3bar"], config: "[[block]]\nblock = \"volume\"\nstep = 3\n")
        XCTAssertTrue(bar.waitFor(timeout: 10) { $0.last?.contains(#""full_text":"vol 40%""#) == true }, "\(bar.lines)")
        bar.send("[\n{\"name\":\"volume\",\"instance\":\"volume\",\"button\":4}\n")
        XCTAssertTrue(bar.waitFor(timeout: 5) { $0.last?.contains(#""full_text":"vol 43%""#) == true }, "\(bar.lines.suffix(2))")
        let volume = try server.pactl("get-sink-volume", "speakers")
        XCTAssertTrue(volume.contains("/  43% /"), volume)
        bar.send(",{\"name\":\"volume\",\"instance\":\"volume\",\"button\":1}\n")
        XCTAssertTrue(bar.waitFor(timeout: 5) { $0.last?.contains(#""full_text":"vol muted (43%)""#) == true }, "\(bar.lines.suffix(2))")
    }
}
