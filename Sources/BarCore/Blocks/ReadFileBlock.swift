import SnapshotCodec

/// A file's first line, i3status's read_file: at most 255 bytes of it (i3status's
/// `max_characters` default), escaped for the output as any text. A file that cannot be read
/// shows i3status's `format_bad`, `%title - %errno: %error` (`BAT - 2: No such file or
/// directory`), critical; one that is not a regular file (a FIFO, a device) is never opened
/// for reading: it reads as EINVAL, a directory as EISDIR. The program reads before each
/// update (``FileBlock``).
enum ReadFileBlock {
    static let descriptor = BlockDescriptor(
        name: "read_file", label: "read_file", section: [], argumentKey: "path", source: .files(.firstLine),
        present: { _, c in FileBlock.isGood(c) },
        placeholders: [
            FileBlock.title,
            PlaceholderSpec("content", "the file's first line, at most 255 bytes") { _, c, w in
                if let look = c.look, look.good { w.append(look.content) }
            },
            PlaceholderSpec("errno", "why it could not be read: the error's number (2: no such file)") { _, c, w in
                if let look = c.look, !look.good { w.appendDecimal(Int(look.errno)) }
            },
            PlaceholderSpec("error", "the error's text, strerror(3)'s") { _, c, w in
                if let look = c.look, !look.good { w.append(look.error) }
            },
        ],
        render: render)

    /// i3status's `%content` while the file is read, else its `%title - %errno: %error`.
    static func render(_ snap: Snapshot, _ c: BlockContext, into v: inout BlockValue) {
        guard !c.argument.isEmpty else { v.visible = false; return }
        if let look = c.look, look.good {
            v.full.append(look.content)
            return
        }
        FileBlock.appendTitle(c, &v.full)
        v.full.append(" - ")
        v.full.appendDecimal(Int(c.look?.errno ?? 0))
        v.full.append(": ")
        if let look = c.look { v.full.append(look.error) }
        v.level = .critical
    }
}
