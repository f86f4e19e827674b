import Foundation
import SnapshotCodec
import XCTest

/// A real client: i3 under Xvfb runs i3bar with `sysstats-bar --output i3bar` as
/// its status_command while snapshots with hostile names keep arriving; i3bar must
/// log no protocol error and keep the renderer running. Skipped without i3 or Xvfb.
final class I3barClientTests: XCTestCase {
    static let xvfb = "/usr/bin/Xvfb", i3 = "/usr/bin/i3"

    /// A headless X server and i3 on it, running `statusCommand` as its bar's status_command;
    /// stops both when the test ends. The i3 log (i3bar's errors) is `log`.
    struct I3Session {
        let i3: Process
        let log: URL
        var text: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
    }

    func startI3(_ dir: RuntimeDir, statusCommand: String, display: Int, screen: String,
                 environment: [String: String] = [:]) throws -> I3Session {
        guard FileManager.default.isExecutableFile(atPath: Self.xvfb), FileManager.default.isExecutableFile(atPath: Self.i3)
        else { throw XCTSkip("Xvfb or i3 is not installed") }
        let server = Process()
        server.executableURL = URL(fileURLWithPath: Self.xvfb)
        server.arguments = [":\(display)", "-nolisten", "tcp", "-noreset", "-screen", "0", screen]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        addTeardownBlock { server.terminate(); server.waitUntilExit() }
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(display)") && Date() < deadline { usleep(20_000) }
        let config = dir.url.appendingPathComponent("i3.conf")
        try """
            # i3 config file (v4)
            font pango:monospace 8
            bar {
                status_command \(statusCommand)
            }

            """.write(to: config, atomically: true, encoding: .utf8)
        let log = dir.url.appendingPathComponent("i3.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let i3 = Process()
        i3.executableURL = URL(fileURLWithPath: Self.i3)
        i3.arguments = ["-c", config.path]
        // SYSSTATS_NO_START_SAMPLER: the bar shows the fixture snapshot, it starts no sampler.
        i3.environment = ["DISPLAY": ":\(display)", "PATH": "/usr/bin:/bin", "HOME": dir.path, "SYSSTATS_NO_START_SAMPLER": "1"]
            .merging(environment) { $1 }
        let handle = try FileHandle(forWritingTo: log)
        i3.standardOutput = handle
        i3.standardError = handle
        try i3.run()
        addTeardownBlock { if i3.isRunning { i3.terminate(); i3.waitUntilExit() } }
        let started = Date().addingTimeInterval(15)
        while !isRendererRunning(dir.path) && Date() < started { usleep(50_000) }
        XCTAssertTrue(isRendererRunning(dir.path), "i3bar starts the status command")
        return I3Session(i3: i3, log: log)
    }

    func testI3barAcceptsOurStreamWithHostileNames() throws {
        let dir = try RuntimeDir()
        var hostile = sampleSnapshot(sequence: 1)
        hostile.exits[0].name = Array(#"a"b\c</span>"},{"full_text":"x"#.utf8)
        try dir.publish(hostile)
        let session = try startI3(dir, statusCommand: "\(try BarProcess.binary()) --output i3bar --runtime-dir \(dir.path) --blocks cpu,mem,exited",
                                  display: 190 + Int(getpid() % 100), screen: "800x600x24")
        let i3 = session.i3
        for sequence in 2...20 {
            usleep(100_000)
            hostile.sequence = UInt64(sequence)
            hostile.timestampMs = realtimeMs()
            try dir.publish(hostile)
        }
        let text = session.text
        // i3bar's errors go to stderr, which is unbuffered: they would be in the log by now.
        XCTAssertTrue(i3.isRunning)
        XCTAssertFalse(text.localizedCaseInsensitiveContains("error"), text)
        XCTAssertFalse(text.contains("JSON"), text)
        XCTAssertTrue(isRendererRunning(dir.path), "i3bar keeps the status command running")
    }

    /// The whole status line under real i3bar: every system block and a clock, what i3bar
    /// reads captured with tee. i3bar logs no error, and the clock shows what `date` does.
    func testI3barShowsAFullBarAndTheClockMatchesDateInUTC() throws {
        let dir = try RuntimeDir()
        var snapshot = sampleSnapshot(sequence: 1)
        snapshot.available.formUnion([.network, .disks, .diskIO, .temperature, .frequency])
        var wlan = InterfaceFigures()
        wlan.name = Array("wlan0".utf8)
        wlan.flags = [.up, .carrier, .defaultRoute, .wireless, .wifiLink, .rates]
        wlan.ipv4 = Array("192.168.1.20".utf8)
        wlan.rxBytesPerSecond = 1_258_291
        wlan.wifi.ssid = [0x22, 0x7D, 0x2C, 0x7B, 0xFF, 0x1B] + Array("Net".utf8)   // ",{ then invalid UTF-8 and ESC
        wlan.wifi.qualityPercent = 72
        snapshot.interfaces = [wlan]
        var root = DiskFigures()
        root.mount = Array("/".utf8); root.totalKiB = 125_000_000; root.usedKiB = 40_000_000; root.availableKiB = 78_600_000
        snapshot.disks = [root]
        var package = TemperatureFigures()
        package.chip = Array("coretemp".utf8); package.label = Array("Package id 0".utf8)
        package.milliCelsius = 52_000; package.isCPUPackage = true
        snapshot.temperatures = [package]
        snapshot.cpuMHzAverage = 2345; snapshot.cpuMHzMaximum = 4567
        try dir.publish(snapshot)
        let stream = dir.url.appendingPathComponent("stream")
        let blocks = "cpu,cores,mem,swap,load,net,wifi,disk,diskio,temp,freq,time"
        let session = try startI3(dir, statusCommand: "\(try BarProcess.binary()) --output i3bar --runtime-dir \(dir.path) --blocks \(blocks) --format 'time=%Y-%m-%d %H:%M:%S' | tee \(stream.path)",
                                  display: 290 + Int(getpid() % 100), screen: "1280x600x24",
                                  environment: ["TZ": "UTC", "LC_ALL": "C"])
        let i3 = session.i3
        for sequence in 2...12 {
            usleep(200_000)
            snapshot.sequence = UInt64(sequence)
            snapshot.timestampMs = realtimeMs()
            try dir.publish(snapshot)
        }
        let text = session.text
        XCTAssertTrue(i3.isRunning)
        XCTAssertFalse(text.localizedCaseInsensitiveContains("error"), text)
        // The last array i3bar read: every block asked for, in order.
        let lines = try String(contentsOf: stream, encoding: .utf8).split(separator: "\n")
        let last = try XCTUnwrap(lines.last.map { $0.hasPrefix(",") ? String($0.dropFirst()) : String($0) })
        let array = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [[String: Any]], last)
        XCTAssertEqual(array.map { $0["name"] as? String }, blocks.split(separator: ",").map(String.init))
        let byName = Dictionary(array.map { ($0["name"] as! String, $0["full_text"] as? String ?? "") }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(byName["net"], "net wlan0 192.168.1.20 ↓1.2M/s ↑0B/s")
        XCTAssertEqual(byName["disk"], "disk / 75.0G free")
        XCTAssertEqual(byName["temp"], "temp 52°C")
        XCTAssertEqual(byName["freq"], "freq 2.3/4.6GHz")
        XCTAssertEqual(byName["wifi"], "wifi \"},{\u{FFFD} Net 72%", "the SSID's bytes escaped, not injected (ESC a space)")
        let date = Process()
        date.executableURL = URL(fileURLWithPath: "/bin/date")
        date.arguments = ["-u", "+%Y-%m-%d %H:%M:%S"]
        let out = Pipe()
        date.standardOutput = out
        try date.run()
        let now = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .newlines)
        date.waitUntilExit()
        let shown = try XCTUnwrap(byName["time"])
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        formatter.timeZone = TimeZone(identifier: "UTC")
        let lag = try XCTUnwrap(formatter.date(from: now)).timeIntervalSince(try XCTUnwrap(formatter.date(from: shown)))
        XCTAssertTrue((0...1.5).contains(lag), "the clock shows \(shown), date says \(now)")
    }

    /// Under real i3 and i3bar, a click (xdotool) on a command block reaches its command
    /// with `BLOCK_BUTTON=1` and the block's name and instance.
    func testAClickInI3barReachesACommandBlocksCommand() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool") else { throw XCTSkip("xdotool is not installed") }
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot())
        let clicked = dir.url.appendingPathComponent("clicked").path
        let config = dir.url.appendingPathComponent("config.toml")
        try """
            [[block]]
            block = "command"
            name = "clickme"
            instance = "here"
            command = '[ -n "$BLOCK_BUTTON" ] && echo "$BLOCK_BUTTON $BLOCK_NAME $BLOCK_INSTANCE" > \(clicked); echo CLICK-ME-CLICK-ME-CLICK-ME'
            interval = "once"
            """.write(to: config, atomically: true, encoding: .utf8)
        let display = 390 + Int(getpid() % 100)
        let session = try startI3(dir, statusCommand: "\(try BarProcess.binary()) --output i3bar --runtime-dir \(dir.path) --config \(config.path)",
                                  display: display, screen: "800x600x24")
        // i3bar sits at the bottom; the status line is right-aligned: the block is at the right end.
        try click(display: display, x: 790, y: 594, until: clicked)
        XCTAssertEqual(try? String(contentsOfFile: clicked, encoding: .utf8), "1 clickme here\n", session.text)
        XCTAssertTrue(session.i3.isRunning)
        XCTAssertFalse(session.text.localizedCaseInsensitiveContains("error"), session.text)
    }

    /// Under real i3 and i3bar, a click on a block of a wrapped i3bar program (`block = "i3bar"`)
    /// comes back to it on its stdin with its own name and instance, through i3bar's escaping.
    func testAClickInI3barReachesAWrappedProgramWithItsOwnNames() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool") else { throw XCTSkip("xdotool is not installed") }
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot())
        let clicked = dir.url.appendingPathComponent("clicked").path
        let script = dir.url.appendingPathComponent("wrapped.py")
        try #"""
            import json, sys
            print(json.dumps({"version": 1, "click_events": True}), flush=True)
            print("[", flush=True)
            print(json.dumps([{"name": "echo", "instance": 'a"b\\', "full_text": "CLICK-ME-CLICK-ME-CLICK-ME"}]) + ",", flush=True)
            for line in sys.stdin:
                line = line.strip().lstrip(",")
                if line in ("", "["):
                    continue
                click = json.loads(line)
                with open(sys.argv[1], "w") as f:
                    f.write("%d %s %s\n" % (click["button"], click["name"], click["instance"]))
            """#.write(to: script, atomically: true, encoding: .utf8)
        let config = dir.url.appendingPathComponent("config.toml")
        try """
            [[block]]
            block = "i3bar"
            command = "exec python3 \(script.path) \(clicked)"
            """.write(to: config, atomically: true, encoding: .utf8)
        let display = 490 + Int(getpid() % 100)
        let session = try startI3(dir, statusCommand: "\(try BarProcess.binary()) --output i3bar --runtime-dir \(dir.path) --config \(config.path)",
                                  display: display, screen: "800x600x24")
        try click(display: display, x: 790, y: 594, until: clicked)
        XCTAssertEqual(try? String(contentsOfFile: clicked, encoding: .utf8), "1 echo a\"b\\\n", session.text)
        XCTAssertTrue(session.i3.isRunning)
    }

    /// Clicks at (x, y) every 0.3 s until `file` exists (the bar may still be starting), 15 s at most.
    func click(display: Int, x: Int, y: Int, until file: String) throws {
        let deadline = Date().addingTimeInterval(15)
        while !FileManager.default.fileExists(atPath: file) && Date() < deadline {
            try click(display: display, x: x, y: y)
            usleep(300_000)
        }
    }

    /// A left click at (x, y) on `display`, by xdotool.
    func click(display: Int, x: Int, y: Int) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/xdotool")
        p.arguments = ["mousemove", "\(x)", "\(y)", "click", "1"]
        p.environment = ["DISPLAY": ":\(display)"]
        try p.run()
        p.waitUntilExit()
    }

    /// True when a sysstats-bar with this runtime dir is running.
    func isRendererRunning(_ runtimeDir: String) -> Bool {
        guard let pids = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return false }
        for pid in pids where pid.allSatisfy(\.isNumber) {
            guard let cmdline = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")) else { continue }
            let args = cmdline.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            if args.first?.hasSuffix("sysstats-bar") == true && args.contains(runtimeDir) { return true }
        }
        return false
    }
}

extension I3barClientTests {
    /// `status_command sysstats-bar --output i3bar` is all an i3 user writes: under real i3,
    /// the bar starts the sampler (here on a fixture tree) and i3bar shows its figures.
    func testUnderI3TheStatusCommandAloneStartsTheSampler() throws {
        let dir = try RuntimeDir()
        let runtime = dir.path
        let tree = BarProcess.packageRoot.appendingPathComponent("Tests/Fixtures/sampler-desktop/1")
        let command = "\(try BarProcess.binary()) --output i3bar --runtime-dir \(runtime) --blocks procs"
            + " --sampler-option=--proc-root=\(tree.appendingPathComponent("proc").path)"
            + " --sampler-option=--sys-root=\(tree.appendingPathComponent("sys").path) --sampler-option=--no-history"
        let session = try startI3(dir, statusCommand: command, display: 590 + Int(getpid() % 100), screen: "800x600x24",
                                  environment: ["SYSSTATS_NO_START_SAMPLER": "0"])
        let snapshot = runtime + "/snapshot"
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: snapshot) && Date() < deadline { usleep(50_000) }
        XCTAssertTrue(FileManager.default.fileExists(atPath: snapshot), "the sampler the bar started writes snapshots: \(session.text)")
        // The sampler is in a session of its own, not i3bar's child's.
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { Int32($0) } ?? []
        let sampler = pids.first { pid in
            let args = ((try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()).split(separator: 0)
                .map { String(decoding: $0, as: UTF8.self) }
            return args.first?.hasSuffix("sysstatsd") == true && args.contains(runtime)
        }
        let pid = try XCTUnwrap(sampler, "a sysstatsd for \(runtime)")
        XCTAssertEqual(getsid(pid), pid)
        XCTAssertTrue(session.i3.isRunning)
        XCTAssertFalse(session.text.localizedCaseInsensitiveContains("error"), session.text)
        kill(pid, SIGTERM)
    }
}
