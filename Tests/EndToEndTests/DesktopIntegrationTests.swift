import Foundation
import TestSupport
import XCTest

/// The bookmarks file type on a desktop: the shared-mime-info package makes
/// `xdg-mime query filetype` report application/x-sysstats-bookmarks, the desktop entry
/// validates, and install/install.sh registers both. Needs shared-mime-info,
/// desktop-file-utils, xdg-utils and libfile-mimeinfo-perl (install/deps.sh installs them).
final class DesktopIntegrationTests: XCTestCase {
    static let mimeType = "application/x-sysstats-bookmarks"
    var directory: TemporaryDirectory!
    override func setUpWithError() throws { directory = try TemporaryDirectory("desktop") }
    override func tearDownWithError() throws { directory = nil }

    /// The path of a system tool, or a skip naming its package.
    func tool(_ name: String, package: String) throws -> String {
        for dir in ["/usr/bin", "/bin", "/usr/local/bin"] where FileManager.default.isExecutableFile(atPath: dir + "/" + name) {
            return dir + "/" + name
        }
        throw XCTSkip("\(name) is not installed (package \(package); install/deps.sh installs it)")
    }

    /// Runs a tool with extra environment variables.
    func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Programs.Output {
        try Programs.capture(executable, arguments, environment: environment)
    }

    func asset(_ relative: String) -> String { Programs.packageRoot.appendingPathComponent("assets/" + relative).path }

    func writeSamples() throws -> [String] {
        let text = Array("sysstats-bookmarks 1\nexe\tfoo\tFoo\n".utf8)
        try directory.write(text, to: "friends.sysstats-bookmarks")
        try directory.write(text, to: "from-mail.txt")        // the magic, another extension
        try directory.write(text, to: "no-extension")
        return ["friends.sysstats-bookmarks", "from-mail.txt", "no-extension"].map { directory.file($0) }
    }

    func testTheMimePackageMakesXdgMimeReportOurTypeByNameAndByContent() throws {
        let update = try tool("update-mime-database", package: "shared-mime-info")
        let xdgMime = try tool("xdg-mime", package: "xdg-utils")
        _ = try tool("mimetype", package: "libfile-mimeinfo-perl")
        let data = directory.file("data")
        try FileManager.default.createDirectory(atPath: data + "/mime/packages", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: asset("mime/sysstats-bookmarks.xml"),
                                         toPath: data + "/mime/packages/sysstats-bookmarks.xml")
        let updated = try run(update, [data + "/mime"])
        XCTAssertEqual(updated.status, 0, updated.stderr)
        for file in try writeSamples() {
            let query = try run(xdgMime, ["query", "filetype", file], environment: ["XDG_DATA_HOME": data])
            XCTAssertEqual(query.stdout.trimmingCharacters(in: .whitespacesAndNewlines), Self.mimeType, "\(file): \(query.stderr)")
        }
        // Not a kind of text/plain: text editors do not claim it.
        let subclasses = (try? String(contentsOfFile: data + "/mime/subclasses", encoding: .utf8)) ?? ""
        XCTAssertFalse(subclasses.contains(Self.mimeType), subclasses)
        // And without the package the same file is something else: the test can fail.
        let without = try run(xdgMime, ["query", "filetype", directory.file("friends.sysstats-bookmarks")],
                              environment: ["XDG_DATA_HOME": directory.file("empty")])
        XCTAssertNotEqual(without.stdout.trimmingCharacters(in: .whitespacesAndNewlines), Self.mimeType)
    }

    func testTheDesktopEntryValidatesAndOpensFilesOfOurTypeThroughImportInbox() throws {
        let validate = try tool("desktop-file-validate", package: "desktop-file-utils")
        let path = asset("sysstats-bookmarks-import.desktop")
        let result = try run(validate, [path])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(result.stdout + result.stderr, "")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(text.contains("\nExec=sysstats bookmarks import --inbox %f\n"))
        XCTAssertTrue(text.contains("\nMimeType=\(Self.mimeType);\n"))
        XCTAssertTrue(text.contains("\nTerminal=true\n"), "it asks before importing")
    }

