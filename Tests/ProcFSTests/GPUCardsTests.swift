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
        XCTAssertEqual(g.known, 0x1FF, "every figure")
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
        XCTAssertEqual(g.powerLimitMilliwatts, 203_000, "power1_cap, µW")
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
        XCTAssertEqual(r[0].known, GPUReading.clockKnown | GPUReading.powerLimitKnown)
        XCTAssertEqual(r[0].powerLimitMilliwatts, 190_000, "power1_max (PL1), µW")
        let device = tree.path + "/sys/devices/pci0000:00/0000:00:01.0/0000:03:00.0"
        try Data("5100\n".utf8).write(to: URL(fileURLWithPath: device + "/tile0/gt0/gtidle/idle_residency_ms"))
        try Data("31000000\n".utf8).write(to: URL(fileURLWithPath: device + "/hwmon/hwmon4/energy1_input"))
        r = readings(cards, atNs: 7_000_000_000)
        XCTAssertEqual(r[0].busy, 9_500, "100 ms idle of 2000")
        XCTAssertEqual(r[0].milliwatts, 15_000, "30 J over 2 s")
        XCTAssertEqual(r[0].known, GPUReading.clockKnown | GPUReading.busyKnown | GPUReading.powerKnown | GPUReading.powerLimitKnown)
        try Data("0\n".utf8).write(to: URL(fileURLWithPath: device + "/hwmon/hwmon4/power1_max"))
        r = readings(cards, atNs: 8_000_000_000)
        XCTAssertEqual(r[0].known & GPUReading.powerLimitKnown, 0, "PL1 of 0: no limit, left out")
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
        XCTAssertTrue(frames("gpu 0 37 12 6442450944 25769803776 61 215400 2520 45 450000 NVIDIA GeForce RTX 4090\n"
                             + "proc 4242 0 1073741824\ngpu 1 - - - - 40 - 1200 - - Tesla T4\nend\n", into: &r))
        XCTAssertEqual(r.count, 2)
        XCTAssertEqual(r[0].name.description, "NVIDIA GeForce RTX 4090")
        XCTAssertEqual(r[0].driver.description, "nvidia")
        XCTAssertEqual(r[0].known, 0x1FF & ~GPUReading.gttKnown)
        XCTAssertEqual(r[0].busy, 3_700)
        XCTAssertEqual(r[0].vramUsedBytes, 6_442_450_944)
        XCTAssertEqual(r[0].milliCelsius, 61_000)
        XCTAssertEqual(r[0].milliwatts, 215_400)
        XCTAssertEqual(r[0].clockMHz, 2_520)
        XCTAssertEqual(r[0].powerLimitMilliwatts, 450_000)
        XCTAssertEqual(r[1].index, 1)
        XCTAssertEqual(r[1].known, GPUReading.temperatureKnown | GPUReading.clockKnown)
    }

    func testAFrameSplitAcrossReadsCountsWhenWholeAndTheLastWholeFrameWins() {
        let output = NVMLHelperOutput()
        var r: [GPUReading] = []
        XCTAssertFalse(frames("gpu 0 10 - - - - - - - - A\n", into: &r, output: output))
        XCTAssertTrue(r.isEmpty)
        XCTAssertTrue(frames("end\ngpu 0 20 - - - - - - - - A\nend\ngpu 0 30 - -", into: &r, output: output))
        XCTAssertEqual(r.map(\.busy), [2_000], "the last whole frame")
        XCTAssertTrue(frames(" - - - - - - - A\nend\n", into: &r, output: output))
        XCTAssertEqual(r.map(\.busy), [3_000])
    }

    func testHostileLinesAreSkippedAndFiguresClamped() {
        var r: [GPUReading] = []
        let huge = "99999999999999999999999"
        XCTAssertTrue(frames("gpu x 1 - - - - - - - - bad index\ngpu 0 1\ngpu 300 - - - - - - - - - index over 255\n"
                             + "gpu 0 \(huge) 250 - - 99999999999 99999999999 - - \(huge) over\nbogus\n\nend\n", into: &r))
        XCTAssertEqual(r.count, 1, "only the readable line")
        XCTAssertEqual(r[0].busy, 10_000, "a figure past 64 bits saturates, then clamps to 100 %")
        XCTAssertEqual(r[0].memoryBusy, 10_000, "250 % clamped to 100")
        XCTAssertEqual(r[0].milliCelsius, .max, "clamped")
        XCTAssertEqual(r[0].milliwatts, .max)
        XCTAssertEqual(r[0].powerLimitMilliwatts, .max, "clamped")
        var many = ""
        for i in 0..<20 { many += "gpu \(i) 1 - - - - - - - - c\n" }
        XCTAssertTrue(frames(many + "end\n", into: &r))
        XCTAssertEqual(r.count, GPUCards.maximumCards)
    }

    func testProcessLinesGiveEachProcessesMemoryAndShareAndBadOnesArePassedOver() {
        let output = NVMLHelperOutput()
        var r: [GPUReading] = []
        XCTAssertTrue(frames("gpu 0 1 - - - - - - - - A\nproc 4242 0 1073741824 64\nproc 4243 0 - -\nproc 4244 1 512\n"
                             + "proc 0 0 1 1\nproc 5 300 1 1\nproc 6 0 x 1\nproc 7 0 1 1 junk\nproc 8 0 1 250\nend\n",
                             into: &r, output: output))
        XCTAssertEqual(output.processes, [
            NVMLProcess(pid: 4242, card: 0, vramBytes: 1 << 30, smPercent: 64),
            NVMLProcess(pid: 4243, card: 0, vramBytes: nil, smPercent: nil),
            NVMLProcess(pid: 4244, card: 1, vramBytes: 512, smPercent: nil),
            NVMLProcess(pid: 8, card: 0, vramBytes: 1, smPercent: 100),
        ], "pid 0, card 300, a bad figure and anything after the share are refused; 250 % is clamped")
    }

    /// Eight cards with sixty-four processes each, every number at its longest: the helper's
    /// frame was cut at 16 KiB and lost its `end` line, and with it every NVIDIA figure.
    func testTheLongestFrameTheHelperWritesIsReadWhole() {
        var frame = ""
        for card in 0..<8 {
            frame += "gpu \(card) 100 100 18446744073709551615 18446744073709551615 4294967295 4294967295 4294967295 "
                + "4294967295 4294967295 " + String(repeating: "N", count: 95) + "\n"
            for p in 0..<64 { frame += "proc \(4_294_967_000 + p) \(card) 18446744073709551615 100\n" }
        }
        frame += "end\n"
        XCTAssertGreaterThan(frame.utf8.count, 16 * 1024, "longer than the old buffer")
        XCTAssertLessThan(frame.utf8.count, NVMLHelperOutput.capacity)
        var r: [GPUReading] = []
        XCTAssertTrue(frames(frame, into: &r))
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
        XCTAssertTrue(frames("\ngpu 0 5 - - - - - - - - after\nend\n", into: &r, output: output))
        XCTAssertEqual(r.map(\.busy), [500], "the reader goes on after the long line")
    }
}

