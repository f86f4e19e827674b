import Foundation
import SnapshotCodec
import XCTest

/// A real client: i3 under Xvfb runs i3bar with `sysstats-bar --output i3bar` as
/// its status_command while snapshots with hostile names keep arriving; i3bar must
/// log no protocol error and keep the renderer running. Skipped without i3 or Xvfb.
final class I3barClientTests: XCTestCase {
    static let xvfb = "/usr/bin/Xvfb", i3 = "/usr/bin/i3"

    func testI3barAcceptsOurStreamWithHostileNames() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.xvfb), FileManager.default.isExecutableFile(atPath: Self.i3)
        else { throw XCTSkip("Xvfb or i3 is not installed") }
        let number = 190 + Int(getpid() % 100)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: Self.xvfb)
        server.arguments = [":\(number)", "-nolisten", "tcp", "-noreset", "-screen", "0", "800x600x24"]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { server.terminate(); server.waitUntilExit() }
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") && Date() < deadline { usleep(20_000) }

        let dir = try RuntimeDir()
        var hostile = sampleSnapshot(sequence: 1)
        hostile.exits[0].name = Array(#"a"b\c</span>"},{"full_text":"x"#.utf8)
        try dir.publish(hostile)
        let config = dir.url.appendingPathComponent("i3.conf")
        try """
            # i3 config file (v4)
            font pango:monospace 8
            bar {
                status_command \(try BarProcess.binary()) --output i3bar --runtime-dir \(dir.path) --blocks cpu,mem,exited
            }

            """.write(to: config, atomically: true, encoding: .utf8)
        let log = dir.url.appendingPathComponent("i3.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let i3 = Process()
        i3.executableURL = URL(fileURLWithPath: Self.i3)
        i3.arguments = ["-c", config.path]
        i3.environment = ["DISPLAY": ":\(number)", "PATH": "/usr/bin:/bin", "HOME": dir.path]
        let handle = try FileHandle(forWritingTo: log)
        i3.standardOutput = handle
        i3.standardError = handle
        try i3.run()
        defer { if i3.isRunning { i3.terminate(); i3.waitUntilExit() } }

        let started = Date().addingTimeInterval(15)
        while !isRendererRunning(dir.path) && Date() < started { usleep(50_000) }
        XCTAssertTrue(isRendererRunning(dir.path), "i3bar starts the status command")
        for sequence in 2...20 {
            usleep(100_000)
            hostile.sequence = UInt64(sequence)
            hostile.timestampMs = realtimeMs()
            try dir.publish(hostile)
        }
        let text = try String(contentsOf: log, encoding: .utf8)
        // i3bar's errors go to stderr, which is unbuffered: they would be in the log by now.
        XCTAssertTrue(i3.isRunning)
        XCTAssertFalse(text.localizedCaseInsensitiveContains("error"), text)
        XCTAssertFalse(text.contains("JSON"), text)
        XCTAssertTrue(isRendererRunning(dir.path), "i3bar keeps the status command running")
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
