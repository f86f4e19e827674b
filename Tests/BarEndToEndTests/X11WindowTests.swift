import Foundation
import SnapshotCodec
import XCTest

/// `--output x11-window` against its own Xvfb: the window's properties, its
/// pixels on screen (an `xwd` screenshot against the PNG output of the same
/// snapshot), exposes repainted by the server without waking the renderer,
/// clicks, display loss and the 3 MiB budget. Skipped without Xvfb and the X tools.
final class X11WindowTests: XCTestCase {
    static let tools = ["Xvfb", "xwininfo", "xprop", "xwd", "xdotool", "xmessage"].map { "/usr/bin/" + $0 }
    static let size = (width: 180, height: 56), position = (x: 37, y: 61)

    var server: Process?
    var display = ""

    override func setUpWithError() throws {
        for tool in Self.tools where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) is not installed (install/deps.sh)")
        }
        (server, display) = try Self.startXvfb(depth: 24)
        setenv("DISPLAY", display, 1)
    }

    /// Starts Xvfb with one 640x480 screen of `depth` bits on a free display number
    /// (away from X11RootTests' 90–189) and waits for its socket.
    static func startXvfb(depth: Int) throws -> (Process, String) {
        var number = 300 + Int(getpid() % 100)
        while FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock") { number += 100 }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        p.arguments = [":\(number)", "-nolisten", "tcp", "-noreset", "-screen", "0", "640x480x\(depth)"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") && Date() < deadline { usleep(20_000) }
        return (p, ":\(number)")
    }

    override func tearDown() {
        if let server, server.isRunning { server.terminate(); server.waitUntilExit() }
    }

    // MARK: - The tests

    func testTheDockTypeMapsAsAStickyUndecoratedDockAtTheGivenPlaceAndSize() throws {
        let dir = try RuntimeDir()
        try dir.publish(longLivedSnapshot(sequence: 1))
        let bar = try startBar(dir, blocks: ["--window-type", "dock"])
        let window = try XCTUnwrap(findWindow(), "no sysstats-bar window on \(display)")
        XCTAssertEqual(window.frame, [Self.position.x, Self.position.y, Self.size.width, Self.size.height])
        let info = try run("/usr/bin/xwininfo", ["-id", window.id])
        XCTAssertTrue(info.contains("Map State: IsViewable"), info)
        XCTAssertTrue(info.contains("Override Redirect State: no"), info)
        let props = try run("/usr/bin/xprop", ["-id", window.id])
        for expected in [
            "_NET_WM_WINDOW_TYPE(ATOM) = _NET_WM_WINDOW_TYPE_DOCK",
            "_NET_WM_STATE(ATOM) = _NET_WM_STATE_STICKY, _NET_WM_STATE_ABOVE",
            "_NET_WM_DESKTOP(CARDINAL) = 4294967295",
            "_MOTIF_WM_HINTS(_MOTIF_WM_HINTS) = 0x2, 0x0, 0x0, 0x0, 0x0",
            #"WM_CLASS(STRING) = "sysstats-bar", "SysstatsBar""#,
            #"WM_NAME(STRING) = "sysstats-bar""#,
            "_NET_WM_PID(CARDINAL) = \(bar.pid)",
            "user specified location: \(Self.position.x), \(Self.position.y)",
            "program specified minimum size: \(Self.size.width) by \(Self.size.height)",
            "program specified maximum size: \(Self.size.width) by \(Self.size.height)",
            "Client accepts input or input focus: False",
            "WM_PROTOCOLS(ATOM): protocols  WM_DELETE_WINDOW",
        ] {
            XCTAssertTrue(props.contains(expected), "missing \(expected) in:\n\(props)")
        }
        // Exposes are the server's job: the renderer selects only button presses and structure changes.
        let events = try run("/usr/bin/xwininfo", ["-id", window.id, "-events"])
        XCTAssertTrue(events.contains("ButtonPress"), events)
        XCTAssertFalse(events.contains("Exposure"), events)
        XCTAssertEqual(bar.stop(), 0)
    }

    func testTheScreenShowsExactlyThePixelsThePNGOutputDrawsForTheSameSnapshot() throws {
        let dir = try RuntimeDir()
        let snapshot = longLivedSnapshot(sequence: 3)
        try dir.publish(snapshot)
        let bar = try startBar(dir)
        XCTAssertNotNil(findWindow())
        let expected = try pngPixels(of: dir)
        let shown = try waitForRegion { $0 == expected }
        XCTAssertEqual(shown.count, Self.size.width * Self.size.height)
        XCTAssertEqual(expected.count, Self.size.width * Self.size.height)
        XCTAssertTrue(shown == expected, "the window's pixels differ from the PNG output's: " + difference(shown, expected))
        // The image is not blank: the test would otherwise pass on an unpainted window of one colour.
        XCTAssertGreaterThan(Set(expected).count, 3)
        XCTAssertEqual(bar.stop(), 0)
    }

    func testAnExposeIsRepaintedByTheServerWithoutWakingTheRenderer() throws {
        let dir = try RuntimeDir()
        try dir.publish(longLivedSnapshot(sequence: 1))
        let bar = try startBar(dir)
        XCTAssertNotNil(findWindow())
        let before = try waitForSettledRegion()
        let idle = try XCTUnwrap(activity(bar.pid))

        // Another window over ours, then gone: the X server sends our window an expose (if we asked).
        let cover = Process()
        cover.executableURL = URL(fileURLWithPath: "/usr/bin/xmessage")
        cover.arguments = ["-geometry", "260x120+\(Self.position.x - 20)+\(Self.position.y - 20)", "covering the panel"]
        cover.standardError = FileHandle.nullDevice
        try cover.run()
        let covered = try waitForRegion { $0 != before }
        XCTAssertFalse(covered == before, "xmessage did not cover the window: the test would prove nothing")
        cover.terminate()
        cover.waitUntilExit()
        let after = try waitForRegion { $0 == before }
        XCTAssertTrue(after == before, "the exposed window was not repainted: " + difference(after, before))
        usleep(200_000)
        let afterExpose = try XCTUnwrap(activity(bar.pid))
        XCTAssertEqual(afterExpose, idle, "the renderer woke for the expose")

        // The same measure moves when the renderer does work: a new snapshot.
        try dir.publish(longLivedSnapshot(sequence: 2))
        let deadline = Date().addingTimeInterval(5)
        var woke = afterExpose
        while woke == afterExpose && Date() < deadline { usleep(10_000); woke = try XCTUnwrap(activity(bar.pid)) }
        usleep(100_000)
        woke = try XCTUnwrap(activity(bar.pid))
        XCTAssertGreaterThan(woke.cpuNanoseconds, afterExpose.cpuNanoseconds)
        XCTAssertGreaterThan(woke.contextSwitches, afterExpose.contextSwitches)
        XCTAssertGreaterThan(woke.readWriteCalls, afterExpose.readWriteCalls)
        XCTAssertEqual(bar.stop(), 0)
    }

    func testALeftClickChangesTheGraphFormAndARightClickBringsItBack() throws {
        let dir = try RuntimeDir()
        try dir.publish(longLivedSnapshot(sequence: 5))
        let bar = try startBar(dir)
        XCTAssertNotNil(findWindow())
        let first = try waitForSettledRegion()
        let centre = ["mousemove", "\(Self.position.x + Self.size.width / 2)", "\(Self.position.y + Self.size.height / 2)"]
        _ = try run("/usr/bin/xdotool", centre + ["click", "1"])
        let second = try waitForRegion { $0 != first }
        XCTAssertFalse(second == first, "a left click did not change the picture")
        _ = try run("/usr/bin/xdotool", ["click", "3"])
        let back = try waitForRegion { $0 == first }
        XCTAssertTrue(back == first, "a right click did not bring the first form back: " + difference(back, first))
        XCTAssertEqual(bar.stop(), 0)
    }

    func testLosingTheDisplayEndsWithOneLineAndStatusOne() throws {
        let dir = try RuntimeDir()
        try dir.publish(longLivedSnapshot(sequence: 1))
        let (p, err) = try startBarCapturingStderr(barArguments(dir))
        XCTAssertNotNil(findWindow())
        XCTAssertTrue(p.isRunning)
        server?.terminate()
        server?.waitUntilExit()
        let deadline = Date().addingTimeInterval(5)
        while p.isRunning && Date() < deadline { usleep(10_000) }
        if p.isRunning { p.terminate() }
        XCTAssertEqual(p.terminationReason, .exit)
        XCTAssertEqual(p.terminationStatus, 1)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(message, "sysstats-bar: lost the X display\n")
    }

    func testWithoutADisplayItSaysSoAndExitsOne() throws {
        let dir = try RuntimeDir()
        try dir.publish(longLivedSnapshot(sequence: 1))
        let (p, err) = try startBarCapturingStderr(barArguments(dir), display: ":29999")
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 1)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(message, "sysstats-bar: cannot open the X display (is DISPLAY set?)\n")
    }

    func testAServerWithoutTwentyFourBitColourIsRefusedInOneLine() throws {
        let (sixteen, display) = try Self.startXvfb(depth: 16)
        defer { sixteen.terminate(); sixteen.waitUntilExit() }
        let dir = try RuntimeDir()
        try dir.publish(longLivedSnapshot(sequence: 1))
        let (p, err) = try startBarCapturingStderr(barArguments(dir), display: display)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 1)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(message.hasPrefix("sysstats-bar: x11-window needs a TrueColor default visual of depth 24 or 32"), message)
        XCTAssertEqual(message.filter { $0 == "\n" }.count, 1, message)
    }

    func testTheWindowDestroyedByAnotherClientEndsWithOneLineAndStatusOne() throws {
        let dir = try RuntimeDir()
        try dir.publish(longLivedSnapshot(sequence: 1))
        let (p, err) = try startBarCapturingStderr(barArguments(dir))
        let window = try XCTUnwrap(findWindow())
        _ = try run("/usr/bin/xdotool", ["windowclose", window.id])  // XDestroyWindow
        let deadline = Date().addingTimeInterval(5)
        while p.isRunning && Date() < deadline { usleep(10_000) }
        if p.isRunning { p.terminate() }
        XCTAssertEqual(p.terminationStatus, 1)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(message, "sysstats-bar: the x11-window was destroyed\n")
    }

    func testANegativePositionCountsFromTheRightAndBottomEdges() throws {
        let dir = try RuntimeDir()
        try dir.publish(longLivedSnapshot(sequence: 1))
        let bar = try BarProcess(["--output", "x11-window", "--runtime-dir", dir.path,
                                  "--size", "\(Self.size.width)x\(Self.size.height)", "--position", "-1,-11"], stdin: false)
        let window = try XCTUnwrap(findWindow())
        // The screen is 640x480: -1 is flush with the right edge, -11 leaves 10 pixels below.
        XCTAssertEqual(window.frame, [640 - Self.size.width, 480 - Self.size.height - 10, Self.size.width, Self.size.height])
        XCTAssertEqual(bar.stop(), 0)
    }

    func testPeakRSSStaysUnderThreeMiBOverAThousandUpdates() throws {
        let dir = try RuntimeDir()
        try dir.publish(longLivedSnapshot(sequence: 0))
        let bar = try startBar(dir, blocks: ["--blocks", "cpu,mem,load,uptime,battery,procs,exited,self"])
        XCTAssertNotNil(findWindow())
        _ = try waitForSettledRegion()
        let start = try XCTUnwrap(activity(bar.pid))
        var updates = 0
        for sequence in 1...1_000 {
            guard try publishAndWaitForUpdate(dir, sequence: sequence, pid: bar.pid) else { break }
            updates += 1
        }
        XCTAssertEqual(updates, 1_000)
        let cpu = try XCTUnwrap(activity(bar.pid)).cpuNanoseconds - start.cpuNanoseconds
        let hwm = try XCTUnwrap(vmHWM(pid: bar.pid))
        print("sysstats-bar --output x11-window: peak RSS (VmHWM) after \(updates) updates: \(hwm) KiB; "
              + "CPU \(cpu / UInt64(max(updates, 1)) / 1000) µs per update")
        XCTAssertLessThanOrEqual(hwm, 3 * 1024)
        XCTAssertEqual(bar.stop(), 0)
    }

    func testAnUpdateCostsAHandfulOfSyscalls() throws {
        guard FileManager.default.isExecutableFile(atPath: BarSyscallTests.strace) else { throw XCTSkip("strace is not installed") }
        let base = try tracedSyscalls(updates: 10)
        let many = try tracedSyscalls(updates: 510)
        let perUpdate = Double(many.total - base.total) / 500
        print("sysstats-bar --output x11-window: \(perUpdate) syscalls per update")
        // The text outputs' seven (less the stdout write), then the image and the repaint to the
        // X server: a PutImage, then a ClearArea (libxcb polls before each of its two writes) = 10;
        // a write the socket takes only in part now and then costs one more poll and writev.
        XCTAssertLessThanOrEqual(perUpdate, 10.5, "per update:\n\(many.table)")
    }

    func testWithoutNewSnapshotsTheRendererSleeps() throws {
        let dir = try RuntimeDir()
        try dir.publish(longLivedSnapshot(sequence: 1))
        // Every default block but the clock, which rightly wakes the renderer when its minute
        // turns (one run in thirty would see that inside the two seconds).
        let bar = try startBar(dir, blocks: ["--blocks", "wifi,net,disk,load,mem,exited,cpu,temp,battery"])
        XCTAssertNotNil(findWindow())
        _ = try waitForSettledRegion()
        let before = try XCTUnwrap(activity(bar.pid))
        usleep(2_000_000)
        XCTAssertEqual(try XCTUnwrap(activity(bar.pid)), before, "the renderer woke in 2 s without a snapshot")
        XCTAssertEqual(bar.stop(), 0)
    }

    // MARK: - Helpers

    /// Runs the renderer under `strace -c -f` for `updates` renames (each waited for:
    /// the write to the X server) and returns strace's total.
    func tracedSyscalls(updates: Int) throws -> (total: Int, table: String) {
        let dir = try RuntimeDir()
        let log = dir.url.appendingPathComponent("strace.log").path
        try dir.publish(longLivedSnapshot(sequence: 0))
        let bar = try BarProcess(barArguments(dir), stdin: false, wrapper: [BarSyscallTests.strace, "-c", "-f", "-o", log])
        XCTAssertNotNil(findWindow())
        let renderer = try XCTUnwrap(bar.childPID)
        _ = try waitForSettledRegion()
        for sequence in 1...updates {
            guard try publishAndWaitForUpdate(dir, sequence: sequence, pid: renderer) else { break }
        }
        // Let the last update's poll() begin before the end.
        usleep(50_000)
        XCTAssertEqual(bar.stop(SIGTERM, target: renderer, timeout: 10), 0)
        let table = try String(contentsOfFile: log, encoding: .utf8)
        guard let totalLine = table.split(separator: "\n").last(where: { $0.hasSuffix("total") }) else {
            XCTFail("no total in strace's table:\n\(table)")
            return (-1, table)
        }
        let fields = totalLine.split(separator: " ", omittingEmptySubsequences: true)
        return (Int(fields[3]) ?? -1, table)
    }

    /// A snapshot that stays current for the whole test (its staleness limit is 3 × the interval),
    /// so no staleness timer wakes the renderer while a test watches it sleep.
    func longLivedSnapshot(sequence: UInt64) -> Snapshot {
        var s = sampleSnapshot(sequence: sequence)
        s.intervalMs = 600_000
        return s
    }

    func barArguments(_ dir: RuntimeDir, blocks: [String] = []) -> [String] {
        ["--output", "x11-window", "--runtime-dir", dir.path,
         "--size", "\(Self.size.width)x\(Self.size.height)", "--position", "\(Self.position.x),\(Self.position.y)"] + blocks
    }

    func startBar(_ dir: RuntimeDir, blocks: [String] = []) throws -> BarProcess {
        try BarProcess(barArguments(dir, blocks: blocks), stdin: false)
    }

    /// Starts the renderer with its stderr in a pipe (BarProcess passes stderr through),
    /// on `display` (default: the test's Xvfb).
    func startBarCapturingStderr(_ arguments: [String], display: String? = nil) throws -> (Process, Pipe) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try BarProcess.binary())
        p.arguments = arguments
        if let display {
            var environment = ProcessInfo.processInfo.environment
            environment["DISPLAY"] = display
            p.environment = environment
        }
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        return (p, err)
    }

    func run(_ executable: String, _ arguments: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// The renderer's window, found by its WM_CLASS among the root's children:
    /// its id and frame (x, y, width, height). Waits up to 5 s for it to appear.
    func findWindow() -> (id: String, frame: [Int])? {
        let deadline = Date().addingTimeInterval(5)
        repeat {
            let tree = (try? run("/usr/bin/xwininfo", ["-root", "-children"])) ?? ""
            // e.g.      0x200003 "sysstats-bar": ("sysstats-bar" "SysstatsBar")  180x56+37+61  +37+61
            for line in tree.split(separator: "\n") where line.contains(#"("sysstats-bar" "SysstatsBar")"#) {
                let fields = line.split(separator: " ")
                guard let id = fields.first, let geometry = fields.dropLast().last else { continue }
                let numbers = geometry.split(whereSeparator: { $0 == "x" || $0 == "+" }).compactMap { Int($0) }
                guard numbers.count == 4 else { continue }
                return (String(id), [numbers[2], numbers[3], numbers[0], numbers[1]])
            }
            usleep(20_000)
        } while Date() < deadline
        return nil
    }

    /// The window's area of a root screenshot (`xwd -root`), as 0x00RRGGBB words, row-major.
    func screenRegion() throws -> [UInt32] {
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
        pixels.reserveCapacity(Self.size.width * Self.size.height)
        for y in Self.position.y..<(Self.position.y + Self.size.height) {
            for x in Self.position.x..<(Self.position.x + Self.size.width) { pixels.append(image.pixel(x, y)) }
        }
        return pixels
    }

    /// How two regions differ, in one line (XCTAssertEqual would print every pixel).
    func difference(_ a: [UInt32], _ b: [UInt32]) -> String { PanelPictures.difference(a, b, width: Self.size.width) }

    /// Screenshots until `predicate` holds (or 5 s pass); returns the last region.
    func waitForRegion(_ predicate: ([UInt32]) -> Bool) throws -> [UInt32] {
        let deadline = Date().addingTimeInterval(5)
        var region = try screenRegion()
        while !predicate(region) && Date() < deadline { usleep(20_000); region = try screenRegion() }
        return region
    }

    /// The region once two screenshots 100 ms apart agree (the first image is on screen).
    func waitForSettledRegion() throws -> [UInt32] {
        var last = try screenRegion()
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            usleep(100_000)
            let now = try screenRegion()
            if now == last && Set(now).count > 1 { return now }
            last = now
        }
        return last
    }

    /// The image the renderer draws for the runtime dir's snapshot (the PNG output's).
    func pngPixels(of dir: RuntimeDir) throws -> [UInt32] {
        try PanelPictures.png(of: dir, width: Self.size.width, height: Self.size.height)
    }

    /// What shows that a process did work: CPU time (ns, /proc/PID/schedstat, not rounded to
    /// clock ticks), context switches (a process asleep in poll() switches once per wake-up)
    /// and read/write system calls (/proc/PID/io syscr + syscw).
    struct Activity: Equatable {
        var cpuNanoseconds: UInt64
        var contextSwitches: UInt64
        var readWriteCalls: UInt64
    }

    func activity(_ pid: Int32) -> Activity? {
        guard let sched = try? String(contentsOfFile: "/proc/\(pid)/schedstat", encoding: .utf8),
              let cpu = sched.split(separator: " ").first.flatMap({ UInt64($0) }),
              let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let io = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8)
        else { return nil }
        func sum(_ text: String, _ keys: [String]) -> UInt64 {
            var total: UInt64 = 0
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: ":")
                guard parts.count == 2, keys.contains(String(parts[0])) else { continue }
                total += UInt64(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0
            }
            return total
        }
        return Activity(cpuNanoseconds: cpu,
                        contextSwitches: sum(status, ["voluntary_ctxt_switches", "nonvoluntary_ctxt_switches"]),
                        readWriteCalls: sum(io, ["syscr", "syscw"]))
    }

    /// Bytes written so far (/proc/PID/io wchar: the renderer writes only to the X server).
    func bytesWritten(_ pid: Int32) -> UInt64? {
        guard let io = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8) else { return nil }
        for line in io.split(separator: "\n") where line.hasPrefix("wchar:") {
            return UInt64(line.dropFirst(6).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    /// What one update sends the X server: a PutImage (24-byte header and the pixels), a ClearArea (16 bytes).
    static let bytesPerUpdate = UInt64(24 + size.width * size.height * 4 + 16)

    /// Publishes snapshot `sequence` and waits until the renderer (idle before) has sent
    /// the whole update, so that the next rename is an update of its own; false on timeout.
    func publishAndWaitForUpdate(_ dir: RuntimeDir, sequence: Int, pid: Int32) throws -> Bool {
        let before = try XCTUnwrap(bytesWritten(pid))
        try dir.publish(longLivedSnapshot(sequence: UInt64(sequence)))
        let deadline = Date().addingTimeInterval(5)
        while try XCTUnwrap(bytesWritten(pid)) < before + Self.bytesPerUpdate {
            guard Date() < deadline else { XCTFail("no update for snapshot \(sequence)"); return false }
            usleep(50)
        }
        return true
    }

    func vmHWM(pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }
}

/// An X window dump (`xwd`): a big-endian header, a colour map, then the pixels
/// (ZPixmap, 32 bits per pixel in the dump's byte order for a 24-bit screen).
struct XWD {
    struct BadDump: Error {}
    let bytes: [UInt8]
    let width: Int, height: Int, bytesPerLine: Int, pixelsStart: Int, littleEndian: Bool

    init(_ bytes: [UInt8]) throws {
        func field(_ i: Int) -> Int {
            (0..<4).reduce(0) { $0 << 8 | Int(bytes[i * 4 + $1]) }
        }
        guard bytes.count >= 100, field(1) == 7, field(2) == 2, field(11) == 32 else { throw BadDump() }
        self.bytes = bytes
        width = field(4); height = field(5)
        littleEndian = field(7) == 0  // byte_order: LSBFirst
        bytesPerLine = field(12)
        pixelsStart = field(0) + field(19) * 12  // header size + colour map entries of 12 bytes
        guard pixelsStart + bytesPerLine * height <= bytes.count else { throw BadDump() }
    }

    func pixel(_ x: Int, _ y: Int) -> UInt32 {
        let at = pixelsStart + y * bytesPerLine + x * 4
        let b = (0..<4).map { UInt32(bytes[at + $0]) }
        let word = littleEndian ? b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24 : b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3]
        return word & 0xFF_FFFF
    }
}
