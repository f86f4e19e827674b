import Foundation
import XCTest

/// Whether the sound helper starts a sound server where none runs (docs/metrics.md, "Sound"):
/// libpulse starts one (autospawn) for a client that connects without
/// `PA_CONTEXT_NOAUTOSPAWN`, where client.conf allows it and the user is not root. Here
/// client.conf's `daemon-binary` is a script that leaves a file, the helper runs as a user
/// (nobody, when the tests run as root), and no server answers.
final class SoundAutospawnTests: XCTestCase {
    var folder: URL!
    var marker: String { folder.appendingPathComponent("out/spawned").path }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sysstats-autospawn-\(UUID().uuidString)")
        let user: uid_t = getuid() == 0 ? 65534 : getuid()
        for (name, mode) in [("", 0o755), ("run", 0o700), ("home", 0o755), ("out", 0o755)] {
            let dir = name.isEmpty ? folder! : folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: mode])
            if !name.isEmpty { XCTAssertEqual(chown(dir.path, user, gid_t(user)), 0) }
        }
        try write("#!/bin/sh\necho \"$@\" > \(marker)\n", "spawn.sh", mode: 0o755)
        try write("autospawn = yes\ndaemon-binary = \(folder.appendingPathComponent("spawn.sh").path)\n", "client.conf")
        // ALSA's configuration without the system's hooks (an empty one: no `default` device).
        try write("", "alsa.conf")
        // The helper copied where the user may run it, whatever the checkout's folders allow.
        let helper = URL(fileURLWithPath: try BarProcess.binary()).deletingLastPathComponent().appendingPathComponent("sysstatsd-audio")
        try FileManager.default.copyItem(at: helper, to: folder.appendingPathComponent("sysstatsd-audio"))
    }

    override func tearDown() {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    func write(_ text: String, _ name: String, mode: Int = 0o644) throws {
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        XCTAssertEqual(chmod(path, mode_t(mode)), 0)
    }

    /// Runs `command` as the user, with libpulse finding no server at the runtime folder's
    /// socket and the test's client.conf; `alsaConfig`: ALSA's configuration file, nil for the
    /// system's. Returns its first line of output, and ends it once `seconds` have passed or,
    /// with `untilSpawned`, once the script ran.
    @discardableResult
    func runAsUser(_ command: [String], alsaConfig: String?, seconds: Double = 2, untilSpawned: Bool = false) throws -> String {
        var environment = ["env", "-i", "HOME=" + folder.appendingPathComponent("home").path,
                           "XDG_RUNTIME_DIR=" + folder.appendingPathComponent("run").path,
                           "PULSE_CLIENTCONFIG=" + folder.appendingPathComponent("client.conf").path, "PATH=/usr/bin:/bin"]
        if let alsaConfig { environment.append("ALSA_CONFIG_PATH=" + alsaConfig) }
        let p = Process()
        if getuid() == 0 {
            p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            p.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups"] + environment + command
        } else {
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = Array(environment.dropFirst()) + command
        }
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline && p.isRunning && !(untilSpawned && spawned) { usleep(50_000) }
        if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
        let printed = out.fileHandleForReading.readDataToEndOfFile()
        return String(decoding: printed.prefix { $0 != 10 }, as: UTF8.self)
    }

    var spawned: Bool { FileManager.default.fileExists(atPath: marker) }

    /// The control: pactl (which connects without the flag) starts the script; then the
    /// helper's watch, change and mute, with ALSA's mixer absent, start nothing.
    func testTheHelpersOwnConnectionsNeverStartASoundServer() throws {
        try runAsUser(["pactl", "info"], alsaConfig: nil, seconds: 5)
        XCTAssertTrue(spawned, "the control: this client.conf makes libpulse start its daemon-binary for pactl")
        XCTAssertEqual(unlink(marker), 0)
        let helper = folder.appendingPathComponent("sysstatsd-audio").path
        let alsa = folder.appendingPathComponent("alsa.conf").path
        let first = try runAsUser([helper, "watch"], alsaConfig: alsa, seconds: 3)
        XCTAssertTrue(first.hasPrefix("down\t"), "the helper found no server and no mixer: \(first)")
        try runAsUser([helper, "change", "sink", "500", "10000"], alsaConfig: alsa)
        try runAsUser([helper, "mute", "sink"], alsaConfig: alsa)
        XCTAssertFalse(spawned, "the helper started a sound server")
    }

    /// With the system's ALSA configuration, opening `default` runs Debian's alsa-plugins hook
    /// (pulse.conf), which connects to PulseAudio to learn whether one runs, without the flag:
    /// libpulse starts the server for the helper's mixer as it does for i3status's.
    func testDebiansALSAHookStartsOneForTheHelperAsForI3status() throws {
        guard FileManager.default.fileExists(atPath: "/usr/share/alsa/alsa.conf.d/pulse.conf") else {
            throw XCTSkip("no alsa-plugins pulse hook on this machine")
        }
        try write("general { output_format = \"none\" interval = 60 }\norder += \"volume master\"\nvolume master { device = \"default\" }\n",
                  "i3status.conf")
        try runAsUser(["i3status", "-c", folder.appendingPathComponent("i3status.conf").path], alsaConfig: nil, seconds: 5, untilSpawned: true)
        XCTAssertTrue(spawned, "i3status's volume module")
        XCTAssertEqual(unlink(marker), 0)
        try runAsUser([folder.appendingPathComponent("sysstatsd-audio").path, "watch"], alsaConfig: nil, seconds: 5, untilSpawned: true)
        XCTAssertTrue(spawned, "the helper's mixer, through the same hook")
    }
}
