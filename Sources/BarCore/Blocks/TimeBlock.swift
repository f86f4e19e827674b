import SnapshotCodec
import CClock

/// `Mon 2026-11-23 14:05`: the time in the local zone (TZ, else /etc/localtime) or the block's
/// own (`--blocks time:Europe/Paris`), through strftime(3), so `%a` and `%b` follow LC_TIME.
/// The renderer draws it from its own clock: it needs no snapshot and stays right when the
/// sampler is stopped.
enum TimeBlock {
    /// No placeholders: `--format time=TEXT` is a strftime(3) format. The renderer draws it
    /// from its own clock (``Clocks``).
    static let descriptor = BlockDescriptor(
        name: "time", label: "time", section: [], argumentKey: "timezone",
        argumentCheck: ArgumentCheck(known: zoneKnown, what: "time zone", whereFrom: "/usr/share/zoneinfo", optionsError: .unknownTimeZone),
        source: .clock, placeholders: [],
        helpNote: "a strftime(3) format, e.g. --format 'time=%H:%M:%S'", render: nil)

    /// True when this machine has the zone `name` names (tzdata's files, as TZ reads them).
    @Sendable static func zoneKnown(_ name: ArraySlice<UInt8>) -> Bool {
        var zone: [CChar] = []
        for b in name { zone.append(CChar(bitPattern: b)) }
        zone.append(0)
        return zone.count > 1 && zone.withUnsafeBufferPointer { cclock_zone_known($0.baseAddress!) } != 0
    }

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
        if w.count == start { w.appendNotAvailable() }
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

/// The time blocks' state: each block's formats and zone as C strings, when to wake.
struct Clocks {
    /// One entry per bar block (empty for a block that is not a clock): the format, the short
    /// format (empty C string: none), the zone (empty C string: local).
    private(set) var formats: [[CChar]] = []
    private(set) var shortFormats: [[CChar]] = []
    private(set) var zones: [[CChar]] = []
    /// The finest ``TimeBlock/tickMs(format:)`` of the clocks' formats; 0 without a time block.
    private(set) var tickMs: UInt64 = 0

    /// The clocks of `blocks`: each block's own formats (config file), else `format` (the
    /// `--format time=` text), else the default with its short form.
    init(blocks: [BarBlock], format text: [UInt8]?) {
        for block in blocks {
            guard block.kind == .time else { formats.append([]); shortFormats.append([]); zones.append([]); continue }
            let own = block.timeFormat ?? text
            let source: [UInt8] = own ?? bytes(TimeBlock.defaultFormat)
            formats.append(cString(source))
            let short = block.timeShortFormat ?? (own == nil ? bytes(TimeBlock.defaultShortFormat) : [])
            shortFormats.append(cString(short))
            zones.append(cString(block.argument))
            let tick = TimeBlock.tickMs(format: source)
            tickMs = tickMs == 0 ? tick : min(tickMs, tick)
        }
    }

    /// Fills `v` with block `index`'s time at `nowMs`.
    func render(_ index: Int, nowMs: UInt64, into v: inout BlockValue) {
        v.reset()
        TimeBlock.append(format: formats[index], zone: zones[index], nowMs: nowMs, into: &v.full)
        if shortFormats[index].count > 1 {
            TimeBlock.append(format: shortFormats[index], zone: zones[index], nowMs: nowMs, into: &v.short)
        }
    }

    /// When the time text next changes (realtime ms), or nil without a time block.
    func nextTick(after nowMs: UInt64) -> UInt64? {
        tickMs == 0 ? nil : TimeBlock.nextTick(after: nowMs, tickMs: tickMs)
    }
}

private func cString(_ b: [UInt8]) -> [CChar] {
    var c: [CChar] = []
    c.reserveCapacity(b.count + 1)
    for x in b { c.append(CChar(bitPattern: x)) }
    c.append(0)
    return c
}
