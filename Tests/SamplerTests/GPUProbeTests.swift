import Foundation
import SnapshotCodec
import TestSupport
import XCTest
@testable import Sampler

/// The sampler's GPUs: sysfs cards every sample they are shown, NVIDIA's through the helper
/// (the built `sysstatsd-gpu` beside this test program, loading the tests' NVML stub), which
/// runs only where the NVIDIA driver lists a device and only while the GPU is wanted.
final class GPUProbeTests: XCTestCase {
    override func setUpWithError() throws {
        XCTAssertNotNil(NVMLStub.install(), "cc could not build the NVML stub (install/deps.sh installs gcc)")
        unsetenv("NVML_STUB_FAIL")
    }

    func sampler(proc: String, sys: String, once: Bool = true) -> Sampler {
        var config = SamplerConfiguration()
        config.procRoot = Fixtures.path(proc)
        config.sysRoot = Fixtures.path(sys)
        config.measureSelf = false
        config.builtinBookmarks = false
        config.once = once
        return Sampler(configuration: config)
    }

    func testNVIDIAFiguresComeFromTheHelperBesideAMDGPUsFromSysfs() throws {
        let s = sampler(proc: "gpu-nvidia/proc", sys: "gpu-amdgpu/sys")
        s.sample(realtimeMs: 1_763_712_345_000, monotonicNs: 1_000_000_000)
        let gpus = s.snapshot.gpus
        XCTAssertTrue(s.snapshot.available.contains(.gpu))
        XCTAssertEqual(gpus.map { String(decoding: $0.driver, as: UTF8.self) }, ["amdgpu", "amdgpu", "nvidia"])
        let nvidia = try XCTUnwrap(gpus.last)
        XCTAssertEqual(String(decoding: nvidia.name, as: UTF8.self), "NVIDIA GeForce RTX 4090")
        XCTAssertEqual(nvidia.known, [.busy, .memoryBusy, .vram, .temperature, .power, .clock, .fan, .powerLimit])
        XCTAssertEqual(nvidia.busy, 3_700)
        XCTAssertEqual(nvidia.memoryBusy, 1_200)
        XCTAssertEqual(nvidia.vramUsedBytes, 6 << 30, "NVML's v2 memory: without the driver's reserve")
        XCTAssertEqual(nvidia.vramTotalBytes, 24 << 30)
        XCTAssertEqual(nvidia.milliCelsius, 61_000)
        XCTAssertEqual(nvidia.milliwatts, 215_400)
        XCTAssertEqual(nvidia.clockMHz, 2_520)
        XCTAssertEqual(nvidia.fan, 45)
        XCTAssertEqual(nvidia.powerLimitMilliwatts, 450_000, "nvmlDeviceGetEnforcedPowerLimit")
        XCTAssertEqual(s.nvidiaHelper?.starts, 1)
    }

    func testTheHelperStopsWhenNoRendererShowsTheGPUAndIsNotStartedWithoutAnNVIDIADevice() throws {
        let s = sampler(proc: "gpu-nvidia/proc", sys: "gpu-none/sys")
        s.sample(realtimeMs: 1_763_712_345_000, monotonicNs: 1_000_000_000)
        let helper = try XCTUnwrap(s.nvidiaHelper)
        XCTAssertTrue(helper.isRunning)
        XCTAssertEqual(s.snapshot.gpus.count, 1)
        s.shownParts = [.cpu]
        for i in 2...12 { s.sample(realtimeMs: 1_763_712_345_000 + UInt64(i) * 1000, monotonicNs: UInt64(i) * 1_000_000_000) }
        XCTAssertFalse(helper.isRunning, "the GPU unshown: its next measurement stops the helper")
        XCTAssertEqual(helper.starts, 1)
        XCTAssertTrue(s.snapshot.available.contains(.gpu), "sysfs cards are still measured now and then")

        let without = sampler(proc: "gpu-none/proc", sys: "gpu-amdgpu/sys")
        XCTAssertNil(without.nvidiaHelper, "no /proc/driver/nvidia/gpus entry: no helper")
        without.sample(realtimeMs: 1_763_712_345_000, monotonicNs: 1_000_000_000)
        XCTAssertEqual(without.snapshot.gpus.count, 2)
    }

    func testAHelperThatCannotStartNVMLIsSaidOnceAndNotRestartedWithinAMinute() throws {
        setenv("NVML_STUB_FAIL", "1", 1)
        defer { unsetenv("NVML_STUB_FAIL") }
        let s = sampler(proc: "gpu-nvidia/proc", sys: "gpu-amdgpu/sys")
        let helper = try XCTUnwrap(s.nvidiaHelper)
        var lines: [String] = []
        helper.reportLine = { lines.append($0) }
        for i in 1...5 { s.sample(realtimeMs: 1_763_712_345_000 + UInt64(i) * 1000, monotonicNs: UInt64(i) * 1_000_000_000) }
        XCTAssertEqual(lines, ["sysstatsd: no NVIDIA figures: nvmlInit_v2: Driver Not Loaded"])
        XCTAssertEqual(helper.starts, 1)
        XCTAssertFalse(helper.isRunning)
        XCTAssertEqual(s.snapshot.gpus.map { String(decoding: $0.driver, as: UTF8.self) }, ["amdgpu", "amdgpu"])
    }
}

extension GPUProbeTests {
    /// Any program can sit at the helper's path and write any bytes after a card's figures:
    /// its name is cleaned as a process name is before it enters the snapshot (issue 59: ESC
    /// and BEL reached `report --json`).
    func testAHostileCardNameFromTheHelperIsCleanedAsAProcessNameIs() throws {
        let directory = try TemporaryDirectory("gpu-name")
        let helper = directory.file("sysstatsd-gpu")
        let script = "#!/bin/sh\nprintf 'gpu 0 37 12 1 2 61 215400 2520 45 450000 \\033[31mRTX\\007 4090\\t \\nend\\n'\nexec sleep 60\n"
        try Data(script.utf8).write(to: URL(fileURLWithPath: helper))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: helper)
        var config = SamplerConfiguration()
        config.procRoot = Fixtures.path("gpu-nvidia/proc")
        config.sysRoot = Fixtures.path("gpu-none/sys")
        config.measureSelf = false
        config.builtinBookmarks = false
        config.once = true
        config.gpuHelperPath = helper
        let s = Sampler(configuration: config)
        defer { s.nvidiaHelper?.stop() }
        s.sample(realtimeMs: 1_763_712_345_000, monotonicNs: 1_000_000_000)
        let card = try XCTUnwrap(s.snapshot.gpus.last, "the helper's card")
        XCTAssertEqual(String(decoding: card.name, as: UTF8.self), "?[31mRTX? 4090", "controls made ?, the tab a space, then trimmed")
        XCTAssertEqual(String(decoding: card.driver, as: UTF8.self), "nvidia")
        XCTAssertEqual(card.busy, 3_700, "the figures are read as before")
    }
}
