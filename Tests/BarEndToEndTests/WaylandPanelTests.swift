import Foundation
import SnapshotCodec
import XCTest

/// `--output wayland-panel` on a real compositor (HeadlessSway: sway's headless backend,
/// screenshots by grim): the surface shows exactly the PNG output's pixels where it is
/// anchored, a click cycles the graph form, a scale-2 output gets every pixel twice over,
/// the exclusive zone moves the windows' area, the surface comes back with its output,
/// the compositor's exit ends the bar in one line with status 0, and the budget holds.
final class WaylandPanelTests: XCTestCase {
    static let size = (width: 180, height: 56)
    var sway: HeadlessSway!
    var work: URL!

    override func setUpWithError() throws {
        try HeadlessSway.skipUnlessInstalled()
        sway = try HeadlessSway()
        work = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("wayland-panel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    override func tearDown() {
        sway = nil
        if let work { try? FileManager.default.removeItem(at: work) }
    }

    // MARK: - The tests

    func testTheSurfaceShowsExactlyThePixelsThePNGOutputDrawsForTheSameSnapshot() throws {
        let dir = try RuntimeDir()
        try dir.publish(longLivedSnapshot(sequence: 3))
        let bar = try startBar(dir, ["--anchor", "top-left"])
        let expected = try PanelPictures.png(of: dir, width: Self.size.width, height: Self.size.height)
        let shown = try waitForArea(x: 0, y: 0) { $0 == expected }
        XCTAssertEqual(expected.count, Self.size.width * Self.size.height)
        XCTAssertTrue(shown == expected, "the surface's pixels differ from the PNG output's: " + difference(shown, expected))
        // The picture is not blank: the test would otherwise pass on an unpainted surface of one colour.
        XCTAssertGreaterThan(Set(expected).count, 3)
        XCTAssertEqual(stop(bar), 0)
    }

    func testTheAnchorAndMarginPutTheSurfaceInTheBottomRightCorner() throws {
        let dir = try RuntimeDir()
        try dir.publish(longLivedSnapshot(sequence: 3))
        let bar = try startBar(dir, ["--anchor", "bottom-right", "--margin", "10"])
        let expected = try PanelPictures.png(of: dir, width: Self.size.width, height: Self.size.height)
        let (x, y) = (HeadlessSway.size.width - 10 - Self.size.width, HeadlessSway.size.height - 10 - Self.size.height)
        let shown = try waitForArea(x: x, y: y) { $0 == expected }
        XCTAssertTrue(shown == expected, "not at \(x),\(y): " + difference(shown, expected))
        XCTAssertEqual(stop(bar), 0)
    }

    func testALeftClickChangesTheGraphFormAndARightClickBringsItBack() throws {
        let pointer = try compileVirtualPointer()
        let dir = try RuntimeDir()
        try dir.publish(longLivedSnapshot(sequence: 5))
        let bar = try startBar(dir, ["--anchor", "top-left"])
        let first = try waitForSettledArea(x: 0, y: 0)
        try click(pointer, button: 1)
        let second = try waitForArea(x: 0, y: 0) { $0 != first }
        XCTAssertFalse(second == first, "a left click did not change the picture")
        try click(pointer, button: 3)
        let back = try waitForArea(x: 0, y: 0) { $0 == first }
        XCTAssertTrue(back == first, "a right click did not bring the first form back: " + difference(back, first))
        XCTAssertEqual(stop(bar), 0)
    }

    func testAScaleTwoOutputGetsEveryPixelTwiceOver() throws {
        let dir = try RuntimeDir()
        try dir.publish(longLivedSnapshot(sequence: 3))
        let bar = try startBar(dir, ["--anchor", "top-left"])
        let expected = try PanelPictures.png(of: dir, width: Self.size.width, height: Self.size.height)
        _ = try waitForArea(x: 0, y: 0) { $0 == expected }
        XCTAssertTrue(try sway.command("output HEADLESS-1 scale 2"))
        let doubled = PanelPictures.scaled(expected, width: Self.size.width, by: 2)
        var shot = try sway.screenshot(x: 0, y: 0, width: Self.size.width, height: Self.size.height)
        let deadline = Date().addingTimeInterval(5)
        while shot?.pixels != doubled && Date() < deadline {
            usleep(20_000)
            shot = try sway.screenshot(x: 0, y: 0, width: Self.size.width, height: Self.size.height)
        }
        XCTAssertEqual(shot?.width, 2 * Self.size.width, "grim takes the area at the output's scale")
        XCTAssertTrue(shot?.pixels == doubled, "not every pixel twice over: "
                      + PanelPictures.difference(shot?.pixels ?? [], doubled, width: 2 * Self.size.width))
        XCTAssertEqual(stop(bar), 0)
    }

    func testExclusiveKeepsWindowsOffThePanelsStripOfTheEdge() throws {
        let dir = try RuntimeDir()
        try dir.publish(longLivedSnapshot(sequence: 3))
        XCTAssertEqual(try workspaceTop(), 0, "before the panel, windows start at the top")
        let bar = try startBar(dir, ["--anchor", "top", "--exclusive"])
        let deadline = Date().addingTimeInterval(5)
        while try workspaceTop() != Self.size.height && Date() < deadline { usleep(20_000) }
        XCTAssertEqual(try workspaceTop(), Self.size.height, "the windows' area starts below the panel")
        XCTAssertEqual(stop(bar), 0)
        let after = Date().addingTimeInterval(5)
        while try workspaceTop() != 0 && Date() < after { usleep(20_000) }
        XCTAssertEqual(try workspaceTop(), 0, "the strip is given back when the panel ends")
    }

    func testThePanelComesBackWithItsOutput() throws {
        let dir = try RuntimeDir()
        try dir.publish(longLivedSnapshot(sequence: 3))
        let bar = try startBar(dir, ["--anchor", "top-left", "--wayland-output", "HEADLESS-1"])
        let expected = try PanelPictures.png(of: dir, width: Self.size.width, height: Self.size.height)
        _ = try waitForArea(x: 0, y: 0) { $0 == expected }
        XCTAssertTrue(try sway.command("output HEADLESS-1 disable"))
        usleep(300_000)
        XCTAssertTrue(bar.isRunning, "the bar waits for its output")
        XCTAssertTrue(try sway.command("output HEADLESS-1 enable"))
        let shown = try waitForArea(x: 0, y: 0) { $0 == expected }
        XCTAssertTrue(shown == expected, "the panel did not come back: " + difference(shown, expected))
        XCTAssertEqual(stop(bar), 0)
    }

    func testTheCompositorsExitEndsTheBarInOneLineWithStatusZero() throws {
        let dir = try RuntimeDir()
        try dir.publish(longLivedSnapshot(sequence: 1))
        let err = Pipe()
        let bar = try startBar(dir, ["--anchor", "top-left"], stderr: err)
        _ = try waitForSettledArea(x: 0, y: 0)
        sway.stop()
        let deadline = Date().addingTimeInterval(5)
        while bar.isRunning && Date() < deadline { usleep(10_000) }
        XCTAssertFalse(bar.isRunning, "the bar outlived its compositor")
        if bar.isRunning { bar.terminate() }
        bar.waitUntilExit()
        XCTAssertEqual(bar.terminationReason, .exit)
        XCTAssertEqual(bar.terminationStatus, 0)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(message, "sysstats-bar: the Wayland compositor closed the connection\n")
    }

    func testAnOutputThatIsNotThereIsRefusedInOneLine() throws {
        let dir = try RuntimeDir()
        try dir.publish(longLivedSnapshot(sequence: 1))
        let result = try runBar(dir, ["--wayland-output", "HDMI-A-9"], environment: sway.clientEnvironment)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "sysstats-bar: the compositor has no output named HDMI-A-9\n")
    }

