// Renders one snapshot with every output BarCore has and checks each result:
// text and x11-root lines, i3bar (once and streaming) and waybar JSON, genmon's
// tags with their Pango markup, and the panel image through the PNG encoder.
// Shared by the `snapshot` (decoded bytes) and `snapshot-fields` (built values) targets.

import BarCore
import SnapshotCodec

/// A `--format` for every block using all of its placeholders, with literal text that
/// each output must escape (markup, quotes, a backslash, braces).
let everyPlaceholderFormats: BlockFormats = {
    var formats = BlockFormats()
    for kind in BlockKind.allCases {
        var text = Array("\(kind.name)=<b>\"&'\\ {{x}} ".utf8)
        for p in kind.placeholders {
            text += Array("{\(p.name)} ".utf8)
        }
        do throws(OptionsError) {
            try formats.add(text[...])
        } catch {
            fuzzFail("the harness's --format for \(kind.name) does not parse: \(error)")
        }
    }
    return formats
}()

let blockNames: [[UInt8]] = BlockKind.allCases.map { Array("\($0.name)".utf8) }

/// Raw output bytes: well-formed UTF-8, and no control byte (below 0x20, or DEL) except
/// a line feed where `newlineAllowed` says the protocol needs one.
func checkRawBytes(_ out: [UInt8], _ what: @autoclosure () -> String, newlineAllowed: (Int) -> Bool) {
    expect(isValidUTF8(out), "\(what()): ill-formed UTF-8", out)
    for (i, b) in out.enumerated() where b < 0x20 || b == 0x7F {
        expect(b == 0x0A && newlineAllowed(i), "\(what()): raw control byte 0x\(String(b, radix: 16)) at \(i)", out)
    }
}

/// One line ending in its only line feed.
func checkOneLine(_ out: [UInt8], _ what: @autoclosure () -> String) {
    expect(out.last == 0x0A, "\(what()): does not end with a line feed", out)
    checkRawBytes(out, what()) { $0 == out.count - 1 }
}

func parseJSON(_ bytes: [UInt8], _ what: @autoclosure () -> String) -> JSONValue {
    switch StrictJSON.parse(bytes) {
    case .success(let v):
        checkNoControlCharacters(v, what(), bytes)
        return v
    case .failure(let e): fuzzFail("\(what()): not JSON at byte \(e.offset): \(e.reason)", bytes)
    }
}

/// No decoded string holds a control character (C0, DEL, C1), escaped or not: a NUL ends the
/// string for Pango, and every block after it disappears in waybar. waybar's tooltip alone
/// has line feeds, which the renderer writes between its lines.
func checkNoControlCharacters(_ v: JSONValue, _ what: @autoclosure () -> String, _ line: [UInt8], newlines: Bool = false) {
    switch v {
    case .string(let text):
        var i = 0
        while i < text.count {
            let b = text[i]
            let c1 = b == 0xC2 && i + 1 < text.count && text[i + 1] >= 0x80 && text[i + 1] < 0xA0
            if (b < 0x20 && !(newlines && b == 0x0A)) || b == 0x7F || c1 {
                fuzzFail("\(what()): a control character in a decoded string at byte \(i)", line)
            }
            i += 1
        }
    case .array(let items): for item in items { checkNoControlCharacters(item, what(), line) }
    case .object(let members):
        for m in members { checkNoControlCharacters(m.value, what(), line, newlines: m.key == Array("tooltip".utf8)) }
    default: break
    }
}

/// The i3bar keys a command's output may give beyond the built-in blocks' members.
let commandKeys = ["background", "border", "align", "separator", "separator_block_width", "markup",
                   "border_top", "border_bottom", "border_left", "border_right"].map { Array($0.utf8) }

