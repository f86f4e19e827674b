import AllocationCounter
import Foundation
import ProcFS
import TestSupport
import XCTest

/// The GPUs in sysfs, on trees laid out as the kernel's amdgpu, i915 and xe drivers write
/// them (Tests/Fixtures/make-gpu-fixtures.py), and the NVIDIA helper's frames.
final class GPUCardsTests: XCTestCase {
    let buffer = ReadBuffer(capacity: 4096)

    func readings(_ cards: GPUCards, atNs ns: UInt64) -> [GPUReading] {
        var r: [GPUReading] = []
        cards.update(buffer, monotonicNs: ns, into: &r)
        return r
    }

    func testAmdgpuGivesEveryFigureAndASleepingCardIsIdleWithoutBeingRead() {
        let cards = GPUCards(sysRoot: Fixtures.path("gpu-amdgpu/sys"))
        XCTAssertEqual(cards.count, 2, "card0 and card1; not the connectors, render nodes or version")
        let r = readings(cards, atNs: 1_000_000_000)
        XCTAssertEqual(r.map(\.index), [0, 1])
        XCTAssertEqual(r[0].driver.description, "amdgpu")
        XCTAssertEqual(r[0].name.description, "1002:164e", "no product_name: the PCI id")
        XCTAssertEqual(r[0].known, GPUReading.busyKnown, "asleep: idle, its 99 % file not read")
        XCTAssertEqual(r[0].busy, 0)
        let g = r[1]
        XCTAssertEqual(g.name.description, "AMD Radeon RX 6800")
        XCTAssertEqual(g.known, 0xFF, "every figure")
        XCTAssertEqual(g.busy, 3_700)
        XCTAssertEqual(g.memoryBusy, 1_200)
        XCTAssertEqual(g.vramUsedBytes, 6_442_450_944)
        XCTAssertEqual(g.vramTotalBytes, 17_163_091_968)
        XCTAssertEqual(g.gttUsedBytes, 104_857_600)
        XCTAssertEqual(g.gttTotalBytes, 8_589_934_592)
        XCTAssertEqual(g.milliCelsius, 61_000, "temp1 (edge)")
        XCTAssertEqual(g.milliwatts, 215_400, "power1_average, µW")
        XCTAssertEqual(g.fan, 1_450)
        XCTAssertEqual(g.clockMHz, 2_105, "freq1_input, Hz")
    }

    func testI915BusyIsTheShareOfTheIntervalOutsideRC6() throws {
        let tree = try LiveTree()
        try tree.mirror("gpu-i915")
        let cards = GPUCards(sysRoot: tree.path + "/sys")
        XCTAssertEqual(cards.count, 1)
        var r = readings(cards, atNs: 10_000_000_000)
        XCTAssertEqual(r[0].driver.description, "i915")
        XCTAssertEqual(r[0].clockMHz, 1_300, "gt_act_freq_mhz: the actual clock, not the requested one")
        XCTAssertEqual(r[0].known, GPUReading.clockKnown, "busy needs two readings")
        let rc6 = tree.path + "/sys/devices/pci0000:00/0000:00:02.0/drm/card0/gt/gt0/rc6_residency_ms"
        try Data("100750\n".utf8).write(to: URL(fileURLWithPath: rc6))
        r = readings(cards, atNs: 11_000_000_000)
        XCTAssertEqual(r[0].busy, 2_500, "750 ms of 1000 idle")
        try Data("100700\n".utf8).write(to: URL(fileURLWithPath: rc6))
        r = readings(cards, atNs: 12_000_000_000)
        XCTAssertEqual(r[0].busy, 10_000, "a counter that went back: no idle time counted, never below 0")
    }

    func testXeBusyFromIdleResidencyAndPowerFromTheEnergyCounter() throws {
        let tree = try LiveTree()
        try tree.mirror("gpu-xe")
        let cards = GPUCards(sysRoot: tree.path + "/sys")
        var r = readings(cards, atNs: 5_000_000_000)
        XCTAssertEqual(r[0].driver.description, "xe")
        XCTAssertEqual(r[0].name.description, "8086:e20b")
        XCTAssertEqual(r[0].clockMHz, 2_400)
        XCTAssertEqual(r[0].known, GPUReading.clockKnown)
        let device = tree.path + "/sys/devices/pci0000:00/0000:00:01.0/0000:03:00.0"
        try Data("5100\n".utf8).write(to: URL(fileURLWithPath: device + "/tile0/gt0/gtidle/idle_residency_ms"))
        try Data("31000000\n".utf8).write(to: URL(fileURLWithPath: device + "/hwmon/hwmon4/energy1_input"))
        r = readings(cards, atNs: 7_000_000_000)
        XCTAssertEqual(r[0].busy, 9_500, "100 ms idle of 2000")
        XCTAssertEqual(r[0].milliwatts, 15_000, "30 J over 2 s")
        XCTAssertEqual(r[0].known, GPUReading.clockKnown | GPUReading.busyKnown | GPUReading.powerKnown)
    }

