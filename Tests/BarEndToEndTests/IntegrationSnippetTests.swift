import Foundation
import SnapshotCodec
import XCTest

/// The snippets of docs/integrations.md, each read from the document and run exactly as
/// written under the real bar it is for (skipped when that bar is not installed;
/// install/deps.sh installs them). The snippets name `sysstats-bar` and the default
/// runtime directory: each test puts the release build first on PATH and points
/// XDG_RUNTIME_DIR at a private directory holding a fixture snapshot in `sysstats/`.
/// SYSSTATS_NO_START_SAMPLER=1 keeps every bar from starting a sampler on this machine.
final class IntegrationSnippetTests: XCTestCase {
    static let document = BarProcess.packageRoot.appendingPathComponent("docs/integrations.md")

    /// The fenced block after `<!-- snippet: NAME -->` in docs/integrations.md, as written.
    func snippet(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let lines = try String(contentsOf: Self.document, encoding: .utf8).components(separatedBy: "\n")
        guard let marker = lines.firstIndex(of: "<!-- snippet: \(name) -->"), marker + 1 < lines.count,
              lines[marker + 1].hasPrefix("```"), let end = lines[(marker + 2)...].firstIndex(of: "```")
        else {
            XCTFail("docs/integrations.md has no fenced block after <!-- snippet: \(name) -->", file: file, line: line)
            throw CocoaError(.fileReadCorruptFile)
        }
        return lines[(marker + 2)..<end].joined(separator: "\n") + "\n"
    }

