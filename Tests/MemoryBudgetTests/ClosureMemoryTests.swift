import Dispatch
#if canImport(Glibc)
import Glibc
#endif
@testable import MemoryBudget
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

    /// A closure that takes the process to a new high: VmHWM rose during it, and is its exact
    /// peak, however briefly the memory was held (here: freed at once, which no sample sees).
    func testANewHighOfTheProcessIsTheKernelsExactPeak() throws {
        _ = MemoryBudget.trimAllocator()
        let now = MemoryBudget.status()
        let mib = Int(((now.hwm > now.rss ? now.hwm - now.rss : 0) + 24 * Self.mib) / Self.mib)
        try XCTSkipIf(mib > 1024, "the process peaked at \(MemoryBudget.format(now.hwm)), far above its resident size")
        let (_, use) = MemoryBudget.measure { Self.touch(mib).deallocate() }
        XCTAssertTrue(use.peakIsExact, "\(use)")
        // The test runner's other pages come and go meanwhile (31.75 MiB seen for 32 beside a
        // shard), and the kernel's counters are per-CPU estimates.
        XCTAssertGreaterThanOrEqual(use.peakGrowth, UInt64(mib - 2) * Self.mib, "\(use)")
        XCTAssertLessThan(use.peakGrowth, UInt64(mib + 2) * Self.mib, "\(use)")
        XCTAssertLessThan(use.anonGrowth, 1 * Self.mib, "freed: a large block is its own mapping, given back")
        XCTAssertEqual(MemoryBudget.check(use, MemoryLimits(peakGrowth: UInt64(mib + 8) * Self.mib, anonGrowth: Self.mib)), nil)
    }

    /// Below the process's earlier high VmHWM does not move: the peak is the sampling
    /// thread's highest reading, which a block held a few milliseconds is in.
    func testAPeakBelowAnEarlierHighIsSampled() {
        Self.touch(64).deallocate()
        let (_, use) = MemoryBudget.measure {
            let block = Self.touch(16)
            usleep(20_000)
            block.deallocate()
        }
        XCTAssertFalse(use.peakIsExact, "\(use)")
        XCTAssertGreaterThan(use.peakSamples, 10, "\(use)")
        XCTAssertGreaterThanOrEqual(use.peakGrowth, 15 * Self.mib + Self.mib / 2, "\(use)")
        XCTAssertLessThan(use.peakGrowth, 18 * Self.mib, "\(use)")
    }

    /// The process's own peak is left as it was: writing 5 to /proc/self/clear_refs reset
    /// VmHWM and the ru_maxrss wait4 reports, and a test run under `sysstats budget` read a
    /// 1 MiB exact peak for 101 MiB. (The kernel's high-water mark can fall by a few hundred
    /// KiB when memory is unmapped: its counters are per-CPU estimates.)
    func testMeasuringLeavesTheProcesssOwnPeakAsItWas() {
        Self.touch(48).deallocate()
        let hwm = MemoryBudget.status().hwm
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let maxRSS = UInt64(max(usage.ru_maxrss, 0)) * 1024
        _ = MemoryBudget.measure { Self.touch(1).deallocate() }
        XCTAssertGreaterThan(MemoryBudget.status().hwm, hwm - 4 * Self.mib, "VmHWM")
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        XCTAssertGreaterThan(UInt64(max(usage.ru_maxrss, 0)) * 1024, maxRSS - 4 * Self.mib, "ru_maxrss")
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

    /// 16 MiB of small blocks freed below one still held stay in glibc's heap until
    /// malloc_trim(0) gives them back: what the allocator kept, reported apart from what the
    /// closure kept (4 KiB).
    func testWhatTheAllocatorKeptIsToldApartFromWhatTheClosureKept() {
        let (last, use) = MemoryBudget.measure { () -> UnsafeMutableRawPointer in
            var blocks: [UnsafeMutableRawPointer] = []
            blocks.reserveCapacity(4096)
            for _ in 0..<4096 {
                let block = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 16)
                block.initializeMemory(as: UInt8.self, repeating: 1, count: 4096)
                blocks.append(block)
            }
            let last = blocks.removeLast()
            for block in blocks { block.deallocate() }
            return last
        }
        defer { last.deallocate() }
        XCTAssertTrue(use.trimmed, "glibc has malloc_trim")
        XCTAssertGreaterThanOrEqual(use.allocatorKept, 12 * Self.mib, "\(use)")
        XCTAssertLessThan(use.anonGrowth, 2 * Self.mib, "\(use)")
    }

    /// Once a large block was freed glibc raises its thresholds, and a later closure's freed
    /// 16 MiB stays in its heap: a closure that freed everything read as keeping 23 MiB.
    func testABlockFreedAfterAnEarlierLargeFreeIsNotCountedAsKept() {
        Self.touch(24).deallocate()
        let (_, use) = MemoryBudget.measure { Self.touch(16).deallocate() }
        XCTAssertLessThan(use.anonGrowth, 1 * Self.mib, "\(use)")
        XCTAssertGreaterThanOrEqual(use.allocatorKept, 14 * Self.mib, "glibc kept the block: \(use)")
    }

    /// Two measurements at once in one process (Swift Testing runs tests in parallel) read
    /// each other's memory: four closures touching 64 MiB each read 0 B to 128 MiB. Both fail,
    /// saying to serialise; the closures still run and their results come back; nesting is
    /// refused alike; the next measurement alone is measured.
    func testMeasurementsThatOverlapFailSayingToSerialise() {
        final class Inner: @unchecked Sendable { var result = 0; var use: MemoryUse? }
        let inner = Inner()
        let (value, outer) = MemoryBudget.measure { () -> Int in
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                let measured = MemoryBudget.measure { 7 }
                inner.result = measured.result
                inner.use = measured.use
                done.signal()
            }
            done.wait()
            return 6
        }
        let message = "memory budget: " + MemoryBudget.oneAtATime
        XCTAssertEqual(message, "memory budget: MemoryBudget.measure runs one closure at a time: serialise these tests (.serialized / swift test --no-parallel)")
        XCTAssertEqual(value, 6)
        XCTAssertEqual(inner.result, 7, "a refused closure runs too")
        XCTAssertEqual(inner.use.flatMap { MemoryBudget.check($0, MemoryLimits()) }, message, "the one that began second")
        XCTAssertEqual(MemoryBudget.check(outer, MemoryLimits()), message, "the one it ran beside")
        let (nested, around) = MemoryBudget.measure { MemoryBudget.measure { 1 } }
        XCTAssertEqual(nested.result, 1)
        XCTAssertEqual(nested.use.refusal, MemoryBudget.oneAtATime)
        XCTAssertEqual(around.refusal, MemoryBudget.oneAtATime)
        XCTAssertNil(MemoryBudget.measure { 1 }.use.refusal, "one at a time again")
    }

    /// A later small closure does not inherit an earlier big one's peak: below the process's
    /// high it is sampled, not the high.
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
