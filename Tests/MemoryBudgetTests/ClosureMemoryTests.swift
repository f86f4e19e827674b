import MemoryBudget
import XCTest

/// The in-test memory budget against memory a closure is known to touch.
final class ClosureMemoryTests: XCTestCase {
    static let mib: UInt64 = 1 << 20

    /// Touches `mib` MiB (every byte written, so every page is resident); the block is freed
    /// unless kept.
    static func touch(_ mib: Int) -> UnsafeMutableRawPointer {
        let block = UnsafeMutableRawPointer.allocate(byteCount: mib << 20, alignment: 4096)
        block.initializeMemory(as: UInt8.self, repeating: 1, count: mib << 20)
        return block
    }

    func testAClosureThatTouchesAndFrees32MiBRaisesThePeakButKeepsNothing() {
        let (_, use) = MemoryBudget.measure { Self.touch(32).deallocate() }
        XCTAssertTrue(use.peakWasReset, "/proc/self/clear_refs takes 5 (Linux 4.0)")
        // The test runner's other pages come and go meanwhile (31.75 MiB seen beside a shard).
        XCTAssertGreaterThanOrEqual(use.peakGrowth, 31 * Self.mib, "\(use)")
        XCTAssertLessThan(use.peakGrowth, 34 * Self.mib, "\(use)")
        XCTAssertLessThan(use.anonGrowth, 1 * Self.mib, "freed: a 32 MiB block is its own mapping, given back")
        XCTAssertEqual(MemoryBudget.check(use, MemoryLimits(peakGrowth: 40 * Self.mib, anonGrowth: Self.mib)), nil)
    }

    func testWhatAClosureKeepsIsItsAnonymousGrowthAndAFailureSaysByHowMuch() {
        let (block, use) = MemoryBudget.measure { Self.touch(16) }
        defer { block.deallocate() }
        XCTAssertGreaterThanOrEqual(use.anonGrowth, 15 * Self.mib, "\(use)")
        XCTAssertLessThan(use.anonGrowth, 17 * Self.mib, "\(use)")
        let failure = MemoryBudget.check(use, MemoryLimits(peakGrowth: 8 * Self.mib, anonGrowth: 4 * Self.mib))
        XCTAssertTrue(failure?.hasPrefix("memory budget: peak RSS grew 1") == true, failure ?? "passed")
        XCTAssertTrue(failure?.contains(" MiB, limit 8.00 MiB; anonymous memory grew 1") == true, failure ?? "passed")
        XCTAssertTrue(failure?.hasSuffix("limit 4.00 MiB") == true, failure ?? "passed")
    }

    /// The peak is reset before each measurement: a later small closure does not inherit an
    /// earlier big one's peak.
    func testEachMeasurementStartsFromTheResidentSizeNotAnEarlierPeak() {
        _ = MemoryBudget.measure { Self.touch(48).deallocate() }
        let (_, small) = MemoryBudget.measure { Self.touch(1).deallocate() }
        XCTAssertLessThan(small.peakGrowth, 4 * Self.mib, "\(small)")
        XCTAssertAssertMemoryPassesThrough()
    }

    private func XCTAssertAssertMemoryPassesThrough() {
        let value = XCTAssertMemory(MemoryLimits(peakGrowth: 8 * Self.mib)) { 42 }
        XCTAssertEqual(value, 42)
    }

    func testSizesReadAsPeopleWriteThem() {
        XCTAssertEqual(MemoryBudget.format(100), "100 B")
        XCTAssertEqual(MemoryBudget.format(512 * 1024), "512 KiB")
        XCTAssertEqual(MemoryBudget.format(3 * Self.mib / 2), "1.50 MiB")
        XCTAssertEqual(MemoryBudget.format(5 * Self.mib + Self.mib / 4), "5.25 MiB")
        XCTAssertEqual(MemoryBudget.format(Self.mib + Self.mib / 20), "1.04 MiB", "cut, not rounded")
        XCTAssertEqual(MemoryBudget.format(.max), "17592186044415.99 MiB")
    }
}