    func testInstallScriptRegistersTheTypeAndTheEntryIdempotentlyAndUninstallRemovesThem() throws {
        _ = try tool("update-mime-database", package: "shared-mime-info")
        _ = try tool("update-desktop-database", package: "desktop-file-utils")
        let validate = try tool("desktop-file-validate", package: "desktop-file-utils")
        let xdgMime = try tool("xdg-mime", package: "xdg-utils")
        _ = try tool("mimetype", package: "libfile-mimeinfo-perl")
        for name in ["sysstatsd", "sysstatsd-history", "sysstats", "sysstats-bar", "sysstats-bar-x11"] {
            _ = try Programs.path(name)
        }
        let prefix = directory.file("prefix"), data = directory.file("data"), config = directory.file("config")
        let environment = ["PREFIX": prefix, "XDG_DATA_HOME": data, "XDG_CONFIG_HOME": config]
        let script = Programs.packageRoot.appendingPathComponent("install/install.sh").path
        let fm = FileManager.default
        let configFile = config + "/sysstats/config.toml"
        for round in 1...2 {
            let installed = try run("/bin/bash", [script, "--bin-dir", Programs.binDir.path], environment: environment)
            XCTAssertEqual(installed.status, 0, "round \(round): \(installed.stderr)")
            if round == 1 {
                // The commented defaults, the first time; a user's own file is never overwritten.
                let example = try String(contentsOf: Programs.packageRoot.appendingPathComponent("assets/config.toml"), encoding: .utf8)
                XCTAssertEqual(try String(contentsOfFile: configFile, encoding: .utf8), example)
                try "[[block]]\nblock = \"cpu\"\n".write(toFile: configFile, atomically: true, encoding: .utf8)
            }
        }
        XCTAssertEqual(try String(contentsOfFile: configFile, encoding: .utf8), "[[block]]\nblock = \"cpu\"\n", "kept")
        // The programs install/programs.sh names, the one list the scripts share.
        let list = try String(contentsOf: Programs.packageRoot.appendingPathComponent("install/programs.sh"), encoding: .utf8)
        let line = try XCTUnwrap(list.split(separator: "\n").first { $0.hasPrefix("programs=(") })
        let programs = Set(line.dropFirst("programs=(".count).dropLast().split(separator: " ").map(String.init))
        XCTAssertTrue(programs.isSuperset(of: ["sysstatsd", "sysstatsd-history", "sysstatsd-gpu", "sysstats", "sysstats-spawn", "sysstats-bar", "sysstats-bar-x11"]))
        XCTAssertEqual(Set(try fm.contentsOfDirectory(atPath: prefix + "/bin")), programs)
        XCTAssertTrue(fm.isExecutableFile(atPath: prefix + "/bin/sysstats"))
        for file in try writeSamples() {
            let query = try run(xdgMime, ["query", "filetype", file], environment: ["XDG_DATA_HOME": data])
            XCTAssertEqual(query.stdout.trimmingCharacters(in: .whitespacesAndNewlines), Self.mimeType, file)
        }
        let entry = data + "/applications/sysstats-bookmarks-import.desktop"
        let entryText = try String(contentsOfFile: entry, encoding: .utf8)
        XCTAssertTrue(entryText.contains("\nExec=\(prefix)/bin/sysstats bookmarks import --inbox %f\n"), entryText)
        XCTAssertEqual(try run(validate, [entry]).status, 0)
        let cache = try String(contentsOfFile: data + "/applications/mimeinfo.cache", encoding: .utf8)
        XCTAssertTrue(cache.contains("\(Self.mimeType)=sysstats-bookmarks-import.desktop;"), cache)
        let unit = try String(contentsOfFile: config + "/systemd/user/sysstatsd.service", encoding: .utf8)
        XCTAssertTrue(unit.contains("ExecStart=\(prefix)/bin/sysstatsd --data-dir \(data)/sysstats\n"), unit)

        let uninstall = Programs.packageRoot.appendingPathComponent("install/uninstall.sh").path
        XCTAssertEqual(try run("/bin/bash", [uninstall], environment: environment).status, 0)
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: prefix + "/bin"), [])
        XCTAssertFalse(fm.fileExists(atPath: entry))
        XCTAssertFalse(fm.fileExists(atPath: data + "/mime/packages/sysstats-bookmarks.xml"))
        let after = try run(xdgMime, ["query", "filetype", directory.file("no-extension")], environment: ["XDG_DATA_HOME": data])
        XCTAssertNotEqual(after.stdout.trimmingCharacters(in: .whitespacesAndNewlines), Self.mimeType)
    }
}
