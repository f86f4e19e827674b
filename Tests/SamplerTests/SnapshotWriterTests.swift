import Foundation
import SnapshotCodec
import XCTest
@testable import Sampler

final class SnapshotWriterTests: XCTestCase {
    func testEachWriteExchangesTwoPrivateFilesSoNoInodeIsMadeInSteadyState() throws {
        let dir = temporaryRuntimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let writer = SnapshotWriter(directory: try RuntimeDirectory.openForSampler(dir).get())
        var s = Snapshot()
        var inodes = Set<UInt64>()
        for sequence in 1...6 as ClosedRange<UInt64> {
            s.sequence = sequence
            try writer.write(s).get()
            XCTAssertEqual(try decodeFile(dir + "/snapshot").sequence, sequence)
            if sequence >= 2 {
                // The spare is the snapshot before: a reader that opened it a moment ago reads it whole.
                XCTAssertEqual(try decodeFile(dir + "/.snapshot.tmp").sequence, sequence - 1)
                inodes.insert(inode(dir + "/snapshot"))
            }
        }
        XCTAssertEqual(inodes.count, 2, "from the second write on, the same two files take turns")
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: dir)), ["snapshot", ".snapshot.tmp"])
        for name in ["snapshot", ".snapshot.tmp"] {
            let mode = try FileManager.default.attributesOfItem(atPath: dir + "/" + name)[.posixPermissions] as? Int
            XCTAssertEqual(mode, 0o600, name)
        }
    }

    func testAShorterSnapshotLeavesNoTailOfTheLongerOneBefore() throws {
        let dir = temporaryRuntimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let writer = SnapshotWriter(directory: try RuntimeDirectory.openForSampler(dir).get())
        var long = Snapshot()
        long.topCPU = (0..<5).map { ProcessEntry(pid: UInt32($0), cpu: 1, privateKiB: 1, name: Array("a-rather-long-process-name".utf8)) }
        let short = Snapshot()
        for (i, s) in [long, long, long, short, short, long, short].enumerated() {
            var s = s
            s.sequence = UInt64(i + 1)
            try writer.write(s).get()
            var bytes: [UInt8] = []
            s.encode(into: &bytes)
            let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/snapshot")))
            XCTAssertEqual(file, bytes, "write \(i + 1): the file is exactly the encoding")
        }
        XCTAssertEqual(writer.mappedWrites, 5, "from the third write on, a copy into the spare's mapping")
    }

    /// A file cut short behind the writer's back (a same-user `: > snapshot`): the copy into
    /// its mapping faults, the SIGBUS is caught rather than ending the sampler, nothing half
    /// written is published, and the two files are made afresh.
    func testAFileCutShortBehindItsBackIsCaughtAndMadeAgainNotACrash() throws {
        for name in [".snapshot.tmp", "snapshot"] {
            // The same length each time: no ftruncate before the copy.
            let publisher = try Publisher()
            let writer = publisher.writer
            func write() throws { try publisher.write(name) }
            for _ in 0..<4 { try write() }
            XCTAssertEqual(writer.mappedWrites, 2)
            // Cut through a descriptor of our own, kept to see the file's fate.
            let cut = open(publisher.dir + "/" + name, O_WRONLY | O_TRUNC | O_NOFOLLOW)
            XCTAssertGreaterThanOrEqual(cut, 0)
            defer { close(cut) }
            // The spare is written next, `snapshot` after one more exchange: within three
            // writes the cut file faults, and every write still publishes a whole snapshot.
            for _ in 0..<3 { try write() }
            var info = stat()
            XCTAssertEqual(fstat(cut, &info), 0)
            XCTAssertEqual(info.st_nlink, 0, "\(name): the cut file was replaced, never published")
            let mapped = writer.mappedWrites
            for _ in 0..<3 { try write() }
            XCTAssertEqual(writer.mappedWrites, mapped + 3, "\(name): the new files are mapped in turn")
        }
    }

    func testASnapshotReplacedOrASpareRemovedBehindItsBackNeverPublishesAForeignFile() throws {
        let publisher = try Publisher()
        let dir = publisher.dir
        func write() throws { try publisher.write() }
        for _ in 0..<3 { try write() }
        // Someone renames another file over the snapshot (a test harness, a user's script).
        try Data("foreign".utf8).write(to: URL(fileURLWithPath: dir + "/other"))
        XCTAssertEqual(rename(dir + "/other", dir + "/snapshot"), 0)
        for _ in 0..<4 { try write() }
        // Someone removes the spare, then puts a file of theirs under its name.
        XCTAssertEqual(unlink(dir + "/.snapshot.tmp"), 0)
        try write()
        try Data("foreign".utf8).write(to: URL(fileURLWithPath: dir + "/.snapshot.tmp"))
        for _ in 0..<4 { try write() }
    }

    /// Under the loop's watch the files are not fstat'ed at each write but watched: a file
    /// renamed over either name, or the spare removed, is seen at the next write all the
    /// same, with no sleep in between.
    func testUnderTheWatchAReplacedFileIsSeenAtTheNextWriteWithoutASleep() throws {
        let dir = temporaryRuntimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let writer = SnapshotWriter(directory: try RuntimeDirectory.openForSampler(dir).get())
        let changes = ChangeWatch(rulesPath: nil)
        writer.changes = changes
        var s = Snapshot()
        var sequence: UInt64 = 0
        func write() throws {
            sequence += 1
            s.sequence = sequence
            try writer.write(s).get()
            XCTAssertEqual(try decodeFile(dir + "/snapshot").sequence, sequence, "write \(sequence)")
        }
        func foreign(over name: String) throws {
            try Data("foreign".utf8).write(to: URL(fileURLWithPath: dir + "/other"))
            XCTAssertEqual(rename(dir + "/other", dir + "/" + name), 0)
            usleep(5_000)   // the signal's delivery, not a sleep of the loop's
        }
        for _ in 0..<3 { try write() }
        try foreign(over: ".snapshot.tmp")
        for _ in 0..<4 { try write() }
        try foreign(over: "snapshot")
        for _ in 0..<4 { try write() }
        XCTAssertEqual(unlink(dir + "/.snapshot.tmp"), 0)
        usleep(5_000)
        try write()
        try foreign(over: ".snapshot.tmp")
        for _ in 0..<4 { try write() }
    }

    func testEveryWriteWakesAWatcherWithAMoveOfTheSnapshotName() throws {
        let dir = temporaryRuntimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let writer = SnapshotWriter(directory: try RuntimeDirectory.openForSampler(dir).get())
        let fd = inotify_init1(Int32(IN_NONBLOCK))
        defer { close(fd) }
        XCTAssertGreaterThanOrEqual(inotify_add_watch(fd, dir, UInt32(IN_MOVED_TO)), 0)
        var s = Snapshot()
        var buffer = [UInt8](repeating: 0, count: 4096)
        // Read after each write, as a renderer does (inotify merges a repeated unread event).
        for sequence in 1...5 as ClosedRange<UInt64> {
            s.sequence = sequence
            try writer.write(s).get()
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            var names: [String] = []
            var off = 0
            while off + 16 <= n {
                let len = Int(buffer[off + 12]) | Int(buffer[off + 13]) << 8
                names.append(String(decoding: buffer[(off + 16)..<(off + 16 + len)].prefix { $0 != 0 }, as: UTF8.self))
                off += 16 + len
            }
            XCTAssertEqual(names.filter { $0 == "snapshot" }.count, 1, "write \(sequence): \(names)")
        }
    }

    /// A writer at full speed and a reader opening and reading as fast as it can: a read can
    /// land on a file being rewritten only when the reader lost the race by a whole write,
    /// and then the checksum refuses it. Every snapshot that decodes is one that was written,
    /// whole: its figures are the ones written with its sequence. A reader that slow may also
    /// find the rewrite finished — the next snapshot, not yet exchanged into place — and then
    /// open the one still in place: sequences go back by one at most, never further.
    func testAReaderRacingAFastWriterNeverDecodesATornSnapshot() throws {
        let dir = temporaryRuntimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let writer = SnapshotWriter(directory: try RuntimeDirectory.openForSampler(dir).get())
        let race = WriterRace(writer)
        let writerThread = Thread { race.run() }
        try writer.write(WriterRace.snapshot(0)).get()
        writerThread.start()
        var decoded = 0, torn = 0, last: UInt64 = 0
        let deadline = Date().addingTimeInterval(3)
        var buffer = [UInt8](repeating: 0, count: Snapshot.maximumEncodedSize + 1)
        while Date() < deadline {
            let fd = open(dir + "/snapshot", O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
            guard fd >= 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            close(fd)
            guard n > 0 else { continue }
            do {
                let s = try buffer.withUnsafeBytes { try Snapshot.decode(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                decoded += 1
                XCTAssertEqual(s.timestampMs, s.sequence &* 7)
                XCTAssertEqual(s.uptimeCentiseconds, s.sequence &* 3)
                XCTAssertEqual(s.topCPU.count, Int(s.sequence % 6))
                XCTAssertTrue(s.topCPU.allSatisfy { $0.privateKiB == s.sequence })
                XCTAssertGreaterThanOrEqual(s.sequence &+ 1, last, "a reader went back by more than one snapshot")
                last = s.sequence
            } catch {
                torn += 1   // the checksum or the lengths refused a file being rewritten
            }
        }
        race.stop.pointee = 1
        while !writerThread.isFinished { usleep(1000) }
        let written = race.written
        XCTAssertGreaterThan(written, 1000, "the writer ran")
        XCTAssertGreaterThan(decoded, 1000, "the reader read")
        print("torture: \(written) writes, \(decoded) whole reads, \(torn) refused by the checksum or length")
    }


    private func inode(_ path: String) -> UInt64 {
        var info = stat()
        return lstat(path, &info) == 0 ? UInt64(info.st_ino) : 0
    }

    func testARemovedDirectoryIsRecreatedPrivateAndWrittenAgain() throws {
        let dir = temporaryRuntimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let writer = SnapshotWriter(directory: try RuntimeDirectory.openForSampler(dir).get())
        try writer.write(Snapshot()).get()
        try FileManager.default.removeItem(atPath: dir)
        try writer.write(Snapshot()).get()
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/snapshot"))
        XCTAssertNoThrow(try RuntimeDirectory.check(dir).get(), "re-created 0700 and ours")
        XCTAssertTrue(RuntimeDirectory.isLockedBySampler(dir), "the writer locked the new directory")
    }

    /// Under the loop's inotify watch the path is not looked up at each write; the directory
    /// removed, or renamed away and replaced by a symlink, is still seen at the next write.
    func testUnderTheWatchARemovedOrMovedDirectoryIsStillSeenAtTheNextWrite() throws {
        let dir = temporaryRuntimeDirectory()
        let moved = temporaryRuntimeDirectory()
        let elsewhere = temporaryRuntimeDirectory()
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: false)
        defer { for d in [dir, moved, elsewhere] { try? FileManager.default.removeItem(atPath: d) } }
        let writer = SnapshotWriter(directory: try RuntimeDirectory.openForSampler(dir).get())
        let changes = ChangeWatch(rulesPath: nil)
        writer.changes = changes
        var s = Snapshot()
        func write(_ sequence: UInt64) throws {
            changes.sleep(untilMonotonicNs: monotonicNs() + 20_000_000)   // the loop's sleep reads the events
            s.sequence = sequence
            try writer.write(s).get()
        }
        for i in 1...3 as ClosedRange<UInt64> { try write(i) }
        try FileManager.default.removeItem(atPath: dir)
        try write(4)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/snapshot"), "re-created")
        XCTAssertEqual(rename(dir, moved), 0)
        try FileManager.default.createSymbolicLink(atPath: dir, withDestinationPath: elsewhere)
        changes.sleep(untilMonotonicNs: monotonicNs() + 20_000_000)
        guard case .failure(.directory) = writer.write(s) else { return XCTFail("wrote on after the move") }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere), [], "never through the symlink")
        // Removed without a sleep in between (its event not read yet): seen all the same.
        try FileManager.default.removeItem(atPath: dir)
        try writer.write(s).get()
        try FileManager.default.removeItem(atPath: dir)
        try writer.write(s).get()
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/snapshot"))
    }

    private func monotonicNs() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    func testADirectoryReplacedByASymlinkIsNeverWrittenThrough() throws {
        let dir = temporaryRuntimeDirectory()
        let elsewhere = temporaryRuntimeDirectory()
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: dir); try? FileManager.default.removeItem(atPath: elsewhere) }
        let writer = SnapshotWriter(directory: try RuntimeDirectory.openForSampler(dir).get())
        try FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createSymbolicLink(atPath: dir, withDestinationPath: elsewhere)
        guard case .failure(.directory(let e)) = writer.write(Snapshot()) else { return XCTFail("wrote through a symlink") }
        XCTAssertTrue(e.reason.contains("symbolic link"), e.description)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere), [])
        // Fixed: the next write goes through again.
        try FileManager.default.removeItem(atPath: dir)
        try writer.write(Snapshot()).get()
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/snapshot"))
    }

    func testALeftoverFIFOAtTheTemporaryNameNeitherBlocksNorIsWrittenInto() throws {
        let dir = temporaryRuntimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let writer = SnapshotWriter(directory: try RuntimeDirectory.openForSampler(dir).get())
        XCTAssertEqual(mkfifo(dir + "/.snapshot.tmp", 0o600), 0)
        try writer.write(Snapshot()).get()   // would block forever in open(2) without O_EXCL/O_NONBLOCK
        var info = stat()
        XCTAssertEqual(lstat(dir + "/snapshot", &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFREG)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["snapshot"])
    }

    func testTheLockSurvivesTheLockFileBeingDeletedBecauseItIsOnTheDirectory() throws {
        let dir = temporaryRuntimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let first = try RuntimeDirectory.openForSampler(dir).get()
        defer { first.close() }
        // Whatever files are removed from it, a second sampler is refused.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] {
            try FileManager.default.removeItem(atPath: dir + "/" + name)
        }
        guard case .failure(let e) = RuntimeDirectory.openForSampler(dir) else { return XCTFail("second sampler allowed") }
        XCTAssertTrue(e.reason.contains("in use by another sysstatsd"), e.description)
    }

}

