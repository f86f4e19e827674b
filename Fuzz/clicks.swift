// Fuzz target `clicks`: bytes → ClickScanner, as sysstats-bar reads i3bar/swaybar
// click events from stdin (one JSON object per line, of any length, split across
// reads anywhere).
//
// Input: the first byte seeds the chunk sizes; the rest is the stream.
// Properties:
// - no trap; the scanner ends (libFuzzer's -timeout catches a loop);
// - the clicks do not depend on how the stream is split: fed whole through feed(),
//   and fed in chunks of 1 to 64 bytes through next(in:position:), the same clicks;
// - they are exactly what ClickScanner.parse finds in the stream's complete lines of
//   at most maximumLineLength bytes, in order (longer lines and an unfinished last
//   line give nothing, and do not spoil the lines after them);
// - every click names a block and a button of at most six digits; applied to a
//   renderer and to the panel it does not trap.

import BarCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClicks(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard size > 0, let data else { return 0 }
    var seed = UInt32(data[0]) &* 0x9E37_79B9 | 1
    let stream = UnsafeRawBufferPointer(start: data + 1, count: size - 1)

    var whole = ClickScanner()
    var wholeClicks: [ClickEvent] = []
    whole.feed(stream) { wholeClicks.append($0) }

    var chunked = ClickScanner()
    var chunkedClicks: [ClickEvent] = []
    var start = 0
    while start < stream.count {
        seed ^= seed << 13; seed ^= seed >> 17; seed ^= seed << 5
        let end = min(stream.count, start + 1 + Int(seed % 64))
        let chunk = UnsafeRawBufferPointer(rebasing: stream[start..<end])
        var position = 0
        var steps = 0
        while let click = chunked.next(in: chunk, position: &position) {
            chunkedClicks.append(click)
            steps += 1
            expect(steps <= chunk.count, "next(in:position:) returned more clicks than the chunk has bytes")
        }
        expect(position == chunk.count, "next(in:position:) stopped at \(position) of \(chunk.count) bytes")
        start = end
    }
    expect(wholeClicks == chunkedClicks, "whole: \(wholeClicks), in chunks: \(chunkedClicks)")

    var expected: [ClickEvent] = []
    var lineStart = 0
    for i in 0..<stream.count where stream[i] == 0x0A {
        let line = Array(stream[lineStart..<i])
        if line.count <= ClickScanner.maximumLineLength, let click = ClickScanner.parse(line[...]) {
            expected.append(click)
        }
        lineStart = i + 1
    }
    expect(wholeClicks == expected, "scanner: \(wholeClicks), line by line: \(expected)")

    var renderer = Renderer(output: .i3bar, blocks: BlockKind.allCases)
    var panel = PanelRenderer(width: PanelImage.minimumWidth, height: PanelImage.minimumHeight)
    for click in wholeClicks {
        expect(click.button >= 0 && click.button <= 999_999, "button \(click.button) out of range")
        _ = renderer.handleClick(click)
        panel.click(button: click.button)
    }
    return 0
}