/// One i3bar status array: blocks with the protocol's members and nothing else.
func checkI3barArray(_ v: JSONValue, _ what: @autoclosure () -> String, _ line: [UInt8]) {
    guard case .array(let blocks) = v else { fuzzFail("\(what()): not an array", line) }
    let allowed = ["name", "instance", "full_text", "short_text", "color", "urgent", "min_width"].map { Array($0.utf8) }
    for block in blocks {
        guard case .object = block else { fuzzFail("\(what()): a block is not an object", line) }
        // A wrapped program's block (Fuzz/i3bar-stream.swift): its own name and the members it gave.
        if let instance = block["instance"]?.stringBytes, instance.starts(with: Array("i3bar:".utf8)) {
            checkWrappedBlock(block, what(), line)
            continue
        }
        // The harness's command block is named `evil` (Fuzz/command-output.swift): its output
        // may give i3bar's other keys, each a colour, a string, or a number or literal.
        let evil = Array("evil".utf8)
        let isCommand = block["name"]?.stringBytes == evil
        for key in block.keys where !allowed.contains(key) {
            expect(isCommand && commandKeys.contains(key), "\(what()): unexpected member \(printable(key))", line)
            switch block[String(decoding: key, as: UTF8.self)] {
            case .string(let text)? where key == Array("background".utf8) || key == Array("border".utf8):
                expect((text.count == 7 || text.count == 9) && text[0] == UInt8(ascii: "#") && text.dropFirst().allSatisfy { isHexDigit($0) },
                       "\(what()): \(printable(key)) \(printable(text)) is not a colour", line)
            case .string?, .number?, .bool?, .null?: break
            default: fuzzFail("\(what()): \(printable(key)) is not a string, number or literal", line)
            }
        }
        guard let name = block["name"]?.stringBytes, block["full_text"]?.stringBytes != nil else {
            fuzzFail("\(what()): name or full_text missing", line)
        }
        expect(blockNames.contains(name) || name == Array("sysstats".utf8) || name == evil, "\(what()): name \(printable(name))", line)
        // A block's instance is its name (a click names both); a message has none.
        if let instance = block["instance"] {
            expect(instance.stringBytes == name, "\(what()): instance is not the name", line)
        }
        if let short = block["short_text"] { expect(short.stringBytes != nil, "\(what()): short_text not a string", line) }
        if let color = block["color"] {
            let c = color.stringBytes ?? []
            expect((c.count == 7 || c.count == 9) && c[0] == UInt8(ascii: "#") && c.dropFirst().allSatisfy { isHexDigit($0) },
                   "\(what()): color \(printable(c))", line)
        }
        // `false` only where a command's output said so (i3blocks 1.5 writes it).
        switch block["urgent"] {
        case nil, .bool(true)?: break
        case .bool(false)? where isCommand: break
        default: fuzzFail("\(what()): urgent is not true", line)
        }
    }
}

/// A wrapped block: every member of a known kind and type, colours checked.
func checkWrappedBlock(_ block: JSONValue, _ what: @autoclosure () -> String, _ line: [UInt8]) {
    let strings = ["name", "instance", "full_text", "short_text"].map { Array($0.utf8) }
    let colours = ["color", "background", "border"].map { Array($0.utf8) }
    for key in block.keys {
        let value = block[String(decoding: key, as: UTF8.self)]
        if strings.contains(key) {
            expect(value?.stringBytes != nil, "\(what()): \(printable(key)) is not a string", line)
        } else if colours.contains(key) {
            let c = value?.stringBytes ?? []
            expect((c.count == 7 || c.count == 9) && c[0] == UInt8(ascii: "#") && c.dropFirst().allSatisfy { isHexDigit($0) },
                   "\(what()): \(printable(key)) \(printable(c))", line)
        } else if key == Array("urgent".utf8) {
            if case .bool(true) = value {} else { fuzzFail("\(what()): urgent is not true", line) }
        } else if key == Array("separator".utf8) {
            if case .bool(false) = value {} else { fuzzFail("\(what()): separator is not false", line) }
        } else if key == Array("align".utf8) || key == Array("markup".utf8) || key == Array("min_width".utf8)
                    || key == Array("separator_block_width".utf8) {
            expect(value != nil, "\(what()): \(printable(key)) missing", line)
        } else {
            fuzzFail("\(what()): unexpected member \(printable(key)) in a wrapped block", line)
        }
    }
    expect(block["full_text"]?.stringBytes != nil, "\(what()): a wrapped block without full_text", line)
}

