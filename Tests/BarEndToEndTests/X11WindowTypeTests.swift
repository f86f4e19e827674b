import Foundation
import XCTest

/// `--window-type` under real window managers on the test's Xvfb (X11WindowTests' set-up):
/// i3 (skipped without it), xfwm4 (skipped without it and dbus-run-session) and none.
/// The geometry is read with `xwininfo` on the window found by its WM_CLASS, wherever a
/// window manager reparented it.
extension X11WindowTests {
    static let windowTypes = ["override", "dock", "desktop", "normal"]

    // MARK: - The tests

    func testTheDefaultTypeIsOverrideRedirectAtTheGivenPlaceAndSize() throws {
        let dir = try RuntimeDir()
        try dir.publish(longLivedSnapshot(sequence: 1))
        let bar = try startBar(dir)
        let window = try XCTUnwrap(managedWindow(), "no sysstats-bar window on \(display)")
        XCTAssertEqual(window.frame, [Self.position.x, Self.position.y, Self.size.width, Self.size.height])
        XCTAssertTrue(window.overrideRedirect)
        // No window manager reads them, so none is claimed.
        let props = try run("/usr/bin/xprop", ["-id", window.id])
        XCTAssertFalse(props.contains("_NET_WM_WINDOW_TYPE"), props)
        XCTAssertTrue(props.contains("program specified maximum size: \(Self.size.width) by \(Self.size.height)"), props)
        XCTAssertEqual(bar.stop(), 0)
    }

    /// The issue's case: under i3 the default window keeps `--size` and `--position`, shows
    /// the PNG output's pixels there, and a click on it still changes the graph form.
    func testUnderI3TheDefaultWindowKeepsItsSizeAndPositionAndTakesClicks() throws {
        try startWindowManager(.i3)
        let dir = try RuntimeDir()
        try dir.publish(longLivedSnapshot(sequence: 1))
        let bar = try startBar(dir)
        let window = try XCTUnwrap(managedWindow(), "no sysstats-bar window under i3")
        XCTAssertEqual(window.frame, [Self.position.x, Self.position.y, Self.size.width, Self.size.height])
        let expected = try pngPixels(of: dir)
        let shown = try waitForRegion { $0 == expected }
        XCTAssertTrue(shown == expected, "under i3: " + difference(shown, expected))
        let centre = ["mousemove", "\(Self.position.x + Self.size.width / 2)", "\(Self.position.y + Self.size.height / 2)"]
        _ = try run("/usr/bin/xdotool", centre + ["click", "1"])
        let second = try waitForRegion { $0 != expected }
        XCTAssertFalse(second == expected, "a left click under i3 did not change the picture")
        XCTAssertEqual(try managedWindow()?.frame, window.frame, "the window moved")
        XCTAssertEqual(bar.stop(), 0)
    }

    /// Under i3 every type maps. A dock goes into i3's dock area at the screen's width and
    /// the asked height, the picture once at its left and the panel's background beside it
    /// (not the picture tiled across). Desktop and normal float (a fixed size) at the asked
    /// size and, once the renderer has answered i3's first placement, at the asked position.
    func testUnderI3EveryTypeMapsAndThePictureIsNeverTiled() throws {
        try startWindowManager(.i3)
        for type in Self.windowTypes {
            let dir = try RuntimeDir()
            try dir.publish(longLivedSnapshot(sequence: 1))
            let bar = try startBar(dir, blocks: ["--window-type", type])
            let window = try XCTUnwrap(managedWindow(), "no \(type) window under i3")
            XCTAssertEqual(window.frame[3], Self.size.height, type)
            if type == "dock" {
                XCTAssertEqual(window.frame[2], 640, "i3 gives a dock the screen's width")
                let expected = try pngPixels(of: dir)
                let origin = (x: window.frame[0], y: window.frame[1])
                let picture = try waitForRegion(at: origin) { $0 == expected }
                XCTAssertTrue(picture == expected, "dock under i3: " + difference(picture, expected))
                let beside = try screenRegion(at: (origin.x + Self.size.width, origin.y))
                XCTAssertEqual(Set(beside), [0x1E2127], "beside the picture: the panel's background only")
            } else {
                let asked = [Self.position.x, Self.position.y, Self.size.width, Self.size.height]
                XCTAssertEqual(windowFrame(settlingAt: asked), asked, type)
            }
            XCTAssertEqual(bar.stop(), 0, type)
            XCTAssertTrue(waitForNoWindow(), "the \(type) window is still there")
        }
    }

