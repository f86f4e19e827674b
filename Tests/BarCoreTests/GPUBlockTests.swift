@testable import BarCore
import SnapshotCodec
import XCTest

/// The gpu block: busy share, video memory, temperature with its levels; the card chosen
/// by index, driver or name; hidden without a GPU on the default bar, `n/a` when named.
final class GPUBlockTests: XCTestCase {
    let now = Fixture.station.nowMs

    func i3bar(_ s: Snapshot, _ block: BarBlock = BarBlock(.gpu)) throws -> [String: Any]? {
        let line = rendered(s, .i3bar, blocks: [block], nowMs: now)
        return try XCTUnwrap(parseJSON(line) as? [[String: Any]]).first
    }

    func testTheGPUBlockShowsBusyVideoMemoryAndTemperatureInEveryOutput() throws {
        let s = Fixture.station.snapshot
        XCTAssertEqual(rendered(s, .text, blocks: [.gpu], nowMs: now), "gpu 37% 6.0G/16.0G 61°C\n")
        let block = try XCTUnwrap(try i3bar(s))
        XCTAssertEqual(block["full_text"] as? String, "gpu 37% 6.0G/16.0G 61°C")
        XCTAssertEqual(block["short_text"] as? String, "gpu 37%")
        XCTAssertEqual(block["name"] as? String, "gpu")
        XCTAssertNil(block["color"], "61 °C: normal")
        for output in OutputKind.allCases where output != .png {
            XCTAssertTrue(rendered(s, output, blocks: [.gpu], nowMs: now).contains("gpu 37%"), "\(output)")
        }
    }

    func testTheCardsTemperatureSetsTheLevelAndItsOwnMarksWin() throws {
        var s = Fixture.station.snapshot
        s.gpus[0].milliCelsius = 82_000
        XCTAssertEqual(try i3bar(s)?["color"] as? String, "#E5C07B", "from 80 °C: warning")
        s.gpus[0].milliCelsius = 91_000
        XCTAssertEqual(try i3bar(s)?["color"] as? String, "#E06C75", "from 90 °C: critical")
        XCTAssertEqual(try i3bar(s)?["urgent"] as? Bool, true)
        var own = BarBlock(.gpu)
        own.warning = 95
        own.critical = 100
        XCTAssertNil(try i3bar(s, own)?["color"], "its own marks")
    }

    func testEveryPlaceholderShowsItsFigureAndNAWhenTheCardDidNotGiveIt() throws {
        var s = Fixture.station.snapshot
        let all = "gpu={busy} {memory_busy} {vram_used} {vram_total} {vram_percent} {gtt_used} {gtt_total} {celsius} {watts} "
            + "{clock} {fan} {power_limit} {name} {driver}"
        XCTAssertEqual(rendered(s, .text, blocks: [.gpu], formats: try formats(all), nowMs: now),
                       "37 12 6.0G 16.0G 38 100M 8.0G 61 215.4 2105 1450 203.0 AMD Radeon RX 6800 amdgpu\n")
        s.gpus[0].known = [.clock]
        XCTAssertEqual(rendered(s, .text, blocks: [.gpu], formats: try formats(all), nowMs: now),
                       "n/a n/a n/a n/a n/a n/a n/a n/a n/a 2105 n/a n/a AMD Radeon RX 6800 amdgpu\n")
        XCTAssertEqual(rendered(s, .text, blocks: [.gpu], nowMs: now), "gpu n/a\n", "no busy share: n/a, nothing else known")
    }

    func testTheArgumentChoosesTheCardByIndexDriverOrName() throws {
        var s = Fixture.station.snapshot
        var nvidia = GPUFigures()
        nvidia.index = 0; nvidia.driver = Array("nvidia".utf8); nvidia.name = Array("NVIDIA H200".utf8)
        nvidia.known = [.busy]; nvidia.busy = 9_900
        s.gpus.append(nvidia)
        func text(_ argument: String) -> String {
            rendered(s, .text, blocks: [BarBlock(.gpu, argument: Array(argument.utf8))], nowMs: now)
        }
        XCTAssertEqual(text(""), "gpu 37% 6.0G/16.0G 61°C\n", "the first")
        XCTAssertEqual(text("0"), "gpu 99%\n")
        XCTAssertEqual(text("1"), "gpu 37% 6.0G/16.0G 61°C\n")
        XCTAssertEqual(text("nvidia"), "gpu 99%\n")
        XCTAssertEqual(text("NVIDIA H200"), "gpu 99%\n")
        XCTAssertEqual(text("7"), "gpu 7 n/a\n")
        XCTAssertEqual(text("i915"), "gpu i915 n/a\n")
    }

    func testAMachineWithoutAGPUHidesTheBlockOnTheDefaultBarAndSaysNAWhenNamed() throws {
        var s = Fixture.station.snapshot
        s.gpus = []
        XCTAssertEqual(rendered(s, .text, blocks: [.gpu, .load], nowMs: now), "gpu n/a | load 0.52 0.48 0.40\n")
        var hidden = BarBlock(.gpu)
        hidden.hideMissing = true
        XCTAssertEqual(rendered(s, .text, blocks: [hidden, BarBlock(.load)], nowMs: now), "load 0.52 0.48 0.40\n")
        XCTAssertTrue(BlockKind.gpu.descriptor.hiddenWhenMissingByDefault)
    }
}
