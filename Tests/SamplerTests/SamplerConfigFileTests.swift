import Foundation
import TestSupport
import SystemDirs
import XCTest
@testable import Sampler

/// `[sampler]` of config.toml sets the sampler's defaults; its flags win.
final class SamplerConfigFileTests: XCTestCase {
    var file = ""

    override func setUpWithError() throws {
        file = NSTemporaryDirectory() + "sysstats-sampler-config-\(UUID().uuidString).toml"
        addTeardownBlock { [file] in try? FileManager.default.removeItem(atPath: file) }
    }

    func write(_ text: String) throws { try text.write(toFile: file, atomically: true, encoding: .utf8) }

    func parse(_ args: [String]) -> Result<SamplerOptions.Parsed, OptionsError> {
        SamplerOptions.parseWithConfigFile(bytes: (["--config", file] + args).map { Array($0.utf8) })
    }

    func config(_ args: [String] = []) throws -> SamplerConfiguration {
        guard case .success(.run(let c)) = parse(args) else { XCTFail("refused: \(parse(args))"); return SamplerConfiguration() }
        return c
    }

    func testTheFileSetsTheDefaults() throws {
        try write("""
            [sampler]
            interval = 2.5
            history = false
            freed_threshold = 16
            disks = ["/", "/home", "/"]
            sensors = ["coretemp/Package id 0"]
            interfaces = ["wg0"]
            units = ["postgresql", "docker 3f2a1b9c8d7e"]

            [[block]]
            block = "cpu"
            """)
        let c = try config()
        XCTAssertEqual(c.intervalMs, 2500)
        XCTAssertFalse(c.history)
        XCTAssertEqual(c.freedThresholdKiB, 16 * 1024)
        XCTAssertEqual(c.disks, ["/", "/home"], "duplicates dropped")
        XCTAssertEqual(c.sensors, ["coretemp/Package id 0"])
        XCTAssertEqual(c.interfaces, ["wg0"])
        XCTAssertEqual(c.units, ["postgresql", "docker 3f2a1b9c8d7e"])
        XCTAssertEqual(c.configPath, file)
    }

    func testFlagsWinAndTheFirstRepeatableFlagReplacesTheFilesList() throws {
        try write("[sampler]\ninterval = 2\ndisks = [\"/\", \"/home\"]\nsensors = [\"a\"]\n")
        let c = try config(["--interval", "0.5", "--disk", "/data", "--disk", "/srv"])
        XCTAssertEqual(c.intervalMs, 500)
        XCTAssertEqual(c.disks, ["/data", "/srv"])
        XCTAssertEqual(c.sensors, ["a"], "no --sensor: the file's")
    }

    func testABadFileIsOneLineWithItsPlace() throws {
        try write("[sampler]\ninterval = 0\n")
        guard case .failure(let e) = parse([]) else { return XCTFail() }
        XCTAssertEqual(e.description, "\(file):2:12: interval is 0.05 to 3600 seconds")
        try write("[sampler]\nintervall = 1\n")
        guard case .failure(let e2) = parse([]) else { return XCTFail() }
        XCTAssertEqual(e2.description, "\(file):2:1: unknown key \"intervall\"; did you mean \"interval\"?")
        try write("[sampler]\nrefresh = 1\n")
        guard case .failure(let e4) = parse([]) else { return XCTFail() }
        XCTAssertEqual(e4.description, "\(file):2:1: unknown key \"refresh\" in [sampler] (interval, history, freed_threshold, disks, sensors, interfaces, units, unit_history, textfile_dir, textfile_interval)")
        try write("[sampler]\ndisks = [\"home\"]\n")
        guard case .failure(let e3) = parse([]) else { return XCTFail() }
        XCTAssertEqual(e3.description, "\(file):2:10: a disk is an absolute mount point of at most 64 bytes")
        try write("[sampler\n")
        guard case .failure(let e4) = parse([]) else { return XCTFail() }
        XCTAssertTrue(e4.description.hasPrefix("\(file):1:"), e4.description)
    }

    func testTheBarsTablesAreNotTheSamplersConcern() throws {
        try write("[theme]\nanything = 1\n[[block]]\nblock = \"nonsense\"\n")
        XCTAssertEqual(try config().intervalMs, 1000)
    }

    func testAFileGivenWithConfigMustBeThere() {
        guard case .failure(let e) = SamplerOptions.parseWithConfigFile(bytes: [Array("--config".utf8), Array("/nonexistent/c.toml".utf8)])
        else { return XCTFail() }
        XCTAssertTrue(e.description.hasPrefix("cannot read the config file /nonexistent/c.toml"), e.description)
    }

