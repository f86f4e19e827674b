import Foundation
import SnapshotCodec
import XCTest

/// `--output x11-root` against Xvfb: the root window's name is set, and the
/// renderer stays within 3 MiB while connected. Skipped without Xvfb and xprop.
final class X11RootTests: XCTestCase {
    static let xvfb = "/usr/bin/Xvfb", xprop = "/usr/bin/xprop"

    var server: Process?
    var display = ""

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.xvfb), FileManager.default.isExecutableFile(atPath: Self.xprop)
        else { throw XCTSkip("Xvfb or xprop is not installed") }
        let number = 90 + Int(getpid() % 100)
        display = ":\(number)"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.xvfb)
        p.arguments = [display, "-nolisten", "tcp", "-noreset", "-screen", "0", "640x480x24"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        server = p
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") && Date() < deadline { usleep(20_000) }
        setenv("DISPLAY", display, 1)
    }

    override func tearDown() {
        if let server, server.isRunning { server.terminate(); server.waitUntilExit() }
    }

    func rootName() throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.xprop)
        p.arguments = ["-root", "_NET_WM_NAME"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        p.waitUntilExit()
        return String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    func testX11RootSetsTheRootWindowNameAndFollowsNewSnapshots() throws {
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot(sequence: 1))
        let bar = try BarProcess(["--output", "x11-root", "--runtime-dir", dir.path, "--blocks", "uptime,exited"], stdin: false)
        var name = ""
        let deadline = Date().addingTimeInterval(5)
        while !name.contains("up 1h 0m"), Date() < deadline { name = try rootName(); usleep(20_000) }
        XCTAssertEqual(name, #"_NET_WM_NAME(UTF8_STRING) = "up 1h 0m | exited job-1\"</span> freed 200M""# + "\n")
        for sequence in 2...200 { try dir.publish(sampleSnapshot(sequence: UInt64(sequence))); usleep(2_000) }
        let later = Date().addingTimeInterval(5)
        while !name.contains("up 1h 3m | exited job-6"), Date() < later { name = try rootName(); usleep(20_000) }
        XCTAssertTrue(name.contains("up 1h 3m | exited job-6\\\"</span>"), name)
        let hwm = try XCTUnwrap(vmHWM(pid: bar.pid))
        print("sysstats-bar --output x11-root: peak RSS (VmHWM) connected to Xvfb: \(hwm) KiB")
        XCTAssertLessThanOrEqual(hwm, 3 * 1024)
        XCTAssertEqual(bar.stop(), 0)
    }

    /// dwm's root window name shows the config file's blocks and command blocks too, and a
    /// command block's signal reaches it.
    func testX11RootShowsCommandBlocksAndTheirSignals() throws {
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot(sequence: 1))
        let counter = dir.url.appendingPathComponent("n").path
        let config = dir.url.appendingPathComponent("config.toml")
        try """
            [[block]]
            block = "uptime"

            [[block]]
            block = "command"
            name = "count"
            command = "echo x >> \(counter); echo runs $(wc -l < \(counter))"
            interval = "once"
            signal = 3
            """.write(to: config, atomically: true, encoding: .utf8)
        let bar = try BarProcess(["--output", "x11-root", "--runtime-dir", dir.path, "--config", config.path], stdin: false)
        var name = ""
        var deadline = Date().addingTimeInterval(5)
        while !name.contains("| runs 1"), Date() < deadline { name = try rootName(); usleep(20_000) }
        XCTAssertEqual(name, #"_NET_WM_NAME(UTF8_STRING) = "up 1h 0m | runs 1""# + "\n")
        kill(bar.pid, __libc_current_sigrtmin() + 3)   // sysstats-bar execs sysstats-bar-x11: the same pid
        deadline = Date().addingTimeInterval(5)
        while !name.contains("| runs 2"), Date() < deadline { name = try rootName(); usleep(20_000) }
        XCTAssertTrue(name.contains("up 1h 0m | runs 2"), name)
        XCTAssertEqual(bar.stop(), 0)
    }

    func testLosingTheDisplayEndsWithStatusOne() throws {
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot(sequence: 1))
        let bar = try BarProcess(["--output", "x11-root", "--runtime-dir", dir.path], stdin: false)
        usleep(300_000)
        XCTAssertTrue(bar.process.isRunning)
        server?.terminate()
        server?.waitUntilExit()
        let deadline = Date().addingTimeInterval(5)
        while bar.process.isRunning && Date() < deadline { usleep(10_000) }
        XCTAssertEqual(bar.process.terminationReason, .exit)
        XCTAssertEqual(bar.process.terminationStatus, 1)
    }

    func testTextModeBinaryDoesNotLinkAnXLibrary() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        p.arguments = [try BarProcess.binary()]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out   // ldd says "not a dynamic executable" on stderr
        try p.run()
        p.waitUntilExit()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        // Linked statically (docs/performance-history.md): no shared library at all, and no X code inside.
        XCTAssertTrue(text.contains("not a dynamic executable"), text)
        XCTAssertFalse(text.contains("libX11"), text)
        XCTAssertFalse(text.contains("libxcb"), text)
        let nm = Process()
        nm.executableURL = URL(fileURLWithPath: "/usr/bin/nm")
        nm.arguments = [try BarProcess.binary()]
        let symbols = Pipe()
        nm.standardOutput = symbols
        try nm.run()
        let names = String(decoding: symbols.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        nm.waitUntilExit()
        XCTAssertTrue(names.contains(" main"), "nm read the symbols")
        XCTAssertFalse(names.contains("xcb_"), "no X code is linked into the text-mode binary")
    }

    func vmHWM(pid: Int32) -> Int? { peakResidentKiB(pid: pid) }
}
