// `--output genmon`: what xfce4-genmon-plugin reads. The plugin runs a command
// every period, reads its stdout and looks for tags with strstr(): `<img>` (a
// file path, taken raw), `<txt>` (Pango markup, the label), `<tool>` (Pango
// markup, the tooltip), `<click>` (a command line run when the image is clicked).
// Everything from a process name is escaped for Pango; paths and the click
// command are never escaped (the plugin takes them raw), so they are only
// written when they hold nothing that could end a tag or split a command.

import SnapshotCodec

/// Writes the genmon tags for one run into a reused buffer.
public struct GenmonWriter {
    /// The tags of the last ``write(snapshot:message:line:image:click:)``.
    public private(set) var output = ByteWriter(capacity: 4096)
    /// How many processes of each top list the tooltip shows.
    public static let topEntries = 3

    /// An empty writer (its buffer reserved).
    public init() {}

    /// True when `bytes` can go raw into `<img>` or `<click>`: a path or command of
    /// `A–Z a–z 0–9 / . _ + - ,` and spaces (no markup, no quotes, nothing a shell or
    /// g_shell_parse_argv would treat specially).
    public static func isSafeRaw(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return false }
        for b in bytes {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"):
                continue
            case UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "+"), UInt8(ascii: "-"),
                 UInt8(ascii: ","), UInt8(ascii: " "):
                continue
            default:
                return false
            }
        }
        return true
    }

    /// Writes the tags: `<img>` when `image` is given (and safe), `<txt>` (the text
    /// `line`, already Pango-escaped, or `message` when there is no current snapshot),
    /// `<tool>` (figures and top processes, or the message), `<click>` when `click` is given.
    /// `snapshot` nil means missing or stale: `message` says why.
    @inline(never)
    public mutating func write(snapshot: Snapshot?, message: StaticString, line: [UInt8], image: [UInt8]?,
                               click: [UInt8]?) {
        output.reset()
        if let image, GenmonWriter.isSafeRaw(image) {
            output.append("<img>"); output.append(bytes: image); output.append("</img>")
        }
        output.append("<txt>")
        if snapshot == nil { output.append(escaped: message, .pango) } else { output.append(bytes: line) }
        output.append("</txt><tool>")
        if let s = snapshot { appendTooltip(s) } else { output.append(escaped: message, .pango) }
        output.append("</tool>")
        if let click, GenmonWriter.isSafeRaw(click) {
            output.append("<click>"); output.append(bytes: click); output.append("</click>")
        }
        output.append(UInt8(ascii: "\n"))
    }

    /// Figures on the first lines, then the top processes by CPU and by memory.
    mutating func appendTooltip(_ s: Snapshot) {
        output.append("CPU ")
        if s.available.contains(.cpu) {
            output.appendPercent(permyriad: UInt64(s.cpuBusy))
            output.append(" (iowait ")
            output.appendPercent(permyriad: UInt64(s.cpuIOWait))
            output.append(UInt8(ascii: ")"))
        } else {
            output.appendNotAvailable()
        }
        output.append(", load ")
        if s.available.contains(.load) {
            output.appendFixed(UInt64(s.load1), scaleDigits: 2, fractionDigits: 2)
            output.append(UInt8(ascii: " "))
            output.appendFixed(UInt64(s.load5), scaleDigits: 2, fractionDigits: 2)
            output.append(UInt8(ascii: " "))
            output.appendFixed(UInt64(s.load15), scaleDigits: 2, fractionDigits: 2)
        } else {
            output.appendNotAvailable()
        }
        let m = s.memory
        output.append("\nMemory ")
        if s.available.contains(.memory) {
            output.appendSize(kib: m.used)
            output.append(" used of ")
            output.appendSize(kib: m.total)
            output.append(": wired ")
            output.appendSize(kib: m.wired)
            output.append(", active ")
            output.appendSize(kib: m.active)
            output.append(", inactive ")
            output.appendSize(kib: m.inactive)
            output.append(", other ")
            output.appendSize(kib: m.other)
            output.append(", free ")
            output.appendSize(kib: m.free)
        } else {
            output.appendNotAvailable()
        }
        if !s.available.contains(.battery) {
            output.append("\nBattery ")
            output.appendNotAvailable()
        } else if s.battery.count > 0 {
            output.append("\nBattery ")
            output.appendPercent(permyriad: UInt64(s.battery.percent))
        }
        if !s.topCPU.isEmpty {
            output.append("\n<b>Top CPU</b>")
            for (i, p) in s.topCPU.enumerated() where i < GenmonWriter.topEntries {
                output.append("\n  ")
                output.append(escaped: p.name, .pango)
                output.append(UInt8(ascii: " "))
                output.appendFixed(UInt64(p.cpu), scaleDigits: 2, fractionDigits: 1)
                output.append(UInt8(ascii: "%"))
            }
        }
        if !s.topMemory.isEmpty {
            output.append("\n<b>Top memory</b>")
            for (i, p) in s.topMemory.enumerated() where i < GenmonWriter.topEntries {
                output.append("\n  ")
                output.append(escaped: p.name, .pango)
                output.append(UInt8(ascii: " "))
                output.appendSize(kib: p.privateKiB)
            }
        }
    }
}
