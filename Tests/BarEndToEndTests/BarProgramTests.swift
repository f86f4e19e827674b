import Foundation
import SnapshotCodec
import XCTest

/// Runs the built sysstats-bar against a runtime dir the test publishes snapshots into.
final class BarProgramTests: XCTestCase {
    let header = #"{"version":1,"click_events":true,"stop_signal":10,"cont_signal":12}"#

    func testOncePrintsTheCurrentSnapshotAndExitsZero() throws {
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot())
        let bar = try BarProcess(["--once", "--runtime-dir", dir.path, "--blocks", "load,procs"], stdin: false)
        bar.process.waitUntilExit()
        XCTAssertEqual(bar.process.terminationStatus, 0)
        XCTAssertTrue(bar.waitFor { $0 == ["load 0.52 0.48 0.40 | procs 300 (0 run)"] }, "\(bar.lines)")
    }

    func testOnceWithoutASnapshotSaysTheSamplerStoppedAndExitsOne() throws {
        let dir = try RuntimeDir()
        let bar = try BarProcess(["--once", "--output", "i3bar", "--runtime-dir", dir.path], stdin: false)
        bar.process.waitUntilExit()
        XCTAssertEqual(bar.process.terminationStatus, 1)
        // The message, and the default bar's clock, which needs no sampler.
        XCTAssertTrue(bar.waitFor { $0.count == 1 && $0[0].hasPrefix(##"[{"name":"sysstats","full_text":"sysstatsd stopped","color":"#E06C75"},{"name":"time","##) },
                      "\(bar.lines)")
    }

    func testBadOptionExitsTwo() throws {
        let bar = try BarProcess(["--output", "dzen"], stdin: false)
        bar.process.waitUntilExit()
        XCTAssertEqual(bar.process.terminationStatus, 2)
    }

    func testFormatOptionsShapeTheBlocksAndABadFormatExitsTwoWithOneLine() throws {
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot())
        let bar = try BarProcess(["--once", "--runtime-dir", dir.path, "--blocks", "load,procs",
                                  "--format", "load=L {1}/{15}", "--format=procs={{{count}}}"],
                                 stdin: false)
        bar.process.waitUntilExit()
        XCTAssertEqual(bar.process.terminationStatus, 0)
        XCTAssertTrue(bar.waitFor { $0 == ["L 0.52/0.40 | {300}"] }, "\(bar.lines)")

        let bad = Process()
        bad.executableURL = URL(fileURLWithPath: try BarProcess.binary())
        bad.arguments = ["--once", "--format", "cpu={nope}"]
        let stderr = Pipe()
        bad.standardError = stderr
        bad.standardOutput = FileHandle.nullDevice
        try bad.run()
        let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        bad.waitUntilExit()
        XCTAssertEqual(bad.terminationStatus, 2)
        XCTAssertEqual(message, "sysstats-bar: --format cpu: unknown placeholder; cpu has {busy} {iowait} {spark}\n")
    }

    func testI3barWritesHeaderThenOneArrayPerRenameAndClicksCycleTheMemForm() throws {
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot(sequence: 1))
        let bar = try BarProcess(["--output", "i3bar", "--runtime-dir", dir.path, "--blocks", "mem"])
        XCTAssertTrue(bar.waitFor { $0.count >= 3 }, "\(bar.lines)")
        XCTAssertEqual(Array(bar.lines.prefix(2)), [header, "["])
        XCTAssertTrue(bar.lines[2].hasPrefix(#"[{"name":"mem","instance":"mem","full_text":"mem 3.8G/15.3G""#), bar.lines[2])

        try dir.publish(sampleSnapshot(sequence: 2))
        XCTAssertTrue(bar.waitFor { $0.count >= 4 }, "a rename wakes the renderer")
        XCTAssertTrue(bar.lines[3].hasPrefix(",["), bar.lines[3])

        bar.send("[\n")
        bar.send(#"{"name":"mem","instance":"mem","button":1,"x":1,"y":1}"# + "\n")
        XCTAssertTrue(bar.waitFor { $0.last?.contains("mem A3.8G I1.9G W977M O977M F7.6G") == true }, "\(bar.lines.last ?? "")")
        bar.send("garbage that is not json\n" + String(repeating: "x", count: 20_000) + "\n")
        bar.send(#",{"name":"mem","button":3}"# + "\n")
        XCTAssertTrue(bar.waitFor { $0.last?.contains("mem 3.8G/15.3G") == true }, "\(bar.lines.last ?? "")")
        for line in bar.lines.dropFirst(2) {
            let array = line.hasPrefix(",") ? String(line.dropFirst()) : line
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(array.utf8)), array)
        }
        XCTAssertEqual(bar.stop(), 0, "SIGTERM ends the renderer cleanly")
    }

    func testStopSignalPausesOutputAndContSignalResumesIt() throws {
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot(sequence: 1))
        let bar = try BarProcess(["--output", "i3bar", "--runtime-dir", dir.path, "--blocks", "cpu"])
        XCTAssertTrue(bar.waitFor { $0.count >= 3 })
        kill(bar.pid, SIGUSR1)
        usleep(200_000)
        let stopped = bar.lines.count
        for sequence in 2...4 { try dir.publish(sampleSnapshot(sequence: UInt64(sequence))); usleep(50_000) }
        usleep(200_000)
        XCTAssertEqual(bar.lines.count, stopped, "no output while the bar is hidden")
        kill(bar.pid, SIGUSR2)
        XCTAssertTrue(bar.waitFor { $0.count == stopped + 1 }, "one update on continue")
        XCTAssertTrue(bar.lines.last?.contains("cpu 0%") == true, bar.lines.last ?? "")
        XCTAssertEqual(bar.stop(SIGINT), 0)
    }

    /// The sampler's two files taking turns: the bar keeps both open and reads the new one
    /// without opening it (BarSyscallTests counts the calls). Pinned here: it still shows
    /// every publication, the newest after a stop, and a restarted sampler's.
    func testWithTheSamplersExchangeTheBarShowsEachSnapshotAndTheNewestAfterAStop() throws {
        let dir = try RuntimeDir()
        try dir.publishByExchange(snapshot(1, processes: 1))
        let bar = try BarProcess(["--runtime-dir", dir.path, "--blocks", "procs"], stdin: false)
        XCTAssertTrue(bar.waitFor { $0.last == "procs 1 (0 run)" }, "\(bar.lines)")
        for n in 2...12 {
            try dir.publishByExchange(snapshot(UInt64(n), processes: UInt32(n)))
            XCTAssertTrue(bar.waitFor { $0.last == "procs \(n) (0 run)" }, "publication \(n): \(bar.lines.suffix(3))")
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(bar.pid)/fd")) ?? []
        let targets = Set(open.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(bar.pid)/fd/\($0)") })
        XCTAssertTrue(targets.contains(dir.path + "/snapshot") && targets.contains(dir.path + "/.snapshot.tmp"),
                      "both files kept open: \(targets.sorted())")

        // Stopped while an odd, then an even number of snapshots came: the newest is shown.
        for (first, last) in [(13, 17), (18, 21)] {
            kill(bar.pid, SIGSTOP)
            for n in first...last { try dir.publishByExchange(snapshot(UInt64(n), processes: UInt32(n))) }
            kill(bar.pid, SIGCONT)
            XCTAssertTrue(bar.waitFor { $0.last == "procs \(last) (0 run)" }, "after \(first)...\(last): \(bar.lines.suffix(3))")
        }

        // A restarted sampler: a new file renamed into place, its sequence from 1 again; then
        // it exchanges, counting on.
        try dir.publish(snapshot(1, processes: 500))
        XCTAssertTrue(bar.waitFor { $0.last == "procs 500 (0 run)" }, "\(bar.lines.suffix(3))")
        for n in 2...6 {
            try dir.publishByExchange(snapshot(UInt64(n), processes: UInt32(500 + n)))
            XCTAssertTrue(bar.waitFor { $0.last == "procs \(500 + n) (0 run)" }, "\(bar.lines.suffix(3))")
        }
        // Restarted again, keeping the same two files.
        for n in 1...4 {
            try dir.publishByExchange(snapshot(UInt64(n), processes: UInt32(900 + n)))
            XCTAssertTrue(bar.waitFor { $0.last == "procs \(900 + n) (0 run)" }, "\(bar.lines.suffix(3))")
        }
        XCTAssertEqual(bar.stop(), 0)
    }

    /// Stopped while the sampler was restarted: the old run's two files hold sequences just
    /// ahead of the last shown, and as many events came as could make one of them look
    /// next. A rename among the events (the new run's first file) says the count means
    /// nothing: the bar reads by path and shows the new run.
    func testABarStoppedOverASamplerRestartShowsTheNewRunNotAnOldFile() throws {
        let dir = try RuntimeDir()
        try dir.publishByExchange(snapshot(12, processes: 12))
        let bar = try BarProcess(["--runtime-dir", dir.path, "--blocks", "procs"], stdin: false)
        for n in 13...16 {
            try dir.publishByExchange(snapshot(UInt64(n), processes: UInt32(n)))
            XCTAssertTrue(bar.waitFor { $0.last == "procs \(n) (0 run)" }, "\(bar.lines.suffix(3))")
        }
        kill(bar.pid, SIGSTOP)
        for n in 17...19 { try dir.publishByExchange(snapshot(UInt64(n), processes: UInt32(n))) }
        // The restart: the spare removed, a new file renamed over `snapshot`, then exchanges.
        XCTAssertEqual(unlink(dir.path + "/.snapshot.tmp"), 0)
        try dir.publish(snapshot(1, processes: 701))
        XCTAssertEqual(unlink(dir.path + "/.snapshot.tmp"), -1, "the rename took the spare's name away")
        for n in 2...3 { try dir.publishByExchange(snapshot(UInt64(n), processes: UInt32(700 + n))) }
        kill(bar.pid, SIGCONT)
        XCTAssertTrue(bar.waitFor { $0.last == "procs 703 (0 run)" }, "\(bar.lines.suffix(3))")
        let afterStop = bar.lines.drop { $0 != "procs 16 (0 run)" }.dropFirst()
        XCTAssertTrue(afterStop.allSatisfy { $0.hasPrefix("procs 70") }, "no file of the old run shown: \(Array(afterStop))")
        XCTAssertEqual(bar.stop(), 0)
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

    func testAOneShotBarLeavesNothingAndAPictureWantsEveryPart() throws {
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
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "\(SnapshotSections.all.rawValue)\n")
    }
}

/// A sample snapshot numbered `sequence` whose `procs` block shows `processes`: which
/// snapshot a bar shows, told from its line.
private func snapshot(_ sequence: UInt64, processes: UInt32) -> Snapshot {
    var s = sampleSnapshot(sequence: sequence)
    s.processCount = processes
    return s
}
