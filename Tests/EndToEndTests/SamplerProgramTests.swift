import Foundation
import SnapshotCodec
import XCTest
import TestSupport

/// `sysstatsd` as a user runs it: flags, the runtime directory, signals.
final class SamplerProgramTests: XCTestCase {
    var directory: TemporaryDirectory!
    var runtime: URL { directory.url }
    override func setUpWithError() throws { directory = try TemporaryDirectory("e2e") }
    override func tearDownWithError() throws { directory = nil }

    func readSnapshot(_ dir: URL) throws -> Snapshot {
        let bytes = [UInt8](try Data(contentsOf: dir.appendingPathComponent("snapshot")))
        return try bytes.withUnsafeBytes { try Snapshot.decode($0) }
    }

    func testOnceWritesOneSnapshotOfTheFixtureMachineAndExitsZero() throws {
        let tree = Fixtures.root.appendingPathComponent("sampler-desktop/2")
        let result = try Programs.run(try Programs.path("sysstatsd"), [
            "--once", "--interval", "0.05", "--runtime-dir", runtime.path,
            "--proc-root", tree.appendingPathComponent("proc").path,
            "--sys-root", tree.appendingPathComponent("sys").path,
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let s = try readSnapshot(runtime)
        XCTAssertEqual(s.sequence, 2)   // two samples, one snapshot
        XCTAssertEqual(s.processCount, 6)
        XCTAssertEqual(s.memory.total, 8_000_000)
        XCTAssertEqual(s.battery.percent, 800)
        XCTAssertEqual(s.intervalMs, 50)
        XCTAssertGreaterThan(s.samplerResidentKiB, 0)   // its own cost, measured for real
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: runtime.path)), ["snapshot"])
    }

    func testBadFlagGivesOneLineOnStderrAndStatus2() throws {
        for args in [["--bogus"], ["--interval", "fast"], ["--interval"]] {
            let result = try Programs.run(try Programs.path("sysstatsd"), args)
            XCTAssertEqual(result.status, 2, "\(args)")
            XCTAssertTrue(SamplerLog.withoutTimes(result.stderr).hasPrefix("sysstatsd: "), result.stderr)
            XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1, result.stderr)
        }
    }

    func testUnsafeRuntimeDirectoryIsRefusedWithOneLine() throws {
        let open = runtime.appendingPathComponent("open")
        try FileManager.default.createDirectory(at: open, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o777])
        let link = runtime.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: runtime)
        for dir in [open, link] {
            let result = try Programs.run(try Programs.path("sysstatsd"), ["--once", "--runtime-dir", dir.path])
            XCTAssertEqual(result.status, 1)
            XCTAssertTrue(SamplerLog.withoutTimes(result.stderr).hasPrefix("sysstatsd: runtime directory \(dir.path) "), result.stderr)
            XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1, result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("snapshot").path))
        }
    }

    func testSIGTERMAndSIGINTEndTheLoopCleanlyLeavingAValidSnapshot() throws {
        let tree = Fixtures.root.appendingPathComponent("sampler-desktop/2")
        for signal in [SIGTERM, SIGINT] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try Programs.path("sysstatsd"))
            process.arguments = ["--interval", "0.05", "--runtime-dir", runtime.path, "--no-history",
                                 "--proc-root", tree.appendingPathComponent("proc").path,
                                 "--sys-root", tree.appendingPathComponent("sys").path]
            try process.run()
            let deadline = Date().addingTimeInterval(10)
            while (try? readSnapshot(runtime))?.sequence ?? 0 < 5, Date() < deadline { usleep(20_000) }
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .exit, "signal \(signal)")
            XCTAssertEqual(process.terminationStatus, 0, "signal \(signal)")
            XCTAssertGreaterThanOrEqual(try readSnapshot(runtime).sequence, 5)
            try FileManager.default.removeItem(at: runtime.appendingPathComponent("snapshot"))
        }
    }
}