    /// `--config /dev/null` is "no config at all", as `i3status -c /dev/null` is (issue 58: it
    /// was refused as not a regular file, and a bar passes its `--config` on to the sampler it
    /// starts): the defaults, as from an empty file. Told by fstat, not by the name: a link to
    /// it is the same, and every other device is still refused.
    func testTheNullDeviceIsAnEmptyFileAndOtherDevicesAreStillRefused() throws {
        func parse(config path: String) -> Result<SamplerOptions.Parsed, OptionsError> {
            SamplerOptions.parseWithConfigFile(bytes: ["--config", path].map { Array($0.utf8) })
        }
        try write("")
        var empty = try config()
        guard case .success(.run(let null)) = parse(config: "/dev/null") else { return XCTFail("\(parse(config: "/dev/null"))") }
        empty.configPath = "/dev/null"
        XCTAssertEqual(null, empty, "the defaults, as from an empty file")
        let link = file + ".link"
        XCTAssertEqual(symlink("/dev/null", link), 0)
        defer { unlink(link) }
        guard case .success(.run(_)) = parse(config: link) else { return XCTFail("a link to it, as a dotfiles manager makes") }
        guard case .failure(let zero) = parse(config: "/dev/zero") else { return XCTFail("another device") }
        XCTAssertEqual(zero.description, "cannot read the config file /dev/zero: is a device, not a regular file")
    }

    func testTheDefaultPlaceFollowsXDGConfigHome() {
        XCTAssertEqual(SamplerSettings.defaultPath(xdgConfigHome: "/x", home: "/h"), "/x/sysstats/config.toml")
        XCTAssertEqual(SamplerSettings.defaultPath(xdgConfigHome: "relative", home: "/h"), "/h/.config/sysstats/config.toml")
        XCTAssertNil(SamplerSettings.defaultPath(xdgConfigHome: nil, home: nil))
    }

    func testTextfileDirAndIntervalComeFromTheFileAndTheFlagsWin() throws {
        try write("[sampler]\ninterval = 1\n")
        XCTAssertNil(try config().textfileDirectory, "not in the file: no export")
        try write("[sampler]\ntextfile_dir = \"/var/lib/prometheus/node-exporter\"\ntextfile_interval = 30\n")
        var c = try config()
        XCTAssertEqual(c.textfileDirectory, "/var/lib/prometheus/node-exporter")
        XCTAssertEqual(c.textfileIntervalSeconds, 30)
        c = try config(["--textfile-dir", "/srv/prom", "--textfile-interval", "5"])
        XCTAssertEqual(c.textfileDirectory, "/srv/prom")
        XCTAssertEqual(c.textfileIntervalSeconds, 5)
        for (text, reason) in [("textfile_dir = \"relative\"", "2:16: textfile_dir is an absolute path"),
                               ("textfile_dir = 3", "2:16: expected a directory (a string), found integer"),
                               ("textfile_interval = 0", "2:21: textfile_interval is 1 to 3600 seconds"),
                               ("textfile_interval = 1.5", "2:21: expected whole seconds, found float")] {
            try write("[sampler]\n\(text)\n")
            guard case .failure(let e) = parse([]) else { XCTFail(text); continue }
            XCTAssertEqual(e.description, "\(file):\(reason)")
        }
    }

    /// `sysstats config example > config.toml` under a running sampler: the example writes
    /// the defaults out (`disks = ["/"]`, `sensors = []` …), which is no change of settings,
    /// so the sampler is not started again (a minute of history and the graphs kept).
    func testTheExampleFileWrittenOverAnEmptyOneIsNoChangeButAnotherDiskIs() throws {
        try write("")   // no [sampler]: the defaults, as without a file
        let arguments = (["--config", file, "--runtime-dir", NSTemporaryDirectory()]).map { Array($0.utf8) }
        guard case .success(.run(let running)) = SamplerOptions.parseWithConfigFile(bytes: arguments) else { return XCTFail() }
        let example = Fixtures.packageRoot.appendingPathComponent("assets/config.toml")
        try write(try String(contentsOf: example, encoding: .utf8))
        XCTAssertEqual(SamplerReload.decide(arguments: arguments, running: running), .unchanged)
        try write("[sampler]\ndisks = [\"/\", \"/home\"]\n")
        XCTAssertEqual(SamplerReload.decide(arguments: arguments, running: running), .restart)
        try write("[sampler]\ninterval = 2\n")
        XCTAssertEqual(SamplerReload.decide(arguments: arguments, running: running), .restart)
    }
}
