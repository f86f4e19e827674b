import ProcFS
import XCTest
@testable import Sampler

final class SamplerOptionsTests: XCTestCase {
    func config(_ args: [String]) throws -> SamplerConfiguration {
        guard case .success(.run(let c)) = SamplerOptions.parse(args) else {
            XCTFail("expected a configuration for \(args)"); return SamplerConfiguration()
        }
        return c
    }

    func error(_ args: [String]) -> String? {
        if case .failure(let e) = SamplerOptions.parse(args) { return e.description }
        return nil
    }

    func testDefaultsAreOneSecondAndRealRoots() throws {
        let c = try config([])
        XCTAssertEqual(c.intervalMs, 1000)
        XCTAssertEqual(c.procRoot, "/proc")
        XCTAssertEqual(c.sysRoot, "/sys")
        XCTAssertNil(c.runtimeDirectory)
        XCTAssertFalse(c.once)
    }

    func testFractionalIntervalsAndBothFlagSpellings() throws {
        XCTAssertEqual(try config(["--interval", "0.25"]).intervalMs, 250)
        XCTAssertEqual(try config(["--interval=2.5"]).intervalMs, 2500)
        XCTAssertEqual(try config(["--interval", ".5"]).intervalMs, 500)
        XCTAssertEqual(try config(["--interval", "3"]).intervalMs, 3000)
        let c = try config(["--once", "--proc-root", "/tmp/p", "--sys-root=/tmp/s", "--runtime-dir", "/tmp/r"])
        XCTAssertTrue(c.once)
        XCTAssertEqual([c.procRoot, c.sysRoot, c.runtimeDirectory], ["/tmp/p", "/tmp/s", "/tmp/r"])
    }

    func testIntervalEdgesFractionDigitsPastMillisecondsAndNonASCIIDigits() throws {
        XCTAssertEqual(try config(["--interval", "5."]).intervalMs, 5000)
        XCTAssertEqual(try config(["--interval", "1.2345"]).intervalMs, 1234, "digits past the millisecond are ignored")
        XCTAssertEqual(try config(["--interval", "0.05"]).intervalMs, 50)
        XCTAssertEqual(try config(["--interval", "3600"]).intervalMs, 3_600_000)
        for bad in ["3600.001", "0.049", "\u{663}", "1\u{FF11}", " 1", "1 ", "..5"] {
            XCTAssertEqual(error(["--interval", bad]),
                           "--interval takes seconds between 0.05 and 3600 (e.g. 1 or 0.25), not '\(bad)'", bad)
        }
    }

    func testBadIntervalsAreRefusedWithOneLine() {
        for bad in ["0", "0.01", "-1", "abc", "1e3", "", ".", "1.2.3", "99999", "1,5"] {
            let message = error(["--interval", bad])
            XCTAssertNotNil(message, bad)
            XCTAssertFalse(message?.contains("\n") ?? true)
        }
    }

    func testUnknownFlagAndMissingValueAreRefused() {
        XCTAssertEqual(error(["--bogus"]), "unknown option '--bogus' (see sysstatsd --help)")
        XCTAssertEqual(error(["--interval"]), "--interval needs a value")
        XCTAssertEqual(error(["--proc-root", ""]), "--proc-root needs a directory")
    }

    func testFreedThresholdIsInMiB() throws {
        XCTAssertEqual(try config(["--freed-threshold", "16"]).freedThresholdKiB, 16 * 1024)
        XCTAssertNotNil(error(["--freed-threshold", "lots"]))
    }

    func testHelpAndVersion() {
        XCTAssertEqual(try SamplerOptions.parse(["--help"]).get(), .help)
        XCTAssertEqual(try SamplerOptions.parse(["-h"]).get(), .help)
        XCTAssertEqual(try SamplerOptions.parse(["--version"]).get(), .version)
    }
}

extension SamplerOptionsTests {
    func testHistoryIsOnByDefaultWithATwoSecondShutdownDeadline() throws {
        let c = try config([])
        XCTAssertTrue(c.history)
        XCTAssertNil(c.dataDirectory)
        XCTAssertEqual(c.shutdownDeadlineMs, 2000)
    }

    func testDataDirAndNoHistoryFlags() throws {
        XCTAssertEqual(try config(["--data-dir", "/tmp/d"]).dataDirectory, "/tmp/d")
        XCTAssertEqual(try config(["--data-dir=/tmp/e"]).dataDirectory, "/tmp/e")
        XCTAssertFalse(try config(["--no-history"]).history)
        XCTAssertEqual(error(["--data-dir", ""]), "--data-dir needs a directory")
        XCTAssertEqual(error(["--data-dir"]), "--data-dir needs a value")
        XCTAssertTrue(SamplerOptions.usage.contains("--no-history"))
    }

