#if hasFeature(Embedded)
import SnapshotCodecEmbedded
#else
import SnapshotCodec
#endif

/// What the renderer itself costs, measured by the program each update.
public struct RendererUsage: Sendable, Equatable {
    /// CPU share of one core since the previous update, hundredths of a percent.
    public var cpu: UInt64
    /// Resident memory, KiB.
    public var residentKiB: UInt64
    public init(cpu: UInt64 = 0, residentKiB: UInt64 = 0) { self.cpu = cpu; self.residentKiB = residentKiB }
}

/// `self 0.3% 3.1M+1.4M`: what sysstats itself costs, sampler and renderer.
enum SelfBlock {
    static let placeholders: [PlaceholderSpec] = [
        PlaceholderSpec("cpu", "sampler + renderer CPU %, one decimal"),
        PlaceholderSpec("sampler_cpu", "the sampler's CPU %"),
        PlaceholderSpec("bar_cpu", "the renderer's CPU %", measuredByRenderer: true),
        PlaceholderSpec("sampler_rss", "the sampler's resident memory"),
        PlaceholderSpec("bar_rss", "the renderer's resident memory, empty when not measured", measuredByRenderer: true),
    ]
    static func render(_ snap: Snapshot, usage: RendererUsage, into v: inout BlockValue) {
        v.full.append("self ")
        v.full.appendFixed(saturatingAdd(UInt64(snap.samplerCPU), usage.cpu), scaleDigits: 2, fractionDigits: 1)
        v.full.append(UInt8(ascii: "%"))
        v.short.append(v.full)
        v.full.append(UInt8(ascii: " "))
        v.full.appendSize(kib: UInt64(snap.samplerResidentKiB))
        // The renderer's own RSS, when the program measured it.
        if usage.residentKiB > 0 {
            v.full.append(UInt8(ascii: "+"))
            v.full.appendSize(kib: usage.residentKiB)
        }
    }

    static func append(_ index: Int, _ snap: Snapshot, usage: RendererUsage, into w: inout ByteWriter) {
        switch index {
        case 0: w.appendFixed(saturatingAdd(UInt64(snap.samplerCPU), usage.cpu), scaleDigits: 2, fractionDigits: 1)
        case 1: w.appendFixed(UInt64(snap.samplerCPU), scaleDigits: 2, fractionDigits: 1)
        case 2: w.appendFixed(usage.cpu, scaleDigits: 2, fractionDigits: 1)
        case 3: w.appendSize(kib: UInt64(snap.samplerResidentKiB))
        default:
            // Empty when the program did not measure itself (as in the built-in form).
            if usage.residentKiB > 0 { w.appendSize(kib: usage.residentKiB) }
        }
    }
}