/// DRM clients from /proc/PID/fdinfo (the kernel's drm-usage-stats.rst keys), as
/// `sysstats top --gpu` reads them.
final class DRMClientsTests: XCTestCase {
    let buffer = ReadBuffer(capacity: 4096)
    let proc = Fixtures.path("gpu-clients/proc")

    func parse(_ text: String) -> DRMClientReading? {
        Array(text.utf8).withUnsafeBytes { DRMClientReading.parse($0) }
    }

    func testAmdgpuAndI915ClientsParseWithTheirEnginesAndMemory() throws {
        let amd = try XCTUnwrap(parse("drm-driver:\tamdgpu\ndrm-client-id:\t13\ndrm-pdev:\t0000:09:00.0\n"
                                      + "drm-memory-vram:\t524288 KiB\ndrm-memory-gtt:\t2048 KiB\ndrm-engine-gfx:\t4000000000 ns\n"))
        XCTAssertEqual(amd.driver.description, "amdgpu")
        XCTAssertEqual(amd.clientID, 13)
        XCTAssertEqual(amd.pdev.description, "0000:09:00.0")
        XCTAssertEqual(amd.memoryBytes, 512 << 20, "device memory only (vram), not GTT")
        XCTAssertEqual(amd.engines.map(\.busyNs), [4_000_000_000])
        let intel = try XCTUnwrap(parse("drm-driver:\ti915\ndrm-client-id:\t7\ndrm-total-system0:\t96 MiB\n"
                                        + "drm-resident-system0:\t80 MiB\ndrm-engine-render:\t9288864723 ns\n"
                                        + "drm-engine-video:\t0 ns\ndrm-engine-capacity-video:\t2\n"))
        XCTAssertEqual(intel.memoryBytes, 80 << 20, "resident; system memory where the card has no VRAM")
        XCTAssertEqual(intel.engines.map(\.capacity), [1, 2])
        XCTAssertNil(parse("pos:\t0\nflags:\t0100002\n"), "not a DRM descriptor")
        XCTAssertNil(parse("drm-driver:\tamdgpu\n"), "no client id")
        let odd = try XCTUnwrap(parse("drm-driver: x\ndrm-client-id: 1\ndrm-engine-gfx: 12 ms\ndrm-memory-vram: 99999999999999999999 GiB\n"))
        XCTAssertTrue(odd.engines.isEmpty, "a unit other than ns is not a busy time")
        XCTAssertEqual(odd.memoryBytes, .max, "saturates")
    }

