import XCTest
import TestSupport
import AllocationCounter
import ProcFS

/// The hot path's promise for the net, disk, temperature, frequency and file-system
/// readers: once warmed up (files open, buffer grown), an update allocates nothing.
final class SensorReaderAllocationTests: XCTestCase {
    private let buffer = ReadBuffer(capacity: 256)

    /// Allocations made by 100 calls of `step` after 3 warm-up calls.
    private func allocations(_ step: () -> Void) -> Int {
        for _ in 0..<3 { step() }
        allocation_counter_start()
        for _ in 0..<100 { step() }
        return allocation_counter_stop()
    }

    func testTheCounterSeesAnAllocation() {
        var kept: [Int] = []
        XCTAssertGreaterThanOrEqual(allocations { kept = [Int](repeating: 7, count: Int.random(in: 100...200)) }, 100)
        XCTAssertEqual(kept.first, 7)
    }

    func testNetDevKeepingThePreviousReadingAllocatesNothing() {
        let net = NetDevReader(procRoot: fixtureProcRoot("net-dev"))
        var previous: NetDevStats?, found = 0
        XCTAssertEqual(allocations {
            previous = net.update(buffer)  // kept, as a probe computing rates does
            if previous?.interface(named: FixedName("lo")) != nil { found += 1 }
        }, 0)
        XCTAssertEqual(found, 103)
        let missing = NetDevReader(procRoot: missingProcRoot)
        XCTAssertEqual(allocations { _ = missing.update(buffer) }, 0)
    }

    func testDiskStatsKeepingThePreviousReadingAllocatesNothing() {
        let disks = DiskStatsReader(procRoot: Fixtures.path("disks-modern/proc"), sysRoot: Fixtures.path("disks-modern/sys"))
        var previous: DiskStats?, found = 0
        XCTAssertEqual(allocations {
            previous = disks.update(buffer)
            if previous?.disk(named: FixedName("sda")) != nil { found += 1 }
        }, 0)
        XCTAssertEqual(found, 103)
    }

    func testTemperaturesAllocateNothing() {
        let sensors = TemperatureSensors(sysRoot: Fixtures.path("hwmon-amd/sys"),
                                         names: ["k10temp", "amdgpu/junction", "nct6798/CPUTIN", "Tccd1"])
        var read = 0
        XCTAssertEqual(allocations { if sensors.update(buffer)?.millidegrees.count == 4 { read += 1 } }, 0)
        XCTAssertEqual(read, 103)
    }

    func testCPUFrequencyAllocatesNothingFromCpufreqOrCpuinfo() {
        let cpufreq = CPUFrequencyReader(sysRoot: Fixtures.path("cpufreq-basic/sys"), procRoot: Fixtures.path("cpufreq-basic/proc"))
        let cpuinfo = CPUFrequencyReader(sysRoot: Fixtures.path("cpufreq-vm/sys"), procRoot: Fixtures.path("cpufreq-vm/proc"))
        var read = 0
        XCTAssertEqual(allocations { if cpufreq.update(buffer)?.count == 3 { read += 1 } }, 0)
        XCTAssertEqual(allocations { if cpuinfo.update(buffer)?.source == .cpuinfo { read += 1 } }, 0)
        XCTAssertEqual(read, 206)
    }

    func testFileSystemSpaceAllocatesNothing() {
        let space = FileSystemSpace(path: "/")
        var read = 0
        XCTAssertEqual(allocations { if space.update() != nil { read += 1 } }, 0)
        XCTAssertEqual(read, 103)
    }
}