    func tool(_ path: String, package: String) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw XCTSkip("\(path) is not installed (package \(package); install/deps.sh installs it)")
        }
        return path
    }

    // MARK: - X11 bars

    func testTheI3SnippetRunsTheBarUnderI3barWithoutErrors() throws {
        let i3 = try tool("/usr/bin/i3", package: "i3-wm")
        let text = try snippet("i3")
        XCTAssertEqual(text, "bar {\n    status_command sysstats-bar --output i3bar\n}\n", "the one line an i3 user writes")
        let home = try SnippetHome(test: self)
        try home.publish(sampleSnapshot(sequence: 1))
        try home.startXvfb(display: 800 + Int(getpid() % 100))
        let config = try home.write("i3.conf", "# i3 config file (v4)\nfont pango:monospace 8\n" + text)
        let log = home.url.appendingPathComponent("i3.log")
        let wm = try home.start(i3, ["-c", config], log: log)
        let bar = home.waitForProcess("sysstats-bar", under: "i3bar")
        XCTAssertNotNil(bar, "i3bar runs the snippet's status_command: \(home.read(log))")
        for sequence in 2...10 { usleep(100_000); try home.publish(sampleSnapshot(sequence: UInt64(sequence))) }
        usleep(300_000)
        XCTAssertTrue(wm.isRunning)
        XCTAssertTrue(bar.map { kill($0, 0) == 0 } ?? false, "i3bar keeps the renderer running")
        XCTAssertFalse(home.read(log).localizedCaseInsensitiveContains("error"), home.read(log))
    }

    func testTheDwmSnippetPutsTheFiguresInTheRootWindowNameDwmShows() throws {
        _ = try tool("/usr/bin/dwm", package: "dwm")
        let xprop = try tool("/usr/bin/xprop", package: "x11-utils")
        let text = try snippet("dwm")
        XCTAssertTrue(text.hasSuffix("exec dwm\n"), text)
        let home = try SnippetHome(test: self)
        try home.publish(sampleSnapshot(sequence: 1))
        try home.startXvfb(display: 900 + Int(getpid() % 100))
        let xinitrc = try home.write("xinitrc", text)
        let session = try home.start("/bin/sh", [xinitrc])
        func rootName() -> String { home.capture(xprop, ["-root", "_NET_WM_NAME"]) }
        // Fresh snapshots while X and dwm start: the default bar's clock would show a stale one as stopped.
        XCTAssertTrue(waitUntil(10) { try? home.publish(sampleSnapshot(sequence: 1)); return rootName().contains("cpu 0% ") },
                      rootName())
        XCTAssertTrue(rootName().contains("load 0.52 "), rootName())
        XCTAssertTrue(rootName().contains("mem "), rootName())
        XCTAssertEqual(home.command(of: session.processIdentifier), "dwm", "the snippet's shell became dwm")
        XCTAssertTrue(waitUntil(10) { try? home.publish(sampleSnapshot(sequence: 200)); return rootName().contains("cpu 2% ") },
                      "the name follows new snapshots: \(rootName())")
        XCTAssertTrue(session.isRunning)
    }

    func testThePolybarSnippetRunsAsAScriptModuleOfARealPolybar() throws {
        let polybar = try tool("/usr/bin/polybar", package: "polybar")
        let xwininfo = try tool("/usr/bin/xwininfo", package: "x11-utils")
        let text = try snippet("polybar")
        let home = try SnippetHome(test: self)
        // polybar runs a %{A1:…:} tag's command on a click: a process name must not bring one.
        // (Names hold at most 48 bytes: a short command, run in the home directory, polybar's.)
        let injected = home.path + "/I"
        func snapshot(_ sequence: UInt64) -> Snapshot {
            var s = sampleSnapshot(sequence: sequence)
            s.exits[0].name = Array("%{A1:touch I:}WWWWWWWWWWWWWWWWWWWWWW%{A}".utf8)
            return s
        }
        try home.publish(snapshot(1))
        try home.startXvfb(display: 1000 + Int(getpid() % 100))
        let config = try home.write("polybar.ini", """
            [bar/sysstats]
            width = 100%
            height = 24
            font-0 = fixed:pixelsize=10
            modules-right = sysstats

            """ + text)
        let log = home.url.appendingPathComponent("polybar.log")
        let bar = try home.start(polybar, ["--config=\(config)", "sysstats"], log: log)
        XCTAssertTrue(waitUntil(10) { home.capture(xwininfo, ["-root", "-tree"]).contains("polybar-sysstats") },
                      "polybar's window: \(home.read(log))")
        let renderer = home.waitForProcess("sysstats-bar", under: "polybar")
        XCTAssertNotNil(renderer, "polybar runs the module's exec: \(home.read(log))")
        for sequence in 2...10 { usleep(100_000); try home.publish(snapshot(UInt64(sequence))) }
        usleep(300_000)
        try home.clickAcross(y: 12)
        XCTAssertFalse(FileManager.default.fileExists(atPath: injected), "a click ran a command a process name brought")
        XCTAssertTrue(bar.isRunning, home.read(log))
        XCTAssertTrue(renderer.map { kill($0, 0) == 0 } ?? false, "tail = true keeps one renderer running")
        XCTAssertFalse(home.read(log).contains("error:"), home.read(log))
    }

    func testTheLemonbarSnippetDrawsABarFedByTheRenderer() throws {
        _ = try tool("/usr/bin/lemonbar", package: "lemonbar")
        let xwininfo = try tool("/usr/bin/xwininfo", package: "x11-utils")
        let text = try snippet("lemonbar")
        let home = try SnippetHome(test: self)
        // lemonbar prints a %{A:…:} tag's command on a click (for a shell to run): a process
        // name must not bring one.
        func snapshot(_ sequence: UInt64) -> Snapshot {
            var s = sampleSnapshot(sequence: sequence)
            s.exits[0].name = Array("%{A:INJECTED:}WWWWWWWWWWWWWWWWWWWWWW%{A}".utf8)
            return s
        }
        try home.publish(snapshot(1))
        try home.startXvfb(display: 1100 + Int(getpid() % 100))
        let log = home.url.appendingPathComponent("lemonbar.log")
        let shell = try home.start("/bin/sh", ["-c", text], log: log)
        XCTAssertTrue(waitUntil(10) { home.capture(xwininfo, ["-root", "-tree"]).contains("\"bar\"") },
                      "lemonbar's window: \(home.read(log))")
        // The snippet puts the pipeline in the background and the shell ends. (Not waitUntilExit:
        // Foundation's Process sees the end only when every child holding its descriptors has.)
        XCTAssertTrue(waitUntil(5) { home.hasExited(shell.processIdentifier) })
        for sequence in 2...10 { usleep(100_000); try home.publish(snapshot(UInt64(sequence))) }
        usleep(300_000)
        try home.clickAcross(y: 8)
        usleep(300_000)
        for name in ["sysstats-bar", "sed", "lemonbar"] {
            XCTAssertNotNil(home.process(name), "\(name) keeps running: \(home.read(log))")
        }
        XCTAssertFalse(home.read(log).contains("INJECTED"), "a click gave lemonbar's shell a command a process name brought")
        XCTAssertTrue(home.read(log).isEmpty, home.read(log))
    }

    // MARK: - tmux

    func testTheTmuxSnippetShowsTheFiguresInTmuxsStatusLine() throws {
        let tmux = try tool("/usr/bin/tmux", package: "tmux")
        let text = try snippet("tmux")
        let home = try SnippetHome(test: self)
        // tmux expands #{…} and #[…] in a command's output: --output tmux keeps a hostile name text.
        func snapshot(_ sequence: UInt64) -> Snapshot {
            var s = sampleSnapshot(sequence: sequence)
            s.exits[0].name = Array("j#{host}#[fg=red]".utf8)
            return s
        }
        try home.publish(snapshot(1))
        let config = try home.write("tmux.conf", text)
        // The user's tmux (inner) attached in a terminal: a pane of another tmux (outer),
        // whose capture-pane shows the inner one's status line as drawn.
        home.environment["TMUX_TMPDIR"] = home.path
        let outer = try home.start(tmux, ["-L", "outer", "-f", "/dev/null", "new-session", "-d", "-x", "200", "-y", "10",
                                          "env -u TMUX tmux -L user -f \(config) new-session"])
        XCTAssertTrue(waitUntil(10) { home.hasExited(outer.processIdentifier) }, "tmux new-session -d returns")
        addTeardownBlock {
            for server in ["user", "outer"] { _ = home.capture(tmux, ["-L", server, "kill-server"]) }
        }
        func status() -> String {
            home.capture(tmux, ["-L", "outer", "capture-pane", "-p"]).split(separator: "\n").last.map(String.init) ?? ""
        }
        XCTAssertTrue(waitUntil(15) { try? home.publish(snapshot(1)); return status().contains("cpu 0% ") },
                      "the status line: \(status())")
        let line = status()
        XCTAssertTrue(line.contains("load ") && line.contains("mem "), line)
        XCTAssertTrue(line.contains("exited j#{host}#[fg=red] freed"), "the name shows as text, not as a format: \(line)")
        XCTAssertTrue(waitUntil(10) { try? home.publish(snapshot(200)); return status().contains("cpu 2% ") },
                      "the status follows new snapshots: \(status())")
        XCTAssertEqual(home.processes(named: "sysstats-bar").count, 1, "one renderer, kept running")
    }

    // MARK: - Wayland: sway and waybar on the headless wlroots backend

    func testTheSwaySnippetRunsTheBarUnderSwaybarWithoutErrors() throws {
        let sway = try tool("/usr/bin/sway", package: "sway")
        _ = try tool("/usr/bin/swaybar", package: "sway")
        let text = try snippet("sway")
        let home = try SnippetHome(test: self, wayland: true)
        try home.publish(sampleSnapshot(sequence: 1))
        let config = try home.write("sway.conf", text)
        let log = home.url.appendingPathComponent("sway.log")
        let compositor = try home.start(sway, ["-c", config], log: log)
        let bar = home.waitForProcess("sysstats-bar", under: "swaybar", timeout: 20)
        XCTAssertNotNil(bar, "swaybar runs the snippet's status_command: \(home.read(log))")
        for sequence in 2...10 { usleep(100_000); try home.publish(sampleSnapshot(sequence: UInt64(sequence))) }
        usleep(300_000)
        XCTAssertTrue(compositor.isRunning, home.read(log))
        XCTAssertTrue(bar.map { kill($0, 0) == 0 } ?? false, "swaybar keeps the renderer running")
        // sway logs errors of its own on a headless machine (no DRM, no Xwayland, no D-Bus);
        // none may come from swaybar's reading of the status line.
        let barErrors = home.read(log).split(separator: "\n").filter {
            $0.contains("[ERROR]") && ($0.contains("swaybar/i3bar") || $0.contains("swaybar/status_line"))
        }
        XCTAssertEqual(barErrors, [], home.read(log))
    }

    func testTheWaybarSnippetRunsAsACustomModuleOfARealWaybar() throws {
        let sway = try tool("/usr/bin/sway", package: "sway")
        let waybar = try tool("/usr/bin/waybar", package: "waybar")
        let text = try snippet("waybar")
        let home = try SnippetHome(test: self, wayland: true)
        try home.publish(sampleSnapshot(sequence: 1))
        let swayConfig = try home.write("sway.conf", "# no bar: waybar is the bar\n")
        let swayLog = home.url.appendingPathComponent("sway.log")
        let compositor = try home.start(sway, ["-c", swayConfig], log: swayLog)
        XCTAssertTrue(waitUntil(15) { home.waylandDisplay() != nil }, home.read(swayLog))
        home.environment["WAYLAND_DISPLAY"] = try XCTUnwrap(home.waylandDisplay())
        let config = try home.write("waybar.json", "{\n\"layer\": \"top\",\n\"height\": 24,\n\"modules-right\": [\"custom/sysstats\"],\n" + text + "}\n")
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: config))),
                         "the snippet is a JSON member of waybar's config")
        let style = try home.write("style.css", "* { font-family: monospace; font-size: 10px; }\n")
        let log = home.url.appendingPathComponent("waybar.log")
        let bar = try home.start(waybar, ["-c", config, "-s", style], log: log)
        let renderer = home.waitForProcess("sysstats-bar", under: "waybar", timeout: 20)
        XCTAssertNotNil(renderer, "waybar runs the module's exec: \(home.read(log))")
        for sequence in 2...10 { usleep(100_000); try home.publish(sampleSnapshot(sequence: UInt64(sequence))) }
        usleep(500_000)
        XCTAssertTrue(compositor.isRunning, home.read(swayLog))
        XCTAssertTrue(bar.isRunning, home.read(log))
        XCTAssertTrue(renderer.map { kill($0, 0) == 0 } ?? false, "waybar keeps the renderer running")
        let errors = home.read(log).split(separator: "\n").filter { $0.contains("[error]") }
        XCTAssertEqual(errors, [], home.read(log))
    }

    /// sway runs the snippet's `exec` with WAYLAND_DISPLAY set: `--output panel` shows the
    /// layer surface, in the output's top-right corner (the default anchor).
    func testTheSwayPanelSnippetShowsThePanelPictureInTheTopRightCorner() throws {
        let sway = try tool("/usr/bin/sway", package: "sway")
        _ = try tool("/usr/bin/grim", package: "grim")
        let home = try SnippetHome(test: self, wayland: true)
        let snapshot = panelSnapshot()
        try home.publish(snapshot)
        let config = try home.write("sway.conf", try snippet("sway-panel"))
        let log = home.url.appendingPathComponent("sway.log")
        let compositor = try home.start(sway, ["-c", config], log: log)
        XCTAssertTrue(waitUntil(15) { home.waylandDisplay() != nil }, home.read(log))
        try assertPanelShown(home, snapshot, "the sway snippet")
        XCTAssertTrue(compositor.isRunning, home.read(log))
    }

    /// The commands the Hyprland and river lines run, under headless sway (neither compositor
    /// is in Debian 12; both speak the layer-shell protocol sway does).
    func testTheHyprlandAndRiverPanelSnippetsCommandsShowThePanelPicture() throws {
        let sway = try tool("/usr/bin/sway", package: "sway")
        _ = try tool("/usr/bin/grim", package: "grim")
        let hyprland = try snippet("hyprland-panel").trimmingCharacters(in: .newlines)
        let river = try snippet("river-panel").trimmingCharacters(in: .newlines)
        XCTAssertTrue(hyprland.hasPrefix("exec-once = "), hyprland)
        XCTAssertTrue(river.hasPrefix("riverctl spawn \"") && river.hasSuffix("\""), river)
        let commands = [String(hyprland.dropFirst("exec-once = ".count)),
                        String(river.dropFirst("riverctl spawn \"".count).dropLast())]
        for command in commands {
            let home = try SnippetHome(test: self, wayland: true)
            let snapshot = panelSnapshot()
            try home.publish(snapshot)
            let log = home.url.appendingPathComponent("sway.log")
            _ = try home.start(sway, ["-c", try home.write("sway.conf", "# the compositor only\n")], log: log)
            XCTAssertTrue(waitUntil(15) { home.waylandDisplay() != nil }, home.read(log))
            home.environment["WAYLAND_DISPLAY"] = try XCTUnwrap(home.waylandDisplay())
            try home.start("/bin/sh", ["-c", command])
            try assertPanelShown(home, snapshot, command)
            home.stopAll()
        }
    }

    /// A snapshot that stays current while the test looks (its staleness limit is 3 × the interval).
    func panelSnapshot() -> Snapshot {
        var s = sampleSnapshot(sequence: 3)
        s.intervalMs = 600_000
        return s
    }

    /// The output's top-right 180x56 (grim, as root: its socket is the user's) shows the PNG
    /// output's picture of `snapshot`, within 10 s.
    func assertPanelShown(_ home: SnippetHome, _ snapshot: Snapshot, _ what: String,
                          file: StaticString = #filePath, line: UInt = #line) throws {
        let (width, height) = (180, 56)
        let dir = try RuntimeDir()
        try dir.publish(snapshot)
        let expected = try PanelPictures.png(of: dir, width: width, height: height)
        let display = try XCTUnwrap(home.waylandDisplay())
        let shot = home.url.appendingPathComponent("shot.ppm").path
        var shown: [UInt32] = []
        _ = waitUntil(10) {
            let grim = Process()
            grim.executableURL = URL(fileURLWithPath: "/usr/bin/grim")
            grim.arguments = ["-t", "ppm", shot]
            grim.environment = ["WAYLAND_DISPLAY": home.path + "/" + display]
            guard (try? grim.run()) != nil else { return false }
            grim.waitUntilExit()
            guard let data = FileManager.default.contents(atPath: shot), let screen = PanelPictures.ppm([UInt8](data)),
                  screen.width >= width, screen.height >= height else { return false }
            shown = (0..<height).flatMap { y in screen.pixels[(y * screen.width + screen.width - width)..<((y + 1) * screen.width)] }
            return shown == expected
        }
        XCTAssertTrue(shown == expected, "\(what): the top-right corner is not the panel's picture: "
                      + PanelPictures.difference(shown, expected, width: width), file: file, line: line)
    }

    // MARK: - systemd user unit (no user manager here: enabled, not started)

    /// The snippet's install/install.sh (given the release build, so it does not build again)
    /// installs the unit its `systemctl --user enable --now sysstatsd` enables; with no user
    /// manager to start it (a private XDG_RUNTIME_DIR, no bus) only the `--now` part fails.
    /// Its sandbox and verification: Tests/EndToEndTests/SystemdUnitTests.swift.
    func testTheSystemdSnippetEnablesTheUnitInstallShInstalls() throws {
        _ = try tool("/usr/bin/systemctl", package: "systemd")
        let lines = try snippet("systemd").split(separator: "\n").map(String.init)
        XCTAssertEqual(lines, ["install/install.sh", "systemctl --user enable --now sysstatsd"])
        XCTAssertEqual(try snippet("systemd-enable"), lines[1] + "\n", "a package's user runs the same enable line alone")
        let home = try SnippetHome(test: self)
        let bin = URL(fileURLWithPath: try BarProcess.binary()).deletingLastPathComponent().path
        for name in ["sysstatsd", "sysstatsd-history", "sysstats", "sysstats-bar-x11"] {
            guard FileManager.default.isExecutableFile(atPath: bin + "/" + name) else { throw XCTSkip("\(bin)/\(name) is not built") }
        }
        home.environment["PREFIX"] = home.path + "/.local"
        let installLog = home.url.appendingPathComponent("install.log")
        let install = try home.start("/bin/sh", ["-c", "cd \(BarProcess.packageRoot.path) && \(lines[0]) --bin-dir \(bin)"], log: installLog)
        XCTAssertTrue(waitUntil(60) { home.hasExited(install.processIdentifier) }, home.read(installLog))
        let unit = home.path + "/.config/systemd/user/sysstatsd.service"
        XCTAssertTrue(FileManager.default.fileExists(atPath: unit), home.read(installLog))
        let enableLog = home.url.appendingPathComponent("enable.log")
        let enable = try home.start("/bin/sh", ["-c", lines[1]], log: enableLog)
        XCTAssertTrue(waitUntil(20) { home.hasExited(enable.processIdentifier) }, home.read(enableLog))
        let wants = home.path + "/.config/systemd/user/default.target.wants/sysstatsd.service"
        XCTAssertEqual(try? FileManager.default.destinationOfSymbolicLink(atPath: wants), unit, home.read(enableLog))
        XCTAssertTrue(home.read(enableLog).contains("Failed to connect to bus"), "only starting needs the user manager: \(home.read(enableLog))")
    }

    // MARK: - genmon (no xfce4-panel here: the command as the plugin runs it)

    func testTheGenmonSnippetsCommandPrintsThePluginsTagsAndDrawsThePicture() throws {
        let text = try snippet("genmon")
        let command = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("Command: ") }?.dropFirst("Command: ".count))
        let home = try SnippetHome(test: self)
        try home.publish(sampleSnapshot(sequence: 1))
        // The plugin splits the command into words and runs it without a shell; for this command sh -c is the same.
        let run = try home.start("/bin/sh", ["-c", String(command)], log: home.url.appendingPathComponent("genmon.out"))
        run.waitUntilExit()
        XCTAssertEqual(run.terminationStatus, 0)
        let out = home.read(home.url.appendingPathComponent("genmon.out"))
        let picture = home.path + "/sysstats/panel.png"
        XCTAssertTrue(out.hasPrefix("<img>\(picture)</img><txt></txt><tool>"), out)
        XCTAssertTrue(out.contains("</tool><click>"), out)
        XCTAssertTrue(FileManager.default.fileExists(atPath: picture))
    }
}

