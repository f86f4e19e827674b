import Foundation
import XCTest
import ProcFS
import SnapshotCodec
import CSamplerSys
import TestSupport
@testable import Sampler

/// When the memory-pressure probe reads /proc/pressure/memory: every 2 s without a trigger,
/// and with one only after its events or while the last reading was not 0.00. The probe's
/// rule is pinned on a fixture file with a state word the test changes itself; the trigger
/// itself on this kernel's file, with memory stalls the test makes in a memory cgroup of its own.
final class PressureTriggerTests: XCTestCase {
    // MARK: The rule, on a fixture file

    /// A proc root whose pressure/memory reads `some avg10=<avg10>`, and a trigger state word.
    private final class Bench {
        let directory: TemporaryDirectory
        let state = UnsafeMutablePointer<csamplersys_event_watch>.allocate(capacity: 1)
        let buffer = ReadBuffer()
        var snapshot = Snapshot()
        var probe: PressureProbe

        init(avg10: String, intervalMs: UInt32 = 1000) throws {
            directory = try TemporaryDirectory("pressure-probe")
            try FileManager.default.createDirectory(atPath: directory.file("pressure"), withIntermediateDirectories: true)
            state.initialize(to: csamplersys_event_watch())
            probe = PressureProbe(procRoot: directory.url.path, intervalMs: intervalMs, watchState: state)
            try write(avg10: avg10)
        }

        deinit { state.deallocate() }

        /// Rewrites the file in place (the reader keeps it open).
        func write(avg10: String) throws {
            guard let f = fopen(directory.file("pressure/memory"), "w") else { throw POSIXError(.EIO) }
            defer { fclose(f) }
            fputs("some avg10=\(avg10) avg60=0.00 avg300=0.00 total=0\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", f)
        }

        /// Takes `count` samples; returns how many read the file.
        @discardableResult
        func sample(_ count: Int = 1) -> Int {
            let before = probe.reads
            for _ in 0..<count { probe.sample(into: &snapshot, buffer: buffer) }
            return probe.reads - before
        }

        func fire() { state.pointee.state &+= 2 }
        func endThread() { state.pointee.state |= 1 }
    }

    func testWithoutATriggerTheFileIsReadEveryTwoSecondsWhateverItSays() throws {
        let directory = try TemporaryDirectory("pressure-probe")
        try FileManager.default.createDirectory(atPath: directory.file("pressure"), withIntermediateDirectories: true)
        try "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n".write(toFile: directory.file("pressure/memory"), atomically: false, encoding: .utf8)
        for (intervalMs, reads) in [(1000, 10), (500, 5), (250, 3), (3000, 20)] as [(UInt32, Int)] {
            // A fixture file is not procfs's: no trigger, whatever `watch` asks.
            var probe = PressureProbe(procRoot: directory.url.path, kernel: nil, intervalMs: intervalMs, watch: true)
            XCTAssertFalse(probe.isTriggered)
            var snapshot = Snapshot()
            let buffer = ReadBuffer()
            for _ in 0..<20 { probe.sample(into: &snapshot, buffer: buffer) }
            XCTAssertEqual(probe.reads, reads, "interval \(intervalMs) ms: 20 samples")
            XCTAssertEqual(snapshot.memoryPressure, 0)
        }
    }

    func testWhileTheTriggerIsQuietAReadingOfZeroStandsAndNothingIsRead() throws {
        let bench = try Bench(avg10: "0.00")
        XCTAssertEqual(bench.sample(), 1, "the first sample reads")
        XCTAssertEqual(bench.snapshot.memoryPressure, 0)
        XCTAssertEqual(bench.sample(30), 0, "30 quiet samples read nothing")
        XCTAssertEqual(bench.snapshot.memoryPressure, 0, "the reading stands")
    }

