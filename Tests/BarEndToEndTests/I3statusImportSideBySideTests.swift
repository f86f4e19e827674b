import Foundation
import SnapshotCodec
import XCTest

/// A real i3status config from the import corpus under Debian's i3status (2.14) on this
/// machine, and its `sysstats config import` under sysstats-bar on a fixture snapshot in the
/// same states (an interface down where i3status found it down): the same blocks in the same
/// order, the same labels and literal text around the figures, a unit where i3status shows
/// one, and the same colours (i3status's good, degraded and bad).
final class I3statusImportSideBySideTests: XCTestCase {
    /// i3status's block names and the sysstats block each becomes.
    static let blocks = ["wireless": "wifi", "ethernet": "net", "disk_info": "disk", "load": "load", "memory": "mem", "tztime": "time"]

    /// Figures as `#`, a size's unit as `U` (i3status writes `1.2 GiB`, sysstats `1.2G`).
    static func skeleton(_ text: String) -> String {
        var out = ""
        var inFigure = false
        for c in text {
            if c.isNumber || ((c == "." || c == ":") && inFigure) {
                if !inFigure { out.append("#") }
                inFigure = true
            } else {
                inFigure = false
                out.append(c)
            }
        }
        for unit in [" TiB", " GiB", " MiB", " KiB", "TiB", "GiB", "MiB", "KiB", "T", "G", "M", "K"] {
            out = out.replacingOccurrences(of: "#" + unit, with: "#U")
        }
        return out
    }

    func testACorpusConfigShowsUnderTheBarAsUnderI3status() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/i3status") else {
            throw XCTSkip("i3status is not installed (install/deps.sh installs it)")
        }
        let corpus = BarProcess.packageRoot.appendingPathComponent("Tests/Fixtures/import-corpus/i3status/01-00Nave198-dotfiles.conf")
        let text = try String(contentsOf: corpus, encoding: .utf8)
        let dir = try RuntimeDir()
        // i3status's own output in i3bar's protocol, with colours: its `general` told so.
        let i3statusConfig = text.replacingOccurrences(of: "general {", with: "general {\n        output_format = \"i3bar\"")
            .replacingOccurrences(of: "colors = false", with: "colors = true")
        let theirs = try I3statusSideBySideTests.i3statusBlocks(config: i3statusConfig, in: dir.url)
        XCTAssertEqual(theirs.compactMap { $0["name"] as? String }, ["wireless", "ethernet", "disk_info", "load", "memory", "tztime"])

        // The import, and a snapshot in the states i3status found.
        let cli = URL(fileURLWithPath: try BarProcess.binary()).deletingLastPathComponent().appendingPathComponent("sysstats").path
        let forced = dir.url.appendingPathComponent("i3status-forced.conf")
        try i3statusConfig.write(to: forced, atomically: true, encoding: .utf8)
        let imported = try run(cli, ["config", "import", "i3status", forced.path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let config = dir.url.appendingPathComponent("config.toml")
        try imported.stdout.write(to: config, atomically: true, encoding: .utf8)
        var snap = sampleSnapshot()
        snap.available.formUnion([.network, .disks])
        var eth = InterfaceFigures()
        eth.name = Array("eth0".utf8)
        if theirs[1]["full_text"] as? String != "E: down" {
            eth.flags = [.up, .carrier, .defaultRoute]
            eth.ipv4 = Array("10.0.0.2".utf8)
        }
        snap.interfaces = [eth]
        if theirs[0]["full_text"] as? String != "W: down" {
            var wlan = InterfaceFigures()
            wlan.name = Array("wlan0".utf8)
            wlan.flags = [.up, .carrier, .wireless, .wifiLink]
            wlan.wifi.ssid = Array("Net".utf8); wlan.wifi.qualityPercent = 70
            wlan.ipv4 = Array("10.0.0.3".utf8)
            snap.interfaces.append(wlan)
        }
        var root = DiskFigures()
        root.mount = Array("/".utf8)
        root.totalKiB = 125_000_000; root.usedKiB = 40_000_000; root.availableKiB = 78_600_000
        snap.disks = [root]
        try dir.publish(snap)
        let once = try BarProcess.run(["--once", "--output", "i3bar", "--runtime-dir", dir.url.path, "--config", config.path])
        XCTAssertEqual(once.status, 0, once.stderr)
        let ours = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(once.stdout.utf8)) as? [[String: Any]], once.stdout)

        XCTAssertEqual(ours.compactMap { $0["name"] as? String }, theirs.compactMap { Self.blocks[$0["name"] as? String ?? ""] }, once.stdout)
        for (mine, their) in zip(ours, theirs) {
            let which = their["name"] as? String ?? "?"
            XCTAssertEqual(Self.skeleton(mine["full_text"] as? String ?? ""), Self.skeleton(their["full_text"] as? String ?? ""),
                           "\(which): \(mine["full_text"] ?? "") against i3status's \(their["full_text"] ?? "")")
            XCTAssertEqual((mine["color"] as? String)?.uppercased(), (their["color"] as? String)?.uppercased(), "\(which)'s colour")
        }
    }

    func run(_ program: String, _ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: program)
        p.arguments = args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }
}