    func testAProcessesClientsAreCountedOnceAndOnlyDRMDescriptorsRead() {
        let game = DRMClients.read(pid: 200, procRoot: proc, buffer: buffer)
        XCTAssertEqual(game.map(\.clientID), [13, 14], "fds 5 and 6 share client 13; /dev/null is not read")
        XCTAssertEqual(DRMClients.read(pid: 300, procRoot: proc, buffer: buffer).map(\.clientID), [7])
        XCTAssertTrue(DRMClients.read(pid: 400, procRoot: proc, buffer: buffer).isEmpty, "a plain file")
        XCTAssertTrue(DRMClients.read(pid: 999_999, procRoot: proc, buffer: buffer).isEmpty, "gone")
    }

    func testBusyIsTheBusiestKindOfEngineOverItsCapacitySummedOverClients() throws {
        func client(_ id: Int, _ engines: String) -> DRMClientReading {
            parse("drm-driver: i915\ndrm-client-id: \(id)\n" + engines)!
        }
        let before = [client(1, "drm-engine-render: 1000000000 ns\ndrm-engine-video: 0 ns\ndrm-engine-capacity-video: 2\n"),
                      client(2, "drm-engine-render: 0 ns\n")]
        let after = [client(1, "drm-engine-render: 1300000000 ns\ndrm-engine-video: 1000000000 ns\ndrm-engine-capacity-video: 2\n"),
                     client(2, "drm-engine-render: 200000000 ns\n"), client(3, "drm-engine-render: 100000000 ns\n")]
        XCTAssertEqual(DRMClients.busyPermyriad(before: before, after: after, elapsedNs: 1_000_000_000), 6_000,
                       "render: 300 + 200 + 100 (a new client from 0) ms of 1 s; video 1 s over 2 engines is 50 %")
        XCTAssertEqual(DRMClients.busyPermyriad(before: after, after: before, elapsedNs: 1_000_000_000), 0, "counters that went back")
        XCTAssertEqual(DRMClients.busyPermyriad(before: [], after: after, elapsedNs: 100), 10_000, "at most 100 %")
    }
}
