import Foundation
import XCTest

/// A real Wayland compositor for the wayland-panel tests: sway on its headless backend with
/// the pixman renderer (no GPU, no seat, no input device), one 800x600 output, in a private
/// runtime directory. sway refuses to run as root, so as root it runs as nobody, in a
/// directory nobody owns (root's clients may still connect). `grim` takes the screenshots,
/// `swaymsg` changes outputs. Skipped where they are not installed (install/deps.sh installs them).
final class HeadlessSway {
    static let tools = ["/usr/bin/sway", "/usr/bin/swaymsg", "/usr/bin/grim", "/usr/bin/cc"]
    static let size = (width: 800, height: 600)

    let process = Process()
    let directory: String
    /// The compositor's socket, as an absolute WAYLAND_DISPLAY.
    let display: String
    /// sway's IPC socket, for swaymsg.
    let ipc: String

    static func skipUnlessInstalled() throws {
        for tool in tools where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) is not installed (install/deps.sh)")
        }
        guard FileManager.default.fileExists(atPath: "/usr/include/wayland-client.h") else {
            throw XCTSkip("libwayland-dev is not installed (install/deps.sh)")
        }
    }

    init(extraConfig: String = "") throws {
        var template = Array("/tmp/sysstats-sway-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
        directory = String(cString: made)
        let config = directory + "/config"
        try "output HEADLESS-1 resolution \(Self.size.width)x\(Self.size.height) position 0,0\n\(extraConfig)"
            .write(toFile: config, atomically: true, encoding: .utf8)
        var environment = ["XDG_RUNTIME_DIR": directory, "HOME": directory, "PATH": "/usr/bin:/bin",
                           "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1"]
        environment["LANG"] = "C.UTF-8"
        process.environment = environment
        if getuid() == 0 {
            chown(directory, 65534, 65534)
            chown(config, 65534, 65534)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid", "65534", "--regid", "65534", "--clear-groups", "/usr/bin/sway", "-c", config]
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/sway")
            process.arguments = ["-c", config]
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        var found: (String, String)?
        let deadline = Date().addingTimeInterval(10)
        while found == nil && Date() < deadline && process.isRunning {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            if let socket = names.first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }),
               let ipc = names.first(where: { $0.hasPrefix("sway-ipc.") }) {
                found = (directory + "/" + socket, directory + "/" + ipc)
            } else {
                usleep(20_000)
            }
        }
        guard let (display, ipc) = found else {
            process.terminate()
            throw XCTSkip("headless sway did not start (no socket in \(directory))")
        }
        self.display = display
        self.ipc = ipc
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// SIGTERM (sent here: in whole-suite runs Foundation's `terminate()` left sway running,
    /// and `waitUntilExit()` then waited for good), up to 5 s, then SIGKILL and up to 5 s more;
    /// never a wait without an end.
    func stop() {
        guard process.isRunning else { return }
        let pid = process.processIdentifier
        kill(pid, SIGTERM)
        if ended(within: 5) { return }
        kill(pid, SIGKILL)
        _ = ended(within: 5)
    }

    /// Whether Foundation saw the compositor end within `seconds`.
    private func ended(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning {
            if Date() >= deadline { return false }
            usleep(10_000)
        }
        return true
    }

    /// The environment of a client of this compositor: WAYLAND_DISPLAY set, DISPLAY not.
    var clientEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["WAYLAND_DISPLAY"] = display
        environment["DISPLAY"] = nil
        environment["SYSSTATS_NO_START_SAMPLER"] = "1"
        return environment
    }

    /// Runs `executable` as a client to its end: its status and stdout.
    @discardableResult
    func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, stdout: [UInt8]) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        p.environment = clientEnvironment
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = [UInt8](out.fileHandleForReading.readDataToEndOfFile())
        p.waitUntilExit()
        return (p.terminationStatus, data)
    }

    /// A sway command (`swaymsg COMMAND`), e.g. "output HEADLESS-1 scale 2"; true when sway ran it.
    @discardableResult
    func command(_ text: String) throws -> Bool {
        let result = try run("/usr/bin/swaymsg", ["-s", ipc, text])
        return String(decoding: result.stdout, as: UTF8.self).contains(#""success": true"#)
    }

    /// An IPC query's JSON (`swaymsg -t TYPE`), e.g. get_workspaces.
    func query(_ type: String) throws -> Any {
        let result = try run("/usr/bin/swaymsg", ["-s", ipc, "-r", "-t", type])
        return try JSONSerialization.jsonObject(with: Data(result.stdout))
    }

    /// The pixels of an area of the layout (`grim -g`, at the outputs' scale), or nil when
    /// grim could not take them.
    func screenshot(x: Int, y: Int, width: Int, height: Int) throws -> (width: Int, height: Int, pixels: [UInt32])? {
        let shot = try run("/usr/bin/grim", ["-t", "ppm", "-g", "\(x),\(y) \(width)x\(height)", "-"])
        guard shot.status == 0 else { return nil }
        return PanelPictures.ppm(shot.stdout)
    }
}
