import Foundation
import XCTest
import TestSupport
@testable import Sampler

/// The sampler lists the proc root only when /proc/stat's `processes` or /proc/loadavg's
/// task total or last pid moved since the last sample (ProcessTable's change counters).
final class MembershipSkipTests: XCTestCase {
    private func rewrite(_ path: String, _ from: String, _ to: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(text.contains(from), path)
        // In place (same inode): the sampler keeps /proc/stat and /proc/loadavg open.
        guard let f = fopen(path, "w") else { throw POSIXError(.EIO) }
        defer { fclose(f) }
        fputs(text.replacingOccurrences(of: from, with: to), f)
    }

    private func desktop() throws -> (Sampler, FixtureMachine) {
        let machine = try FixtureMachine("sampler-desktop")
        var config = SamplerConfiguration()
        config.procRoot = machine.procRoot
        config.sysRoot = machine.sysRoot
        config.measureSelf = false
        config.builtinBookmarks = false
        try machine.advance(to: 1)
        return (Sampler(configuration: config), machine)
    }

    func testANewProcessIsSeenOnlyOnceTheForkCountMoved() throws {
        let (sampler, machine) = try desktop()
        sampler.sample(realtimeMs: 1_000, monotonicNs: 1_000_000_000)
        XCTAssertEqual(sampler.snapshot.processCount, 7)
        try FileManager.default.copyItem(atPath: machine.procRoot + "/300", toPath: machine.procRoot + "/350")
        // Counters unchanged: no task was created as far as the kernel says; /proc is not listed.
        sampler.sample(realtimeMs: 2_000, monotonicNs: 2_000_000_000)
        XCTAssertEqual(sampler.snapshot.processCount, 7)
        try rewrite(machine.procRoot + "/stat", "processes 4321", "processes 4322")
        try rewrite(machine.procRoot + "/loadavg", "3/345 12345", "3/346 350")
        sampler.sample(realtimeMs: 3_000, monotonicNs: 3_000_000_000)
        XCTAssertEqual(sampler.snapshot.processCount, 8)
    }

    func testAnExitWithoutAForkIsListedAndShownInThatSample() throws {
        let (sampler, machine) = try desktop()
        sampler.sample(realtimeMs: 1_000, monotonicNs: 1_000_000_000)
        sampler.sample(realtimeMs: 2_000, monotonicNs: 2_000_000_000)   // unchanged: not listed
        // Sample 2 of the fixture: firefox (pid 100) reaped, the task total fell 345 → 340,
        // the fork count stayed 4321.
        try machine.advance(to: 2)
        sampler.sample(realtimeMs: 3_000, monotonicNs: 3_000_000_000)
        XCTAssertEqual(sampler.snapshot.processCount, 6)
        XCTAssertEqual(sampler.snapshot.exits.first?.pid, 100)
        XCTAssertEqual(sampler.snapshot.exits.first?.freedKiB, 420_000)
    }

    func testUnreadableCountersMeanAListingEverySample() throws {
        let (sampler, machine) = try desktop()
        try rewrite(machine.procRoot + "/stat", "processes 4321\n", "")
        sampler.sample(realtimeMs: 1_000, monotonicNs: 1_000_000_000)
        try FileManager.default.copyItem(atPath: machine.procRoot + "/300", toPath: machine.procRoot + "/350")
        sampler.sample(realtimeMs: 2_000, monotonicNs: 2_000_000_000)
        XCTAssertEqual(sampler.snapshot.processCount, 8)
    }
}