    func testWithoutACompositorItSaysSoAndExitsOne() throws {
        let dir = try RuntimeDir()
        var environment = sway.clientEnvironment
        environment["WAYLAND_DISPLAY"] = work.appendingPathComponent("no-such-socket").path
        let result = try runBar(dir, [], environment: environment)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "sysstats-bar: cannot connect to the Wayland compositor (is WAYLAND_DISPLAY set?)\n")
    }

    /// `--output panel` is the session's: a layer surface where WAYLAND_DISPLAY is set, the
    /// X11 window (here: its one line without a display) where it is not.
    func testThePanelOutputChoosesWaylandOrX11FromTheSession() throws {
        let dir = try RuntimeDir()
        try dir.publish(longLivedSnapshot(sequence: 3))
        let bar = try startBar(dir, ["--anchor", "top-left"], output: "panel")
        let expected = try PanelPictures.png(of: dir, width: Self.size.width, height: Self.size.height)
        let shown = try waitForArea(x: 0, y: 0) { $0 == expected }
        XCTAssertTrue(shown == expected, "panel did not show the layer surface: " + difference(shown, expected))
        XCTAssertEqual(stop(bar), 0)
        var x11 = sway.clientEnvironment
        x11["WAYLAND_DISPLAY"] = nil
        let result = try runBar(dir, [], output: "panel", environment: x11)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "sysstats-bar: cannot open the X display (is DISPLAY set?)\n")
    }

    func testPeakRSSStaysUnderThreeMiBOverAThousandUpdates() throws {
        let dir = try RuntimeDir()
        try dir.publish(longLivedSnapshot(sequence: 0))
        let bar = try startBar(dir, ["--anchor", "top-left", "--blocks", "cpu,mem,load,uptime,battery,procs,exited,self"])
        _ = try waitForSettledArea(x: 0, y: 0)
        var updates = 0
        for sequence in 1...1_000 {
            guard try publishAndWaitForUpdate(dir, sequence: sequence, pid: bar.processIdentifier) else { break }
            updates += 1
        }
        XCTAssertEqual(updates, 1_000)
        // The last picture is on screen: the updates were drawn, not only read.
        let expected = try PanelPictures.png(of: dir, width: Self.size.width, height: Self.size.height)
        let shown = try waitForArea(x: 0, y: 0) { $0 == expected }
        XCTAssertTrue(shown == expected, "the last update is not on screen: " + difference(shown, expected))
        let hwm = try XCTUnwrap(peakResidentKiB(pid: bar.processIdentifier))
        print("sysstats-bar --output wayland-panel: peak RSS (VmHWM) after \(updates) updates: \(hwm) KiB")
        XCTAssertLessThanOrEqual(hwm, 3 * 1024)
        XCTAssertEqual(stop(bar), 0)
    }

    /// The renderer's own code allocates nothing per update; libwayland-client allocates for
    /// each request and each event and frees it in the same call. Embedded Swift allocates
    /// through `posix_memalign`, libwayland through `calloc`: gdb counts the two apart over 20
    /// and over 220 updates. Swift's count is the same after both; libwayland's grows by a
    /// fixed few per update (two per request: attach, damage, commit; one for the buffer's
    /// release), and what the process holds (allocations less non-null `free`s) does not.
    func testAnUpdateAllocatesOnlyLibwaylandsClosuresAndHoldsNoMore() throws {
        let gdb = "/usr/bin/gdb"
        guard FileManager.default.isExecutableFile(atPath: gdb) else { throw XCTSkip("gdb is not installed") }
        func count(updates: Int) throws -> (swift: Int, c: Int, held: Int) {
            let dir = try RuntimeDir()
            try dir.publish(changingSnapshot(sequence: 0))
            let log = work.appendingPathComponent("gdb-\(updates).log").path
            let script = work.appendingPathComponent("count.gdb")
            var text = "set pagination off\nset confirm off\nset $swift = 0\nset $c = 0\nset $frees = 0\n"
                + "set logging file \(log)\nset logging redirect on\nset logging overwrite on\nset logging enabled on\n"
                + "handle SIGTERM nostop noprint pass\nhandle SIGPIPE nostop noprint pass\n"
                + "break posix_memalign\ncommands\nsilent\nset $swift = $swift + 1\ncontinue\nend\n"
            for function in ["malloc", "calloc", "realloc"] {
                text += "break \(function)\ncommands\nsilent\nset $c = $c + 1\ncontinue\nend\n"
            }
            text += "break free if $rdi != 0\ncommands\nsilent\nset $frees = $frees + 1\ncontinue\nend\n"
            // posix_memalign calls malloc inside glibc: those are Swift's, not libwayland's.
            text += "run\nprintf \"swift %d c %d frees %d\\n\", $swift, $c - $swift, $frees\n"
            try text.write(to: script, atomically: true, encoding: .utf8)
            let wayland = URL(fileURLWithPath: try BarProcess.binary()).deletingLastPathComponent()
                .appendingPathComponent("sysstats-bar-wayland").path
            let p = Process()
            p.executableURL = URL(fileURLWithPath: gdb)
            p.arguments = ["-q", "-batch", "-x", script.path, "--args", wayland]
                + barArguments(dir, ["--anchor", "top-left"], output: "wayland-panel")
            p.environment = sway.clientEnvironment
            p.standardOutput = FileHandle.nullDevice
            try p.run()
            var pid: Int32?
            let deadline = Date().addingTimeInterval(30)
            // gdb's child is the program once it has exec'd it (a child seen earlier, a shell
            // or the program before its exec, may be gone when the test reads it).
            while pid == nil && Date() < deadline {
                pid = childPID(of: p.processIdentifier).flatMap { child in
                    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(child)/exe"))?
                        .hasSuffix("/sysstats-bar-wayland") == true ? child : nil
                }
                if pid == nil { usleep(20_000) }
            }
            let child = try XCTUnwrap(pid, "gdb started no program")
            _ = try waitForSettledArea(x: 0, y: 0)
            for sequence in 1...updates {
                guard try publishAndWaitForUpdate(dir, sequence: sequence, pid: child) else { break }
            }
            kill(child, SIGTERM)
            p.waitUntilExit()
            let output = try String(contentsOfFile: log, encoding: .utf8)
            guard let range = output.range(of: #"swift [0-9]+ c [0-9]+ frees [0-9]+"#, options: .regularExpression) else {
                XCTFail("no count in gdb's log:\n\(output)")
                return (-1, -1, -1)
            }
            let fields = output[range].split(separator: " ").compactMap { Int($0) }
            return (fields[0], fields[1], fields[0] + fields[1] - fields[2])
        }
        let few = try count(updates: 20), many = try count(updates: 220)
        let libwayland = Double(many.c - few.c) / 200
        print("sysstats-bar --output wayland-panel: Swift's allocations \(few.swift) after 20 updates, \(many.swift) after 220; "
              + "libwayland's \(libwayland) per update; held at the end \(few.held) and \(many.held)")
        XCTAssertEqual(few.swift, many.swift, "the renderer's own code allocated per update")
        XCTAssertLessThanOrEqual(libwayland, 7.5, "more than libwayland's closures per update")
        XCTAssertLessThanOrEqual(abs(many.held - few.held), 2, "what the renderer holds grew with the updates")
    }

    /// The first child of `pid` (/proc/PID/task/PID/children).
    func childPID(of pid: Int32) -> Int32? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8) else { return nil }
        return text.split(separator: " ").first.flatMap { Int32($0) }
    }

    // MARK: - Helpers

    /// A snapshot that stays current for the whole test (its staleness limit is 3 × the interval).
    func longLivedSnapshot(sequence: UInt64) -> Snapshot {
        var s = sampleSnapshot(sequence: sequence)
        s.intervalMs = 600_000
        return s
    }

    func barArguments(_ dir: RuntimeDir, _ extra: [String], output: String) -> [String] {
        ["--output", output, "--runtime-dir", dir.path, "--size", "\(Self.size.width)x\(Self.size.height)"] + extra
    }

    func startBar(_ dir: RuntimeDir, _ extra: [String], output: String = "wayland-panel", stderr: Pipe? = nil) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try BarProcess.binary())
        p.arguments = barArguments(dir, extra, output: output)
        p.environment = sway.clientEnvironment
        p.standardOutput = FileHandle.nullDevice
        if let stderr { p.standardError = stderr }
        try p.run()
        return p
    }

    /// Runs the bar to its end (it ends at once: refused): its status and stderr.
    func runBar(_ dir: RuntimeDir, _ extra: [String], output: String = "wayland-panel",
                environment: [String: String]) throws -> (status: Int32, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try BarProcess.binary())
        p.arguments = barArguments(dir, extra, output: output)
        p.environment = environment
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let (status, _, text) = BarProcess.finish(p, stdout: nil, stderr: err)
        return (status, String(decoding: text, as: UTF8.self))
    }

    /// SIGTERM, and the status the bar ended with.
    func stop(_ p: Process) -> Int32 {
        p.terminate()
        p.waitUntilExit()
        return p.terminationStatus
    }

    func difference(_ a: [UInt32], _ b: [UInt32]) -> String { PanelPictures.difference(a, b, width: Self.size.width) }

    func area(x: Int, y: Int) throws -> [UInt32] {
        try sway.screenshot(x: x, y: y, width: Self.size.width, height: Self.size.height)?.pixels ?? []
    }

    /// Screenshots until `predicate` holds (or 5 s pass); returns the last one.
    func waitForArea(x: Int, y: Int, _ predicate: ([UInt32]) -> Bool) throws -> [UInt32] {
        let deadline = Date().addingTimeInterval(5)
        var shown = try area(x: x, y: y)
        while !predicate(shown) && Date() < deadline { usleep(20_000); shown = try area(x: x, y: y) }
        return shown
    }

    /// The area once two screenshots 100 ms apart agree and it is not one colour.
    func waitForSettledArea(x: Int, y: Int) throws -> [UInt32] {
        var last = try area(x: x, y: y)
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            usleep(100_000)
            let now = try area(x: x, y: y)
            if now == last && Set(now).count > 1 { return now }
            last = now
        }
        return last
    }

    /// Where the windows' area of the focused workspace starts (sway's get_workspaces `rect.y`).
    func workspaceTop() throws -> Int? {
        let workspaces = try sway.query("get_workspaces") as? [[String: Any]] ?? []
        let rect = workspaces.first?["rect"] as? [String: Any]
        return rect?["y"] as? Int
    }

    /// Tests/Fixtures/wayland/virtual-pointer.c, compiled.
    func compileVirtualPointer() throws -> String {
        let program = work.appendingPathComponent("virtual-pointer").path
        let source = BarProcess.packageRoot.appendingPathComponent("Tests/Fixtures/wayland/virtual-pointer.c").path
        let compiled = try sway.run("/usr/bin/cc", ["-O2", "-o", program, source, "-lwayland-client"])
        XCTAssertEqual(compiled.status, 0, "cc virtual-pointer.c")
        return program
    }

    /// A press and release of `button` at the panel's centre.
    func click(_ pointer: String, button: Int) throws {
        let result = try sway.run(pointer, ["\(Self.size.width / 2)", "\(Self.size.height / 2)", "\(button)",
                                            "\(HeadlessSway.size.width)", "\(HeadlessSway.size.height)"])
        XCTAssertEqual(result.status, 0, "virtual-pointer")
    }

    /// Read system calls so far (/proc/PID/io syscr: the renderer reads the snapshot with
    /// read(); what it sends the compositor goes by sendmsg, which /proc/PID/io does not count).
    func readCalls(_ pid: Int32) -> UInt64? {
        guard let io = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8) else { return nil }
        for line in io.split(separator: "\n") where line.hasPrefix("syscr:") {
            return UInt64(line.dropFirst(6).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    /// The snapshot of update `sequence`: its CPU figure 10 % and 90 % in turn, so that every
    /// picture differs from the one before (an unchanged picture is not committed again).
    func changingSnapshot(sequence: Int) -> Snapshot {
        var snapshot = longLivedSnapshot(sequence: UInt64(sequence))
        snapshot.cpuBusy = sequence % 2 == 0 ? 1000 : 9000
        return snapshot
    }

    /// Publishes snapshot `sequence` and waits until the renderer has read it (and drawn it, in
    /// the same wake-up); false on timeout.
    func publishAndWaitForUpdate(_ dir: RuntimeDir, sequence: Int, pid: Int32) throws -> Bool {
        let before = try XCTUnwrap(readCalls(pid))
        try dir.publish(changingSnapshot(sequence: sequence))
        let deadline = Date().addingTimeInterval(5)
        while try XCTUnwrap(readCalls(pid)) <= before {
            guard Date() < deadline else { XCTFail("no update for snapshot \(sequence)"); return false }
            usleep(50)
        }
        return true
    }

}
