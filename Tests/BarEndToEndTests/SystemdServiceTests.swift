import Foundation
import XCTest

/// A systemd booted as PID 1 of new PID, mount and UTS namespaces (as systemd-nspawn does,
/// on the machine's own root), with /run and /tmp its own: a user manager and user services
/// as on a desktop, on a machine whose own PID 1 is not systemd. Needs root (unshare).
final class BootedSystemd {
    /// systemd's pid, as the machine sees it.
    private(set) var pid: Int32 = 0
    /// The namespace's root as the machine sees it (`/proc/PID/root`).
    var root: String { "/proc/\(pid)/root" }
    /// Where the output of what runs inside goes, on the machine.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sysstats-systemd-\(UUID().uuidString)").path
    private var runs = 0
    /// Foundation's Process learns that a child ended through a descriptor the child
    /// inherits, which a daemon started inside would hold: everything runs through
    /// Tests/Fixtures/detach.py, which passes on no descriptor but stdin, stdout and stderr.
    static let detach = BarProcess.packageRoot.appendingPathComponent("Tests/Fixtures/detach.py").path

    init(file: StaticString = #filePath, line: UInt = #line) throws {
        guard getuid() == 0 else { throw XCTSkip("booting systemd in namespaces needs root") }
        for tool in ["/usr/bin/unshare", "/usr/bin/nsenter", "/lib/systemd/systemd", "/usr/bin/python3"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            XCTFail("\(tool) is missing: install/deps.sh installs systemd, util-linux and python3", file: file, line: line)
            throw CocoaError(.fileNoSuchFile)
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // Its own /proc, /run and /tmp; the console's gettys masked (no terminal to serve).
        let unsharePid = folder + "/unshare.pid"
        try Self.wait(["/usr/bin/python3", Self.detach, "--pid", unsharePid, folder + "/systemd.out",
                       "/usr/bin/unshare", "--pid", "--fork", "--mount", "--uts", "--propagation", "private", "/bin/sh", "-c", """
            mount -t proc proc /proc && mount -t tmpfs -o mode=755 tmpfs /run && mount -t tmpfs tmpfs /tmp && \
            mkdir -p /run/systemd/system && ln -s /dev/null /run/systemd/system/console-getty.service && \
            ln -s /dev/null /run/systemd/system/getty@tty1.service && \
            exec /lib/systemd/systemd --unit=multi-user.target
            """])
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let parent = (try? String(contentsOfFile: unsharePid, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            let children = parent.flatMap { try? String(contentsOfFile: "/proc/\($0)/task/\($0)/children", encoding: .utf8) } ?? ""
            if let child = children.split(separator: " ").first.flatMap({ Int32($0) }),
               (try? String(contentsOfFile: "/proc/\(child)/comm", encoding: .utf8))?.hasPrefix("systemd") == true {
                pid = child
                let state = try run("systemctl is-system-running").output.trimmingCharacters(in: .whitespacesAndNewlines)
                if state == "running" || state == "degraded" { return }
            }
            usleep(200_000)
        }
        XCTFail("systemd did not boot in its namespaces within 60 s (pid \(pid)): "
                + ((try? String(contentsOfFile: folder + "/systemd.out", encoding: .utf8)) ?? ""), file: file, line: line)
        shutDown()
        throw CocoaError(.executableLoad)
    }

    deinit { shutDown() }

    /// Ends systemd, and with PID 1 every process of its namespace.
    func shutDown() {
        if pid > 0 { kill(pid, SIGKILL) }
        pid = 0
        try? FileManager.default.removeItem(atPath: folder)
    }

    private static func wait(_ command: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: command[0])
        p.arguments = Array(command.dropFirst())
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
    }

    /// Runs `script` by /bin/sh inside the namespaces with `environment` only, to its end
    /// (`&` for a daemon): status and output.
    @discardableResult
    func run(_ script: String, environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        runs += 1
        let out = folder + "/run.\(runs)"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = [Self.detach, "--wait", out] + wrapper(environment) + ["/bin/sh", "-c", script]
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return (p.terminationStatus, (try? String(contentsOfFile: out, encoding: .utf8)) ?? "")
    }

    /// The command that runs a program inside the namespaces with `environment` only.
    func wrapper(_ environment: [String: String]) -> [String] {
        ["/usr/bin/nsenter", "-t", "\(pid)", "-m", "-p", "-u", "--", "/usr/bin/env", "-i", "PATH=/usr/bin:/bin:/usr/sbin:/sbin", "LC_ALL=C"]
            + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    }

    /// `wrapper`, started from a Python parent that passes on only stdin, stdout and stderr:
    /// for a program whose output a test reads (a bar), which lives until the namespace ends.
    func pipedWrapper(_ environment: [String: String]) -> [String] {
        ["/usr/bin/python3", "-c", "import subprocess, sys; sys.exit(subprocess.run(sys.argv[1:], close_fds=True).returncode)"]
            + wrapper(environment)
    }
}

/// The sampler as the systemd user service it is installed as (assets/sysstatsd.service,
/// its whole sandbox), under a real user manager: its helpers start inside the sandbox and
/// reach what they need — the sound server's socket, the session bus, the sound and GPU
/// devices they open — and a bar shows their figures.
final class SystemdServiceTests: XCTestCase {
    func testTheSandboxedServicesHelpersReachTheSoundServerTheSessionBusAndTheDevices() throws {
        let machine = try BootedSystemd()
        defer { machine.shutDown() }
        let user = ["XDG_RUNTIME_DIR": "/run/user/0"]
        XCTAssertEqual(try machine.run("systemctl start user@0.service").status, 0)
        // The programs, the unit (with install.sh's paths) and the media player, where the
        // service can see them (it has a /tmp of its own and a read-only home).
        let bin = "/run/sysstats-test/bin"
        try FileManager.default.createDirectory(atPath: machine.root + bin, withIntermediateDirectories: true)
        let release = URL(fileURLWithPath: try BarProcess.binary()).deletingLastPathComponent()
        for program in ["sysstatsd", "sysstatsd-history", "sysstatsd-audio", "sysstatsd-media", "sysstatsd-gpu", "sysstats-bar"] {
            try FileManager.default.copyItem(atPath: release.appendingPathComponent(program).path, toPath: machine.root + bin + "/" + program)
        }
        let template = try String(contentsOf: BarProcess.packageRoot.appendingPathComponent("assets/sysstatsd.service"), encoding: .utf8)
        try FileManager.default.createDirectory(atPath: machine.root + "/run/systemd/user", withIntermediateDirectories: true)
        try template.replacingOccurrences(of: "@BINDIR@", with: bin).replacingOccurrences(of: "@DATADIR@", with: "/run/sysstats-test/data")
            .write(toFile: machine.root + "/run/systemd/user/sysstatsd.service", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: BarProcess.packageRoot.appendingPathComponent("Tests/Fixtures/mpris-player.py").path,
                                         toPath: machine.root + "/run/sysstats-test/mpris-player.py")
        // A device node of the kind the helpers open (ALSA's control device; NVML's are alike):
        // the sandbox must not hide /dev from them.
        let device = "/dev/snd/controlC99"
        let madeFolder = !FileManager.default.fileExists(atPath: "/dev/snd")
        if madeFolder { try FileManager.default.createDirectory(atPath: "/dev/snd", withIntermediateDirectories: false) }
        let mknod = try Process.run(URL(fileURLWithPath: "/usr/bin/mknod"), arguments: ["-m", "600", device, "c", "116", "99"])
        mknod.waitUntilExit()
        XCTAssertEqual(mknod.terminationStatus, 0, "mknod \(device)")
        defer {
            unlink(device)
            if madeFolder { rmdir("/dev/snd") }
        }
        // The session's sound server at its usual socket, and a session bus with a player.
        let server = try machine.run("""
            mkdir -p /run/sysstats-test/home && HOME=/run/sysstats-test/home pulseaudio -n --daemonize=yes --exit-idle-time=-1 \
                --disable-shm=yes --use-pid-file=no --log-level=error \
                -L 'module-native-protocol-unix auth-anonymous=1 socket=/run/user/0/pulse/native' \
                -L 'module-null-sink sink_name=speakers sink_properties=device.description=Speakers' &&
            dbus-daemon --session --fork --address=unix:path=/run/user/0/sysstats-test-bus &&
            for i in $(seq 50); do [ -S /run/user/0/pulse/native ] && [ -S /run/user/0/sysstats-test-bus ] && exit 0; sleep 0.1; done; exit 1
            """, environment: user)
        XCTAssertEqual(server.status, 0, server.output)
        let bus = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/0/sysstats-test-bus"]
        try machine.run("/usr/bin/python3 /run/sysstats-test/mpris-player.py spotify Spotify > /run/sysstats-test/player.out 2>&1 &",
                        environment: bus)
        let started = try machine.run("""
            systemctl --user set-environment DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/0/sysstats-test-bus &&
            systemctl --user daemon-reload && systemctl --user start sysstatsd && systemctl --user is-active sysstatsd
            """, environment: user)
        XCTAssertEqual(started.status, 0, started.output)
        let mainPid = try XCTUnwrap(Int32(try machine.run("systemctl --user show -p MainPID --value sysstatsd", environment: user)
            .output.trimmingCharacters(in: .whitespacesAndNewlines)), "no main pid")
        // The pid as the namespace numbers it; the machine's is found by the namespace's own.
        let sampler = try XCTUnwrap(machinePid(of: mainPid, in: machine), "the sampler's pid")

        let bar = try BarProcess(["--config", "/dev/null", "--blocks", "volume,media"], stdin: false,
                                 wrapper: machine.pipedWrapper(user.merging(["SYSSTATS_NO_START_SAMPLER": "1"]) { $1 }), binary: bin + "/sysstats-bar")
        let shown = bar.waitFor(timeout: 15) { $0.last?.hasPrefix("vol 100% | media ") == true }
        let journal = shown ? "" : (try machine.run("journalctl --no-pager -n 30; cat /run/sysstats-test/player.out").output)
        XCTAssertTrue(shown, "the helpers' figures from inside the sandbox: \(bar.lines.suffix(3)); \(journal)")
        try machine.run("dbus-send --session --print-reply --dest=org.mpris.MediaPlayer2.spotify /org/mpris/MediaPlayer2 " +
                        "org.sysstats.TestPlayer.SetTrack string:Nude string:Radiohead string:'In Rainbows' int64:255000000 && " +
                        "dbus-send --session --print-reply --dest=org.mpris.MediaPlayer2.spotify /org/mpris/MediaPlayer2 " +
                        "org.sysstats.TestPlayer.SetStatus string:Playing", environment: bus)
        try machine.run("pactl set-sink-volume speakers 42%", environment: user.merging(["HOME": "/run/sysstats-test/home"]) { $1 })
        XCTAssertTrue(bar.waitFor(timeout: 5) { $0.last == "vol 42% | media Radiohead - Nude" }, "\(bar.lines.suffix(3))")

        let children = (try? String(contentsOfFile: "/proc/\(sampler)/task/\(sampler)/children", encoding: .utf8)) ?? ""
        let names = children.split(separator: " ").compactMap { try? String(contentsOfFile: "/proc/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        XCTAssertTrue(names.contains("sysstatsd-audio") && names.contains("sysstatsd-media"), "the sampler's children: \(names)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: "/proc/\(sampler)/root" + device),
                      "the service sees \(device), as the sound and GPU helpers must")
        XCTAssertEqual(try machine.run("systemctl --user show -p NRestarts --value sysstatsd", environment: user).output, "0\n")
    }

    /// The machine's pid of the namespace's `pid` (its NSpid line's last field).
    func machinePid(of pid: Int32, in machine: BootedSystemd) -> Int32? {
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let candidate = Int32(entry),
                  let status = try? String(contentsOfFile: "/proc/\(entry)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("NSpid:") }) else { continue }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst()
            if fields.count > 1, fields.last.flatMap({ Int32($0) }) == pid,
               (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(entry)/ns/pid"))
                == (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(machine.pid)/ns/pid")) {
                return candidate
            }
        }
        return nil
    }
}
