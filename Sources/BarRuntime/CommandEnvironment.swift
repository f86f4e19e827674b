// What a command block's command is given, as i3blocks 1.5 gives it: every key of its
// section as an environment variable (with the old BLOCK_NAME, BLOCK_INTERVAL, and
// BLOCK_INSTANCE when it has an instance), what its last run printed (its JSON members, or
// its lines as full_text, short_text, color and i3bar's other keys in i3blocks' order), and a click's fields (button, x, y, relative_x, …, with BLOCK_BUTTON, BLOCK_X and
// BLOCK_Y) for the run the click starts. A persistent command is not restarted by a click:
// the click is written to its stdin, the button number on a line, or with `format = "json"`
// a JSON object of the block's keys and the click's.

import BarCore
import CBarSys

enum CommandEnvironment {
    /// The section's keys and the legacy names, C strings.
    static func base(_ spec: CommandSpec) -> [[CChar]] {
        var out: [[CChar]] = []
        for entry in spec.environment {
            out.append(cString(entry))
            if entry.starts(with: "interval=".utf8) { out.append(environmentEntry("BLOCK_INTERVAL=", Array(entry.dropFirst(9)))) }
        }
        out.append(environmentEntry("BLOCK_NAME=", spec.name))
        // Unset without an instance, as i3blocks 1.5 leaves it (`${BLOCK_INSTANCE:-default}`).
        if !spec.instance.isEmpty { out.append(environmentEntry("BLOCK_INSTANCE=", spec.instance)) }
        return out
    }

    /// A click's fields, for the run it starts.
    static func click(_ click: ClickEvent) -> [[CChar]] {
        var out: [[CChar]] = [environmentEntry("button=", click.button), environmentEntry("BLOCK_BUTTON=", click.button),
                              environmentEntry("x=", click.x), environmentEntry("BLOCK_X=", click.x),
                              environmentEntry("y=", click.y), environmentEntry("BLOCK_Y=", click.y)]
        let optional: [(StaticString, Int)] = [("relative_x=", click.relativeX), ("relative_y=", click.relativeY),
                                              ("output_x=", click.outputX), ("output_y=", click.outputY),
                                              ("width=", click.width), ("height=", click.height)]
        for (name, value) in optional where value >= 0 { out.append(environmentEntry(name, value)) }
        if !click.modifiers.isEmpty { out.append(environmentEntry("modifiers=", click.modifiers)) }
        return out
    }

    /// What a run printed, for the next run: a JSON object's members (`format = "json"`;
    /// keys that can name a variable), else the lines as full_text, short_text and color.
    static func feedback(_ output: UnsafeRawBufferPointer, json: Bool) -> [[CChar]] {
        var out: [[CChar]] = []
        if json {
            var start = 0
            while start < output.count && (output[start] == 0x20 || output[start] == 0x09 || output[start] == 0x0A) { start += 1 }
            CommandBlockOutput.forEachMember(UnsafeRawBufferPointer(rebasing: output[start...])) { key, value, _ in
                guard CommandSpec.isEnvironmentName(key), out.count < 64 else { return }
                var entry = Array(key)
                entry.append(UInt8(ascii: "="))
                entry.append(contentsOf: value)
                out.append(cString(entry))
            }
            return out
        }
        // Each line as the i3bar key i3blocks 1.5 takes it for (a last line without its
        // newline too; none after the last newline).
        var k = 0, start = 0
        while k < CommandBlockOutput.i3barKeys.count && start < output.count {
            var end = start
            while end < output.count && output[end] != 0x0A { end += 1 }
            var entry = ByteWriter(capacity: end - start + 32)
            entry.append(CommandBlockOutput.i3barKeys[k].key)
            entry.append(UInt8(ascii: "="))
            for b in output[start..<end] where b >= 0x20 || b == 0x09 { entry.append(b) }
            out.append(cString(entry.bytes))
            k += 1
            start = end + 1
        }
        return out
    }

