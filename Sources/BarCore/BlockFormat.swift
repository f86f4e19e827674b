// Per-block `--format` templates: parsed once at start into literal byte runs
// and placeholder ids, then walked on every update to write into the block's
// reused buffer. No parsing and no allocation per update.

#if hasFeature(Embedded)
import SnapshotCodecEmbedded
#else
import SnapshotCodec
#endif

/// A value a block can show in its `--format`; each belongs to one block.
public enum Placeholder: UInt8, Sendable, CaseIterable {
    // cpu
    case cpuBusy, cpuIOWait, cpuSpark
    // mem
    case memUsed, memTotal, memAvailable, memFree, memActive, memInactive, memWired, memOther
    case memPercent, memBar, memSwap, memSwapTotal
    // load
    case load1, load5, load15
    // uptime
    case uptimeDays, uptimeHours, uptimeMinutes, uptime
    // battery
    case batteryPercent, batteryState, batterySign, batteryRemaining, batteryPower
    // procs
    case procsCount, procsRunning
    // exited
    case exitedName, exitedPID, exitedFreed, exitedPrivate, exitedAgo
    // self
    case selfCPU, selfSamplerCPU, selfBarCPU, selfSamplerRSS, selfBarRSS
    // top
    case topName, topCPU, topMemory

    /// The block whose format may use it.
    public var block: BlockKind {
        switch self {
        case .cpuBusy, .cpuIOWait, .cpuSpark: .cpu
        case .memUsed, .memTotal, .memAvailable, .memFree, .memActive, .memInactive, .memWired, .memOther,
             .memPercent, .memBar, .memSwap, .memSwapTotal: .mem
        case .load1, .load5, .load15: .load
        case .uptimeDays, .uptimeHours, .uptimeMinutes, .uptime: .uptime
        case .batteryPercent, .batteryState, .batterySign, .batteryRemaining, .batteryPower: .battery
        case .procsCount, .procsRunning: .procs
        case .exitedName, .exitedPID, .exitedFreed, .exitedPrivate, .exitedAgo: .exited
        case .selfCPU, .selfSamplerCPU, .selfBarCPU, .selfSamplerRSS, .selfBarRSS: .selfCost
        case .topName, .topCPU, .topMemory: .top
        }
    }

    /// The part of the snapshot the value comes from; nil for the renderer's own figures.
    var section: SnapshotSections? {
        switch self {
        case .selfBarCPU, .selfBarRSS: nil
        default: block.section
        }
    }

    /// The name between the braces.
    public var name: StaticString {
        switch self {
        case .cpuBusy: "busy"
        case .cpuIOWait: "iowait"
        case .cpuSpark: "spark"
        case .memUsed: "used"
        case .memTotal: "total"
        case .memAvailable: "available"
        case .memFree: "free"
        case .memActive: "active"
        case .memInactive: "inactive"
        case .memWired: "wired"
        case .memOther: "other"
        case .memPercent: "percent"
        case .memBar: "bar"
        case .memSwap: "swap"
        case .memSwapTotal: "swap_total"
        case .load1: "1"
        case .load5: "5"
        case .load15: "15"
        case .uptimeDays: "days"
        case .uptimeHours: "hours"
        case .uptimeMinutes: "minutes"
        case .uptime: "uptime"
        case .batteryPercent: "percent"
        case .batteryState: "state"
        case .batterySign: "sign"
        case .batteryRemaining: "remaining"
        case .batteryPower: "power"
        case .procsCount: "count"
        case .procsRunning: "running"
        case .exitedName: "name"
        case .exitedPID: "pid"
        case .exitedFreed: "freed"
        case .exitedPrivate: "private"
        case .exitedAgo: "ago"
        case .selfCPU: "cpu"
        case .selfSamplerCPU: "sampler_cpu"
        case .selfBarCPU: "bar_cpu"
        case .selfSamplerRSS: "sampler_rss"
        case .selfBarRSS: "bar_rss"
        case .topName: "name"
        case .topCPU: "cpu"
        case .topMemory: "mem"
        }
    }

    /// The placeholder of `block` named `bytes`, or nil.
    public init?(block: BlockKind, name bytes: ArraySlice<UInt8>) {
        for p in Placeholder.allCases where p.block == block && bytesEqual(bytes, p.name) {
            self = p
            return
        }
        return nil
    }
}

/// One piece of a parsed format: a run of literal bytes or a placeholder.
enum FormatPart: Equatable, Sendable {
    /// `BlockFormat.literals[start..<end]`.
    case literal(start: UInt16, end: UInt16)
    case field(Placeholder)
}

