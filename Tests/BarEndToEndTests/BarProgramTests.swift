import Foundation
import SnapshotCodec
import XCTest

/// Runs the built sysstats-bar against a runtime dir the test publishes snapshots into.
final class BarProgramTests: XCTestCase {
    let header = #"{"version":1,"click_events":true,"stop_signal":10,"cont_signal":12}"#

    /// The header alone in the first write, then one array per snapshot renamed into place.
    /// (Clicks: ClickInputTests; stop and continue: SignalTests; the sampler's exchanged
    /// files: SnapshotStreamTests, in-process.)
    func testI3barWritesTheHeaderThenOneArrayPerRenameAndEndsCleanlyOnSIGTERM() throws {
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot(sequence: 1))
        let bar = try BarProcess(["--output", "i3bar", "--runtime-dir", dir.path, "--blocks", "mem"])
        XCTAssertTrue(bar.waitFor { $0.count >= 3 }, "\(bar.lines)")
        XCTAssertEqual(Array(bar.lines.prefix(2)), [header, "["])
        XCTAssertTrue(bar.lines[2].hasPrefix(#"[{"name":"mem","instance":"mem","full_text":"mem 3.8G/15.3G""#), bar.lines[2])
        try dir.publish(sampleSnapshot(sequence: 2))
        XCTAssertTrue(bar.waitFor { $0.count >= 4 }, "a rename wakes the renderer")
        XCTAssertTrue(bar.lines[3].hasPrefix(",["), bar.lines[3])
        XCTAssertEqual(bar.stop(), 0, "SIGTERM ends the renderer cleanly")
    }

    func testClosedStdoutEndsTheRendererWithStatusZero() throws {
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot())
        // A raw close-on-exec pipe: no other child of this test process can inherit
        // its read end (a Foundation Pipe's can), so closing it here closes it for good.
        var fds: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&fds), 0)
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try BarProcess.binary())
        process.arguments = ["--runtime-dir", dir.path]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(fileDescriptor: fds[1], closeOnDealloc: false)
        try process.run()
        close(fds[1])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }

        var pollFD = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&pollFD, 1, 5000), 1, "the renderer printed its first line")
        var byte: UInt8 = 0
        XCTAssertEqual(read(fds[0], &byte, 1), 1)
        close(fds[0])
        try dir.publish(sampleSnapshot(sequence: 2))
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        XCTAssertFalse(process.isRunning, "the renderer should end once its stdout is closed")
        guard !process.isRunning else { return }
        XCTAssertEqual(process.terminationReason, .exit, "not killed by SIGPIPE")
        XCTAssertEqual(process.terminationStatus, 0)
    }
}

extension BarProgramTests {
    /// A bar that closes its end of the pipe (i3bar or waybar quit) ends the renderer at once,
    /// not at its next write, which without a sampler or a clock may never come.
    func testTheRendererExitsAsSoonAsTheReaderOfItsOutputIsGone() throws {
        let dir = try RuntimeDir()   // no snapshot, no clock: nothing to write after the first line
        let bar = try BarProcess(["--output", "text", "--runtime-dir", dir.path, "--blocks", "cpu"])
        XCTAssertTrue(bar.waitForLineCount(1))
        bar.stdoutPipe.fileHandleForReading.readabilityHandler = nil
        try bar.stdoutPipe.fileHandleForReading.close()
        let deadline = Date().addingTimeInterval(5)
        while bar.process.isRunning && Date() < deadline { usleep(10_000) }
        XCTAssertFalse(bar.process.isRunning, "still running after its reader left")
        XCTAssertEqual(bar.process.terminationStatus, 0)
    }
}

/// A running bar tells the sampler which parts it shows (`wants/<pid>`), and takes it back.
final class BarWantsTests: XCTestCase {
    func testARunningBarLeavesWhatItsBlocksShowAndRemovesItAtExit() throws {
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot())
        let bar = try BarProcess(["--output", "i3bar", "--runtime-dir", dir.path, "--blocks", "cpu,mem,net,time"])
        XCTAssertTrue(bar.waitFor { $0.count >= 3 }, "\(bar.lines)")
        let file = dir.path + "/wants/\(bar.process.processIdentifier)"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertEqual(text, "\(SnapshotSections([.cpu, .memory, .network]).rawValue)\n", "the clock needs nothing")
        var info = stat()
        XCTAssertEqual(lstat(dir.path + "/wants", &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700)
        XCTAssertEqual(bar.stop(), 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file), "removed at exit")
    }

    func testAOneShotBarLeavesNothingAndAPictureWantsEveryPartButTheSoundDevices() throws {
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot())
        let once = try BarProcess(["--once", "--runtime-dir", dir.path, "--blocks", "cpu"], stdin: false)
        once.process.waitUntilExit()
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: dir.path + "/wants")) ?? [], [])
        let image = dir.path + "/panel.png"
        let png = try BarProcess(["--output", "png:" + image, "--runtime-dir", dir.path], stdin: false)
        defer { _ = png.stop() }
        let file = dir.path + "/wants/\(png.process.processIdentifier)"
        let deadline = Date().addingTimeInterval(5)
        while !FileManager.default.fileExists(atPath: file) && Date() < deadline { usleep(20_000) }
        // Every part but the sound devices' (a picture draws no volume: no sound helper for it).
        let sound = SnapshotSections(tag: .volume)!.union(SnapshotSections(tag: .microphone)!)
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "\(SnapshotSections.all.subtracting(sound).rawValue)\n")
    }
}