    func testWithoutAWindowManagerEveryTypeKeepsItsSizeAndPosition() throws {
        for type in Self.windowTypes {
            let dir = try RuntimeDir()
            try dir.publish(longLivedSnapshot(sequence: 1))
            let bar = try startBar(dir, blocks: ["--window-type", type])
            let window = try XCTUnwrap(managedWindow(), "no \(type) window")
            XCTAssertEqual(window.frame, [Self.position.x, Self.position.y, Self.size.width, Self.size.height], type)
            XCTAssertEqual(window.overrideRedirect, type == "override", type)
            XCTAssertEqual(bar.stop(), 0, type)
            XCTAssertTrue(waitForNoWindow(), "the \(type) window is still there")
        }
    }

    func testUnderXfwm4EveryTypeKeepsItsSizeAndPosition() throws {
        try startWindowManager(.xfwm4)
        for type in Self.windowTypes {
            let dir = try RuntimeDir()
            try dir.publish(longLivedSnapshot(sequence: 1))
            let bar = try startBar(dir, blocks: ["--window-type", type])
            let window = try XCTUnwrap(managedWindow(reparented: type != "override"), "no \(type) window under xfwm4")
            XCTAssertEqual(window.frame, [Self.position.x, Self.position.y, Self.size.width, Self.size.height], type)
            if type != "override" {
                XCTAssertFalse(window.isRootChild, "xfwm4 did not manage the \(type) window: the test would prove nothing")
            }
            XCTAssertEqual(bar.stop(), 0, type)
            XCTAssertTrue(waitForNoWindow(), "the \(type) window is still there")
        }
    }

    // MARK: - Helpers

    enum WindowManager { case i3, xfwm4 }

