import Foundation
import XCTest
import TestSupport
@testable import Sampler

/// While the process table's revision, the CPU shares' scale and the rules stand still, a
/// sample leaves the top lists as they are. The probe's check makes them anyway on such a
/// sample and counts the times they would have differed: never.
final class UnchangedListsTests: XCTestCase {
    func testOnAFixtureTheListsLeftAreTheListsMadeThroughExitsNewProcessesAndMemoryChanges() throws {
        let (sampler, machine) = try FixtureMachine.desktop()
        sampler.processProbe.checksUnchangedLists = true
        var t: UInt64 = 1
        func sample() throws {
            try machine.advanceClock(idle: 200)   // time passes: CPU shares, refreshes every 3 samples
            sampler.sample(realtimeMs: t * 1000, monotonicNs: t * 1_000_000_000)
            t += 1
        }
        for _ in 0..<6 { try sample() }   // two refreshes; the quiet samples between keep the lists
        XCTAssertGreaterThan(sampler.processProbe.unchangedListsKept, 0)
        let before = sampler.snapshot.topMemory
        // A new process with the most memory: the fork count moves, /proc is listed.
        try FileManager.default.copyItem(atPath: machine.procRoot + "/300", toPath: machine.procRoot + "/350")
        try rewrite(machine.procRoot + "/350/statm", try String(contentsOfFile: machine.procRoot + "/350/statm", encoding: .utf8),
                    "900000 800000 1000 10 0 700000 0\n")
        try rewrite(machine.procRoot + "/stat", "processes 4321", "processes 4322")
        try rewrite(machine.procRoot + "/loadavg", "3/345 12345", "3/346 350")
        try sample()
        XCTAssertEqual(sampler.snapshot.topMemory.first?.pid, 350)
        XCTAssertNotEqual(sampler.snapshot.topMemory, before)
        for _ in 0..<4 { try sample() }
        // Then an exit (fixture sample 2: firefox gone).
        try machine.advance(to: 2)
        try sample()
        XCTAssertFalse(sampler.snapshot.topMemory.contains { $0.pid == 100 })
        for _ in 0..<4 { try sample() }
        XCTAssertEqual(sampler.processProbe.unchangedListsThatChanged, 0)
        XCTAssertGreaterThan(sampler.processProbe.unchangedListsKept, 4)
        XCTAssertGreaterThan(sampler.processProbe.listsFromTouched, 3)
        XCTAssertEqual(sampler.processProbe.listsFromTouchedThatDiffered, 0)
    }

    /// On this machine's /proc (descriptors kept, idle processes skipped): children that
    /// start, grow, spin and exit between samples taken every 0.1 s.
    func testOnRealProcTheListsLeftAreTheListsMadeWhileProcessesComeGrowAndGo() throws {
        var config = SamplerConfiguration()
        config.measureSelf = false
        config.builtinBookmarks = false
        config.intervalMs = 100
        config.processRefreshMs = 300
        let sampler = Sampler(configuration: config)
        sampler.processProbe.checksUnchangedLists = true
        var children: [Process] = []
        defer { for c in children where c.isRunning { c.terminate(); c.waitUntilExit() } }
        func spawn(_ script: String) throws {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            p.arguments = ["-c", script]
            try p.run()
            children.append(p)
        }
        for i in 0..<60 {
            switch i % 12 {
            case 0: try spawn("sleep 0.35")
            case 3: try spawn("x=$(head -c 3000000 /dev/zero | tr '\\0' a); sleep 0.5")   // grows, then sleeps
            case 6: try spawn("exec timeout 1 sh -c 'while :; do :; done'")
            case 9: if let c = children.first(where: { $0.isRunning }) { c.terminate() }
            default: break
            }
            sampler.sample(realtimeMs: UInt64(Date().timeIntervalSince1970 * 1000),
                           monotonicNs: DispatchTime.now().uptimeNanoseconds)
            usleep(100_000)
        }
        XCTAssertEqual(sampler.processProbe.unchangedListsThatChanged, 0,
                       "of \(sampler.processProbe.unchangedListsKept) samples that kept their lists")
        XCTAssertGreaterThan(sampler.processProbe.listsFromTouched, 10)
        XCTAssertEqual(sampler.processProbe.listsFromTouchedThatDiffered, 0,
                       "lists made from the processes touched since the refresh are those of a pass over all")
    }
}
