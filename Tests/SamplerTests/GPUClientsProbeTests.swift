import Foundation
import SnapshotCodec
import TestSupport
import XCTest
@testable import Sampler

/// The top list by GPU use (`top:gpu`): measured only while a renderer asks `top gpu`, from
/// the processes' DRM clients (Tests/Fixtures/gpu-clients) and NVML's processes.
final class GPUClientsProbeTests: XCTestCase {
    func sampler(proc: String) -> Sampler {
        var config = SamplerConfiguration()
        config.procRoot = proc
        config.sysRoot = Fixtures.path("gpu-none/sys")
        config.measureSelf = false
        config.builtinBookmarks = false
        return Sampler(configuration: config)
    }

    var asking: RendererRequest {
        var r = RendererRequest(parts: [.top])
        r.ask(.top, Array("gpu".utf8))
        return r
    }

    func testTheListIsEmptyAndNothingIsReadUntilARendererAsks() {
        let s = sampler(proc: Fixtures.path("gpu-clients/proc"))
        s.sample(realtimeMs: 1_763_712_345_000, monotonicNs: 1_000_000_000)
        XCTAssertTrue(s.snapshot.topGPU.isEmpty)
        XCTAssertTrue(s.snapshot.available.contains(.top))
    }

    func testAskedTheSamplerListsTheGPUClientsBusiestFirstWithTheirNames() throws {
        let tree = try LiveTree()
        try tree.mirror("gpu-clients")
        let s = sampler(proc: tree.path + "/proc")
        s.measureAlso(asking)
        s.sample(realtimeMs: 1_763_712_345_000, monotonicNs: 1_000_000_000)
        XCTAssertEqual(s.snapshot.topGPU.map(\.pid), [200, 300], "nothing busy yet: by GPU memory")
        XCTAssertEqual(s.snapshot.topGPU.map { String(decoding: $0.name, as: UTF8.self) }, ["Isolated Web Co", "gnome-shell-calendar-server"], "as the top lists name them")
        XCTAssertEqual(s.snapshot.topGPU.map(\.privateKiB), [525_312, 81_920])
        let intel = tree.path + "/proc/300/fdinfo/7"
        let text = try String(contentsOfFile: intel, encoding: .utf8)
            .replacingOccurrences(of: "drm-engine-render:\t9288864723 ns", with: "drm-engine-render:\t9888864723 ns")
        try text.write(toFile: intel, atomically: false, encoding: .utf8)
        s.sample(realtimeMs: 1_763_712_346_000, monotonicNs: 2_000_000_000)
        XCTAssertEqual(s.snapshot.topGPU.map(\.pid), [300, 200], "busy first: 300's render engine 600 ms of 1 s")
        XCTAssertEqual(s.snapshot.topGPU.first?.cpu, 6_000)

        var stop = RendererRequest(parts: [.top])
        stop.ask(.disk, Array("/".utf8))
        s.measureAlso(stop)
        s.sample(realtimeMs: 1_763_712_347_000, monotonicNs: 3_000_000_000)
        XCTAssertTrue(s.snapshot.topGPU.isEmpty, "no renderer asks: the list goes")
    }

    func testTheRequestLineAsksTheGPUPartToo() {
        XCTAssertTrue(asking.gpuClients)
        XCTAssertTrue(asking.parts.contains(.gpu), "NVIDIA's processes come from the helper, which runs while the GPUs are shown")
        XCTAssertEqual(String(decoding: asking.wantsFileText, as: UTF8.self), "\(SnapshotSections([.top, .gpu]).rawValue)\ntop gpu\n")
        let read = "64\ntop gpu\ntop cpu\n".utf8.withContiguousStorageIfAvailable { RendererRequest(wantsFile: UnsafeRawBufferPointer($0)) }
        XCTAssertEqual(read??.gpuClients, true)
        XCTAssertEqual(read??.parts, [.top, .gpu])
        var other = RendererRequest(parts: [])
        XCTAssertFalse(other.ask(.top, Array("cpu".utf8)), "gpu is the only list asked")
        other.merge(asking)
        XCTAssertTrue(other.gpuClients)
    }
}