    /// The line a click writes to a persistent command's stdin.
    static func clickLine(_ click: ClickEvent, _ spec: CommandSpec) -> ByteWriter {
        var line = ByteWriter(capacity: 1024)
        guard spec.json else {
            line.appendDecimal(click.button)
            line.append(UInt8(ascii: "\n"))
            return line
        }
        line.append("{\"name\":\"")
        appendJSONString(spec.name, to: &line)
        line.append("\",\"instance\":\"")
        appendJSONString(spec.instance, to: &line)
        line.append("\",\"button\":"); line.appendDecimal(click.button)
        line.append(",\"x\":"); line.appendDecimal(click.x)
        line.append(",\"y\":"); line.appendDecimal(click.y)
        let optional: [(StaticString, Int)] = [(",\"relative_x\":", click.relativeX), (",\"relative_y\":", click.relativeY),
                                              (",\"output_x\":", click.outputX), (",\"output_y\":", click.outputY),
                                              (",\"width\":", click.width), (",\"height\":", click.height)]
        for (name, value) in optional where value >= 0 { line.append(name); line.appendDecimal(value) }
        if !click.modifiers.isEmpty { line.append(",\"modifiers\":"); line.append(bytes: click.modifiers) }
        line.append("}\n")
        return line
    }

    static func cString(_ bytes: [UInt8]) -> [CChar] {
        var c: [CChar] = []
        c.reserveCapacity(bytes.count + 1)
        for b in bytes where b != 0 { c.append(CChar(bitPattern: b)) }
        c.append(0)
        return c
    }
}

extension CommandRunner {
    /// A click on a block of the program block `click.wrappedBlock` wraps: written to its stdin
    /// as an i3bar click event when it asked for them, else its `click_signal` (i3status redraws
    /// on SIGUSR1). Never blocks: a click the pipe has no room for is dropped.
    mutating func forward(_ click: ClickEvent, renderer: Renderer) {
        guard let i = children.firstIndex(where: { $0.blockIndex == click.wrappedBlock && $0.spec.wrapsI3bar }),
              children[i].pid != 0, let stream = renderer.wrappedStream(click.wrappedBlock) else { return }
        guard stream.clickEvents, children[i].inputFD >= 0 else {
            if children[i].spec.refreshSignal != 0 { _ = cbarsys_kill(children[i].pid, children[i].spec.refreshSignal) }
            return
        }
        // The program's own name and instance as it wrote them (ours went through escaping).
        var name = click.name, instance = click.instance
        if let k = stream.index(name: click.name[...], instance: click.instance[...]) {
            name = stream.shown[k].name.bytes
            instance = stream.shown[k].instance.bytes
        }
        var event = ByteWriter(capacity: 512)
        event.append(children[i].clicksWritten == 0 ? "[\n" : ",")
        event.append("{\"name\":\"")
        appendJSONString(name, to: &event)
        event.append("\",\"instance\":\"")
        appendJSONString(instance, to: &event)
        event.append("\",\"button\":")
        event.appendDecimal(click.button)
        event.append(",\"x\":")
        event.appendDecimal(click.x)
        event.append(",\"y\":")
        event.appendDecimal(click.y)
        event.append(",\"modifiers\":[]}\n")
        // At most PIPE_BUF bytes: the write is whole or fails with EAGAIN, never half an event.
        let written = event.bytes.withUnsafeBytes { write(children[i].inputFD, $0.baseAddress, $0.count) }
        if written == event.count { children[i].clicksWritten += 1 }
    }
}

/// `text` inside a JSON string, exactly: `"` and `\` escaped, control bytes as `\u00XX`,
/// everything else as it is (a wrapped program gets back the bytes it gave).
func appendJSONString(_ text: [UInt8], to out: inout ByteWriter) {
    let hex: StaticString = "0123456789abcdef"
    for b in text {
        if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
            out.append(UInt8(ascii: "\\")); out.append(b)
        } else if b < 0x20 || b == 0x7F {
            out.append("\\u00")
            out.append(hex.utf8Start[Int(b >> 4)]); out.append(hex.utf8Start[Int(b & 15)])
        } else {
            out.append(b)
        }
    }
}