    func testCardsWithoutFiguresInSysfsAreLeftOut() {
        XCTAssertEqual(GPUCards(sysRoot: Fixtures.path("gpu-none/sys")).count, 0, "virtio-gpu gives no figures")
        XCTAssertEqual(GPUCards(sysRoot: Fixtures.path("gpu-nvidia/sys")).count, 0, "NVIDIA's come from NVML")
        XCTAssertEqual(GPUCards(sysRoot: "/nonexistent").count, 0)
    }

    func testASteadyUpdateAllocatesNothing() {
        let cards = GPUCards(sysRoot: Fixtures.path("gpu-amdgpu/sys"))
        var r: [GPUReading] = []
        var ns: UInt64 = 1_000_000_000
        for _ in 0..<3 { ns += 1_000_000_000; cards.update(buffer, monotonicNs: ns, into: &r) }
        allocation_counter_start()
        for _ in 0..<50 { ns += 1_000_000_000; cards.update(buffer, monotonicNs: ns, into: &r) }
        XCTAssertEqual(allocation_counter_stop(), 0)
        XCTAssertEqual(r.count, 2)
    }

    // MARK: - The NVIDIA helper's frames

    func frames(_ text: String, into readings: inout [GPUReading], output: NVMLHelperOutput = NVMLHelperOutput()) -> Bool {
        Array(text.utf8).withUnsafeBytes { output.append($0) }
        return output.takeFrames(into: &readings)
    }

    func testAFrameGivesEachCardAndAFigureNVMLLacksStaysUnknown() {
        var r: [GPUReading] = []
        XCTAssertTrue(frames("gpu 0 37 12 6442450944 25769803776 61 215400 2520 45 NVIDIA GeForce RTX 4090\n"
                             + "proc 4242 0 1073741824\ngpu 1 - - - - 40 - 1200 - Tesla T4\nend\n", into: &r))
        XCTAssertEqual(r.count, 2)
        XCTAssertEqual(r[0].name.description, "NVIDIA GeForce RTX 4090")
        XCTAssertEqual(r[0].driver.description, "nvidia")
        XCTAssertEqual(r[0].known, 0xFF & ~GPUReading.gttKnown)
        XCTAssertEqual(r[0].busy, 3_700)
        XCTAssertEqual(r[0].vramUsedBytes, 6_442_450_944)
        XCTAssertEqual(r[0].milliCelsius, 61_000)
        XCTAssertEqual(r[0].milliwatts, 215_400)
        XCTAssertEqual(r[0].clockMHz, 2_520)
        XCTAssertEqual(r[1].index, 1)
        XCTAssertEqual(r[1].known, GPUReading.temperatureKnown | GPUReading.clockKnown)
    }

    func testAFrameSplitAcrossReadsCountsWhenWholeAndTheLastWholeFrameWins() {
        let output = NVMLHelperOutput()
        var r: [GPUReading] = []
        XCTAssertFalse(frames("gpu 0 10 - - - - - - - A\n", into: &r, output: output))
        XCTAssertTrue(r.isEmpty)
        XCTAssertTrue(frames("end\ngpu 0 20 - - - - - - - A\nend\ngpu 0 30 - -", into: &r, output: output))
        XCTAssertEqual(r.map(\.busy), [2_000], "the last whole frame")
        XCTAssertTrue(frames(" - - - - - - A\nend\n", into: &r, output: output))
        XCTAssertEqual(r.map(\.busy), [3_000])
    }

    func testHostileLinesAreSkippedAndFiguresClamped() {
        var r: [GPUReading] = []
        let huge = "99999999999999999999999"
        XCTAssertTrue(frames("gpu x 1 - - - - - - - bad index\ngpu 0 1\ngpu 300 - - - - - - - - index over 255\n"
                             + "gpu 0 \(huge) 250 - - 99999999999 99999999999 - - over\nbogus\n\nend\n", into: &r))
        XCTAssertEqual(r.count, 1, "only the readable line")
        XCTAssertEqual(r[0].busy, 10_000, "a figure past 64 bits saturates, then clamps to 100 %")
        XCTAssertEqual(r[0].memoryBusy, 10_000, "250 % clamped to 100")
        XCTAssertEqual(r[0].milliCelsius, .max, "clamped")
        XCTAssertEqual(r[0].milliwatts, .max)
        var many = ""
        for i in 0..<20 { many += "gpu \(i) 1 - - - - - - - c\n" }
        XCTAssertTrue(frames(many + "end\n", into: &r))
        XCTAssertEqual(r.count, GPUCards.maximumCards)
    }

    func testAnErrorLineIsKeptAndALineLongerThanTheBufferIsDropped() {
        let output = NVMLHelperOutput()
        var r: [GPUReading] = []
        XCTAssertTrue(frames("error nvmlInit_v2: Driver Not Loaded\nend\n", into: &r, output: output))
        XCTAssertEqual(String(decoding: output.error, as: UTF8.self), "nvmlInit_v2: Driver Not Loaded")
        XCTAssertTrue(r.isEmpty)
        let long = String(repeating: "x", count: NVMLHelperOutput.capacity + 10)
        XCTAssertFalse(frames(long, into: &r, output: output))
        XCTAssertTrue(frames("\ngpu 0 5 - - - - - - - after\nend\n", into: &r, output: output))
        XCTAssertEqual(r.map(\.busy), [500], "the reader goes on after the long line")
    }
}
