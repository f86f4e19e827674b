@testable import BarCore
import SnapshotCodec
import XCTest

/// The top block's GPU form, `top:gpu` (`list = "gpu"`): the process using the GPUs most,
/// from the snapshot's top list by GPU, which the bar asks the sampler for.
final class TopGPUBlockTests: XCTestCase {
    let now = Fixture.desktop.nowMs
    var snapshot: Snapshot {
        var s = Fixture.desktop.snapshot
        s.topGPU = [ProcessEntry(pid: 300, cpu: 6_000, privateKiB: 81_920, name: Array("gnome-shell".utf8)),
                    ProcessEntry(pid: 200, cpu: 0, privateKiB: 525_312, name: Array("firefox".utf8))]
        return s
    }
    let gpuTop = BarBlock(.top, argument: Array("gpu".utf8))

    func testTopGPUShowsTheBusiestGPUClientItsShareAndItsGPUMemory() throws {
        XCTAssertEqual(rendered(snapshot, .text, blocks: [gpuTop], nowMs: now), "top gnome-shell gpu 60% 80M\n")
        XCTAssertEqual(rendered(snapshot, .text, blocks: [.top], nowMs: now), "top firefox 10% 117M\n", "plain top: by CPU")
        XCTAssertEqual(rendered(snapshot, .text, blocks: [gpuTop], formats: try formats("top={name} {gpu}% {gpu_mem} ({cpu}% cpu of {mem})"), nowMs: now),
                       "gnome-shell 60% 80M (10% cpu of 117M)\n", "{gpu} and {gpu_mem} the GPU list's; {cpu} and {mem} the CPU list's")
    }

    func testTopGPUHidesWhenNoProcessUsesAGPU() {
        var s = snapshot
        s.topGPU = []
        XCTAssertEqual(rendered(s, .text, blocks: [gpuTop, BarBlock(.procs)], nowMs: now), "procs 312 (2 run)\n")
    }

    func testTopGPUAsksTheSamplerForTheListAndTheGPUs() {
        let request = BlockKind.request(of: [gpuTop])
        XCTAssertTrue(request.gpuClients)
        XCTAssertTrue(request.parts.contains(.top) && request.parts.contains(.gpu))
        XCTAssertFalse(BlockKind.request(of: [BarBlock(.top)]).gpuClients, "plain top asks nothing more")
    }

    func testAnotherListIsRefusedOnTheCommandLineAndInTheConfig() throws {
        func error(_ args: [String]) -> OptionsError? {
            do { _ = try BarOptions.parse(args.map { Array($0.utf8) }); return nil } catch { return error }
        }
        XCTAssertNil(error(["--blocks", "top,top:gpu"]))
        XCTAssertEqual(error(["--blocks", "top:cpu"]), .unknownTopList)
        XCTAssertTrue(OptionsError.unknownTopList.message.description.contains("top:gpu"))
        let config = Array("[[block]]\nblock = \"top\"\nlist = \"memory\"\n".utf8)
        guard case .failure(let e) = config.withUnsafeBytes({ BarConfig.parse($0) }) else { return XCTFail("accepted") }
        var out: [UInt8] = []
        e.describe(file: Array("c.toml".utf8), into: &out)
        XCTAssertEqual(String(decoding: out, as: UTF8.self), #"c.toml:3:8: no such top list "memory" in the top block's lists (gpu, units, units-mem)"#)
        let ok = Array("[[block]]\nblock = \"top\"\nlist = \"gpu\"\n".utf8)
        XCTAssertEqual(try ok.withUnsafeBytes { try BarConfig.parse($0).get() }.blocks?.first?.argument, Array("gpu".utf8))
    }
}
