import Foundation
import SnapshotCodec
import TestSupport
import XCTest

/// `sysstats report --watch` in a real terminal (tmux, 80 columns): the ~150-column line
/// used to wrap, and `\r` + erase-line cleared only its last row, so every update left a
/// partial line behind. Now the line is cut to the width and redrawn on one row, and a
/// resize (SIGWINCH) is taken into account. Needs tmux (install/deps.sh installs it).
final class ReportWatchTerminalTests: XCTestCase {
    var directory: TemporaryDirectory!
    var runtime: String { directory.file("run") }
    var tmuxPath = ""
    var socket = ""

    override func setUpWithError() throws {
        guard let found = ["/usr/bin/tmux", "/bin/tmux", "/usr/local/bin/tmux"].first(where: {
            FileManager.default.isExecutableFile(atPath: $0)
        }) else { throw XCTSkip("tmux is not installed (package tmux; install/deps.sh installs it)") }
        tmuxPath = found
        directory = try TemporaryDirectory("watch-tmux")
        socket = "sysstats-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
    }

    override func tearDownWithError() throws {
        if !socket.isEmpty { _ = try? tmux(["kill-server"]) }
        directory = nil
    }

    /// tmux on a private server socket, without the user's configuration. Started with
    /// posix_spawn, its output into a file: the server the first call starts keeps the
    /// descriptors it is given (a pipe would never reach its end), and waited for with waitpid.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> Programs.Output {
        let outPath = directory.file("tmux.out")
        let argv = [tmuxPath, "-L", socket, "-f", "/dev/null"] + arguments
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for p in cArgs { free(p) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        guard posix_spawn(&pid, tmuxPath, &actions, nil, &cArgs, environ) == 0 else {
            XCTFail("cannot start tmux"); throw CocoaError(.executableLoad)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        return Programs.Output(status: (status >> 8) & 0xFF, stdout: out, stderr: "")
    }

    /// A fresh snapshot whose line is about 190 columns, `second` seconds into its uptime
    /// minute, renamed into place as the sampler does.
    func writeSnapshot(second: UInt64) throws {
        var s = Snapshot()
        s.sequence = 100 + second
        s.timestampMs = UInt64(Date().timeIntervalSince1970 * 1000)
        s.intervalMs = 1000
        s.uptimeCentiseconds = (44_220 + second) * 100
        s.cpuBusy = Permyriad(1000 + second * 100)   // "cpu 11%" at second 1: each update shows
        s.memory.free = 17818; s.memory.other = 336_998; s.memory.wired = 71373; s.memory.active = 55194; s.memory.inactive = 33587
        s.memory.total = 514_970; s.memory.available = 400_000; s.memory.used = 114_970
        s.processCount = 39
        s.available.formUnion([.network, .disks, .temperature, .frequency])
        var wlan = InterfaceFigures()
        wlan.name = Array("wlan0".utf8)
        wlan.flags = [.up, .carrier, .defaultRoute, .wireless, .wifiLink, .rates]
        wlan.rxBytesPerSecond = 1_258_291; wlan.txBytesPerSecond = 35_021
        wlan.ipv4 = Array("192.168.1.20".utf8)
        wlan.wifi.ssid = Array("HomeNet".utf8)
        s.interfaces = [wlan]
        var root = DiskFigures()
        root.mount = Array("/".utf8); root.totalKiB = 200_000_000; root.usedKiB = 100_000_000; root.availableKiB = 82_417_254
        s.disks = [root]
        var t = TemperatureFigures()
        t.chip = Array("coretemp".utf8); t.label = Array("Package id 0".utf8); t.milliCelsius = 52_000
        s.temperatures = [t]
        s.cpuMHzAverage = 2345; s.cpuMHzMaximum = 4567
        var bytes: [UInt8] = []
        s.encode(into: &bytes)
        try directory.write(bytes, to: "run/.snapshot.tmp")
        XCTAssertEqual(rename(runtime + "/.snapshot.tmp", runtime + "/snapshot"), 0)
    }

    /// The pane's rows that hold something, trailing spaces dropped.
    func rows() throws -> [String] {
        let pane = try tmux(["capture-pane", "-p", "-t", "watch"])
        XCTAssertEqual(pane.status, 0, pane.stderr)
        return pane.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0.reversed().drop { $0 == " " }.reversed()) }
            .filter { !$0.isEmpty }
    }

    /// Waits until the pane's only row starts with `prefix` (the update was drawn).
    func waitForRow(startingWith prefix: String) throws -> [String] {
        let deadline = Date().addingTimeInterval(5)
        var last: [String] = []
        while Date() < deadline {
            last = try rows()
            if last.last?.hasPrefix(prefix) == true { return last }
            usleep(100_000)
        }
        XCTFail("no row starting with \(prefix) in:\n" + last.joined(separator: "\n"))
        return last
    }

    func testWatchAt80ColumnsRedrawsOneRowNoWiderThanTheTerminalAndRefitsAfterAResize() throws {
        let sysstats = try Programs.path("sysstats")
        try writeSnapshot(second: 0)
        let started = try tmux(["new-session", "-d", "-s", "watch", "-x", "80", "-y", "24",
                                "exec '\(sysstats)' report --watch --runtime-dir '\(runtime)'"])
        XCTAssertEqual(started.status, 0)
        var shown: [String] = []
        for second in UInt64(1)...6 {
            usleep(400_000)
            try writeSnapshot(second: second)
            shown = try waitForRow(startingWith: "cpu 1\(second)% | mem ")
        }
        XCTAssertEqual(shown.count, 1, "piled-up rows:\n" + shown.joined(separator: "\n"))
        for row in shown { XCTAssertLessThanOrEqual(row.count, 79, row) }
        XCTAssertFalse(shown.joined().contains("…"), "parts left out whole, none cut: \(shown)")
        XCTAssertFalse(shown.joined().contains("net wlan0"), "the network comes after what fits in 80: \(shown)")

        // Wider: every part, after SIGWINCH, on one row.
        XCTAssertEqual(try tmux(["resize-window", "-t", "watch", "-x", "300", "-y", "24"]).status, 0)
        try writeSnapshot(second: 7)
        shown = try waitForRow(startingWith: "cpu 17% | mem ")
        XCTAssertEqual(shown.count, 1, shown.joined(separator: "\n"))
        XCTAssertTrue(shown.last?.contains(" | net wlan0 ") ?? false, "\(shown)")
        XCTAssertTrue(shown.last?.contains(" | procs 39 (0 run)") ?? false, "\(shown)")

        // Narrower: fewer parts for the new width.
        XCTAssertEqual(try tmux(["resize-window", "-t", "watch", "-x", "50", "-y", "24"]).status, 0)
        try writeSnapshot(second: 8)
        shown = try waitForRow(startingWith: "cpu 18% | mem ")
        XCTAssertEqual(shown.count, 1, shown.joined(separator: "\n"))
        XCTAssertLessThanOrEqual(shown.last?.count ?? 99, 49, "\(shown)")
        XCTAssertFalse(shown.last?.contains("…") ?? true, "\(shown)")
    }
}