/// One block's parsed `--format`: literal bytes (braces already unescaped)
/// and the sequence of literal runs and placeholders, allocated once.
public struct BlockFormat: Equatable, Sendable {
    /// The longest format text accepted, in bytes.
    public static let maximumLength = 256

    /// The block the format is for.
    public let block: BlockKind
    var literals: [UInt8]
    var parts: [FormatPart]

    /// Parses `text` (the part after `BLOCK=`) for `block`. `{name}` is a
    /// placeholder, `{{` and `}}` are literal braces.
    public init(_ text: ArraySlice<UInt8>, for block: BlockKind) throws(OptionsError) {
        guard text.count <= BlockFormat.maximumLength else { throw .formatTooLong }
        self.block = block
        literals = []
        literals.reserveCapacity(text.count)
        parts = []
        parts.reserveCapacity(text.count / 2 + 1)
        var runStart = 0
        var i = text.startIndex
        let end = text.endIndex
        while i < end {
            let b = text[i]
            if b == UInt8(ascii: "{") {
                if i + 1 < end && text[i + 1] == UInt8(ascii: "{") {
                    literals.append(b); i += 2; continue
                }
                var j = i + 1
                while j < end && text[j] != UInt8(ascii: "}") { j += 1 }
                guard j < end else { throw .unclosedBrace }
                guard let p = Placeholder(block: block, name: text[(i + 1)..<j]) else { throw .unknownPlaceholder(block) }
                if literals.count > runStart {
                    parts.append(.literal(start: UInt16(runStart), end: UInt16(literals.count)))
                    runStart = literals.count
                }
                parts.append(.field(p))
                i = j + 1
            } else if b == UInt8(ascii: "}") {
                guard i + 1 < end && text[i + 1] == UInt8(ascii: "}") else { throw .unmatchedBrace }
                literals.append(b); i += 2
            } else {
                literals.append(b); i += 1
            }
        }
        if literals.count > runStart {
            parts.append(.literal(start: UInt16(runStart), end: UInt16(literals.count)))
        }
    }

    /// Writes the format filled in from `snap` to `w` (appends; raw text, escaped later by the output).
    func render(_ snap: Snapshot, nowMs: UInt64, usage: RendererUsage, into w: inout ByteWriter) {
        for part in parts {
            switch part {
            case .literal(let start, let end):
                for k in Int(start)..<Int(end) { w.append(literals[k]) }
            case .field(let p):
                appendPlaceholder(p, snap, nowMs: nowMs, usage: usage, into: &w)
            }
        }
    }
}

/// The `--format` of each block; nil for blocks shown in their built-in form.
public struct BlockFormats: Equatable, Sendable {
    var byBlock: [BlockFormat?]

    public init() { byBlock = Array(repeating: nil, count: BlockKind.allCases.count) }

    /// The format for `kind`, or nil when it has none.
    public subscript(kind: BlockKind) -> BlockFormat? {
        get { byBlock[Int(kind.rawValue)] }
        set { byBlock[Int(kind.rawValue)] = newValue }
    }

    /// Parses one `--format` value, `BLOCK=TEXT`, and adds it; each block may have one.
    public mutating func add(_ value: ArraySlice<UInt8>) throws(OptionsError) {
        guard let eq = value.firstIndex(of: UInt8(ascii: "=")) else { throw .formatSyntax }
        guard let kind = BlockKind(name: value[..<eq]) else { throw .unknownFormatBlock }
        guard self[kind] == nil else { throw .duplicateFormat }
        self[kind] = try BlockFormat(value[(eq + 1)...], for: kind)
    }
}