extension SamplerProgramTests {
    func testASecondSamplerOnTheSameRuntimeDirectoryIsRefusedWhileTheFirstRuns() throws {
        let tree = Fixtures.root.appendingPathComponent("sampler-desktop/2")
        let roots = ["--proc-root", tree.appendingPathComponent("proc").path,
                     "--sys-root", tree.appendingPathComponent("sys").path]
        let first = Process()
        first.executableURL = URL(fileURLWithPath: try Programs.path("sysstatsd"))
        first.arguments = ["--interval", "0.05", "--runtime-dir", runtime.path, "--no-history"] + roots
        try first.run()
        defer { if first.isRunning { first.terminate(); first.waitUntilExit() } }
        let deadline = Date().addingTimeInterval(10)
        while (try? readSnapshot(runtime)) == nil, Date() < deadline { usleep(20_000) }

        let second = try Programs.run(try Programs.path("sysstatsd"), ["--once", "--runtime-dir", runtime.path] + roots)
        XCTAssertEqual(second.status, 1)
        XCTAssertEqual(SamplerLog.withoutTimes(second.stderr), "sysstatsd: runtime directory \(runtime.path) is in use by another sysstatsd (stop it first, or give this one --runtime-dir)\n")

        kill(first.processIdentifier, SIGTERM)
        first.waitUntilExit()
        let third = try Programs.run(try Programs.path("sysstatsd"), ["--once", "--interval", "0.05", "--runtime-dir", runtime.path] + roots)
        XCTAssertEqual(third.status, 0, third.stderr)
    }
}

extension SamplerProgramTests {
    /// The runtime directory removed, or swapped for a symlink, under a running sysstatsd:
    /// it re-creates it (0700, locked again), never writes through the symlink, and says so.
    func testARemovedRuntimeDirectoryIsRecreatedAndASymlinkInItsPlaceIsNeverWrittenThrough() throws {
        let tree = Fixtures.root.appendingPathComponent("sampler-desktop/2")
        let roots = ["--proc-root", tree.appendingPathComponent("proc").path,
                     "--sys-root", tree.appendingPathComponent("sys").path]
        let sampler = Process()
        sampler.executableURL = URL(fileURLWithPath: try Programs.path("sysstatsd"))
        sampler.arguments = ["--interval", "0.05", "--runtime-dir", runtime.path, "--no-history"] + roots
        let stderr = Pipe()
        sampler.standardError = stderr
        try sampler.run()
        defer { if sampler.isRunning { sampler.terminate(); sampler.waitUntilExit() } }
        func waitForSnapshot() -> Bool {
            let deadline = Date().addingTimeInterval(10)
            while (try? readSnapshot(runtime)) == nil, Date() < deadline { usleep(20_000) }
            return (try? readSnapshot(runtime)) != nil
        }
        XCTAssertTrue(waitForSnapshot())

        try FileManager.default.removeItem(at: runtime)
        XCTAssertTrue(waitForSnapshot(), "the directory was re-created and written again")
        var info = stat()
        XCTAssertEqual(lstat(runtime.path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700)
        let second = try Programs.run(try Programs.path("sysstatsd"), ["--once", "--runtime-dir", runtime.path] + roots)
        XCTAssertEqual(second.status, 1, "the re-created directory is locked again")

        let elsewhere = try TemporaryDirectory("elsewhere")
        try FileManager.default.removeItem(at: runtime)
        try FileManager.default.createSymbolicLink(atPath: runtime.path, withDestinationPath: elsewhere.path)
        usleep(500_000)   // ten intervals
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), [], "written through the symlink")
        XCTAssertTrue(sampler.isRunning)

        kill(sampler.processIdentifier, SIGTERM)
        sampler.waitUntilExit()
        let said = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(said.contains("is a symbolic link; refusing to use it (will retry)"), said)
    }
}