func isHexDigit(_ b: UInt8) -> Bool {
    (0x30...0x39).contains(b) || (0x41...0x46).contains(b) || (0x61...0x66).contains(b)
}

/// `--once`: one bare array per line.
func checkI3barOnce(_ line: [UInt8], _ what: @autoclosure () -> String) {
    checkOneLine(line, what())
    checkI3barArray(parseJSON(Array(line.dropLast()), what()), what(), line)
}

/// Streaming: `[` and a line feed, the first array, then `,` and the next array. Closed
/// with a `]`, the two updates are one JSON array of status arrays, as i3bar reads them.
func checkI3barStream(_ first: [UInt8], _ second: [UInt8], _ what: @autoclosure () -> String) {
    expect(first.starts(with: [UInt8(ascii: "["), 0x0A]), "\(what()): the first update does not open the stream", first)
    expect(second.first == UInt8(ascii: ","), "\(what()): the second update does not start with ','", second)
    checkRawBytes(first, what()) { $0 == 1 || $0 == first.count - 1 }
    expect(first.last == 0x0A, "\(what()): the first update does not end with a line feed", first)
    checkOneLine(second, what())
    let stream = first + second + [UInt8(ascii: "]")]
    guard case .array(let updates) = parseJSON(stream, what()), updates.count == 2 else {
        fuzzFail("\(what()): the stream is not an array of two updates", stream)
    }
    for u in updates { checkI3barArray(u, what(), stream) }
}

/// One JSON object per line: text and tooltip (Pango markup), class, maybe percentage.
func checkWaybar(_ line: [UInt8], _ what: @autoclosure () -> String) {
    checkOneLine(line, what())
    let v = parseJSON(Array(line.dropLast()), what())
    guard case .object = v else { fuzzFail("\(what()): not an object", line) }
    let allowed = ["text", "alt", "tooltip", "class", "percentage"].map { Array($0.utf8) }
    for key in v.keys { expect(allowed.contains(key), "\(what()): unexpected member \(printable(key))", line) }
    guard let text = v["text"]?.stringBytes, let tooltip = v["tooltip"]?.stringBytes,
          let cls = v["class"]?.stringBytes else { fuzzFail("\(what()): text, tooltip or class missing", line) }
    if let problem = pangoProblem(text) { fuzzFail("\(what()): text is not Pango markup: \(problem)", line) }
    if let problem = pangoProblem(tooltip) { fuzzFail("\(what()): tooltip is not Pango markup: \(problem)", line) }
    expect(["normal", "warning", "critical", "urgent", "stale"].map { Array($0.utf8) }.contains(cls),
           "\(what()): class \(printable(cls))", line)
    // alt: the class's word, or the battery's state (waybar picks an icon by it).
    guard let alt = v["alt"]?.stringBytes else { fuzzFail("\(what()): alt missing", line) }
    expect(["normal", "warning", "critical", "urgent", "stale", "charging", "discharging", "full", "not-charging", "unknown"]
        .map { Array($0.utf8) }.contains(alt), "\(what()): alt \(printable(alt))", line)
    if let p = v["percentage"] {
        guard case .number(let digits) = p, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            fuzzFail("\(what()): percentage is not a whole number", line)
        }
    }
}