/// Appends one placeholder's value. Shares are whole percents without `%`,
/// sizes are in the blocks' binary units (`3.2G`), loads have two decimals.
func appendPlaceholder(_ p: Placeholder, _ snap: Snapshot, nowMs: UInt64, usage: RendererUsage,
                       into w: inout ByteWriter) {
    if let section = p.section, !snap.available.contains(section) {
        w.append(notAvailableText)
        return
    }
    let m = snap.memory
    switch p {
    case .cpuBusy: appendWholePercent(&w, UInt64(snap.cpuBusy))
    case .cpuIOWait: appendWholePercent(&w, UInt64(snap.cpuIOWait))
    case .cpuSpark:
        let history = snap.cpuHistory
        let shown = 8
        let start = history.count > shown ? history.count - shown : 0
        for i in start..<history.count { w.appendSparkline(permyriad: UInt64(history[i])) }

    case .memUsed: w.appendSize(kib: m.used)
    case .memTotal: w.appendSize(kib: m.total)
    case .memAvailable: w.appendSize(kib: m.available)
    case .memFree: w.appendSize(kib: m.free)
    case .memActive: w.appendSize(kib: m.active)
    case .memInactive: w.appendSize(kib: m.inactive)
    case .memWired: w.appendSize(kib: m.wired)
    case .memOther: w.appendSize(kib: m.other)
    case .memPercent: appendWholePercent(&w, memoryShare(m))
    case .memBar: appendBar(&w, permyriad: memoryShare(m), cells: 8)
    case .memSwap: w.appendSize(kib: m.swapUsed)
    case .memSwapTotal: w.appendSize(kib: m.swapTotal)

    case .load1: w.appendFixed(UInt64(snap.load1), scaleDigits: 2, fractionDigits: 2)
    case .load5: w.appendFixed(UInt64(snap.load5), scaleDigits: 2, fractionDigits: 2)
    case .load15: w.appendFixed(UInt64(snap.load15), scaleDigits: 2, fractionDigits: 2)

    case .uptimeDays: w.appendDecimal(snap.uptimeCentiseconds / 100 / 86_400)
    case .uptimeHours: w.appendDecimal(snap.uptimeCentiseconds / 100 / 3600 % 24)
    case .uptimeMinutes: w.appendDecimal(snap.uptimeCentiseconds / 100 / 60 % 60, minimumDigits: 2)
    case .uptime: w.appendDuration(seconds: snap.uptimeCentiseconds / 100)

    case .batteryPercent: appendWholePercent(&w, UInt64(snap.battery.percent))
    case .batteryState:
        switch snap.battery.state {
        case .charging: w.append("charging")
        case .discharging: w.append("discharging")
        case .full: w.append("full")
        case .notCharging: w.append("not charging")
        case .unknown: w.append("unknown")
        }
    case .batterySign:
        switch snap.battery.state {
        case .charging: w.append(UInt8(ascii: "+"))
        case .discharging: w.append(UInt8(ascii: "-"))
        case .full: w.append(UInt8(ascii: "="))
        case .notCharging: w.append(UInt8(ascii: "~"))
        case .unknown: break
        }
    case .batteryRemaining:
        let b = snap.battery
        if (b.state == .charging || b.state == .discharging) && b.minutesRemaining != .max {
            w.appendDecimal(UInt64(b.minutesRemaining / 60))
            w.append(UInt8(ascii: ":"))
            w.appendDecimal(UInt64(b.minutesRemaining % 60), minimumDigits: 2)
        }
    case .batteryPower:
        w.appendFixed(UInt64(snap.battery.powerMilliwatts), scaleDigits: 3, fractionDigits: 1)
        w.append(UInt8(ascii: "W"))

    case .procsCount: w.appendDecimal(UInt64(snap.processCount))
    case .procsRunning: w.appendDecimal(UInt64(snap.runningCount))

    case .exitedName, .exitedPID, .exitedFreed, .exitedPrivate, .exitedAgo:
        guard let e = snap.exits.first else { return }
        switch p {
        case .exitedName: w.append(bytes: e.name)
        case .exitedPID: w.appendDecimal(UInt64(e.pid))
        case .exitedFreed: w.appendSize(kib: e.freedKiB)
        case .exitedPrivate: w.appendSize(kib: e.lastPrivateKiB)
        case .exitedAgo: w.appendDuration(seconds: nowMs > e.timeMs ? (nowMs - e.timeMs) / 1000 : 0)
        default: break
        }

    case .topName, .topCPU, .topMemory:
        guard let top = topProcess(snap) else { return }
        switch p {
        case .topName: w.append(bytes: top.name)
        case .topCPU: appendWholePercent(&w, UInt64(top.cpu))
        case .topMemory: w.appendSize(kib: top.privateKiB)
        default: break
        }

    case .selfCPU: w.appendFixed(saturatingAdd(UInt64(snap.samplerCPU), usage.cpu), scaleDigits: 2, fractionDigits: 1)
    case .selfSamplerCPU: w.appendFixed(UInt64(snap.samplerCPU), scaleDigits: 2, fractionDigits: 1)
    case .selfBarCPU: w.appendFixed(usage.cpu, scaleDigits: 2, fractionDigits: 1)
    case .selfSamplerRSS: w.appendSize(kib: UInt64(snap.samplerResidentKiB))
    case .selfBarRSS:
        // Empty when the program did not measure itself (as in the built-in form).
        if usage.residentKiB > 0 { w.appendSize(kib: usage.residentKiB) }
    }
}

/// Used memory (total − available) as a share of the total, hundredths of a percent
/// (0...10000 whatever the snapshot says).
func memoryShare(_ m: MemoryFigures) -> UInt64 {
    share(m.used, of: m.total)
}

/// A share in hundredths of a percent as a whole number, rounded, without `%`.
func appendWholePercent(_ w: inout ByteWriter, _ permyriad: UInt64) {
    w.appendDecimal(wholePercent(permyriad))
}
