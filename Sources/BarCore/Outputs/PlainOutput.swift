/// One plain line per update, blocks separated by ` | ` (lemonbar, tmux, polybar's
/// script module, dwm's root window name, genmon's label).
struct PlainOutput {
    /// `.plain` for a terminal-ish bar, `.pango` for genmon's `<txt>`.
    let escaping: TextEscape
    /// False for the X11 root window name, which is set, not printed.
    let newline: Bool
    /// Between blocks (the theme's).
    let separator: [UInt8]

    func block(_ v: BlockValue, first: Bool, _ line: inout ByteWriter) {
        if !first { line.append(escaped: separator, escaping) }
        // A block whose text is Pango markup (`markup = "pango"`) passes it to a Pango output as it is.
        line.append(escaped: v.full.bytes, v.pango && escaping == .pango ? .plain : escaping)
    }

    func end(_ line: inout ByteWriter) {
        if newline { line.append(UInt8(ascii: "\n")) }
    }

    func messageBlock(bytes text: [UInt8], first: Bool, _ line: inout ByteWriter) {
        if !first { line.append(escaped: separator, escaping) }
        line.append(escaped: text, escaping)
    }

    func messageBlock(_ text: StaticString, first: Bool, _ line: inout ByteWriter) {
        if !first { line.append(escaped: separator, escaping) }
        line.append(escaped: text, escaping)
    }

    func message(_ text: StaticString, _ line: inout ByteWriter) {
        line.append(escaped: text, escaping)
        end(&line)
    }
}
