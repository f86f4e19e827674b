import Foundation
import SnapshotCodec
import SysstatsCLI
import XCTest

final class ReportTests: XCTestCase {
    func testFreshSnapshotPrintsTheLineAndExitsZero() throws {
        let dir = try TemporaryDirectory()
        try dir.write(Samples.laptop)
        let out = Report.run(path: dir.file("snapshot"), json: false, nowMs: Samples.timestampMs + 1500)
        XCTAssertEqual(out, CommandOutput(stdout: [ReportLine.format(Samples.laptop)], stderr: [], status: 0))
    }

    func testMissingSnapshotExitsOneAndSaysHowToStartTheSampler() {
        let path = "/nonexistent-sysstats-test/snapshot"
        let out = Report.run(path: path, json: false, nowMs: Samples.timestampMs)
        XCTAssertEqual(out.status, 1)
        XCTAssertEqual(out.stdout, [])
        XCTAssertEqual(out.stderr, ["sysstats: no snapshot at \(path); start the sampler with `sysstatsd &` or `systemctl --user start sysstatsd` (a running sysstats-bar starts one itself)"])
    }

    func testGarbageSnapshotExitsOneWithTheDecodersMessage() throws {
        let dir = try TemporaryDirectory()
        try dir.write(Array("hello, this is not a snapshot at all, just text".utf8), to: "snapshot")
        let out = Report.run(path: dir.file("snapshot"), json: false, nowMs: Samples.timestampMs)
        XCTAssertEqual(out.status, 1)
        XCTAssertEqual(out.stdout, [])
        XCTAssertEqual(out.stderr, ["sysstats: corrupt snapshot at \(dir.file("snapshot")): "
                                    + "\(SnapshotDecodeError.badMagic.message)"])
    }

    func testSnapshotWithAFlippedBodyByteExitsOneWithTheChecksumMessage() throws {
        let dir = try TemporaryDirectory()
        var bytes: [UInt8] = []
        Samples.laptop.encode(into: &bytes)
        bytes[SnapshotFormat.headerLength + 3] ^= 0xFF
        try dir.write(bytes, to: "snapshot")
        let out = Report.run(path: dir.file("snapshot"), json: true, nowMs: Samples.timestampMs)
        XCTAssertEqual(out.status, 1)
        XCTAssertEqual(out.stderr, ["sysstats: corrupt snapshot at \(dir.file("snapshot")): "
                                    + "\(SnapshotDecodeError.badChecksum.message)"])
    }

    func testTruncatedSnapshotIsReportedAsTruncated() throws {
        let dir = try TemporaryDirectory()
        var bytes: [UInt8] = []
        Samples.laptop.encode(into: &bytes)
        try dir.write(Array(bytes.prefix(bytes.count - 10)), to: "snapshot")
        guard case .failure(let error) = SnapshotFile.read(path: dir.file("snapshot")) else {
            return XCTFail("a truncated snapshot decoded")
        }
        XCTAssertEqual(error.kind, .corrupt)
        XCTAssertTrue(error.message.hasSuffix("\(SnapshotDecodeError.truncated.message)"), error.message)
    }

    func testUnsupportedVersionMessageCarriesTheVersion() {
        XCTAssertEqual(SnapshotFile.describe(.unsupportedVersion(7)),
                       "\(SnapshotDecodeError.unsupportedVersion(7).message) 7 (this sysstats reads versions 1 to 3)")
    }

    func testStaleSnapshotStillPrintsButWarnsOnStderrWithItsAge() throws {
        let dir = try TemporaryDirectory()
        try dir.write(Samples.laptop)
        let out = Report.run(path: dir.file("snapshot"), json: false, nowMs: Samples.timestampMs + 42_000)
        XCTAssertEqual(out.status, 0)
        XCTAssertEqual(out.stdout, [ReportLine.format(Samples.laptop)])
        XCTAssertEqual(out.stderr, ["sysstats: snapshot at \(dir.file("snapshot")) is stale: taken 42 s ago "
                                    + "(sampler interval 1 s); is sysstatsd running?"])
    }

