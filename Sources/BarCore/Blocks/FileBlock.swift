// i3status's small modules as blocks: run_watch, path_exists and read_file. What they show
// is on the file system, which BarCore never touches: the program looks before it draws an
// update (BarRuntime/FileLooker.swift) and hands what it found to ``FileLooks``; these blocks
// format it. Their texts, placeholders and colours are i3status's.

import SnapshotCodec

/// What a file block looks at.
public enum FileCheck: Equatable, Sendable {
    /// run_watch: whether the process a pid file names runs.
    case process
    /// path_exists: whether a path is there (stat(2)).
    case exists
    /// read_file: a file's first line.
    case firstLine

    /// The config key of its text while down: i3status's `format_down`, read_file's `format_bad`.
    var downFormatKey: StaticString { self == .firstLine ? "format_bad" : "format_down" }

    /// Down and without that key, whether it shows its `format`: i3status's run_watch and
    /// path_exists do (no format_down is their format), its read_file shows its own
    /// `format_bad` default (``ReadFileBlock``).
    var downKeepsFormat: Bool { self != .firstLine }

    /// The longest path a file block takes (PATH_MAX less its NUL): a path is longer than a
    /// name, which is all another block's argument is.
    static let maximumPath = 4095
}

/// What the program found for one file block before an update.
public struct FileLook {
    /// i3status's `max_characters` default: read_file shows at most this much of its line.
    public static let maximumContent = 255

    let check: FileCheck
    /// The process runs, the path is there, the file was read.
    var good = false
    /// read_file: the file's first line (up to its first LF, CR or NUL, as i3status's
    /// `%content`), at most ``maximumContent`` bytes, a character the bound would split left
    /// out. Raw: the outputs escape it, as any text (invalid UTF-8 as U+FFFD).
    var content: ByteWriter
    /// read_file: why it could not be read (errno, and strerror(3)'s text).
    var errno: Int32 = 0
    var error: ByteWriter

    init(_ check: FileCheck) {
        self.check = check
        // Reserved once: a look never allocates.
        content = ByteWriter(capacity: check == .firstLine ? FileLook.maximumContent : 0)
        error = ByteWriter(capacity: check == .firstLine ? 128 : 0)
    }
}

/// The file blocks' looks, by block index (nil for the other blocks), and when they were
/// taken: the program sets them before it draws (at most once a second), a renderer made
/// afresh (a config reloaded) has none yet.
public struct FileLooks {
    var byBlock: [FileLook?]
    /// Whether any block looks at the file system.
    public let any: Bool
    /// When the looks were taken, on the program's monotonic clock (ms); 0: not yet.
    public var takenMs: UInt64 = 0

    init(_ blocks: [BarBlock]) {
        byBlock = blocks.map { block in block.kind.descriptor.fileCheck.map { FileLook($0) } }
        any = byBlock.contains { $0 != nil }
    }

    /// Block `index` is (or is not) running, there, read.
    public mutating func set(_ index: Int, good: Bool) {
        guard index < byBlock.count else { return }
        byBlock[index]?.good = good
    }

    /// read_file block `index` read `bytes` (the file's first bytes, as many as fit the bound
    /// or fewer): its first line is kept.
    public mutating func setContent(_ index: Int, _ bytes: UnsafeRawBufferPointer) {
        guard index < byBlock.count, byBlock[index] != nil else { return }
        byBlock[index]?.good = true
        byBlock[index]?.errno = 0
        byBlock[index]?.error.reset()
        byBlock[index]?.content.reset()
        var end = 0
        while end < bytes.count && end < FileLook.maximumContent {
            let b = bytes[end]
            if b == 0x0A || b == 0x0D || b == 0 { break }
            byBlock[index]?.content.append(b)
            end += 1
        }
        if end == FileLook.maximumContent { byBlock[index]?.content.dropIncompleteCharacter() }
    }

    /// read_file block `index` could not be read: `errno`, and `text`, strerror(3)'s (at
    /// most 128 bytes of it).
    public mutating func setError(_ index: Int, errno: Int32, text: UnsafeRawBufferPointer) {
        guard index < byBlock.count, byBlock[index] != nil else { return }
        byBlock[index]?.good = false
        byBlock[index]?.errno = errno
        byBlock[index]?.content.reset()
        byBlock[index]?.error.reset()
        for i in 0..<min(text.count, 128) { byBlock[index]?.error.append(text[i]) }
    }
}

/// What the three file blocks share: `{title}`, `{status}`, i3status's choice of text.
enum FileBlock {
    static let title = PlaceholderSpec("title", "the block's title (i3status's instance name: DHCP in run_watch DHCP), else the file's name") { _, c, w in
        appendTitle(c, &w)
    }
    static let status = PlaceholderSpec("status", "yes or no, as i3status says") { _, c, w in
        w.append(isGood(c) ? "yes" : "no")
    }

    /// Whether the program found the process running, the path there, the file read.
    static func isGood(_ c: BlockContext) -> Bool { c.look?.good ?? false }

    /// The block's `title`; without one, its path's last part (`tun0` for
    /// /proc/sys/net/ipv4/conf/tun0), else the whole path (one ending in `/`).
    static func appendTitle(_ c: BlockContext, _ w: inout ByteWriter) {
        if !c.title.isEmpty { w.append(bytes: c.title); return }
        let path = c.argument
        var start = path.count
        while start > 0 && path[start - 1] != UInt8(ascii: "/") { start -= 1 }
        if start == path.count { start = 0 }
        for i in start..<path.count { w.append(path[i]) }
    }

    /// run_watch's and path_exists' built-in text, i3status's `%title: %status`, critical
    /// (i3status's bad colour) while down. Without a path (only a test makes one) nothing.
    static func renderStatus(_ snap: Snapshot, _ c: BlockContext, into v: inout BlockValue) {
        guard !c.argument.isEmpty else { v.visible = false; return }
        appendTitle(c, &v.full)
        v.full.append(isGood(c) ? ": yes" : ": no")
        if !isGood(c) { v.level = .critical }
    }

    /// The format that replaces a block's built-in text: its own, else its kind's `--format`.
    /// A file block that is down takes its `format_down` (`format_bad`); without one,
    /// run_watch and path_exists keep their format and read_file its built-in down text,
    /// as i3status does.
    static func format(_ block: BarBlock, _ c: BlockContext, _ formats: BlockFormats, _ snap: Snapshot) -> BlockFormat? {
        // A muted sound device takes its `format_muted` (kept in the same place), as i3status's volume.
        if let sound = block.kind.descriptor.sound, let muted = block.downFormat, sound.isMuted(snap, c) { return muted }
        // A player that does not play takes the media block's `format_paused` (the same place).
        if let media = block.kind.descriptor.media, let paused = block.downFormat, media.isPaused(snap, c) { return paused }
        if let look = c.look, !look.good {
            if let down = block.downFormat { return down }
            if !look.check.downKeepsFormat { return nil }
        }
        return block.format ?? formats[block.kind]
    }
}