/// Waits up to `seconds` for `condition`.
func waitUntil(_ seconds: TimeInterval, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(50_000)
    }
    return condition()
}

/// A user's private XDG_RUNTIME_DIR (also HOME) with the fixture snapshot in `sysstats/`,
/// and every process a test starts there. Everything started with its environment is
/// found again by it (XDG_RUNTIME_DIR in /proc/PID/environ) and stopped when the test ends.
/// With `wayland`, the user is `nobody` when the tests run as root (sway refuses root).
final class SnippetHome: @unchecked Sendable {
    let url: URL
    var path: String { url.path }
    var environment: [String: String]
    private let owner: (uid: uid_t, gid: gid_t)?
    private var bytes: [UInt8] = []

    init(test: XCTestCase, wayland: Bool = false) throws {
        url = URL(fileURLWithPath: "/tmp/sysstats-snippet-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url.appendingPathComponent("sysstats"), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        chmod(url.path, 0o700)
        let bin = URL(fileURLWithPath: try BarProcess.binary()).deletingLastPathComponent().path
        environment = ["PATH": "\(bin):/usr/bin:/bin", "HOME": url.path, "XDG_RUNTIME_DIR": url.path,
                       "SYSSTATS_NO_START_SAMPLER": "1", "LANG": "C.UTF-8", "TZ": "UTC"]
        if wayland {
            environment["WLR_BACKENDS"] = "headless"
            environment["WLR_LIBINPUT_NO_DEVICES"] = "1"
            environment["WLR_RENDERER"] = "pixman"
        }
        if wayland && getuid() == 0 {
            guard let nobody = getpwnam("nobody") else { throw XCTSkip("no user nobody to run sway as (it refuses root)") }
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { throw XCTSkip("setpriv is missing") }
            owner = (nobody.pointee.pw_uid, nobody.pointee.pw_gid)
            for dir in [url.path, url.path + "/sysstats"] { chown(dir, owner!.uid, owner!.gid) }
        } else {
            owner = nil
        }
        test.addTeardownBlock { [self] in stopAll(); try? FileManager.default.removeItem(at: url) }
    }

    /// Publishes `snapshot` the way the sampler does: a temporary file renamed over `snapshot`.
    func publish(_ snapshot: Snapshot) throws {
        bytes.removeAll(keepingCapacity: true)
        snapshot.encode(into: &bytes)
        let tmp = path + "/sysstats/.snapshot.tmp"
        try Data(bytes).write(to: URL(fileURLWithPath: tmp))
        if let owner { chown(tmp, owner.uid, owner.gid) }
        guard rename(tmp, path + "/sysstats/snapshot") == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    /// Writes a file readable by the user; returns its path.
    func write(_ name: String, _ text: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try text.write(to: file, atomically: false, encoding: .utf8)
        if let owner { chown(file.path, owner.uid, owner.gid) }
        return file.path
    }

    func read(_ file: URL) -> String { (try? String(contentsOf: file, encoding: .utf8)) ?? "" }

    /// Starts `program` as the user, with this environment; output to `log` (else discarded).
    @discardableResult
    func start(_ program: String, _ arguments: [String], log: URL? = nil) throws -> Process {
        let p = Process()
        if let owner {
            p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            p.arguments = ["--reuid=\(owner.uid)", "--regid=\(owner.gid)", "--clear-groups", program] + arguments
        } else {
            p.executableURL = URL(fileURLWithPath: program)
            p.arguments = arguments
        }
        p.environment = environment
        p.currentDirectoryURL = url
        p.standardInput = FileHandle.nullDevice
        if let log {
            FileManager.default.createFile(atPath: log.path, contents: nil)
            if let owner { chown(log.path, owner.uid, owner.gid) }
            let handle = try FileHandle(forWritingTo: log)
            p.standardOutput = handle
            p.standardError = handle
        } else {
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
        }
        try p.run()
        return p
    }

    /// Runs `program` to its end (at most 10 s) with this environment; its stdout.
    func capture(_ program: String, _ arguments: [String]) -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: program)
        p.arguments = arguments
        p.environment = environment
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return "" }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Starts an X server for this user's programs (DISPLAY in the environment).
    func startXvfb(display: Int) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb") else { throw XCTSkip("Xvfb is not installed") }
        try start("/usr/bin/Xvfb", [":\(display)", "-nolisten", "tcp", "-noreset", "-screen", "0", "1280x600x24"])
        XCTAssertTrue(waitUntil(10) { FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(display)") })
        environment["DISPLAY"] = ":\(display)"
    }

    /// Clicks (xdotool) along the right half of a bar at the top of the screen, where the
    /// right-aligned status is.
    func clickAcross(y: Int) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool") else { throw XCTSkip("xdotool is not installed") }
        for x in stride(from: 640, through: 1270, by: 30) {
            _ = capture("/usr/bin/xdotool", ["mousemove", "\(x)", "\(y)", "click", "1"])
        }
    }

