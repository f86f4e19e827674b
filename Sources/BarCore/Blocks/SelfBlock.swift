import SnapshotCodec

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
    static let descriptor = BlockDescriptor(
        name: "self", label: "self", section: .sampler, showsRendererCost: true,
        placeholders: [
            PlaceholderSpec("cpu", "sampler + renderer CPU %, one decimal") { s, c, w in
                w.appendFixed(saturatingAdd(UInt64(s.samplerCPU), c.usage.cpu), scaleDigits: 2, fractionDigits: 1)
            },
            PlaceholderSpec("sampler_cpu", "the sampler's CPU %") { s, _, w in
                w.appendFixed(UInt64(s.samplerCPU), scaleDigits: 2, fractionDigits: 1)
            },
            PlaceholderSpec("bar_cpu", "the renderer's CPU %", measuredByRenderer: true) { _, c, w in
                w.appendFixed(c.usage.cpu, scaleDigits: 2, fractionDigits: 1)
            },
            PlaceholderSpec("sampler_rss", "the sampler's resident memory") { s, _, w in
                w.appendSize(kib: UInt64(s.samplerResidentKiB))
            },
            PlaceholderSpec("bar_rss", "the renderer's resident memory, empty when not measured",
                            measuredByRenderer: true) { _, c, w in
                // Empty when the program did not measure itself (as in the built-in form).
                if c.usage.residentKiB > 0 { w.appendSize(kib: c.usage.residentKiB) }
            },
        ],
        render: render)

    static func render(_ snap: Snapshot, _ c: BlockContext, into v: inout BlockValue) {
        let usage = c.usage
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
}