    func testAnEventIsReadAtTheNextSampleThenEveryTwoSecondsUntilItReadsZero() throws {
        let bench = try Bench(avg10: "0.00")
        bench.sample(5)
        try bench.write(avg10: "12.50")
        XCTAssertEqual(bench.sample(3), 0, "no event: the file is not read, whatever it says now")
        XCTAssertEqual(bench.snapshot.memoryPressure, 0)
        bench.fire()
        XCTAssertEqual(bench.sample(), 1, "the sample after an event reads")
        XCTAssertEqual(bench.snapshot.memoryPressure, 1250)
        // Not 0.00: the kernel's 2-s schedule, without more events.
        XCTAssertEqual((0..<6).map { _ in bench.sample() }, [0, 1, 0, 1, 0, 1])
        try bench.write(avg10: "0.00")
        XCTAssertEqual(bench.sample(2), 1, "read on schedule: 0.00")
        XCTAssertEqual(bench.snapshot.memoryPressure, 0)
        XCTAssertEqual(bench.sample(10), 0, "quiet again")
        bench.fire()
        bench.fire()
        XCTAssertEqual(bench.sample(3), 1, "two events before a sample: one read")
    }

    func testAnEventWhileTheReadingIsNotZeroDoesNotAddReads() throws {
        let bench = try Bench(avg10: "3.00")
        XCTAssertEqual(bench.sample(), 1)
        bench.fire()
        XCTAssertEqual(bench.sample(), 0, "already on the 2-s schedule")
        XCTAssertEqual(bench.sample(), 1)
        try bench.write(avg10: "0.00")
        XCTAssertEqual(bench.sample(2), 1)
        XCTAssertEqual(bench.sample(4), 0, "the event was seen by the reads since: quiet")
    }

    func testAThreadThatStoppedWaitingFallsBackToTheTwoSecondSchedule() throws {
        let bench = try Bench(avg10: "0.00")
        bench.sample(3)
        bench.endThread()
        XCTAssertEqual(bench.sample(10), 5, "every 2 s again, though it read 0.00")
    }

    func testAnUnreadableFileIsTriedAgainEveryTwoSecondsAndShownAsUnavailable() throws {
        let bench = try Bench(avg10: "0.00")
        try FileManager.default.removeItem(atPath: bench.directory.file("pressure/memory"))
        // The reader keeps its file open once opened: this one never was.
        XCTAssertEqual(bench.sample(), 1)
        XCTAssertNil(bench.snapshot.memoryPressure)
        XCTAssertEqual(bench.sample(6), 3, "not quiet: no reading of 0.00 stands")
        XCTAssertNil(bench.snapshot.memoryPressure)
    }

    func testAGarbledReadingIsNotTakenForZero() throws {
        let bench = try Bench(avg10: "x")
        XCTAssertEqual(bench.sample(), 1)
        XCTAssertNil(bench.snapshot.memoryPressure)
        XCTAssertEqual(bench.sample(4), 2)
        try bench.write(avg10: "0.00")
        XCTAssertEqual(bench.sample(2), 1)
        XCTAssertEqual(bench.snapshot.memoryPressure, 0)
        XCTAssertEqual(bench.sample(4), 0)
    }

    // MARK: The trigger, on this kernel