extension SamplerProgramTests {
    /// The first snapshot after start is the second sample's, taken 200 ms after the first
    /// whatever the interval: it carries CPU shares and rates, never the first sample's zeros.
    func testTheFirstSnapshotComesFromAPrimingSampleWithRatesSoonAfterStart() throws {
        let tree = Fixtures.root.appendingPathComponent("sampler-desktop/2")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Programs.path("sysstatsd"))
        process.arguments = ["--interval", "30", "--runtime-dir", runtime.path, "--no-history",
                             "--proc-root", tree.appendingPathComponent("proc").path,
                             "--sys-root", tree.appendingPathComponent("sys").path]
        let started = Date()
        try process.run()
        defer { kill(process.processIdentifier, SIGTERM); process.waitUntilExit() }
        let deadline = started.addingTimeInterval(10)
        while (try? readSnapshot(runtime)) == nil, Date() < deadline { usleep(10_000) }
        let waited = Date().timeIntervalSince(started)
        let s = try readSnapshot(runtime)
        XCTAssertEqual(s.sequence, 2, "the first published snapshot is the second sample's (the first has no rates)")
        XCTAssertLessThan(waited, 5, "published after the 200 ms priming sample, not after the 30 s interval")
        XCTAssertGreaterThanOrEqual(waited, 0.2)
    }
}

extension SamplerProgramTests {
    /// A part no running bar shows is measured every 10 s, not every interval; when the bar
    /// that showed only the CPU exits (its `wants` file goes), every part is measured again
    /// at the next sample.
    func testWhileABarShowsOnlyTheCPUTheNetworkIsReadEveryTenSecondsAndEverySampleAfterItExits() throws {
        let source = Fixtures.root.appendingPathComponent("sampler-desktop/2")
        let tree = directory.url.appendingPathComponent("tree")
        try FileManager.default.copyItem(at: source, to: tree)
        let netDev = tree.appendingPathComponent("proc/net/dev")
        try FileManager.default.createDirectory(at: netDev.deletingLastPathComponent(), withIntermediateDirectories: true)
        func writeNetDev(_ rx: UInt64) throws {
            // In place: the sampler keeps the file open.
            guard let f = fopen(netDev.path, "w") else { throw POSIXError(.EIO) }
            fputs("Inter-|   Receive\n face |bytes\n  eth0: \(rx) 10 0 0 0 0 0 0 1000 20 0 0 0 0 0 0\n", f)
            fclose(f)
        }
        try writeNetDev(1000)
        let runtimeDir = directory.url.appendingPathComponent("run")
        let sampler = Process()
        sampler.executableURL = URL(fileURLWithPath: try Programs.path("sysstatsd"))
        sampler.arguments = ["--interval", "0.1", "--runtime-dir", runtimeDir.path, "--no-history", "--net", "eth0",
                             "--proc-root", tree.appendingPathComponent("proc").path,
                             "--sys-root", tree.appendingPathComponent("sys").path]
        try sampler.run()
        defer { if sampler.isRunning { sampler.terminate(); sampler.waitUntilExit() } }
        func received() -> UInt64? {
            guard let s = try? readSnapshot(runtimeDir), s.available.contains(.network) else { return nil }
            return s.interfaces.first?.rxBytes
        }
        func waitFor(_ rx: UInt64, within seconds: Double) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while received() != rx && Date() < deadline { usleep(20_000) }
            return received() == rx
        }
        XCTAssertTrue(waitFor(1000, within: 10))
        let bar = Process()
        bar.executableURL = URL(fileURLWithPath: try Programs.path("sysstats-bar"))
        bar.arguments = ["--output", "i3bar", "--runtime-dir", runtimeDir.path, "--blocks", "cpu", "--no-start-sampler"]
        bar.standardInput = Pipe()
        bar.standardOutput = FileHandle.nullDevice
        try bar.run()
        defer { if bar.isRunning { bar.terminate(); bar.waitUntilExit() } }
        let wants = runtimeDir.appendingPathComponent("wants/\(bar.processIdentifier)").path
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: wants) && Date() < deadline { usleep(20_000) }
        XCTAssertTrue(FileManager.default.fileExists(atPath: wants))
        usleep(300_000)   // the sampler has seen it
        try writeNetDev(5000)
        usleep(1_500_000)   // 15 samples
        XCTAssertEqual(received(), 1000, "not read while no bar shows it")
        bar.terminate()
        bar.waitUntilExit()
        XCTAssertTrue(waitFor(5000, within: 2), "read at the next sample once no bar says what it shows")
    }
}
