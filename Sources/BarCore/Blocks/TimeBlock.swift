#if hasFeature(Embedded)
import SnapshotCodecEmbedded
#else
import SnapshotCodec
#endif
import CClock

/// `Mon 2026-11-23 14:05`: the time in the local zone (TZ, else /etc/localtime) or the block's
/// own (`--blocks time:Europe/Paris`), through strftime(3), so `%a` and `%b` follow LC_TIME.
/// The renderer draws it from its own clock: it needs no snapshot and stays right when the
/// sampler is stopped.
enum TimeBlock {
    /// None: `--format time=TEXT` is a strftime(3) format, not a text with placeholders.
    static let placeholders: [PlaceholderSpec] = []

    static let defaultFormat: StaticString = "%a %Y-%m-%d %H:%M"
    /// i3bar's short text for the default format.
    static let defaultShortFormat: StaticString = "%H:%M"
    /// The longest time text kept (a longer one shows `n/a`).
    static let maximumLength = 255

    /// Appends `format` (NUL-terminated) at `nowMs` in `zone` (NUL-terminated, empty for
    /// local); `n/a` when it cannot (an unknown zone, a text over ``maximumLength``).
    static func append(format: [CChar], zone: [CChar], nowMs: UInt64, into w: inout ByteWriter) {
        let seconds = Int64(clamping: nowMs / 1000)
        let start = w.count
        w.append(upTo: maximumLength) { out in
            format.withUnsafeBufferPointer { f in
                zone.withUnsafeBufferPointer { z in
                    out.baseAddress!.withMemoryRebound(to: CChar.self, capacity: out.count) { o in
                        Int(cclock_format(f.baseAddress!, z.baseAddress!, seconds, o, out.count))
                    }
                }
            }
        }
        if w.count == start { w.append(notAvailableText) }
    }

    /// How often a format's text changes, ms: every second when it shows seconds (or a
    /// conversion that includes them), else every minute.
    static func tickMs(format: [UInt8]) -> UInt64 {
        var i = 0
        while i < format.count {
            guard format[i] == UInt8(ascii: "%") else { i += 1; continue }
            i += 1
            // Flags, width, and the E/O modifiers come before the conversion.
            while i < format.count, "_-0^#123456789EO".utf8.contains(format[i]) { i += 1 }
            if i < format.count, "STrXcs+".utf8.contains(format[i]) { return 1000 }
            i += 1
        }
        return 60_000
    }

    /// The first wall-clock instant after `nowMs` that is a multiple of `tickMs` (the next
    /// second, or the next minute at :00), plus a millisecond so the wake-up lands after it.
    static func nextTick(after nowMs: UInt64, tickMs: UInt64) -> UInt64 {
        (nowMs / tickMs + 1) * tickMs + 1
    }
}

/// The time blocks' state: the format as a C string, each block's zone, when to wake.
struct Clocks {
    private(set) var format: [CChar] = []
    private(set) var shortFormat: [CChar]? = nil
    /// One entry per bar block: the zone as a C string (empty C string for local), or empty for
    /// a block that is not a clock.
    private(set) var zones: [[CChar]] = []
    /// ``TimeBlock/tickMs(format:)`` of the format; 0 without a time block.
    private(set) var tickMs: UInt64 = 0

    init(blocks: [BarBlock], format text: [UInt8]?) {
        guard blocks.contains(where: { $0.kind == .time }) else {
            zones = Array(repeating: [], count: blocks.count)
            return
        }
        let source: [UInt8] = text ?? bytes(TimeBlock.defaultFormat)
        format = cString(source)
        if text == nil { shortFormat = cString(bytes(TimeBlock.defaultShortFormat)) }
        tickMs = TimeBlock.tickMs(format: source)
        zones = blocks.map { $0.kind == .time ? cString($0.argument) : [] }
    }

    /// Fills `v` with block `index`'s time at `nowMs`.
    func render(_ index: Int, nowMs: UInt64, into v: inout BlockValue) {
        v.reset()
        TimeBlock.append(format: format, zone: zones[index], nowMs: nowMs, into: &v.full)
        if let s = shortFormat { TimeBlock.append(format: s, zone: zones[index], nowMs: nowMs, into: &v.short) }
    }

    /// When the time text next changes (realtime ms), or nil without a time block.
    func nextTick(after nowMs: UInt64) -> UInt64? {
        tickMs == 0 ? nil : TimeBlock.nextTick(after: nowMs, tickMs: tickMs)
    }
}

private func bytes(_ s: StaticString) -> [UInt8] {
    var a: [UInt8] = []
    let p = s.utf8Start
    for i in 0..<s.utf8CodeUnitCount { a.append(p[i]) }
    return a
}

private func cString(_ b: [UInt8]) -> [CChar] {
    var c: [CChar] = []
    c.reserveCapacity(b.count + 1)
    for x in b { c.append(CChar(bitPattern: x)) }
    c.append(0)
    return c
}