    /// Starts `manager` on the test's Xvfb (skips when it is not installed) and waits until
    /// it has taken the screen (_NET_SUPPORTING_WM_CHECK on the root); it ends with the test.
    func startWindowManager(_ manager: WindowManager) throws {
        let p = Process()
        switch manager {
        case .i3:
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/i3") else { throw XCTSkip("i3 is not installed") }
            let dir = try RuntimeDir()
            let config = dir.url.appendingPathComponent("i3.conf")
            try "# i3 config file (v4)\nfont pango:monospace 8\n".write(to: config, atomically: true, encoding: .utf8)
            p.executableURL = URL(fileURLWithPath: "/usr/bin/i3")
            p.arguments = ["-c", config.path]
            p.environment = ["DISPLAY": display, "PATH": "/usr/bin:/bin", "HOME": dir.path]
            addTeardownBlock { _ = dir }
        case .xfwm4:
            for tool in ["/usr/bin/xfwm4", "/usr/bin/dbus-run-session"] where !FileManager.default.isExecutableFile(atPath: tool) {
                throw XCTSkip("\(tool) is not installed")
            }
            // xfwm4 reads its settings through xfconf, over a session bus of its own; no
            // accessibility bus (it would outlive the test).
            p.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-run-session")
            p.arguments = ["--", "/usr/bin/xfwm4", "--compositor=off"]
            p.environment = ProcessInfo.processInfo.environment.merging(["DISPLAY": display, "NO_AT_BRIDGE": "1"]) { $1 }
        }
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        // The X server goes first: the window manager ends with it, and dbus-run-session then
        // ends its bus (a SIGTERM to dbus-run-session would leave both behind).
        addTeardownBlock { [self] in
            if let server, server.isRunning { server.terminate(); server.waitUntilExit() }
            let deadline = Date().addingTimeInterval(5)
            while p.isRunning && Date() < deadline { usleep(20_000) }
            if p.isRunning { p.terminate() }
        }
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if (try? run("/usr/bin/xprop", ["-root", "_NET_SUPPORTING_WM_CHECK"]))?.contains("window id #") == true { return }
            usleep(50_000)
        }
        XCTFail("\(manager) did not take the screen")
    }

    struct ManagedWindow {
        var id: String
        /// Absolute x, y (the window's own top-left, inside any frame), width, height.
        var frame: [Int]
        var overrideRedirect: Bool
        var isRootChild: Bool
    }

    /// The renderer's window (found with `xdotool search --classname`) once it is viewable
    /// (and, with `reparented`, once a window manager has put it in a frame), and its
    /// geometry from `xwininfo`; waits up to 5 s (then returns what there is).
    func managedWindow(reparented: Bool = false) -> ManagedWindow? {
        let deadline = Date().addingTimeInterval(5)
        repeat {
            let ids = ((try? run("/usr/bin/xdotool", ["search", "--classname", "^sysstats-bar$"])) ?? "")
                .split(separator: "\n")
            if let id = ids.last.map(String.init), let info = try? run("/usr/bin/xwininfo", ["-id", id]),
               info.contains("Map State: IsViewable") {
                func value(_ label: String) -> Int? {
                    guard let line = info.split(separator: "\n").first(where: { $0.contains(label) }) else { return nil }
                    return Int(line.split(separator: " ").last ?? "")
                }
                if let x = value("Absolute upper-left X:"), let y = value("Absolute upper-left Y:"),
                   let w = value("Width:"), let h = value("Height:") {
                    let tree = (try? run("/usr/bin/xwininfo", ["-id", id, "-tree"])) ?? ""
                    let parent = tree.split(separator: "\n").first { $0.contains("Parent window id:") } ?? ""
                    let window = ManagedWindow(id: id, frame: [x, y, w, h],
                                               overrideRedirect: info.contains("Override Redirect State: yes"),
                                               isRootChild: parent.contains("(the root window)"))
                    if !reparented || !window.isRootChild || Date() >= deadline { return window }
                }
            }
            usleep(20_000)
        } while Date() < deadline
        return nil
    }

    /// The window's frame once it is `expected` (or after 5 s: the last one seen).
    func windowFrame(settlingAt expected: [Int]) -> [Int]? {
        let deadline = Date().addingTimeInterval(5)
        var frame = managedWindow()?.frame
        while frame != expected && Date() < deadline { usleep(20_000); frame = managedWindow()?.frame }
        return frame
    }

    /// True once no window of the renderer's class is left (within 5 s).
    func waitForNoWindow() -> Bool {
        let deadline = Date().addingTimeInterval(5)
        repeat {
            let ids = (try? run("/usr/bin/xdotool", ["search", "--classname", "^sysstats-bar$"])) ?? ""
            if ids.isEmpty { return true }
            usleep(20_000)
        } while Date() < deadline
        return false
    }

    /// A `--size` region of a root screenshot at `origin`, as 0x00RRGGBB words, row-major
    /// (clipped to the screen).
    func screenRegion(at origin: (x: Int, y: Int)) throws -> [UInt32] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/xwd")
        p.arguments = ["-root", "-silent"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = [UInt8](out.fileHandleForReading.readDataToEndOfFile())
        p.waitUntilExit()
        let image = try XWD(data)
        var pixels: [UInt32] = []
        for y in origin.y..<min(origin.y + Self.size.height, image.height) {
            for x in origin.x..<min(origin.x + Self.size.width, image.width) { pixels.append(image.pixel(x, y)) }
        }
        return pixels
    }

    func waitForRegion(at origin: (x: Int, y: Int), _ predicate: ([UInt32]) -> Bool) throws -> [UInt32] {
        let deadline = Date().addingTimeInterval(5)
        var region = try screenRegion(at: origin)
        while !predicate(region) && Date() < deadline { usleep(20_000); region = try screenRegion(at: origin) }
        return region
    }
}
