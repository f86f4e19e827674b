import XCTest
import TestSupport
import AllocationCounter
import ProcFS
import SnapshotCodec

final class BacklightDevicesTests: XCTestCase {
    private let buffer = ReadBuffer(capacity: 64)
    private let devices = "/sys/devices/pci0000:00/0000:00:02.0/"

    /// `type/device percent brightness max` of each reading, `-` for a figure not given.
    private func lines(_ s: Snapshot) -> [String] {
        s.listed[.backlight].map { r in
            let text = String(decoding: r.source + [0x2F] + r.label, as: UTF8.self)
            let figures = [BacklightPart.percent, BacklightPart.brightness, BacklightPart.maximum].map { f in
                r[f].map { "\($0)" } ?? "-"
            }
            return "\(text) \(figures.joined(separator: " "))"
        }
    }

    /// Rewrites the file at `relative` under `tree` in place: the reader keeps it open.
    private func rewrite(_ tree: LiveTree, _ relative: String, _ text: String) throws {
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: tree.path + relative), relative)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    func testDevicesAreListedFirmwareThenPlatformThenRawEachByName() {
        let backlight = BacklightDevices(sysRoot: Fixtures.path("backlight-laptop/sys"))
        var s = Snapshot()
        XCTAssertTrue(backlight.read(into: &s, buffer: buffer, monotonicNs: 1))
        // The kernel's order of preference, so the block's default is ACPI's; the link of a
        // device that is gone has no type and is left out.
        XCTAssertEqual(lines(s), [
            "firmware/acpi_video0 8000 12 15", "platform/thinkpad_screen 4667 7 15",
            "raw/ddcci13 3500 35 100", "raw/intel_backlight 8000 76800 96000",
        ])
    }

    func testABrightnessTheHardwareCannotGiveIsTheOneLastSet() {
        let backlight = BacklightDevices(sysRoot: Fixtures.path("backlight-laptop/sys"))
        var s = Snapshot()
        XCTAssertTrue(backlight.read(into: &s, buffer: buffer, monotonicNs: 1))
        // ddcci13's actual_brightness cannot be read: its brightness file stands in.
        XCTAssertTrue(lines(s).contains("raw/ddcci13 3500 35 100"), "\(lines(s))")
    }

    func testAMachineWithoutABacklightIsMeasuredAsNone() {
        let desktop = BacklightDevices(sysRoot: Fixtures.path("fans-none/sys"))
        var s = Snapshot()
        XCTAssertTrue(desktop.read(into: &s, buffer: buffer, monotonicNs: 1))
        XCTAssertEqual(s.listed[.backlight], [])
        let missing = BacklightDevices(sysRoot: "/nonexistent-sysstats-root")
        XCTAssertTrue(missing.read(into: &s, buffer: buffer, monotonicNs: 1))
        XCTAssertNil(missing.takeNotice())
    }

    func testAMaximumOfZeroGivesNoPercentButKeepsTheSteps() throws {
        let tree = try LiveTree()
        try tree.mirror("backlight-laptop")
        let backlight = BacklightDevices(sysRoot: tree.path + "/sys")
        try rewrite(tree, devices + "drm/card1/card1-eDP-1/intel_backlight/max_brightness", "0\n")
        var s = Snapshot()
        XCTAssertTrue(backlight.read(into: &s, buffer: buffer, monotonicNs: 1))
        XCTAssertEqual(lines(s).last, "raw/intel_backlight - 76800 0", "no share of nothing: not 0 %, not 100 %")
    }

    func testHugeNumbersSaturateAndGarbageIsNoFigure() throws {
        let tree = try LiveTree()
        try tree.mirror("backlight-laptop")
        let backlight = BacklightDevices(sysRoot: tree.path + "/sys")
        let intel = devices + "drm/card1/card1-eDP-1/intel_backlight/"
        try rewrite(tree, intel + "actual_brightness", "99999999999999999999999999\n")
        try rewrite(tree, "/sys/devices/platform/thinkpad_acpi/backlight/thinkpad_screen/max_brightness", "-15\n")
        try rewrite(tree, devices + "backlight/acpi_video0/actual_brightness", "12 of 15\n")
        var s = Snapshot()
        XCTAssertTrue(backlight.read(into: &s, buffer: buffer, monotonicNs: 1))
        XCTAssertEqual(lines(s), [
            "firmware/acpi_video0 8000 12 15",          // not a number: the value last set stands in
            "platform/thinkpad_screen - 7 -",           // a maximum that is no number: no share
            "raw/ddcci13 3500 35 100",
            "raw/intel_backlight 10000 9223372036854775807 96000",   // saturated, and no more than the whole
        ])
    }

    func testADeviceWithoutABrightnessIsLeftOutAndNoneReadableIsNotMeasured() throws {
        let tree = try LiveTree()
        try tree.mirror("backlight-laptop")
        let backlight = BacklightDevices(sysRoot: tree.path + "/sys")
        let intel = devices + "drm/card1/card1-eDP-1/intel_backlight/"
        try rewrite(tree, intel + "actual_brightness", "n/a\n")
        try rewrite(tree, intel + "brightness", "\n")
        var s = Snapshot()
        XCTAssertTrue(backlight.read(into: &s, buffer: buffer, monotonicNs: 1))
        XCTAssertEqual(lines(s).count, 3, "the Intel panel is left out this time: \(lines(s))")
        // ddcci13's actual_brightness is a folder: its brightness is its only figure.
        for file in ["backlight/acpi_video0/actual_brightness", "backlight/acpi_video0/brightness",
                     "drm/card1/card1-DP-1/i2c-13/13-0037/ddcci13/backlight/ddcci13/brightness"] {
            try rewrite(tree, devices + file, "x\n")
        }
        let thinkpad = "/sys/devices/platform/thinkpad_acpi/backlight/thinkpad_screen/"
        try rewrite(tree, thinkpad + "actual_brightness", "x\n")
        try rewrite(tree, thinkpad + "brightness", "x\n")
        XCTAssertFalse(backlight.read(into: &s, buffer: buffer, monotonicNs: 2), "n/a, never a list without figures")
    }

    func testMoreDevicesThanThePartKeepsAreCutByPreference() throws {
        let tree = try LiveTree()
        try tree.mirror("backlight-laptop")
        let folder = tree.path + "/sys/class/backlight/"
        // Ten raw monitors after the laptop's own: the firmware and platform devices stay.
        for i in 0..<10 {
            let device = folder + "ddcci\(20 + i)"
            try FileManager.default.createDirectory(atPath: device, withIntermediateDirectories: false)
            for (file, text) in [("type", "raw\n"), ("max_brightness", "100\n"), ("actual_brightness", "\(i)\n")] {
                try text.write(toFile: device + "/" + file, atomically: false, encoding: .utf8)
            }
        }
        let backlight = BacklightDevices(sysRoot: tree.path + "/sys")
        var s = Snapshot()
        XCTAssertTrue(backlight.read(into: &s, buffer: buffer, monotonicNs: 1))
        XCTAssertEqual(lines(s).count, BacklightPart.part.maximumReadings)
        XCTAssertEqual(Array(lines(s).prefix(3)), ["firmware/acpi_video0 8000 12 15", "platform/thinkpad_screen 4667 7 15",
                                                   "raw/ddcci13 3500 35 100"])
        XCTAssertEqual(lines(s).last, "raw/ddcci24 400 4 100", "by name: ddcci13, then ddcci20 to ddcci24")
    }

    func testASteadyStateReadAllocatesNothing() {
        let backlight = BacklightDevices(sysRoot: Fixtures.path("backlight-laptop/sys"))
        var s = Snapshot()
        s.listed.reserveCapacity()
        for _ in 0..<3 { _ = backlight.read(into: &s, buffer: buffer, monotonicNs: 1) }
        allocation_counter_start()
        for _ in 0..<100 { _ = backlight.read(into: &s, buffer: buffer, monotonicNs: 1) }
        XCTAssertEqual(allocation_counter_stop(), 0)
        XCTAssertEqual(s.listed[.backlight].count, 4)
    }
}
