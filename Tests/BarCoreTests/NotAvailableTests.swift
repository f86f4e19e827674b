import BarCore
import SnapshotCodec
import XCTest

/// A part the sampler could not measure is shown as `n/a` in its block and placeholders,
/// in every output, and the rest of the bar goes on as usual.
final class NotAvailableTests: XCTestCase {
    let now = Fixture.desktop.nowMs

    func snapshot(without parts: SnapshotSections) -> Snapshot {
        var s = Fixture.desktop.snapshot
        s.available.subtract(parts)
        return s
    }

    func testAnUnmeasuredPartShowsNAInItsBlockAndTheOthersAreUnchanged() {
        let s = snapshot(without: [.memory, .load])
        XCTAssertEqual(rendered(s, .text, blocks: [.cpu, .mem, .load, .uptime], nowMs: now),
                       "cpu 12% ▂▃▄▅▆▇██ | mem n/a | load n/a | up 1d 17h\n")
        for form in MemForm.allCases {
            XCTAssertEqual(rendered(s, .text, blocks: [.mem], nowMs: now, memForm: form), "mem n/a\n")
        }
    }

    func testEveryBlockSaysNAWhenNothingWasMeasuredAndTheJSONOutputsStayValid() {
        var s = Fixture.laptop.snapshot
        s.available = []
        XCTAssertEqual(rendered(s, .text, blocks: BlockKind.allCases, nowMs: now),
                       "cpu n/a | mem n/a | load n/a | up n/a | bat n/a | procs n/a | self n/a | top n/a | swap n/a | cores n/a | net n/a | wifi n/a | disk n/a | io n/a | temp n/a | freq n/a | Fri 2025-11-21 18:33 | psi n/a | gpu n/a | fan n/a | power n/a | bl n/a | vol n/a | mic n/a | media n/a | unit n/a\n",
                       "exited is an event: without the exits part there is none to show; the clock needs no snapshot")
        for output in [OutputKind.i3bar, .waybar] {
            let line = rendered(s, output, blocks: BlockKind.allCases, nowMs: now)
            XCTAssertNotNil(parseJSON(line.trimmingCharacters(in: .newlines)), "\(output): \(line)")
            XCTAssertTrue(line.contains("n/a"), line)
        }
    }

    func testAPlaceholderOfAnUnmeasuredPartIsNAAndTheRendererOwnFiguresStay() throws {
        var formats = BlockFormats()
        try formats.add(Array("mem=used {used} of {total}".utf8)[...])
        try formats.add(Array("self=s {sampler_cpu} b {bar_cpu}".utf8)[...])
        let s = snapshot(without: [.memory, .sampler])
        let line = rendered(s, .text, blocks: [.mem, .selfCost], formats: formats, nowMs: now,
                            usage: RendererUsage(cpu: 150, residentKiB: 0))
        XCTAssertEqual(line, "used n/a of n/a | s n/a b 1.5\n")
    }

    func testThePanelAndGenmonSayNAForUnmeasuredParts() {
        let s = snapshot(without: [.cpu, .memory])
        var genmon = GenmonWriter()
        genmon.write(snapshot: s, message: "", line: [], image: nil, click: nil)
        let text = String(decoding: genmon.output.bytes, as: UTF8.self)
        XCTAssertTrue(text.contains("CPU n/a, load 0.52"), text)
        XCTAssertTrue(text.contains("Memory n/a"), text)
        var panel = PanelRenderer(width: 180, height: 56)
        panel.render(s, nowMs: now)   // draws "CPU n/a" and "mem n/a"; must not trap on empty histories
        var full = PanelRenderer(width: 180, height: 56)
        full.render(Fixture.desktop.snapshot, nowMs: now)
        XCTAssertNotEqual(panel.image.pixels, full.image.pixels)
    }
}
