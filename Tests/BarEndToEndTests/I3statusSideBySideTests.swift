import Foundation
import XCTest

/// run_watch, path_exists and read_file under Debian's i3status (2.14) and under
/// sysstats-bar, over the same fixture files: block for block the same name, instance and
/// text, and bad where i3status colours it bad. The fixtures are those where the two agree;
/// where the bar differs on purpose (a pid file without a number, a link, a directory, a
/// file of several lines) the in-process FileLookTests pin its own.
final class I3statusSideBySideTests: XCTestCase {
    func testTheSmallModulesShowWhatI3statusShowsForTheSameFiles() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/i3status") else {
            throw XCTSkip("i3status is not installed (install/deps.sh installs it)")
        }
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot())
        let root = dir.url.path
        func write(_ name: String, _ text: String) throws {
            try text.write(toFile: root + "/" + name, atomically: false, encoding: .utf8)
        }
        let me = getpid()
        try write("live.pid", "\(me)\n")
        try write("dead.pid", "2147483646\n")
        try write("two-a.pid", "2147483646\n")
        try write("two-b.pid", "\(me)\n")
        try write("none-a.pid", "2147483646\n")
        try FileManager.default.createDirectory(atPath: root + "/tun0", withIntermediateDirectories: false)
        try write("capacity", "87\n")
        try write("long", String(repeating: "x", count: 300))
        let modules: [(kind: String, title: String, key: String, path: String)] = [
            ("run_watch", "DHCP", "pidfile", root + "/live.pid"), ("run_watch", "DEAD", "pidfile", root + "/dead.pid"),
            ("run_watch", "ANY", "pidfile", root + "/two-*.pid"), ("run_watch", "NONE", "pidfile", root + "/none-*.pid"),
            ("run_watch", "GONE", "pidfile", root + "/gone.pid"),
            ("path_exists", "VPN", "path", root + "/tun0"), ("path_exists", "NOTHING", "path", root + "/nothing"),
            ("read_file", "BAT", "path", root + "/capacity"), ("read_file", "LONG", "path", root + "/long"),
            ("read_file", "MISSING", "path", root + "/missing"),
        ]
        var i3status = "general {\n    output_format = \"i3bar\"\n    colors = true\n    interval = 1\n}\n"
        var toml = ""
        for m in modules {
            i3status += "order += \"\(m.kind) \(m.title)\"\n"
            toml += "[[block]]\nblock = \"\(m.kind)\"\ntitle = \"\(m.title)\"\n\(m.key) = \"\(m.path)\"\n"
        }
        for m in modules { i3status += "\(m.kind) \(m.title) {\n    \(m.key) = \"\(m.path)\"\n}\n" }
        let theirs = try Self.i3statusBlocks(config: i3status, in: dir.url)
        XCTAssertEqual(Array(theirs.map { $0["full_text"] as? String }.prefix(3)), ["DHCP: yes", "DEAD: no", "ANY: yes"],
                       "the fixtures say something under i3status")

        let config = dir.url.appendingPathComponent("config.toml")
        try toml.write(to: config, atomically: true, encoding: .utf8)
        let once = try BarProcess.run(["--once", "--output", "i3bar", "--runtime-dir", root, "--config", config.path])
        XCTAssertEqual(once.status, 0, once.stderr)
        let ours = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(once.stdout.utf8)) as? [[String: Any]], once.stdout)
        XCTAssertEqual(ours.count, theirs.count, once.stdout)
        for (mine, their) in zip(ours, theirs) {
            let which = their["instance"] as? String ?? "?"
            for key in ["name", "instance", "full_text"] {
                XCTAssertEqual(mine[key] as? String, their[key] as? String, "\(key) of \(which)")
            }
            XCTAssertEqual(mine["color"] != nil, their["color"] as? String == "#FF0000", "bad where i3status says bad: \(which)")
        }
    }

    /// i3status's first array of blocks for `text` (its i3bar output: the header, `[`, then
    /// one array a line, the first at once).
    static func i3statusBlocks(config text: String, in dir: URL) throws -> [[String: Any]] {
        let config = dir.appendingPathComponent("i3status.conf")
        try text.write(to: config, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/i3status")
        p.arguments = ["-c", config.path]
        // strerror's text in English, as the bar's.
        p.environment = ["LC_ALL": "C", "PATH": "/usr/bin:/bin"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        usleep(1_500_000)
        p.terminate()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        let first = try XCTUnwrap(printed.split(separator: "\n").first { $0.hasPrefix("[{") }, printed)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [[String: Any]], String(first))
    }
}
