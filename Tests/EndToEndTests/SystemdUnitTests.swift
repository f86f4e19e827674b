import Foundation
import TestSupport
import XCTest

/// The systemd user unit as install/install.sh installs it: it verifies, its sandbox
/// rates at most 3.0 in `systemd-analyze security`, it writes only the runtime and the
/// data directories, and its Documentation= names the installed manual page.
/// Needs systemd-analyze and man (packages systemd and man-db; install/deps.sh installs them).
final class SystemdUnitTests: XCTestCase {
    var directory: TemporaryDirectory!
    override func setUpWithError() throws { directory = try TemporaryDirectory("systemd unit") }
    override func tearDownWithError() throws { directory = nil }

    func tool(_ name: String, package: String) throws -> String {
        for dir in ["/usr/bin", "/bin", "/usr/local/bin"] where FileManager.default.isExecutableFile(atPath: dir + "/" + name) {
            return dir + "/" + name
        }
        throw XCTSkip("\(name) is not installed (package \(package); install/deps.sh installs it)")
    }

    struct Installed { var unit: String; var text: String; var prefix: String; var data: String; var environment: [String: String] }

    /// Runs install/install.sh into the temporary directory, under a prefix and a data
    /// directory whose names hold a space and a `%` (a systemd specifier when not doubled).
    func install() throws -> Installed {
        for name in ["sysstatsd", "sysstatsd-history", "sysstats", "sysstats-bar", "sysstats-bar-x11"] {
            _ = try Programs.path(name)
        }
        let prefix = directory.file("pre fix"), data = directory.file("data %h"), config = directory.file("config")
        let runtime = directory.file("runtime")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let script = Programs.packageRoot.appendingPathComponent("install/install.sh").path
        let installed = try Programs.capture("/bin/bash", [script, "--bin-dir", Programs.binDir.path],
                                             environment: ["PREFIX": prefix, "XDG_DATA_HOME": data, "XDG_CONFIG_HOME": config])
        XCTAssertEqual(installed.status, 0, installed.stderr)
        let unit = config + "/systemd/user/sysstatsd.service"
        // systemd-analyze --user needs a runtime directory; MANPATH finds the installed page.
        let environment = ["XDG_RUNTIME_DIR": runtime, "MANPATH": prefix + "/share/man", "SYSTEMD_PAGER": "", "SYSTEMD_COLORS": "0"]
        return Installed(unit: unit, text: try String(contentsOfFile: unit, encoding: .utf8), prefix: prefix,
                         data: data + "/sysstats", environment: environment)
    }

    func testInstalledUnitPassesSystemdAnalyzeVerifyWithItsManualPage() throws {
        let analyze = try tool("systemd-analyze", package: "systemd")
        _ = try tool("man", package: "man-db")
        let installed = try install()
        let verify = try Programs.capture(analyze, ["verify", "--user", installed.unit], environment: installed.environment)
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        XCTAssertEqual(verify.stdout + verify.stderr, "", "no warning")
        XCTAssertTrue(installed.text.contains("\nDocumentation=man:sysstatsd(1)\n"), installed.text)
        XCTAssertTrue(FileManager.default.fileExists(atPath: installed.prefix + "/share/man/man1/sysstatsd.1"))
    }

    func testInstalledUnitIsRatedAtMostThreeBySystemdAnalyzeSecurity() throws {
        let analyze = try tool("systemd-analyze", package: "systemd")
        let installed = try install()
        let result = try Programs.capture(analyze, ["security", "--offline=true", "--user", installed.unit],
                                          environment: installed.environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        let marker = "Overall exposure level for sysstatsd.service: "
        guard let range = result.stdout.range(of: marker) else {
            return XCTFail("no overall exposure level in:\n" + result.stdout + result.stderr)
        }
        let figure = result.stdout[range.upperBound...].prefix { $0.isNumber || $0 == "." }
        let exposure = try XCTUnwrap(Double(figure), String(result.stdout[range.upperBound...].prefix(20)))
        XCTAssertLessThanOrEqual(exposure, 3.0, result.stdout)
    }

    func testInstalledUnitWritesOnlyItsRuntimeAndDataDirectoriesAndKeepsNetlink() throws {
        let installed = try install()
        let lines = installed.text.split(separator: "\n").map(String.init)
        let settings = lines.filter { !$0.hasPrefix("#") }
        // The paths: the data directory quoted (a space), `%` doubled, made before the unit starts.
        let data = installed.data.replacingOccurrences(of: "%", with: "%%")
        let bin = installed.prefix.replacingOccurrences(of: "%", with: "%%") + "/bin/sysstatsd"
        XCTAssertTrue(settings.contains("ExecStart=\"\(bin)\" --data-dir \"\(data)\""), installed.text)
        XCTAssertTrue(settings.contains("ReadWritePaths=\"-\(data)\""), installed.text)
        XCTAssertTrue(FileManager.default.fileExists(atPath: installed.data))
        for setting in ["ProtectSystem=strict", "ProtectHome=read-only", "RuntimeDirectory=sysstats", "RuntimeDirectoryMode=0700",
                        "NoNewPrivileges=yes", "PrivateDevices=no", "RestrictAddressFamilies=AF_UNIX AF_NETLINK",
                        "SystemCallFilter=@system-service", "CapabilityBoundingSet=", "UMask=0077"] {
            XCTAssertTrue(settings.contains(setting), setting)
        }
        XCTAssertFalse(settings.contains { $0.hasPrefix("PrivateNetwork=") }, "the network block needs netlink")
        XCTAssertTrue(settings.contains { $0.hasPrefix("MemoryMax=") })
        // The comments hold no installed path, and nothing is left of a placeholder (@BINDIR@, @DATADIR@).
        for comment in lines where comment.hasPrefix("#") {
            XCTAssertFalse(comment.contains(installed.prefix) || comment.contains(directory.path), comment)
        }
        XCTAssertNil(installed.text.range(of: "@[A-Z]+@", options: .regularExpression), installed.text)
    }

    func testInstallRefusesAPrefixWithAQuoteTheUnitCouldNotHold() throws {
        for name in ["sysstatsd", "sysstatsd-history", "sysstats", "sysstats-bar", "sysstats-bar-x11"] {
            _ = try Programs.path(name)
        }
        let script = Programs.packageRoot.appendingPathComponent("install/install.sh").path
        let result = try Programs.capture("/bin/bash", [script, "--bin-dir", Programs.binDir.path],
                                          environment: ["PREFIX": directory.file("a\"b"), "XDG_DATA_HOME": directory.file("data"),
                                                        "XDG_CONFIG_HOME": directory.file("config")])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("a quote, backslash or control character"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.file("config") + "/systemd/user/sysstatsd.service"))
    }
}