    /// The Wayland socket sway made in the runtime directory.
    func waylandDisplay() -> String? {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [])
            .first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }
    }

    // MARK: processes

    /// The processes started with this runtime directory (their children too: they inherit it).
    func processes() -> [pid_t] {
        let needle = Data("XDG_RUNTIME_DIR=\(path)\0".utf8)
        return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { pid_t($0) }.filter { pid in
            guard pid != getpid(), let environ = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ")) else { return false }
            return environ.starts(with: needle) || environ.range(of: Data([0]) + needle) != nil
        }
    }

    /// True when `pid` has ended (gone, or a zombie not yet reaped).
    func hasExited(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
    }

    func command(of pid: pid_t) -> String? {
        (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines)
    }

    func processes(named name: String) -> [pid_t] { processes().filter { command(of: $0) == name } }
    func process(_ name: String) -> pid_t? { processes(named: name).first }

    func parent(of pid: pid_t) -> pid_t? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? pid_t(fields[1]) : nil
    }

    /// Waits for a process `name` that has an ancestor `ancestor` (e.g. the bar that runs it).
    func waitForProcess(_ name: String, under ancestor: String, timeout: TimeInterval = 15) -> pid_t? {
        var found: pid_t?
        _ = waitUntil(timeout) {
            found = processes(named: name).first { pid in
                var current = parent(of: pid)
                while let p = current, p > 1 {
                    if command(of: p) == ancestor { return true }
                    current = parent(of: p)
                }
                return false
            }
            return found != nil
        }
        return found
    }

    /// Stops every process started here: SIGTERM, then SIGKILL after 3 s.
    func stopAll() {
        for pid in processes() { kill(pid, SIGTERM) }
        if !waitUntil(3, { processes().isEmpty }) {
            for pid in processes() { kill(pid, SIGKILL) }
            _ = waitUntil(2) { processes().isEmpty }
        }
    }
}
