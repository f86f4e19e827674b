import Foundation
import SysstatsCLI
import TestSupport
import XCTest

/// `sysstats top --gpu` on a fixture tree whose processes hold DRM clients (amdgpu, i915),
/// and NVIDIA's processes through the built helper and the tests' NVML stub.
final class TopGPUTests: XCTestCase {
    let procRoot = Fixtures.path("gpu-clients/proc")

    func testTopGPUListsOnlyTheProcessesUsingAGPUWithTheirMemoryAndDriver() throws {
        let temporary = try TemporaryDirectory()
        let out = Top.run(procRoot: procRoot, directory: temporary.file("none"), count: 10, sort: .cpu, intervalMs: 0,
                          json: false, gpu: true, helper: nil)
        XCTAssertEqual(out.status, 0)
        XCTAssertEqual(out.stderr, [])
        XCTAssertEqual(out.stdout.count, 3, out.stdout.joined(separator: "\n"))
        guard out.stdout.count == 3 else { return }
        XCTAssertTrue(out.stdout[0].contains("GPU %") && out.stdout[0].contains("GPU MiB"), out.stdout[0])
        XCTAssertTrue(out.stdout[1].hasPrefix("     200"), "the largest GPU memory first: \(out.stdout[1])")
        XCTAssertTrue(out.stdout[1].contains("513.0") && out.stdout[1].hasSuffix("amdgpu"), out.stdout[1])
        XCTAssertTrue(out.stdout[2].contains("     300") && out.stdout[2].contains("80.0") && out.stdout[2].hasSuffix("i915"),
                      out.stdout[2])
        let json = Top.run(procRoot: procRoot, directory: temporary.file("none"), count: 10, sort: .cpu, intervalMs: 0,
                           json: true, gpu: true, helper: nil).stdout.joined()
        let items = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        XCTAssertEqual(items.map { $0["pid"] as? Int }, [200, 300])
        XCTAssertEqual(items[0]["gpu_memory_mib"] as? Double, 513)
        XCTAssertEqual(items[0]["gpu_percent"] as? Double, 0, "no change between two readings of a fixture")
        XCTAssertEqual(items[1]["drivers"] as? [String], ["i915"])
    }

    /// Without a process using a GPU, `top --gpu` printed a bare header: it says why, on stderr.
    func testWithoutAProcessUsingAGPUTopSaysSo() throws {
        let temporary = try TemporaryDirectory()
        let out = Top.run(procRoot: Fixtures.path("procs-basic/proc"), directory: temporary.file("none"), count: 10, sort: .cpu,
                          intervalMs: 0, json: false, gpu: true, helper: nil)
        XCTAssertEqual(out.status, 0)
        XCTAssertEqual(out.stdout.count, 1, "the header")
        XCTAssertEqual(out.stderr, ["sysstats top: no process uses a GPU (none holds a DRM client; no NVIDIA device)"])
    }

    func testNVIDIAProcessesComeFromTheHelperWithMemoryAndNVMLsNewestShare() throws {
        XCTAssertNotNil(NVMLStub.install(), "cc could not build the NVML stub")
        setenv("NVML_STUB_PID", "200", 1)
        defer { unsetenv("NVML_STUB_PID") }
        let tree = try LiveTree()
        try tree.mirror("gpu-clients")
        try FileManager.default.createDirectory(atPath: tree.path + "/proc/driver/nvidia/gpus/0000:01:00.0",
                                                withIntermediateDirectories: true)
        let temporary = try TemporaryDirectory()
        let out = Top.run(procRoot: tree.path + "/proc", directory: temporary.file("none"), count: 10, sort: .cpu,
                          intervalMs: 0, json: true, gpu: true, helper: NVMLStub.helper)
        XCTAssertEqual(out.stderr, [])
        let items = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(out.stdout.joined().utf8)) as? [[String: Any]])
        let game = try XCTUnwrap(items.first { $0["pid"] as? Int == 200 })
        XCTAssertEqual(game["drivers"] as? [String], ["amdgpu", "nvidia"])
        XCTAssertEqual(game["gpu_memory_mib"] as? Double, 513 + 1024, "its amdgpu clients and NVML's 1 GiB")
        XCTAssertEqual(game["gpu_percent"] as? Double, 64, "NVML's newest sample of it (64 %, not the older 10 %)")
        XCTAssertNil(items.first { $0["pid"] as? Int == 4243 }, "a process NVML lists that /proc does not have is left out")

        let missing = Top.run(procRoot: tree.path + "/proc", directory: temporary.file("none"), count: 10, sort: .cpu,
                              intervalMs: 0, json: false, gpu: true, helper: "/nonexistent/sysstatsd-gpu")
        XCTAssertEqual(missing.stderr, ["sysstats top: NVIDIA processes not listed: no sysstatsd-gpu beside sysstats"])
    }
}
