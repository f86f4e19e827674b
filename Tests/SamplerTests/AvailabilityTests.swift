import Foundation
import SnapshotCodec
import XCTest
@testable import Sampler

/// A part whose source is missing, unreadable or not yet primed is marked not available
/// (the renderers show `n/a`), never left at its previous value or at 0 as if measured.
final class AvailabilityTests: XCTestCase {
    static let t0: UInt64 = 1_763_712_345_000

    func sampler(_ machine: FixtureMachine, measureSelf: Bool = false) -> Sampler {
        var config = SamplerConfiguration()
        config.procRoot = machine.procRoot
        config.sysRoot = machine.sysRoot
        config.measureSelf = measureSelf
        config.builtinBookmarks = false
        return Sampler(configuration: config)
    }

    /// The listed parts of a machine without fans, RAPL or a backlight: measured, none.
    static let noListedParts = SnapshotSections(tag: .fans)!.union(SnapshotSections(tag: .power)!)
        .union(SnapshotSections(tag: .backlight)!)

    func testEveryPartIsAvailableOnceTheCountersArePrimed() throws {
        let machine = try FixtureMachine("sampler-desktop")
        try machine.advance(to: 1)
        let s = sampler(machine, measureSelf: true)
        s.sample(realtimeMs: Self.t0, monotonicNs: 1_000_000_000)
        XCTAssertEqual(s.snapshot.available, SnapshotSections.fixedLayout.subtracting(.cpu).union(.gpu).union(Self.noListedParts), "no CPU shares from one reading (the fixture has no network, disk, sensor or cpufreq files; no GPU, measured)")
        try machine.advance(to: 2)
        s.sample(realtimeMs: Self.t0 + 1000, monotonicNs: 2_000_000_000)
        XCTAssertEqual(s.snapshot.available, SnapshotSections.fixedLayout.union(.gpu).union(Self.noListedParts))
    }

    func testMissingMeminfoAndLoadavgMakeTheirPartsUnavailableNotZero() throws {
        let machine = try FixtureMachine("sampler-desktop")
        try machine.advance(to: 1)
        try FileManager.default.removeItem(atPath: machine.procRoot + "/meminfo")
        try FileManager.default.removeItem(atPath: machine.procRoot + "/loadavg")
        let s = sampler(machine)
        s.sample(realtimeMs: Self.t0, monotonicNs: 1_000_000_000)
        try machine.advance(to: 2)
        try FileManager.default.removeItem(atPath: machine.procRoot + "/meminfo")
        try FileManager.default.removeItem(atPath: machine.procRoot + "/loadavg")
        s.sample(realtimeMs: Self.t0 + 1000, monotonicNs: 2_000_000_000)
        XCTAssertEqual(s.snapshot.available, SnapshotSections.fixedLayout.subtracting([.memory, .load, .sampler]).union(.gpu).union(Self.noListedParts))
        // What readers see: the parts are absent from the file, their fields zeroed.
        var bytes: [UInt8] = []
        s.snapshot.encode(into: &bytes)
        let decoded = try bytes.withUnsafeBytes { try Snapshot.decode($0) }
        XCTAssertEqual(decoded.available, SnapshotSections.fixedLayout.subtracting([.memory, .load, .sampler]).union(.gpu).union(Self.noListedParts))
        XCTAssertEqual(decoded.memory, MemoryFigures())
    }

    func testAMeminfoThatStopsParsingMakesMemoryUnavailableInsteadOfKeepingTheLastFigures() throws {
        let machine = try FixtureMachine("sampler-desktop")
        try machine.advance(to: 1)
        let s = sampler(machine)
        s.sample(realtimeMs: Self.t0, monotonicNs: 1_000_000_000)
        XCTAssertTrue(s.snapshot.available.contains(.memory))
        // Rewritten in place (the reader keeps the file open, as on a real /proc).
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: machine.procRoot + "/meminfo"))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data("garbage\n".utf8))
        try handle.close()
        s.sample(realtimeMs: Self.t0 + 1000, monotonicNs: 2_000_000_000)
        XCTAssertFalse(s.snapshot.available.contains(.memory))
    }

    func testAProcRootThatCannotBeReadLeavesEverythingButTheBatteryUnavailableWithoutExits() throws {
        var config = SamplerConfiguration()
        config.procRoot = "/nonexistent-sysstats-proc"
        config.sysRoot = "/nonexistent-sysstats-sys"
        config.measureSelf = false
        config.builtinBookmarks = false
        let s = Sampler(configuration: config)
        for step in 0..<3 as Range<UInt64> {
            s.sample(realtimeMs: Self.t0 + step * 1000, monotonicNs: (step + 1) * 1_000_000_000)
        }
        XCTAssertEqual(s.snapshot.available, SnapshotSections([.battery, .gpu]).union(Self.noListedParts),
                       "a sysfs without power supplies, GPUs, fans, RAPL or a backlight is a desktop without them, measured")
        XCTAssertEqual(s.snapshot.exits, [])
    }

    func testWithoutSelfMeasurementTheSamplerPartIsNotAvailable() throws {
        let machine = try FixtureMachine("sampler-desktop")
        try machine.advance(to: 1)
        let s = sampler(machine, measureSelf: false)
        s.sample(realtimeMs: Self.t0, monotonicNs: 1_000_000_000)
        XCTAssertFalse(s.snapshot.available.contains(.sampler))
    }
}
