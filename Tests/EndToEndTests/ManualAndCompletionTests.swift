import Foundation
import TestSupport
import XCTest

/// The manual pages and the bash, zsh and fish completions: sysstats's page covers every
/// command and option the program has, every page renders without a warning (the config
/// file's, sysstats-config(5), too), and install/install.sh installs pages, completions and
/// the documentation where `man`, each shell and a reader find them (uninstall removes them).
/// Needs man-db, and bash-completion, zsh and fish for their shells' checks (install/deps.sh
/// installs them).
final class ManualAndCompletionTests: XCTestCase {
    var directory: TemporaryDirectory!
    override func setUpWithError() throws { directory = try TemporaryDirectory("manual") }
    override func tearDownWithError() throws { directory = nil }

    /// Every page in assets/man and its section: the programs' in 1, the config file's and the
    /// budgets file's in 5.
    let pages: [(name: String, section: Int)] = [("sysstats", 1), ("sysstatsd", 1), ("sysstats-bar", 1), ("sysstats-config", 5), ("sysstats-budget", 5)]
    func page(_ name: String, section: Int = 1) -> String {
        Programs.packageRoot.appendingPathComponent("assets/man/\(name).\(section)").path
    }

    func tool(_ name: String, package: String) throws -> String {
        for dir in ["/usr/bin", "/bin", "/usr/local/bin"] where FileManager.default.isExecutableFile(atPath: dir + "/" + name) {
            return dir + "/" + name
        }
        throw XCTSkip("\(name) is not installed (package \(package); install/deps.sh installs it)")
    }

    /// Every command name and every long option of `sysstats`, from its own help dump.
    func commandsAndOptions() throws -> (commands: Set<String>, options: Set<String>) {
        let dump = try Programs.capture(try Programs.path("sysstats"), ["--experimental-dump-help"])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        var commands = Set<String>(), options = Set<String>()
        func walk(_ command: [String: Any]) {
            if let name = command["commandName"] as? String { commands.insert(name) }
            for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["shouldDisplay"] as? Bool ?? true {
                for name in argument["names"] as? [[String: Any]] ?? [] where name["kind"] as? String == "long" {
                    if let n = name["name"] as? String { options.insert(n) }
                }
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] { walk(sub) }
        }
        walk(try XCTUnwrap(json["command"] as? [String: Any]))
        return (commands, options)
    }

    func testTheSysstatsManualPageHasEveryCommandAndOptionTheProgramHas() throws {
        let text = try String(contentsOfFile: page("sysstats"), encoding: .utf8)
        let (commands, options) = try commandsAndOptions()
        XCTAssertTrue(commands.contains("top") && options.contains("exited"), "the dump: \(commands) \(options)")
        for command in commands.subtracting(["sysstats", "help"]) {
            XCTAssertTrue(text.contains(".It Em \(command)\n"), "\(command) is missing: run scripts/generate-manual.sh")
        }
        for option in options {
            XCTAssertTrue(text.contains("Fl -\(option)"), "--\(option) is missing: run scripts/generate-manual.sh")
        }
    }

    func testEveryManualPageRendersWithoutAWarning() throws {
        let man = try tool("man", package: "man-db")
        for (name, section) in pages {
            let out = try Programs.capture(man, ["--warnings", "-l", page(name, section: section)], environment: ["MANWIDTH": "80"])
            XCTAssertEqual(out.status, 0, name + ": " + out.stderr)
            XCTAssertEqual(out.stderr, "", name)
            XCTAssertTrue(out.stdout.contains("NAME"), name)
        }
    }

