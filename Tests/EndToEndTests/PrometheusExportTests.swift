import Foundation
import XCTest
import TestSupport

/// `sysstatsd --textfile-dir` as a fleet uses it: the file it writes on a fixture machine,
/// read by the real node_exporter (textfile collector only) and scraped by a real Prometheus,
/// both on loopback ports, both stopped in tearDown. Debian's `prometheus` and
/// `prometheus-node-exporter` packages must be installed (install/deps.sh).
final class PrometheusExportTests: XCTestCase {
    var directory: TemporaryDirectory!
    var started: [Process] = []

    override func setUpWithError() throws { directory = try TemporaryDirectory("prom") }

    override func tearDownWithError() throws {
        for process in started where process.isRunning {
            process.terminate()
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        started = []
        directory = nil
    }

    static let tree = Fixtures.root.appendingPathComponent("sampler-desktop/2")

    /// Runs `sysstatsd --once` on the fixture machine with `--textfile-dir`; returns the file.
    func writeTextfile() throws -> (path: String, bytes: [UInt8]) {
        let runtime = directory.file("run"), textfiles = directory.file("textfiles")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try FileManager.default.createDirectory(atPath: textfiles, withIntermediateDirectories: false)
        let result = try Programs.run(try Programs.path("sysstatsd"), [
            "--once", "--interval", "0.05", "--runtime-dir", runtime, "--textfile-dir", textfiles,
            "--proc-root", Self.tree.appendingPathComponent("proc").path,
            "--sys-root", Self.tree.appendingPathComponent("sys").path,
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let path = textfiles + "/sysstats.prom"
        return (path, [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    func requireTool(_ path: String) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            XCTFail("\(path) is missing: install Debian's prometheus and prometheus-node-exporter (install/deps.sh)")
            throw CocoaError(.fileNoSuchFile)
        }
        return path
    }

    func testTheSamplerWritesAFilePromtoolAcceptsWithTheFixturesFiguresAndHostileNames() throws {
        let (path, bytes) = try writeTextfile()
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o644)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.file("textfiles")), ["sysstats.prom"])
        let text = String(decoding: bytes, as: UTF8.self)
        for line in ["sysstats_memory_total_bytes 8192000000", "sysstats_processes 6", "sysstats_battery_charge_ratio 0.08",
                     "sysstats_cpu_seconds_total{mode=\"busy\"} 150.7", "sysstats_sampler_interval_seconds 0.05",
                     // The fixture's process named `x"},{</b>` plus an invalid byte: escaped, replaced.
                     "sysstats_top_memory_bytes{rank=\"3\",name=\"x\\\"},{</b> \u{FFFD}\"} 8192000"] {
            XCTAssertTrue(text.split(separator: "\n").contains(Substring(line)), "missing: \(line)\n\(text)")
        }
        // promtool 2.42 reads the metrics from stdin only.
        let promtool = try requireTool("/usr/bin/promtool")
        let check = try Programs.run("/bin/sh", ["-c", "exec \"$0\" check metrics < \"$1\"", promtool, path])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
    }

    func testARunningSamplerRewritesTheFileEveryTextfileIntervalWithTheBootsFromHistory() throws {
        let runtime = directory.file("run"), textfiles = directory.file("textfiles"), data = directory.file("data")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try FileManager.default.createDirectory(atPath: textfiles, withIntermediateDirectories: false)
        let path = textfiles + "/sysstats.prom"
        try start(try Programs.path("sysstatsd"), [
            "--interval", "0.05", "--textfile-interval", "2", "--runtime-dir", runtime, "--data-dir", data,
            "--textfile-dir", textfiles, "--proc-root", Self.tree.appendingPathComponent("proc").path,
            "--sys-root", Self.tree.appendingPathComponent("sys").path,
        ], log: "sysstatsd.log")
        func sampleTime() -> Double? {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
            return Self.samples(text)["sysstats_last_sample_timestamp_seconds"]
        }
        let first = try XCTUnwrap(poll(seconds: 10, sampleTime), "no file; log: \(log("sysstatsd.log"))")
        // 20 samples a second, but the file only every 2 s.
        usleep(500_000)
        XCTAssertEqual(sampleTime(), first, "rewritten before its interval")
        let second = try XCTUnwrap(poll(seconds: 10) { sampleTime().flatMap { $0 != first ? $0 : nil } })
        XCTAssertGreaterThanOrEqual(second - first, 1.9)
        // The history writer ran for the start batch: the boots are in the file (this is the
        // data directory's first boot, so none before it, and no "previous boot" figure).
        let boots = try XCTUnwrap(poll(seconds: 10) { () -> [String: Double]? in
            guard let text = try? String(contentsOfFile: path, encoding: .utf8), text.contains("sysstats_boots{") else { return nil }
            return Self.samples(text)
        }, "no boots in the file; log: \(log("sysstatsd.log"))")
        XCTAssertEqual(boots["sysstats_boots{end=\"clean\"}"], 0)
        XCTAssertEqual(boots["sysstats_boots{end=\"unclean\"}"], 0)
        XCTAssertNil(boots["sysstats_previous_boot_clean"])
        XCTAssertEqual(log("sysstatsd.log"), "")
    }

    func testATextfileDirThatIsNotADirectoryIsRefusedAtStartWithOneLine() throws {
        let runtime = directory.file("run")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try directory.write([], to: "plain")
        let result = try Programs.run(try Programs.path("sysstatsd"), [
            "--once", "--interval", "0.05", "--runtime-dir", runtime, "--textfile-dir", directory.file("plain"),
            "--proc-root", Self.tree.appendingPathComponent("proc").path, "--sys-root", Self.tree.appendingPathComponent("sys").path,
        ])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(SamplerLog.withoutTimes(result.stderr), "sysstatsd: the textfile directory \(directory.file("plain")) is not a directory\n")
    }

    /// In a directory others may write (a sticky /tmp-like one too), another user could stop the
    /// export for good or have node_exporter serve their own file: refused at start.
    func testATextfileDirOthersMayWriteOrAnotherUserOwnsIsRefusedAtStart() throws {
        let runtime = directory.file("run")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        func run(_ textfiles: String) throws -> (status: Int32, stderr: String) {
            let r = try Programs.run(try Programs.path("sysstatsd"), [
                "--once", "--interval", "0.05", "--runtime-dir", runtime, "--no-history", "--textfile-dir", textfiles,
                "--proc-root", Self.tree.appendingPathComponent("proc").path, "--sys-root", Self.tree.appendingPathComponent("sys").path,
            ])
            return (r.status, r.stderr)
        }
        for mode in [0o1777, 0o777, 0o775] {
            let shared = directory.file("shared-\(String(mode, radix: 8))")
            try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
            XCTAssertEqual(chmod(shared, mode_t(mode)), 0)
            let result = try run(shared)
            XCTAssertEqual(result.status, 2, "mode \(String(mode, radix: 8))")
            XCTAssertEqual(SamplerLog.withoutTimes(result.stderr), "sysstatsd: the textfile directory \(shared) is writable by group or others, who could replace what node_exporter serves; give a directory only you may write (docs/fleet.md)\n")
            XCTAssertFalse(FileManager.default.fileExists(atPath: shared + "/sysstats.prom"))
        }
        if geteuid() == 0 {
            let foreign = directory.file("foreign")
            try FileManager.default.createDirectory(atPath: foreign, withIntermediateDirectories: false)
            XCTAssertEqual(chown(foreign, 65534, 65534), 0)
            let result = try run(foreign)
            XCTAssertEqual(result.status, 2)
            XCTAssertTrue(result.stderr.contains("belongs to another user"), result.stderr)
        }
        let mine = directory.file("mine")
        try FileManager.default.createDirectory(atPath: mine, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        XCTAssertEqual(try run(mine).status, 0, "a directory of ours that others may only read is the set-up docs/fleet.md gives")
    }

    func testNodeExporterServesTheFileAndPrometheusAnswersAPromQLQueryForIt() throws {
        let nodeExporter = try requireTool("/usr/bin/prometheus-node-exporter")
        let prometheus = try requireTool("/usr/bin/prometheus")
        let (path, _) = try writeTextfile()
        let textfiles = (path as NSString).deletingLastPathComponent

        // node_exporter with the textfile collector only, on a free loopback port.
        let exporterPort = try freeLoopbackPort()
        try start(nodeExporter, ["--web.listen-address=127.0.0.1:\(exporterPort)", "--collector.disable-defaults",
                                 "--collector.textfile", "--collector.textfile.directory=\(textfiles)"], log: "node-exporter.log")
        let metrics = try XCTUnwrap(poll(seconds: 30) { () -> String? in
            guard let body = self.fetch("http://127.0.0.1:\(exporterPort)/metrics"), body.contains("sysstats_") else { return nil }
            return body
        }, "node_exporter did not serve our metrics; its log: \(log("node-exporter.log"))")
        let samples = Self.samples(metrics)
        XCTAssertEqual(samples["node_textfile_scrape_error"], 0, "node_exporter read the file without error")
        XCTAssertEqual(samples["sysstats_memory_total_bytes"], 8_192_000_000)
        XCTAssertEqual(samples["sysstats_memory_available_bytes"], 3_502_080_000)
        XCTAssertEqual(samples["sysstats_processes"], 6)
        XCTAssertEqual(samples["sysstats_battery_charge_ratio"], 0.08)
        XCTAssertEqual(samples["sysstats_cpu_seconds_total{mode=\"iowait\"}"], 10.05)
        XCTAssertEqual(samples["sysstats_memory_bytes{part=\"wired\"}"], 153_600_000)
        XCTAssertNotNil(samples.keys.first { $0.hasPrefix("node_textfile_mtime_seconds{file=") && $0.contains("sysstats.prom") },
                        "the file's own timestamp, for the stale alert")

        // Prometheus scraping that node_exporter every second, with our rules loaded.
        let prometheusPort = try freeLoopbackPort()
        let config = directory.file("prometheus.yml")
        let rules = Fixtures.packageRoot.appendingPathComponent("assets/prometheus/sysstats.rules.yml").path
        try Data("""
            global:
              scrape_interval: 1s
              evaluation_interval: 1s
            rule_files:
              - \(rules)
            scrape_configs:
              - job_name: node
                static_configs:
                  - targets: ['127.0.0.1:\(exporterPort)']
            """.utf8).write(to: URL(fileURLWithPath: config))
        try FileManager.default.createDirectory(atPath: directory.file("tsdb"), withIntermediateDirectories: false)
        try start(prometheus, ["--config.file=\(config)", "--storage.tsdb.path=\(directory.file("tsdb"))",
                               "--web.listen-address=127.0.0.1:\(prometheusPort)"], log: "prometheus.log")
        let query = "http://127.0.0.1:\(prometheusPort)/api/v1/query?query=sysstats_memory_total_bytes"
        let value = try XCTUnwrap(poll(seconds: 60) { () -> String? in
            guard let body = self.fetch(query),
                  let json = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
                  let data = json["data"] as? [String: Any], let result = data["result"] as? [[String: Any]],
                  let first = result.first, let pair = first["value"] as? [Any], pair.count == 2 else { return nil }
            return pair[1] as? String
        }, "Prometheus did not answer; its log: \(log("prometheus.log"))")
        XCTAssertEqual(value, "8192000000")
        // The recording rule over our metrics evaluates too.
        let recorded = poll(seconds: 30) { () -> String? in
            guard let body = self.fetch("http://127.0.0.1:\(prometheusPort)/api/v1/query?query=instance:sysstats_memory_available:ratio"),
                  body.contains("\"value\"") else { return nil }
            return body
        }
        XCTAssertNotNil(recorded, "the recording rule gave no value; log: \(log("prometheus.log"))")
        XCTAssertTrue(recorded?.contains("\"0.4275\"") ?? false, recorded ?? "")
    }

    func testTheRulesPassPromtoolCheckAndTheirUnitTests() throws {
        let promtool = try requireTool("/usr/bin/promtool")
        let assets = Fixtures.packageRoot.appendingPathComponent("assets/prometheus").path
        let check = try Programs.run(promtool, ["check", "rules", assets + "/sysstats.rules.yml"])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        XCTAssertTrue(check.stdout.contains("SUCCESS"), check.stdout)
        // Each alert fires on a machine that breaks it, and not on a healthy one.
        let test = try Programs.run(promtool, ["test", "rules", assets + "/sysstats.rules.test.yml"])
        XCTAssertEqual(test.status, 0, test.stdout + test.stderr)
    }

    func testTheFleetDashboardRepeatsARowPerInstanceOverMetricsWeWrite() throws {
        let assets = Fixtures.packageRoot.appendingPathComponent("assets/prometheus")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: assets.appendingPathComponent("sysstats-fleet.grafana.json")))
        let dashboard = try XCTUnwrap(json as? [String: Any])
        let panels = try XCTUnwrap(dashboard["panels"] as? [[String: Any]])
        XCTAssertEqual(panels.first?["type"] as? String, "row")
        XCTAssertEqual(panels.first?["repeat"] as? String, "instance")
        let variables = try XCTUnwrap((dashboard["templating"] as? [String: Any])?["list"] as? [[String: Any]])
        XCTAssertTrue(variables.contains { $0["name"] as? String == "instance" && $0["includeAll"] as? Bool == true })
        // Every sysstats series a panel asks for is one the formatter writes (by hand, or from a
        // part's table: `prometheus: "sysstats_…"`) or a rule records.
        var source = ""
        for path in ["Sources/PrometheusText", "Sources/SnapshotCodec/Parts", "Sources/SnapshotCodec/Sections"] {
            let folder = Fixtures.packageRoot.appendingPathComponent(path)
            source += try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
                .map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }.joined(separator: "\n")
        }
        let families = try NSRegularExpression(pattern: #"(?:family\(|prometheus: )"(sysstats_[a-z0-9_]+)""#)
        var known = Set(families.matches(in: source, range: NSRange(source.startIndex..., in: source))
            .map { String(source[Range($0.range(at: 1), in: source)!]) })
        XCTAssertGreaterThan(known.count, 30)
        let rules = try String(contentsOf: assets.appendingPathComponent("sysstats.rules.yml"), encoding: .utf8)
        let names = try NSRegularExpression(pattern: "[a-z_:]*sysstats_[a-z0-9_:]*")
        for line in rules.split(separator: "\n") where line.contains("- record: ") {
            known.insert(String(line.split(separator: " ").last!))
        }
        var expressions = 0
        for panel in panels {
            for target in panel["targets"] as? [[String: Any]] ?? [] {
                let expr = try XCTUnwrap(target["expr"] as? String)
                expressions += 1
                for match in names.matches(in: expr, range: NSRange(expr.startIndex..., in: expr)) {
                    let name = String(expr[Range(match.range, in: expr)!])
                    XCTAssertTrue(known.contains(name), "\(name) in \(expr) is neither written nor recorded")
                }
            }
        }
        XCTAssertGreaterThan(expressions, 10)
    }