    func testStaleSnapshotInJSONSaysStaleTrue() throws {
        let out = Report.render(.success(Samples.laptop), path: "/x/snapshot", json: true,
                                nowMs: Samples.timestampMs + 60_000)
        XCTAssertEqual(out.status, 0)
        XCTAssertTrue(out.stdout.first?.contains("\"stale\":true") ?? false, "\(out.stdout)")
        XCTAssertEqual(out.stderr.count, 1)
    }

    func testStaleMeansOlderThanThreeIntervalsButNeverBeforeFiveSeconds() {
        var s = Samples.laptop
        s.intervalMs = 1000                     // 3 × 1 s < 5 s: the 5 s floor applies
        XCTAssertFalse(s.isStale(nowMs: s.timestampMs + 5000))
        XCTAssertTrue(s.isStale(nowMs: s.timestampMs + 5001))
        s.intervalMs = 10_000                   // 3 × 10 s
        XCTAssertFalse(s.isStale(nowMs: s.timestampMs + 30_000))
        XCTAssertTrue(s.isStale(nowMs: s.timestampMs + 30_001))
        XCTAssertFalse(s.isStale(nowMs: s.timestampMs - 99_000), "a timestamp in the future is not stale")
    }

    func testAgesAndIntervalsAreSaidInUnitsAPersonReads() {
        XCTAssertEqual(StalenessText.formatAge(ms: 400), "0.4 s")
        XCTAssertEqual(StalenessText.formatAge(ms: 42_000), "42 s")
        XCTAssertEqual(StalenessText.formatAge(ms: 185_000), "3 min 5 s")
        XCTAssertEqual(StalenessText.formatAge(ms: 7_800_000), "2 h 10 min")
        XCTAssertEqual(StalenessText.formatAge(ms: 3 * 86_400_000 + 4 * 3_600_000), "3 d 4 h")
        XCTAssertEqual(StalenessText.formatInterval(ms: 1000), "1 s")
        XCTAssertEqual(StalenessText.formatInterval(ms: 250), "0.25 s")
        XCTAssertEqual(StalenessText.formatInterval(ms: 2500), "2.5 s")
        XCTAssertEqual(StalenessText.formatInterval(ms: 50), "0.05 s")
    }

    func testWatchTextWaitsForAMissingSnapshotAndNotesStaleness() {
        let missing = SnapshotReadError(kind: .missing, message: SnapshotFile.missingMessage(path: "/x/snapshot"))
        XCTAssertEqual(Report.watchText(.failure(missing), nowMs: 0),
                       "waiting for a snapshot: no snapshot at /x/snapshot; start the sampler with `sysstatsd &` or `systemctl --user start sysstatsd` (a running sysstats-bar starts one itself)")
        XCTAssertEqual(Report.watchText(.success(Samples.laptop), nowMs: Samples.timestampMs + 1000),
                       ReportLine.format(Samples.laptop))
        XCTAssertEqual(Report.watchText(.success(Samples.laptop), nowMs: Samples.timestampMs + 42_000),
                       "cpu 23% | mem 112M/503M | load 1.23 0.45 0.07 | bat 85% - [stale: 42 s old]",
                       "the note within the width too: a part left out for it")
    }
}

extension ReportTests {
    func testUnmeasuredPartsReadNAInTheLineAndNullInJSONWithTheirNames() throws {
        var s = Samples.laptop
        s.available.subtract([.memory, .cpu, .battery])
        let line = ReportLine.format(s)
        XCTAssertTrue(line.hasPrefix("cpu n/a | mem n/a | load "), line)
        XCTAssertFalse(line.contains("bat"), "a battery not measured is left out, as one the machine lacks: \(line)")
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(ReportJSON.format(s, stale: false).utf8)) as? [String: Any])
        XCTAssertTrue(json["cpu_percent"] is NSNull)
        XCTAssertTrue(json["memory_mib"] is NSNull)
        XCTAssertTrue(json["swap"] is NSNull)
        XCTAssertEqual(json["unavailable"] as? [String], ["cpu", "memory", "battery", "network", "disks", "disk_io", "temperatures", "cpu_mhz", "gpus", "fans", "power",
                                                          "backlight", "volume", "microphone", "media", "units"])
        XCTAssertNotNil(json["load"] as? [Double])
    }
}