private func temporaryRuntimeDirectory() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("sysstats-w-\(UUID().uuidString)").path
}

/// The writer's side of the race: one thread writes until told to stop (the flag is set
/// once by the test's thread, and read through a call the optimizer cannot hoist).
private final class WriterRace: @unchecked Sendable {
    let writer: SnapshotWriter
    let stop = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    var written: UInt64 = 0

    init(_ writer: SnapshotWriter) {
        self.writer = writer
        stop.initialize(to: 0)
    }

    deinit { stop.deallocate() }

    func run() {
        var sequence: UInt64 = 1
        while stopFlag(stop) == 0 {
            _ = writer.write(WriterRace.snapshot(sequence))
            sequence += 1
        }
        written = sequence
    }

    static func snapshot(_ sequence: UInt64) -> Snapshot {
        var s = Snapshot()
        s.sequence = sequence
        s.timestampMs = sequence &* 7
        s.uptimeCentiseconds = sequence &* 3
        // Names of varying length: the file's size changes from write to write.
        s.topCPU = (0..<Int(sequence % 6)).map {
            ProcessEntry(pid: UInt32(truncatingIfNeeded: sequence), cpu: UInt16(sequence % 10_000), privateKiB: sequence,
                         name: Array(String(repeating: "n", count: 1 + Int(sequence % 40) + $0).utf8))
        }
        return s
    }
}

@inline(never) private func stopFlag(_ p: UnsafeMutablePointer<Int>) -> Int { p.pointee }

private func decodeFile(_ path: String) throws -> Snapshot {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    return try bytes.withUnsafeBytes { try Snapshot.decode($0) }
}

/// A writer on a fresh runtime directory (removed at the end), publishing snapshots of one
/// length, each a sequence ahead, and checking after each that `snapshot` decodes to it.
private final class Publisher {
    let dir = temporaryRuntimeDirectory()
    let writer: SnapshotWriter
    private var snapshot = Snapshot()

    init() throws { writer = SnapshotWriter(directory: try RuntimeDirectory.openForSampler(dir).get()) }

    deinit { try? FileManager.default.removeItem(atPath: dir) }

    func write(_ label: String = "", file: StaticString = #filePath, line: UInt = #line) throws {
        snapshot.sequence += 1
        try writer.write(snapshot).get()
        XCTAssertEqual(try decodeFile(dir + "/snapshot").sequence, snapshot.sequence,
                       "\(label) write \(snapshot.sequence)", file: file, line: line)
    }
}
