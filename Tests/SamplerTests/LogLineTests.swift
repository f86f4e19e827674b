import Foundation
import CSamplerSys
import Sampler
import TestSupport
import XCTest

/// The sampler's log lines (its stderr, RUNTIME-DIR/sysstatsd.log when a bar started it) start
/// with the local time in ISO 8601 with the offset from UTC: eight `settings changed …;
/// starting again` lines without one could not be placed (issue 58).
final class LogLineTests: XCTestCase {
    var savedZone: String?

    override func setUp() {
        savedZone = getenv("TZ").map { String(cString: $0) }
    }

    override func tearDown() {
        if let savedZone { setenv("TZ", savedZone, 1) } else { unsetenv("TZ") }
        tzset()
    }

    /// Sets the zone the way a user's TZ does (a POSIX rule: no zone file needed).
    func useZone(_ zone: String) {
        setenv("TZ", zone, 1)
        tzset()
    }

    /// What `LogLine.write` writes, read back from a pipe.
    func written(_ message: String, seconds: Int64? = nil) throws -> String {
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        LogLine.write(message, to: ends[1], seconds: seconds)
        close(ends[1])
        let data = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true).readDataToEndOfFile()
        return String(decoding: data, as: UTF8.self)
    }

    static let message = "sysstatsd: the [sampler] settings changed (config.toml); starting again with them"

    func testALineStartsWithTheLocalTimeAndItsOffsetWrittenAsISO8601() throws {
        useZone("CET-1CEST,M3.5.0,M10.5.0/3")
        // 2026-11-29 06:03:12 UTC, in winter time; then 2026-07-01 10:00:00 UTC, in summer time.
        XCTAssertEqual(try written(Self.message, seconds: 1_795_932_192), "2026-11-29T07:03:12+01:00 \(Self.message)\n")
        XCTAssertEqual(try written(Self.message, seconds: 1_782_900_000), "2026-07-01T12:00:00+02:00 \(Self.message)\n")
    }

    func testAZoneWestOfUTCWithHalfHoursAndUTCItselfKeepTheColonInTheOffset() throws {
        useZone("NST3:30NDT,M3.2.0,M11.1.0")
        XCTAssertEqual(try written("sysstatsd: x", seconds: 1_768_478_400), "2026-01-15T08:30:00-03:30 sysstatsd: x\n")
        useZone("UTC0")
        XCTAssertEqual(try written("sysstatsd: x", seconds: 1_795_932_192), "2026-11-29T06:03:12+00:00 sysstatsd: x\n")
    }

    /// Without a time given, the line carries now: the shape, and an instant within seconds.
    func testALineWrittenNowCarriesTheTimeItWasWritten() throws {
        useZone("CET-1CEST,M3.5.0,M10.5.0/3")
        let before = Date()
        let line = try written(Self.message)
        let shape = try NSRegularExpression(pattern: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2} "#)
        XCTAssertNotNil(shape.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)), line)
        XCTAssertTrue(line.hasSuffix(" " + Self.message + "\n"), line)
        let stamp = try XCTUnwrap(ISO8601DateFormatter().date(from: String(line.prefix(25))), line)
        XCTAssertLessThan(abs(stamp.timeIntervalSince(before)), 5, line)
    }
}

extension LogLineTests {
    /// A person reading a terminal, and systemd's journal (which stamps each line itself), get
    /// no time; a file or a pipe does. The journal's stream is the one JOURNAL_STREAM names.
    func testATerminalAndTheJournalTakeNoTimeAFileDoes() throws {
        let folder = try TemporaryDirectory()
        let file = folder.file("log")
        let fd = open(file, O_WRONLY | O_CREAT, 0o600)
        defer { close(fd) }
        var info = stat()
        XCTAssertEqual(fstat(fd, &info), 0)
        let saved = getenv("JOURNAL_STREAM").map { String(cString: $0) }
        defer { if let saved { setenv("JOURNAL_STREAM", saved, 1) } else { unsetenv("JOURNAL_STREAM") } }
        unsetenv("JOURNAL_STREAM")
        XCTAssertEqual(csamplersys_log_wants_time(fd), 1, "a file")
        setenv("JOURNAL_STREAM", "\(info.st_dev):\(info.st_ino)", 1)
        XCTAssertEqual(csamplersys_log_wants_time(fd), 0, "the journal's own stream")
        setenv("JOURNAL_STREAM", "\(info.st_dev):\(info.st_ino + 1)", 1)
        XCTAssertEqual(csamplersys_log_wants_time(fd), 1, "a stream that is not the journal's")
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw XCTSkip("no pseudo-terminal") }
        defer { close(master) }
        var unlock: Int32 = 0, number: UInt32 = 0
        XCTAssertEqual(ioctl(master, UInt(0x4004_5431) /* TIOCSPTLCK */, &unlock), 0)
        XCTAssertEqual(ioctl(master, UInt(0x8004_5430) /* TIOCGPTN */, &number), 0)
        let terminal = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        defer { close(terminal) }
        XCTAssertEqual(csamplersys_log_wants_time(terminal), 0, "a terminal")
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        LogLine.write("sysstatsd: x", to: ends[1], stamped: false)
        close(ends[1])
        var bytes = [UInt8](repeating: 0, count: 64)
        let n = read(ends[0], &bytes, 64)
        close(ends[0])
        XCTAssertEqual(String(decoding: bytes[0..<max(n, 0)], as: UTF8.self), "sysstatsd: x\n", "unstamped: the line alone")
    }
}