    func testInstallPutsPagesCompletionsAndDocsWhereManTheShellsAndReadersFindThemAndUninstallRemovesThem() throws {
        let man = try tool("man", package: "man-db")
        let prefix = directory.file("prefix"), data = directory.file("data"), config = directory.file("config")
        let environment = ["PREFIX": prefix, "XDG_DATA_HOME": data, "XDG_CONFIG_HOME": config]
        let script = Programs.packageRoot.appendingPathComponent("install/install.sh").path
        let installed = try Programs.capture("/bin/bash", [script, "--bin-dir", Programs.binDir.path], environment: environment)
        XCTAssertEqual(installed.status, 0, installed.stderr)
        for (name, section) in pages {
            let found = try Programs.capture(man, ["-w", String(section), name], environment: ["MANPATH": prefix + "/share/man"])
            XCTAssertEqual(found.stdout, "\(prefix)/share/man/man\(section)/\(name).\(section)\n", name + found.stderr)
        }
        // The documentation the pages name, laid out as the .deb's: README.md, CHANGELOG.md, docs/.
        let doc = prefix + "/share/doc/sysstats"
        let sourceDocs = try FileManager.default.contentsOfDirectory(atPath: Programs.packageRoot.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted()
        XCTAssertTrue(sourceDocs.contains("configuration.md") && sourceDocs.contains("renderer.md"), "\(sourceDocs)")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: doc + "/docs").sorted(), sourceDocs)
        for file in ["README.md", "CHANGELOG.md"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: doc + "/" + file), file)
        }

        // bash: each function completes what it should (bash-completion calls it this way).
        let bashDir = data + "/bash-completion/completions"
        func bash(_ program: String, _ words: [String]) throws -> String {
            let line = words.joined(separator: " ")
            let function = "_" + program.replacingOccurrences(of: "-", with: "_")
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let command = """
                source '\(bashDir)/\(program)'
                COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
                \(function) '\(program)' '\(words.last!)' '\(words[words.count - 2])' 2>/dev/null
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            return try Programs.capture("/bin/bash", ["-c", command]).stdout
        }
        XCTAssertEqual(try bash("sysstats", ["sysstats", "rep"]), "report\n")
        XCTAssertEqual(try bash("sysstats", ["sysstats", "top", "--so"]), "--sort\n")
        XCTAssertEqual(try bash("sysstats-bar", ["sysstats-bar", "--output", "i"]), "i3bar\n")
        XCTAssertEqual(try bash("sysstats-bar", ["sysstats-bar", "--blocks", "cpu,mic"]), "cpu,microphone\n")
        XCTAssertEqual(try bash("sysstatsd", ["sysstatsd", "--no-h"]), "--no-history\n")

        // fish: `complete -C` over the installed files.
        let fishDir = data + "/fish/vendor_completions.d"
        if let fish = try? tool("fish", package: "fish") {
            for (program, line, expected) in [("sysstats", "sysstats rep", "report"), ("sysstats-bar", "sysstats-bar --output i", "i3bar"),
                                              ("sysstatsd", "sysstatsd --no-h", "--no-history")] {
                let out = try Programs.capture(fish, ["--no-config", "-c", "source '\(fishDir)/\(program).fish'; complete -C '\(line)'"])
                XCTAssertEqual(out.stdout.split(separator: "\t").first.map(String.init), expected, program + out.stderr)
            }
        }
        // zsh: compinit finds each function for its program.
        let zshDir = prefix + "/share/zsh/site-functions"
        if let zsh = try? tool("zsh", package: "zsh") {
            let out = try Programs.capture(zsh, ["-f", "-c", """
                fpath=('\(zshDir)' $fpath); autoload -Uz compinit; compinit -u -d '\(directory.file("zcompdump"))'
                print -r -- $_comps[sysstats] $_comps[sysstats-bar] $_comps[sysstatsd]
                """])
            XCTAssertEqual(out.stdout, "_sysstats _sysstats-bar _sysstatsd\n", out.stderr)
            for program in ["_sysstats", "_sysstats-bar", "_sysstatsd"] {
                XCTAssertEqual(try Programs.capture(zsh, ["-n", zshDir + "/" + program]).status, 0, program)
            }
        }

        let uninstall = Programs.packageRoot.appendingPathComponent("install/uninstall.sh").path
        XCTAssertEqual(try Programs.capture("/bin/bash", [uninstall], environment: environment).status, 0)
        let fm = FileManager.default
        for dir in [prefix + "/share/man/man1", prefix + "/share/man/man5", bashDir, zshDir, fishDir] {
            XCTAssertEqual(try fm.contentsOfDirectory(atPath: dir), [], dir)
        }
        XCTAssertFalse(fm.fileExists(atPath: doc), "uninstall removes \(doc)")
    }
}