/// genmon's tags, found the way the plugin finds them (the first `<txt>` and the first
/// `</txt>` after it): `<img>` and `<click>` only when given and safe, the `<txt>` line
/// and the `<tool>` tooltip as well-formed markup, a line feed only inside the tooltip
/// and at the end.
func checkGenmon(_ out: [UInt8], image: [UInt8]?, click: [UInt8]?, _ what: @autoclosure () -> String) {
    func find(_ tag: String, from: Int) -> Int? {
        let t = Array(tag.utf8)
        var i = from
        while i + t.count <= out.count {
            if out[i] == t[0] && out[i..<(i + t.count)].elementsEqual(t) { return i }
            i += 1
        }
        return nil
    }
    func content(_ tag: String) -> (start: Int, end: Int)? {
        guard let open = find("<\(tag)>", from: 0) else { return nil }
        let start = open + tag.utf8.count + 2
        guard let close = find("</\(tag)>", from: start) else { fuzzFail("\(what()): <\(tag)> not closed", out) }
        return (start, close)
    }
    expect(out.last == 0x0A, "\(what()): does not end with a line feed", out)
    guard let txt = content("txt"), let tool = content("tool") else { fuzzFail("\(what()): <txt> or <tool> missing", out) }
    checkRawBytes(out, what()) { $0 == out.count - 1 || ($0 >= tool.start && $0 < tool.end) }
    if let problem = pangoProblem(Array(out[txt.start..<txt.end])) { fuzzFail("\(what()): <txt> markup: \(problem)", out) }
    if let problem = pangoProblem(Array(out[tool.start..<tool.end])) { fuzzFail("\(what()): <tool> markup: \(problem)", out) }
    for (tag, given) in [("img", image), ("click", click)] {
        let found = content(tag)
        if let given, GenmonWriter.isSafeRaw(given) {
            guard let found else { fuzzFail("\(what()): <\(tag)> missing", out) }
            expect(Array(out[found.start..<found.end]) == given, "\(what()): <\(tag)> is not the given text", out)
        } else {
            expect(found == nil, "\(what()): <\(tag)> written though not given or not safe", out)
        }
    }
}

func isPaletteColour(_ c: UInt32) -> Bool {
    switch c {
    case PanelPalette.background, PanelPalette.frame, PanelPalette.text, PanelPalette.dimText, PanelPalette.critical,
         PanelPalette.warning, PanelPalette.memWired, PanelPalette.memActive, PanelPalette.memInactive,
         PanelPalette.memOther, PanelPalette.memFree, PanelPalette.cpuBusy, PanelPalette.cpuIOWait,
         PanelPalette.cpuArea, PanelPalette.cpuIOWaitArea, PanelPalette.netRx, PanelPalette.netTx:
        return true
    default:
        return false
    }
}

/// Every pixel a palette colour; the PNG within the encoder's stated capacity and
/// decoding to exactly the image.
func checkPanel(_ panel: PanelRenderer, _ encoder: inout PNGEncoder, _ what: @autoclosure () -> String) {
    let image = panel.image
    image.withPixels { pixels in
        for (i, p) in pixels.enumerated() where !isPaletteColour(p) {
            fuzzFail("\(what()): pixel \(i % image.width),\(i / image.width) is 0x\(String(p, radix: 16)), not a palette colour")
        }
    }
    encoder.encode(image)
    expect(encoder.count <= PNGEncoder.capacity(width: image.width, height: image.height),
           "\(what()): PNG of \(encoder.count) bytes is over the capacity")
    let png = encoder.bytes
    if let problem = image.withPixels({ pngProblem(png, width: image.width, height: image.height, pixels: $0) }) {
        fuzzFail("\(what()): PNG \(problem)", Array(png.prefix(64)))
    }
}

let genmonImage = Array("/run/user/1000/sysstats/panel.png".utf8)
let genmonClick = Array("/usr/local/bin/sysstats-bar --output genmon --runtime-dir /run/user/1000/sysstats --click 1".utf8)

