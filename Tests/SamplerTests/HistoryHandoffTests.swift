import Foundation
import HistoryRecords
@testable import Sampler
import TestSupport
import XCTest

/// The hand-off's own reporting and the data directory's lock, with fake writer scripts.
final class HistoryHandoffTests: XCTestCase {
    var directory: TemporaryDirectory!
    var data: String { directory.file("data/sysstats") }
    override func setUpWithError() throws { directory = try TemporaryDirectory("handoff") }
    override func tearDownWithError() throws { directory = nil }

    /// A fake `sysstatsd-history`: reads the batch, records its arguments, runs `body`.
    func writer(_ body: String) throws -> String {
        let path = directory.file("fake-writer")
        let script = "#!/bin/sh\ncat > /dev/null\necho \"$@\" >> \"\(directory.file("arguments"))\"\n\(body)\n"
        try Data(script.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    let batch = HistoryBatch(bootID: "0f8c1a52-6d1e-4b7a-9c33-2e5f7d9a4b10", bootTime: 1_750_000_000, uptimeSeconds: 100,
                             nowSeconds: 1_750_000_100, samples: [], exits: [], endsCleanly: false)

    /// Sends one batch and reaps its writer (no time limit: the fake writers end at once).
    @discardableResult
    func sendAndWait(_ handoff: HistoryHandoff) -> pid_t? {
        let pid = handoff.send(batch)
        while handoff.hasRunningWriters { handoff.reap(); usleep(1000) }
        return pid
    }

    func testAFullDiskIsSaidOnceAsPausedAndOnceAsResumed() throws {
        // Full for the first three writers, then room again.
        let counter = directory.file("count")
        let handoff = HistoryHandoff(writerPath: try writer("""
            n=$(cat "\(counter)" 2>/dev/null || echo 0); echo $((n + 1)) > "\(counter)"
            [ "$n" -lt 3 ] && exit \(HistoryWriterStatus.noSpace)
            exit 0
            """), dataDirectory: data)
        var lines: [String] = []
        handoff.reportLine = { lines.append($0) }
        for _ in 0..<5 { XCTAssertNotNil(sendAndWait(handoff)) }
        XCTAssertEqual(lines, [
            "sysstatsd: history paused: no space left in \(data); its minutes are lost until there is room (tried again each minute)",
            "sysstatsd: history resumed: \(data) has room again",
        ])
        let arguments = try String(contentsOfFile: directory.file("arguments"), encoding: .utf8)
        XCTAssertEqual(arguments.split(separator: "\n").first.map(String.init), "--data-dir \(data) --quiet-when-full")
    }

    func testTheLastBatchOnAFullDiskSaysWhatWasDroppedAndWhy() throws {
        let handoff = HistoryHandoff(writerPath: try writer("exit \(HistoryWriterStatus.noSpace)"), dataDirectory: data)
        handoff.reportLine = { _ in }
        XCTAssertEqual(handoff.finish(batch, deadlineMs: 10_000),
                       "sysstatsd: history not written (no space left in \(data)): dropped 0 minute row(s) and 0 exit(s), and the boot is not marked clean")
    }

    func testTheFirstBatchCreatesTheDataDirectoryAndHoldsItsSharedLock() throws {
        let handoff = HistoryHandoff(writerPath: try writer("exit 0"), dataDirectory: data)
        var lines: [String] = []
        handoff.reportLine = { lines.append($0) }
        XCTAssertNotNil(sendAndWait(handoff))
        var info = stat()
        XCTAssertEqual(stat(data, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700)
        // What `sysstats restore` asks for is refused while the sampler runs.
        XCTAssertEqual(DataDirectoryLock.exclusive(data).map { _ in "locked" },
                       .failure(.inUse("\(data) is in use by a running sysstatsd (stop it first)")))
        XCTAssertEqual(lines, [])
        withExtendedLifetime(handoff) {}
    }

    func testWhileARestoreHoldsTheDataDirectoryBatchesAreDroppedSaidOnceAndHistoryResumesAfter() throws {
        let handoff = HistoryHandoff(writerPath: try writer("exit 0"), dataDirectory: data)
        var lines: [String] = []
        handoff.reportLine = { lines.append($0) }
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        var restore: DataDirectoryLock? = try DataDirectoryLock.exclusive(data).get()
        XCTAssertNil(sendAndWait(handoff))
        XCTAssertNil(sendAndWait(handoff))
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.file("arguments")), "no writer ran")
        restore = nil
        XCTAssertNotNil(sendAndWait(handoff))
        XCTAssertEqual(lines, [
            "sysstatsd: \(data) is being restored (sysstats restore holds it): history paused, trying again each minute",
            "sysstatsd: history resumed in \(data)",
        ])
        XCTAssertNil(restore)
    }
}