    func testATriggerIsNeverWrittenIntoAFileOutsideProcfs() throws {
        let directory = try TemporaryDirectory("pressure-trigger")
        let path = directory.file("memory")
        let text = "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        XCTAssertNil(PressureTrigger(path: path))
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), text, "untouched")
        // Nor through a symbolic link in its last component.
        let link = directory.file("link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/proc/pressure/memory")
        XCTAssertNil(PressureTrigger(path: link))
        XCTAssertNil(PressureTrigger(path: directory.file("absent")))
    }

    func testATriggerWaitsInAThreadOfItsOwnThatEndsWithIt() throws {
        let others = Self.watchThreads()   // samplers other tests keep alive
        let trigger = try Self.armedTrigger()
        XCTAssertTrue(trigger.isWatching)
        XCTAssertEqual(PressureTrigger.state(of: trigger.watch) & 1, 0)
        XCTAssertEqual(Self.watchThreads(), others + 1, "a thread named pressure-watch")
        var second: PressureTrigger? = try Self.armedTrigger()
        XCTAssertEqual(Self.watchThreads(), others + 2, "one thread per trigger")
        XCTAssertTrue(second!.isWatching)
        second = nil
        XCTAssertEqual(Self.watchThreads(), others + 1, "released: its thread is joined")
    }

    /// Memory stalls made here (a shell limited to 32 MiB in a memory cgroup of its own writes
    /// and re-reads a 64 MiB file) fire the trigger, and the probe reads the file at its next
    /// sample; before them, while the kernel's stall total stood still, it read nothing.
    func testMemoryStallsFireTheTriggerAndTheNextSampleReadsThem() throws {
        let tree = try TemporaryDirectory("pressure-tree")
        try FileManager.default.createSymbolicLink(atPath: tree.file("pressure"), withDestinationPath: "/proc/pressure")
        _ = try Self.armedTrigger()   // skips where this kernel gives none
        var probe = PressureProbe(procRoot: tree.url.path, kernel: nil, intervalMs: 1000, watch: true)
        XCTAssertTrue(probe.isTriggered)
        var snapshot = Snapshot()
        let buffer = ReadBuffer()
        let cgroup = try MemoryCgroup()   // skips without root or a memory controller

        let totalBefore = try Self.someTotal()
        probe.sample(into: &snapshot, buffer: buffer)
        XCTAssertNotNil(snapshot.memoryPressure)
        if snapshot.memoryPressure == 0 {
            for _ in 0..<5 { probe.sample(into: &snapshot, buffer: buffer) }
            if try Self.someTotal() == totalBefore {
                XCTAssertEqual(probe.reads, 1, "no stall anywhere: the reading of 0.00 stood, nothing read")
            }
        }

        let state = PressureTrigger.state(of: try XCTUnwrap(probe.watchState))
        try cgroup.stall(until: Date().addingTimeInterval(20)) {
            PressureTrigger.state(of: probe.watchState!) != state
        }
        XCTAssertGreaterThan(try Self.someTotal(), totalBefore, "the kernel counted the stalls")
        let deadline = Date().addingTimeInterval(5)   // events come when the kernel updates the averages, every 2 s
        while PressureTrigger.state(of: probe.watchState!) == state && Date() < deadline { usleep(50_000) }
        XCTAssertNotEqual(PressureTrigger.state(of: probe.watchState!), state, "the trigger fired")
        XCTAssertEqual(PressureTrigger.state(of: probe.watchState!) & 1, 0, "its thread still waits")

        // The probe may be on its 2-s schedule (a reading not 0.00 before): either way the
        // next two samples read the file at least once, and the first does when it read 0.00.
        let reads = probe.reads
        let wasQuiet = snapshot.memoryPressure == 0
        probe.sample(into: &snapshot, buffer: buffer)
        if wasQuiet { XCTAssertEqual(probe.reads, reads + 1, "the sample after the event read the file") }
        probe.sample(into: &snapshot, buffer: buffer)
        XCTAssertGreaterThanOrEqual(probe.reads, reads + 1)
        XCTAssertNotNil(snapshot.memoryPressure)
    }

    // MARK: Helpers

    /// A trigger on this kernel's /proc/pressure/memory; skips where it cannot be had (no PSI,
    /// or a kernel before 6.5 refusing unprivileged triggers).
    static func armedTrigger() throws -> PressureTrigger {
        guard FileManager.default.fileExists(atPath: "/proc/pressure/memory") else {
            throw XCTSkip("no /proc/pressure/memory (a kernel without PSI, or psi=0)")
        }
        if let trigger = PressureTrigger(path: "/proc/pressure/memory") { return trigger }
        let release = KernelRelease.read(procRoot: "/proc")
        if getuid() != 0, let release, release < KernelRelease(major: 6, minor: 5) {
            throw XCTSkip("Linux \(release) refuses unprivileged PSI triggers (6.5 and later allow them)")
        }
        XCTFail("no trigger on /proc/pressure/memory, though this kernel should give one")
        throw XCTSkip("no trigger")
    }

    /// This process's threads named `pressure-watch`.
    static func watchThreads() -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { (try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8)) == "pressure-watch\n" }.count
    }

    /// The kernel's total of `some` memory stall time, µs.
    static func someTotal() throws -> UInt64 {
        let text = try String(contentsOfFile: "/proc/pressure/memory", encoding: .utf8)
        let some = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("some ") })
        let total = try XCTUnwrap(some.split(separator: " ").first { $0.hasPrefix("total=") })
        return try XCTUnwrap(UInt64(total.dropFirst("total=".count)))
    }
}

