import XCTest
import TestSupport
import AllocationCounter
import ProcFS
import SnapshotCodec

final class FanSensorsTests: XCTestCase {
    private let buffer = ReadBuffer(capacity: 64)

    /// `chip/label rpm target` of each reading, `-` for a figure not given.
    private func lines(_ s: Snapshot) -> [String] {
        s.listed[.fans].map { r in
            let text = String(decoding: r.source + [0x2F] + r.label, as: UTF8.self)
            return "\(text) \(r[FansPart.rpm].map(String.init) ?? "-") \(r[FansPart.target].map(String.init) ?? "-")"
        }
    }

    func testFansAreListedByChipThenNumberWithTheirLabelsAndTargets() {
        let fans = FanSensors(sysRoot: Fixtures.path("fans-desktop/sys"))
        var s = Snapshot()
        XCTAssertTrue(fans.read(into: &s, buffer: buffer, monotonicNs: 1))
        // A stopped fan is 0 RPM, not absent; the chip whose fan cannot be read is left out.
        XCTAssertEqual(lines(s), [
            "nct6798/fan1 1130 -", "nct6798/fan2 0 -", "nct6798/fan7 745 -",
            "dell_smm/Processor Fan 2400 2500", "dell_smm/Video Fan 0 0", "amdgpu/fan1 1500 1500",
        ])
        XCTAssertEqual(fans.names.count, 7, "the unreadable fan is found, then left out of each reading")
    }

    func testAMachineWithoutFansIsMeasuredAsNone() {
        let fans = FanSensors(sysRoot: Fixtures.path("fans-none/sys"))
        var s = Snapshot()
        XCTAssertTrue(fans.read(into: &s, buffer: buffer, monotonicNs: 1))
        XCTAssertEqual(s.listed[.fans], [])
        let missing = FanSensors(sysRoot: "/nonexistent-sysstats-root")
        XCTAssertTrue(missing.read(into: &s, buffer: buffer, monotonicNs: 1))
    }

    func testFansWhoseEveryInputFailsAreNotMeasured() throws {
        let tree = try LiveTree()
        try tree.mirror("fans-desktop")
        let fans = FanSensors(sysRoot: tree.path + "/sys")
        var s = Snapshot()
        XCTAssertTrue(fans.read(into: &s, buffer: buffer, monotonicNs: 1))
        // Rewritten in place (the reader keeps them open): no number in any of them.
        let devices = tree.path + "/sys/devices/platform/"
        for input in ["nct6775.656/hwmon/hwmon0/fan1_input", "nct6775.656/hwmon/hwmon0/fan2_input",
                      "nct6775.656/hwmon/hwmon0/fan7_input", "dell_smm_hwmon/hwmon/hwmon1/fan1_input",
                      "dell_smm_hwmon/hwmon/hwmon1/fan2_input"] {
            let handle = try XCTUnwrap(FileHandle(forWritingAtPath: devices + input))
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: Data("n/a\n".utf8))
            try handle.close()
        }
        try "x\n".write(toFile: tree.path + "/sys/devices/pci0000:00/0000:00:01.0/0000:03:00.0/hwmon/hwmon2/fan1_input",
                        atomically: false, encoding: .utf8)
        XCTAssertFalse(fans.read(into: &s, buffer: buffer, monotonicNs: 2), "n/a, never a list of zeros")
    }

    func testASteadyStateReadAllocatesNothing() {
        let fans = FanSensors(sysRoot: Fixtures.path("fans-desktop/sys"))
        var s = Snapshot()
        s.listed.reserveCapacity()
        for _ in 0..<3 { _ = fans.read(into: &s, buffer: buffer, monotonicNs: 1) }
        allocation_counter_start()
        for _ in 0..<100 { _ = fans.read(into: &s, buffer: buffer, monotonicNs: 1) }
        XCTAssertEqual(allocation_counter_stop(), 0)
        XCTAssertEqual(s.listed[.fans].count, 6)
    }
}
