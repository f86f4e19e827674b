// Fuzz target `command-output`: bytes → CommandBlockOutput, as sysstats-bar reads what a
// command block's command printed (i3blocks' lines or a JSON object line), then every
// text output with that block beside a built-in one.
//
// Input: the first byte picks the exit status (0, 33, 1, or the byte itself) and whether
// the output is lines or `format = "json"` (bit 2); the rest is the output.
// Properties:
// - no trap; the full and short texts are at most 1 KiB each, well-formed UTF-8 whenever
//   the input was, never ending in half a character cut by the bound;
// - the colour is empty or `#` and 6 or 8 hex digits;
// - exit 33 sets urgent; another status shows the output as printed, never critical (i3blocks
//   1.5); a block is shown exactly when its output gave a full text (an empty one too);
// - the i3bar keys after the third line (or the JSON object's) never break the array: each
//   is one member, checked JSON;
// - i3bar (once and streaming), waybar and the plain outputs stay one well-formed line
//   each (strict JSON, Pango markup, no raw control bytes), with no injected block;
// - tmux's line has every `#` doubled, lemonbar's every `%`, polybar's no `%{`.

import BarCore
import SnapshotCodec

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommandOutput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard size > 0, let data else { return 0 }
    let mode = data[0]
    let status: Int32 = mode % 4 == 0 ? 0 : (mode % 4 == 1 ? 33 : (mode % 4 == 2 ? 1 : Int32(mode)))
    let printed = UnsafeRawBufferPointer(start: data + 1, count: size - 1)

    var value = BlockValue()
    let json = mode & 4 != 0
    CommandBlockOutput.parse(printed, exitStatus: status, json: json, into: &value)
    expect(value.full.count <= CommandBlockOutput.maximumLineLength, "full text of \(value.full.count) bytes")
    expect(value.short.count <= CommandBlockOutput.maximumLineLength, "short text of \(value.short.count) bytes")
    let color = value.color.bytes
    expect(color.isEmpty || ((color.count == 7 || color.count == 9) && color[0] == UInt8(ascii: "#")
        && color.dropFirst().allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x46) || ($0 >= 0x61 && $0 <= 0x66) }),
        "colour \(printable(color))", color)
    if status == 33 { expect(value.urgent, "exit 33 is not urgent") }
    expect(value.level == .normal, "a command's own output is never a level of ours")
    expect(value.visible == (value.given & 1 != 0), "visible without a full text given, or hidden with one")
    expect(value.full.isEmpty || value.given & 1 != 0, "a full text that was not given")

    // Through every text output, beside a built-in block.
    var command = BarBlock(.command)
    var spec = CommandSpec(command: Array("x".utf8), name: Array("evil".utf8), instance: Array("evil".utf8))
    spec.json = json
    command.command = spec
    let blocks = [BarBlock(.uptime), command]
    var snapshot = Snapshot()
    snapshot.timestampMs = 1_000
    for output in [OutputKind.text, .tmux, .lemonbar, .polybar, .i3bar, .waybar, .x11Root, .genmon] {
        for streaming in [false, true] where output == .i3bar || !streaming {
            var renderer = Renderer(output: output, blocks: blocks, streaming: streaming)
            renderer.setCommandOutput(1, printed, exitStatus: status)
            renderer.render(snapshot, nowMs: 1_000)
            let first = renderer.line.bytes
            switch output {
            case .i3bar where streaming:
                renderer.render(snapshot, nowMs: 1_000)
                checkI3barStream(first, renderer.line.bytes, "i3bar stream")
            case .i3bar: checkI3barOnce(first, "i3bar")
            case .waybar: checkWaybar(first, "waybar")
            case .text: checkOneLine(first, "text")
            case .tmux, .lemonbar, .polybar:
                checkOneLine(first, "\(output)")
                checkNoBarMarkup(first, output)
            default: checkRawBytes(first, "\(output)") { _ in false }
            }
        }
    }
    return 0
}

/// The bar's own markup cannot appear: for tmux every run of `#` is of even length, for
/// lemonbar every run of `%`, for polybar there is no `%{` at all.
func checkNoBarMarkup(_ line: [UInt8], _ output: OutputKind) {
    if output == .polybar {
        for i in 1..<max(line.count, 1) where line[i] == UInt8(ascii: "{") && line[i - 1] == UInt8(ascii: "%") {
            fuzzFail("polybar: a %{ at \(i)", line)
        }
        return
    }
    let mark = output == .tmux ? UInt8(ascii: "#") : UInt8(ascii: "%")
    var run = 0
    for b in line + [0] {
        if b == mark { run += 1; continue }
        expect(run % 2 == 0, "\(output): a run of \(run) \(Character(Unicode.Scalar(mark))) (a lone one starts markup)", line)
        run = 0
    }
}
