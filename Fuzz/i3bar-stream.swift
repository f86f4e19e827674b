// Fuzz target `i3bar-stream`: bytes → I3barStream, as sysstats-bar reads the output of a
// program it wraps (`block = "i3bar"`: i3status, i3blocks, a script), line by line; after each
// line the wrapped blocks go through every text output beside a built-in block.
//
// Input: the bytes the program printed; each line feeds the stream (lines longer than the
// reader's buffer are dropped by the reader, as here).
// Properties:
// - no trap; at most `maximumBlocks` blocks; every text within its bound (full 1 KiB, short
//   256 bytes, name and instance 64), never ending in half a character cut by the bound when
//   the input was well-formed; colours empty or `#` and 6 or 8 hex digits;
// - i3bar (once and streaming), waybar and the plain outputs stay one well-formed line each
//   (strict JSON, Pango markup, no raw control bytes), with exactly the blocks shown: the
//   i3bar array has one object per wrapped block plus the built-in one, each wrapped block's
//   instance starting `i3bar:1:` — nothing injected.

import BarCore
import SnapshotCodec

let wrapperBlocks: [BarBlock] = {
    var wrapper = BarBlock(.command)
    var spec = CommandSpec(command: Array("x".utf8), name: Array("i3bar".utf8), instance: Array("i3bar".utf8), persist: true)
    spec.wrapsI3bar = true
    wrapper.command = spec
    return [BarBlock(.uptime), wrapper]
}()
nonisolated(unsafe) var renderers = [OutputKind.text, .i3bar, .waybar, .x11Root].map { Renderer(output: $0, blocks: wrapperBlocks) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzI3barStream(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard size > 0, let data else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: data, count: size)

    // The renderers are made once (each run restarts their streams): making them is most of the cost.
    for k in renderers.indices { renderers[k].restartWrapped(1) }
    var streamed = Renderer(output: .i3bar, blocks: wrapperBlocks, streaming: true)
    var snapshot = Snapshot()
    snapshot.timestampMs = 1_000

    var start = 0
    var lines = 0
    var firstUpdate: [UInt8] = []
    while start < bytes.count && lines < 64 {
        var end = start
        while end < bytes.count && bytes[end] != 0x0A { end += 1 }
        let line = UnsafeRawBufferPointer(rebasing: bytes[start..<min(end, start + I3barStream.maximumLineLength)])
        start = end + 1
        lines += 1
        var changed = false
        for k in renderers.indices { changed = renderers[k].feedWrapped(1, line: line) }
        _ = streamed.feedWrapped(1, line: line)
        guard let stream = renderers[0].wrappedStream(1) else { fuzzFail("no stream for the i3bar block") }
        // The blocks shown came from this line only when it changed them.
        check(stream, inputWellFormed: changed && isValidUTF8(Array(line)))
        for k in renderers.indices {
            renderers[k].render(snapshot, nowMs: 1_000)
            let out = renderers[k].line.bytes
            switch renderers[k].output {
            case .i3bar:
                checkI3barOnce(out, "i3bar")
                checkInstances(out, expected: stream.count + 1)
            case .waybar: checkWaybar(out, "waybar")
            case .text: checkOneLine(out, "text")
            default: checkRawBytes(out, "x11-root") { _ in false }
            }
        }
        streamed.render(snapshot, nowMs: 1_000)
        if lines == 1 { firstUpdate = streamed.line.bytes } else { checkI3barStream(firstUpdate, streamed.line.bytes, "i3bar stream") }
    }
    return 0
}

func check(_ s: I3barStream, inputWellFormed: Bool) {
    expect(s.count >= 0 && s.count <= I3barStream.maximumBlocks, "\(s.count) blocks")
    for k in 0..<s.count {
        let b = s.shown[k]
        expect(!b.full.isEmpty, "a shown block without text")
        expect(b.full.count <= CommandBlockOutput.maximumLineLength, "full text of \(b.full.count) bytes")
        expect(b.short.count <= 256, "short text of \(b.short.count) bytes")
        expect(b.name.count <= WrappedBlock.maximumNameLength && b.instance.count <= WrappedBlock.maximumNameLength, "name or instance too long")
        for colour in [b.color.bytes, b.background.bytes, b.border.bytes] {
            expect(colour.isEmpty || ((colour.count == 7 || colour.count == 9) && colour[0] == UInt8(ascii: "#")
                && colour.dropFirst().allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x46) || ($0 >= 0x61 && $0 <= 0x66) }),
                "colour \(printable(colour))", colour)
        }
        if inputWellFormed {
            expect(isValidUTF8(b.full.bytes) && isValidUTF8(b.short.bytes), "a text cut inside a character", b.full.bytes)
        }
    }
}

/// The i3bar array has `expected` objects, and every instance is ours (`uptime`) or a wrapped one.
func checkInstances(_ out: [UInt8], expected: Int) {
    let text = Array("\"instance\":\"".utf8)
    var found = 0, wrapped = 0
    var i = 0
    while i + text.count <= out.count {
        if Array(out[i..<(i + text.count)]) == text {
            found += 1
            let rest = out[(i + text.count)...]
            if rest.starts(with: Array("i3bar:1:".utf8)) { wrapped += 1 }
            i += text.count
        } else {
            i += 1
        }
    }
    // A wrapped text may itself contain `"instance":"` (escaped as \"instance\":\", so never
    // matched raw); the counts are exact.
    expect(found == expected, "\(found) instances for \(expected) blocks: a block was injected or lost", out)
    expect(wrapped == expected - 1, "\(wrapped) wrapped instances for \(expected - 1) wrapped blocks", out)
}
