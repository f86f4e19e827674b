import Foundation
import SnapshotCodec
import TestSupport
import XCTest

/// Paths that are not UTF-8 (a folder named with byte 0xFF or a Latin-1 é, legal on Linux),
/// given on the command line or in the environment, reach the system calls byte for byte in
/// all three programs (issue 59, defect 9). Before, each became a String on the way, which
/// repaired the byte into U+FFFD: `HOME=…/jos\xe9` made the sampler fill `…/jos\u{FFFD}`
/// beside the real folder, and a non-UTF-8 `--runtime-dir` stopped it at start.
///
/// Foundation's Process takes Strings, so each test is a shell script that makes the names
/// with printf's octal escapes and runs the release programs with them.
final class NonUTF8PathTests: XCTestCase {
    var directory: TemporaryDirectory!
    let tree = Fixtures.root.appendingPathComponent("sampler-desktop/2")

    override func setUpWithError() throws { directory = try TemporaryDirectory("non-utf8") }
    override func tearDownWithError() throws {
        // FileManager cannot name what is inside to remove it: rm takes bytes.
        _ = try? Programs.run("/bin/rm", ["-rf", directory.path])
        directory = nil
    }

    /// Runs `script` under /bin/sh with $1 the test's folder, $2 sysstatsd, $3 sysstats-bar,
    /// $4 sysstats, $5 the fixture tree.
    func shell(_ script: String, timeout: TimeInterval = 30) throws -> Programs.Output {
        try Programs.run("/bin/sh", ["-c", "set -u\n" + script, "sh", directory.path, try Programs.path("sysstatsd"),
                                     try Programs.path("sysstats-bar"), try Programs.path("sysstats"), tree.path],
                         timeout: timeout)
    }

    func testARuntimeDirectoryNamedWith0xFFIsWrittenByTheSamplerAndReadThereByTheBarAndTheCLI() throws {
        let out = try shell(#"""
            d=$(printf '%s/run\377' "$1")
            "$2" --once --no-history --interval 0.1 --runtime-dir "$d" --proc-root "$5/proc" --sys-root "$5/sys" || echo "sysstatsd: status $?"
            [ -f "$d/snapshot" ] && echo "snapshot in the folder named"
            [ -e "$1/run$(printf '\357\277\275')" ] && echo "a repaired folder made"
            "$3" --once --config /dev/null --blocks load,procs --runtime-dir "$d" || echo "sysstats-bar: status $?"
            "$4" report --runtime-dir "$d" || echo "report: status $?"
            "$4" report --runtime-dir="$d" --json >/dev/null || echo "report --runtime-dir=: status $?"
            """#)
        let lines = out.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "snapshot in the folder named", "\(out.stdout)\n\(out.stderr)")
        XCTAssertEqual(lines.count, 3, "no status line, no repaired folder: \(out.stdout)\n\(out.stderr)")
        XCTAssertTrue(lines.dropFirst().first?.hasPrefix("load ") == true, "the bar read the snapshot there: \(out.stdout)")
        XCTAssertTrue(lines.dropFirst().first?.contains("| procs ") == true, out.stdout)
        XCTAssertFalse(lines.last?.contains("stopped") ?? true, "the report read the snapshot there: \(out.stdout)")
        XCTAssertEqual(out.stderr, "")
    }

    func testAConfigFileNamedWith0xFFIsTheOneTheSamplerTheBarAndConfigCheckRead() throws {
        let out = try shell(#"""
            c=$(printf '%s/conf\377.toml' "$1")
            printf '[sampler]\ninterval = 0.25\n\n[[block]]\nblock = "procs"\n' > "$c"
            "$2" --once --no-history --config "$c" --runtime-dir "$1/run" --proc-root "$5/proc" --sys-root "$5/sys" || echo "sysstatsd: status $?"
            cp "$1/run/snapshot" "$1/copy.snapshot"
            "$3" --once --config "$c" --runtime-dir "$1/run" || echo "sysstats-bar: status $?"
            "$4" config check "$c" || echo "config check: status $?"
            """#)
        let lines = out.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, "\(out.stdout)\n\(out.stderr)")
        XCTAssertTrue(lines.first?.hasPrefix("procs ") == true, "the bar's blocks come from the file: \(out.stdout)")
        XCTAssertEqual(lines.last, directory.path + "/conf\\xff.toml: ok", "found, and its name shown escaped")
        let bytes = [UInt8](try Data(contentsOf: directory.url.appendingPathComponent("copy.snapshot")))
        let snapshot = try bytes.withUnsafeBytes { try Snapshot.decode($0) }
        XCTAssertEqual(snapshot.intervalMs, 250, "the sampler read [sampler] from the file named")
        XCTAssertEqual(out.stderr, "")
    }

    func testAHomeNamedInLatin1KeepsHistoryThereAndTheCLIReadsIt() throws {
        let out = try shell(#"""
            h=$(printf '%s/jos\351' "$1")
            mkdir "$h"
            unset XDG_DATA_HOME
            HOME="$h" "$2" --interval 0.1 --runtime-dir "$1/run" --proc-root "$5/proc" --sys-root "$5/sys" &
            pid=$!
            i=0
            while [ $i -lt 100 ] && [ ! -s "$h/.local/share/sysstats/history.sqlite" ]; do sleep 0.1; i=$((i + 1)); done
            kill $pid
            wait $pid || echo "sysstatsd: status $?"
            [ -s "$h/.local/share/sysstats/history.sqlite" ] && echo "history in the home named"
            [ -e "$1/jos$(printf '\357\277\275')" ] && echo "a repaired home made"
            HOME="$h" "$4" reboots --json || echo "reboots: status $?"
            """#)
        XCTAssertTrue(out.stdout.hasPrefix("history in the home named\n"), "\(out.stdout)\n\(out.stderr)")
        XCTAssertFalse(out.stdout.contains("repaired"), out.stdout)
        XCTAssertFalse(out.stdout.contains("status"), "\(out.stdout)\n\(out.stderr)")
        XCTAssertTrue(out.stdout.contains("0f8c1a52-6d1e-4b7a-9c33-2e5f7d9a4b10"), "the CLI found the database: \(out.stdout)")
    }

    func testAMessageShowsTheFolderByItsBytesEscaped() throws {
        let out = try shell(#"""
            d=$(printf '%s/none\377/run' "$1")
            "$2" --once --no-history --runtime-dir "$d" --proc-root "$5/proc" --sys-root "$5/sys"
            echo "status $?"
            """#)
        XCTAssertEqual(out.stdout, "status 1\n")
        XCTAssertTrue(out.stderr.contains("runtime directory \(directory.path)/none\\xff/run cannot create it"), out.stderr)
    }
}