    // MARK: - Helpers

    /// A port the kernel just gave a bound loopback socket (closed again before use).
    func freeLoopbackPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Starts `executable` with its output in a log file of the temporary directory.
    func start(_ executable: String, _ arguments: [String], log name: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        FileManager.default.createFile(atPath: directory.file(name), contents: nil)
        let logFile = try FileHandle(forWritingTo: URL(fileURLWithPath: directory.file(name)))
        process.standardOutput = logFile
        process.standardError = logFile
        process.standardInput = FileHandle.nullDevice
        try process.run()
        started.append(process)
    }

    func log(_ name: String) -> String {
        String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: directory.file(name)))) ?? Data(), as: UTF8.self)
    }

    /// An HTTP GET on loopback with curl (5 s at most); nil when it fails.
    func fetch(_ url: String) -> String? {
        guard let result = try? Programs.run("/usr/bin/curl", ["-sS", "--fail", "--max-time", "5", url], timeout: 10),
              result.status == 0 else { return nil }
        return result.stdout
    }

    /// Calls `body` every 200 ms until it gives a value or `seconds` pass.
    func poll<T>(seconds: TimeInterval, _ body: () -> T?) -> T? {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if let value = body() { return value }
            usleep(200_000)
        } while Date() < deadline
        return nil
    }

    /// `name{labels} value` lines of an exposition, by `name{labels}`.
    static func samples(_ text: String) -> [String: Double] {
        var out: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            out[String(line[..<space])] = value
        }
        return out
    }
}