    func testTextfileDirTurnsTheExportOnEveryFifteenSecondsByDefault() throws {
        let off = try config([])
        XCTAssertNil(off.textfileDirectory)
        XCTAssertEqual(off.textfileIntervalSeconds, 15)
        XCTAssertEqual(try config(["--textfile-dir", "/tmp/tf"]).textfileDirectory, "/tmp/tf")
        XCTAssertEqual(try config(["--textfile-dir=/tmp/tf", "--textfile-interval=60"]).textfileIntervalSeconds, 60)
        XCTAssertEqual(error(["--textfile-dir", ""]), "--textfile-dir needs a directory")
        for bad in ["0", "3601", "1.5", "x", ""] {
            XCTAssertEqual(error(["--textfile-interval", bad]), "--textfile-interval takes whole seconds from 1 to 3600, not '\(bad)'")
        }
        XCTAssertTrue(SamplerOptions.usage.contains("--textfile-dir DIR"))
    }
}

extension SamplerOptionsTests {
    /// The two whole-seconds flags share one check: 1 to 3600, the flag named in the error.
    func testWholeSecondsFlagsTakeOneTo3600AndNameThemselves() throws {
        guard case .run(let c) = try SamplerOptions.parse(["--exit-when-unwatched", "60", "--textfile-interval=30"]).get() else {
            return XCTFail("not a run")
        }
        XCTAssertEqual(c.exitWhenUnwatchedSeconds, 60)
        XCTAssertEqual(c.textfileIntervalSeconds, 30)
        for flag in ["--exit-when-unwatched", "--textfile-interval"] {
            for bad in ["0", "3601", "1.5", "x"] {
                guard case .failure(let e) = SamplerOptions.parse([flag, bad]) else { XCTFail("\(flag) \(bad) accepted"); continue }
                XCTAssertEqual("\(e)", "\(flag) takes whole seconds from 1 to 3600, not '\(bad)'")
            }
        }
    }
}

extension SamplerOptionsTests {
    /// What the user typed comes back escaped (issue 59): an ESC in an unknown option, or in a
    /// refused value, reached the terminal raw and was obeyed there.
    func testAnUnknownOptionAndARefusedValueAreEchoedEscapedNotRaw() {
        guard case .failure(let e) = SamplerOptions.parse(bytes: [[0x2D, 0x2D, 0x1B, 0x5B, 0x32, 0x4A, 0xFF]]) else {
            return XCTFail("an unknown option was accepted")
        }
        XCTAssertEqual(e.description, "unknown option '--\\x1b[2J\\xff' (see sysstatsd --help)")
        XCTAssertEqual(error(["--interval", "1\u{1B}]0;owned\u{07}"]),
                       "--interval takes seconds between 0.05 and 3600 (e.g. 1 or 0.25), not '1\\x1b]0;owned\\x07'")
        XCTAssertEqual(error(["--freed-threshold", "\u{07}"]), "--freed-threshold takes whole MiB (0 to 1048576), not '\\x07'")
        XCTAssertEqual(error(["--disk", "a\u{9B}"]), "--disk takes an absolute path of at most 64 bytes, not 'a\\u{9b}'")
        XCTAssertEqual(error(["--net", "\u{1B}[2J" + String(repeating: "x", count: 16)]),
                       "--net takes an interface name (at most 15 bytes, no '/'), not '\\x1b[2J\(String(repeating: "x", count: 16))'")
        XCTAssertEqual(error(["--exit-when-unwatched", "\u{1B}"]), "--exit-when-unwatched takes whole seconds from 1 to 3600, not '\\x1b'")
    }

    func testPathsThatAreNotUTF8ReachTheSystemCallByteForByte() throws {
        // Repaired into U+FFFD on the way, --runtime-dir /tmp/r\xff was refused ("cannot create
        // it") or named a folder of the sampler's own making (issue 59, defect 9).
        let runtime: [UInt8] = Array("/tmp/r".utf8) + [0xFF]
        let data: [UInt8] = Array("/home/jos".utf8) + [0xE9]
        let arguments: [[UInt8]] = [Array("--runtime-dir".utf8), runtime, Array("--data-dir=".utf8) + data,
                         Array("--proc-root".utf8), [0x2F, 0x80]]
        guard case .success(.run(let c)) = SamplerOptions.parse(bytes: arguments) else { return XCTFail("parsed") }
        func bytes(_ path: String?) -> [UInt8] { cPath(path ?? "").dropLast().map { UInt8(bitPattern: $0) } }
        XCTAssertEqual(bytes(c.runtimeDirectory), runtime)
        XCTAssertEqual(bytes(c.dataDirectory), data)
        XCTAssertEqual(bytes(c.procRoot), [0x2F, 0x80])
        XCTAssertEqual(bytes(RuntimeDirectory.snapshotPath(in: c.runtimeDirectory!)), runtime + Array("/snapshot".utf8))
    }

    func testAnIntervalThatIsNotUTF8IsShownByItsBytes() {
        guard case .failure(let e) = SamplerOptions.parse(bytes: [Array("--interval".utf8), [0x31, 0xFF]]) else { return XCTFail("refused") }
        XCTAssertEqual(e.description, "--interval takes seconds between 0.05 and 3600 (e.g. 1 or 0.25), not '1\\xff'")
    }
}