/// A memory cgroup of the test's own, limited to 32 MiB (v1's memory controller or v2's),
/// removed at the end; skips without root or a memory controller.
final class MemoryCgroup {
    let path: String
    private let procs: String
    private let file: TemporaryDirectory

    init() throws {
        guard getuid() == 0 else { throw XCTSkip("making memory stalls needs root (a memory cgroup)") }
        let own = (try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8)) ?? ""
        var made: (path: String, limit: String)?
        for line in own.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            if fields[1].split(separator: ",").contains("memory"), FileManager.default.fileExists(atPath: "/sys/fs/cgroup/memory") {
                made = ("/sys/fs/cgroup/memory" + fields[2], "memory.limit_in_bytes")
            } else if fields[0] == "0" && made == nil, let mount = Self.cgroup2Mount() {
                let parent = mount + fields[2]
                let controllers = (try? String(contentsOfFile: parent + "/cgroup.controllers", encoding: .utf8)) ?? ""
                if controllers.split(whereSeparator: { $0 == " " || $0 == "\n" }).contains("memory") {
                    made = (parent, "memory.max")
                }
            }
        }
        guard let made else { throw XCTSkip("no memory cgroup controller to limit a process with") }
        path = made.path + "/sysstats-stall-\(getpid())"
        try? FileManager.default.removeItem(atPath: path)
        guard mkdir(path, 0o755) == 0 else { throw XCTSkip("cannot make a cgroup under \(made.path): errno \(errno)") }
        try "33554432".write(toFile: path + "/" + made.limit, atomically: false, encoding: .utf8)
        procs = path + "/cgroup.procs"
        file = try TemporaryDirectory("stall")
    }

    deinit {
        for _ in 0..<50 where rmdir(path) != 0 { usleep(100_000) }
    }

    /// Runs the stalling shell in the cgroup until `done` or `deadline`.
    func stall(until deadline: Date, done: () -> Bool) throws {
        let data = file.file("data")
        let script = "echo $$ > \(procs) && dd if=/dev/zero of=\(data) bs=1M count=64 status=none && while :; do cat \(data) > /dev/null; done"
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", script]
        try shell.run()
        defer {
            // The shell and its `cat`: everything in the cgroup.
            if let pids = try? String(contentsOfFile: procs, encoding: .utf8) {
                for pid in pids.split(separator: "\n").compactMap({ pid_t($0) }) { kill(pid, SIGKILL) }
            }
            shell.terminate()
            shell.waitUntilExit()
            try? FileManager.default.removeItem(atPath: data)
        }
        while !done() && Date() < deadline && shell.isRunning { usleep(50_000) }
    }

    private static func cgroup2Mount() -> String? {
        guard let mounts = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else { return nil }
        for line in mounts.split(separator: "\n") {
            let f = line.split(separator: " ")
            if f.count > 2 && f[2] == "cgroup2" { return String(f[1]) }
        }
        return nil
    }
}