/// Renders `snap` with every output, every block on, every mem form, with and without
/// a `--format` for every block, and checks all of it.
func renderEverything(_ snap: Snapshot, nowMs: UInt64, usage: RendererUsage = RendererUsage(),
                      width: Int = PanelImage.defaultWidth, height: Int = PanelImage.defaultHeight) {
    _ = snap.isStale(nowMs: nowMs)
    _ = snap.msUntilStale(nowMs: nowMs)
    let blocks = BlockKind.allCases
    var passes: [(MemForm, BlockFormats)] = MemForm.allCases.map { ($0, BlockFormats()) }
    passes.append((.usedTotal, everyPlaceholderFormats))
    for (form, formats) in passes {
        func what() -> String { " (mem form \(form), formats \(formats == BlockFormats() ? "none" : "all"))" }
        func make(_ output: OutputKind, streaming: Bool = false) -> Renderer {
            var r = Renderer(output: output, blocks: blocks, formats: formats, streaming: streaming)
            r.memForm = form
            return r
        }
        var text = make(.text)
        text.render(snap, nowMs: nowMs, usage: usage)
        checkOneLine(text.line.bytes, "text" + what())

        var root = make(.x11Root)
        root.render(snap, nowMs: nowMs, usage: usage)
        checkRawBytes(root.line.bytes, "x11-root" + what()) { _ in false }
        let cut = utf8PrefixLength(root.line.bytes, maximum: 255)
        expect(cut <= 255 && isValidUTF8(root.line.bytes[..<cut]), "x11-root" + what() + ": 255-byte cut", root.line.bytes)

        var once = make(.i3bar)
        once.render(snap, nowMs: nowMs, usage: usage)
        checkI3barOnce(once.line.bytes, "i3bar --once" + what())

        var stream = make(.i3bar, streaming: true)
        stream.render(snap, nowMs: nowMs, usage: usage)
        let first = stream.line.bytes
        stream.render(snap, nowMs: nowMs, usage: usage)
        checkI3barStream(first, stream.line.bytes, "i3bar" + what())

        var waybar = make(.waybar)
        waybar.render(snap, nowMs: nowMs, usage: usage)
        checkWaybar(waybar.line.bytes, "waybar" + what())

        var genmonLine = make(.genmon)
        genmonLine.render(snap, nowMs: nowMs, usage: usage)
        checkRawBytes(genmonLine.line.bytes, "genmon line" + what()) { _ in false }
        var writer = GenmonWriter()
        writer.write(snapshot: snap, message: staleMessage, line: genmonLine.line.bytes, image: genmonImage,
                     click: genmonClick)
        checkGenmon(writer.output.bytes, image: genmonImage, click: genmonClick, "genmon" + what())
        writer.write(snapshot: snap, message: staleMessage, line: [], image: nil, click: nil)
        checkGenmon(writer.output.bytes, image: nil, click: nil, "genmon without blocks" + what())
    }

    var panel = PanelRenderer(width: width, height: height)
    var encoder = PNGEncoder(width: width, height: height)
    for form in GraphForm.allCases {
        panel.graphForm = form
        panel.render(snap, nowMs: nowMs)
        checkPanel(panel, &encoder, "panel \(width)x\(height) \(form)")
    }
}

/// What the bar shows instead of the blocks (a decode error, a stale snapshot): every output.
func renderMessageEverywhere(_ message: StaticString, width: Int = PanelImage.defaultWidth,
                             height: Int = PanelImage.defaultHeight) {
    let what = " message '\(message)'"
    var text = Renderer(output: .text)
    text.renderMessage(message)
    checkOneLine(text.line.bytes, "text" + what)
    var root = Renderer(output: .x11Root)
    root.renderMessage(message)
    checkRawBytes(root.line.bytes, "x11-root" + what) { _ in false }
    var once = Renderer(output: .i3bar)
    once.renderMessage(message)
    checkI3barOnce(once.line.bytes, "i3bar --once" + what)
    var stream = Renderer(output: .i3bar, streaming: true)
    stream.renderMessage(message)
    let first = stream.line.bytes
    stream.renderMessage(message)
    checkI3barStream(first, stream.line.bytes, "i3bar" + what)
    var waybar = Renderer(output: .waybar)
    waybar.renderMessage(message)
    checkWaybar(waybar.line.bytes, "waybar" + what)
    var writer = GenmonWriter()
    writer.write(snapshot: nil, message: message, line: [], image: genmonImage, click: genmonClick)
    checkGenmon(writer.output.bytes, image: genmonImage, click: genmonClick, "genmon" + what)
    var panel = PanelRenderer(width: width, height: height)
    var encoder = PNGEncoder(width: width, height: height)
    panel.renderMessage(message)
    checkPanel(panel, &encoder, "panel" + what)
}
