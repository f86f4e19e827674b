/// One GPU: what its driver publishes (amdgpu and i915/xe in sysfs, NVIDIA through NVML).
/// A figure the card does not give is left out of ``known`` and shown as `n/a`. Each
/// figure is described once, in ``GPUFigure/all``: the section, the `gpu` block's
/// placeholders, `report --json` and the Prometheus series all go through that table.
public struct GPUFigures: Equatable, Sendable {
    /// Which of the figures below the card gave.
    public struct Known: OptionSet, Equatable, Sendable {
        public var rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }
        @inlinable public static var busy: Known { Known(rawValue: 1 << 0) }
        @inlinable public static var memoryBusy: Known { Known(rawValue: 1 << 1) }
        @inlinable public static var vram: Known { Known(rawValue: 1 << 2) }
        @inlinable public static var gtt: Known { Known(rawValue: 1 << 3) }
        @inlinable public static var temperature: Known { Known(rawValue: 1 << 4) }
        @inlinable public static var power: Known { Known(rawValue: 1 << 5) }
        @inlinable public static var clock: Known { Known(rawValue: 1 << 6) }
        @inlinable public static var fan: Known { Known(rawValue: 1 << 7) }
        @inlinable public static var powerLimit: Known { Known(rawValue: 1 << 8) }
    }
    /// The card's number: N of `/sys/class/drm/cardN`, or NVML's index for NVIDIA.
    public var index: UInt8 = 0
    /// The kernel driver (`amdgpu`, `i915`, `xe`, `nvidia`), at most ``Snapshot/maximumInterfaceNameLength`` bytes.
    public var driver: [UInt8] = []
    /// The product name where the driver gives one, else the PCI vendor:device pair; at
    /// most ``Snapshot/maximumPathLength`` bytes.
    public var name: [UInt8] = []
    public var known: Known = []
    /// Share of the last interval the GPU was busy, and its memory controller.
    public var busy: Permyriad = 0
    public var memoryBusy: Permyriad = 0
    /// Video memory (the card's own) and GTT (system memory mapped for it), bytes.
    public var vramUsedBytes: UInt64 = 0
    public var vramTotalBytes: UInt64 = 0
    public var gttUsedBytes: UInt64 = 0
    public var gttTotalBytes: UInt64 = 0
    /// The card's temperature, millidegrees Celsius.
    public var milliCelsius: Int32 = 0
    /// Power drawn, milliwatts.
    public var milliwatts: UInt32 = 0
    /// The graphics (shader) clock, MHz.
    public var clockMHz: UInt32 = 0
    /// The fan, RPM (NVIDIA: percent of its top speed).
    public var fan: UInt32 = 0
    /// The power limit the card holds to (amdgpu's cap, Intel's PL1, NVML's enforced limit), milliwatts.
    public var powerLimitMilliwatts: UInt32 = 0
    public init() {}
}

/// How a figure's value is kept, and so how each output writes it: one list for the GPU's
/// figures (``GPUFigure``) and the listed parts' (``PartFigure``).
public enum FigureUnit: Sendable {
    /// A share, permyriad: the block's whole percent, JSON's percent, Prometheus's ratio.
    case permyriad
    /// Bytes: the block's size (`6.0G`), JSON's and Prometheus's bytes.
    case bytes
    /// Millidegrees Celsius: the block's whole degrees, degrees elsewhere.
    case milliCelsius
    /// Milliwatts: watts with one decimal in the block, watts elsewhere.
    case milliwatts
    /// MHz: MHz in the block and JSON, hertz in Prometheus.
    case megahertz
    /// A plain count, as given.
    case count
    /// KiB: MiB with one decimal in JSON, bytes in Prometheus.
    case kib
    /// Hundredths (a load average ×100): two decimals.
    case hundredths
    /// Hundredths of a second: whole seconds in JSON, seconds with two decimals in Prometheus.
    case centiseconds
    /// Whole seconds (a time since the epoch).
    case seconds
    /// Whole minutes: seconds in Prometheus.
    case minutes
    /// Whole seconds of a span (a track's length): `MM:SS` in the block, `HH:MM:SS` from an
    /// hour (as waybar's mpris writes them); seconds elsewhere.
    case duration
}

/// One figure a GPU may give, described for every output at once: the bit of
/// ``GPUFigures/Known`` that says the card gave it, how the section keeps it, its value, its
/// unit (which says how each output writes it), and its names: the `gpu` block's
/// placeholder, the member of `report --json`'s GPU, the Prometheus family (nil: none, where
/// the unit differs by driver).
public struct GPUFigure: Sendable {
    public typealias Unit = FigureUnit
    public let known: GPUFigures.Known
    /// Its width in each card's entry of the section's version 1; nil: a figure added later,
    /// carried after the cards as an i64 (``GPUSection``).
    let width: FigureWidth?
    /// Kept as a two's complement (a temperature).
    public let signed: Bool
    public let unit: Unit
    public let placeholder: StaticString
    /// The placeholder's line in the manual.
    public let help: StaticString
    public let json: StaticString
    public let prometheus: StaticString?
    public let prometheusHelp: StaticString
    /// The card's figure as its bits (a signed one's two's complement): exact for every value.
    let bits: @Sendable (GPUFigures) -> UInt64
    /// Stores a decoded value (its bits, as ``bits`` gives them), saturating to the field's type.
    let store: @Sendable (inout GPUFigures, UInt64) -> Void

    init(_ known: GPUFigures.Known, _ width: FigureWidth?, signed: Bool = false, _ unit: Unit,
         placeholder: StaticString, _ help: StaticString, json: StaticString,
         prometheus: StaticString?, _ prometheusHelp: StaticString,
         value: @escaping @Sendable (GPUFigures) -> UInt64, store: @escaping @Sendable (inout GPUFigures, UInt64) -> Void) {
        self.known = known; self.width = width; self.signed = signed; self.unit = unit
        self.placeholder = placeholder; self.help = help; self.json = json
        self.prometheus = prometheus; self.prometheusHelp = prometheusHelp; self.bits = value; self.store = store
    }

    /// The card's figure as a signed number (an unsigned one past `Int64.max` saturates).
    @inline(__always)
    public func value(_ g: GPUFigures) -> Int64 {
        let v = bits(g)
        return signed ? Int64(bitPattern: v) : Int64(clamping: v)
    }

    /// Every figure, in the order of the outputs. The first ``inFirstLayout`` are the
    /// section's version 1 fields; a figure added later is appended here and nowhere else in
    /// the codec (the section carries it after the cards, ``GPUSection``).
    public static let all: [GPUFigure] = [
        GPUFigure(.busy, .u16, .permyriad, placeholder: "busy", "share of the interval the GPU was busy", json: "busy_percent",
                  prometheus: "sysstats_gpu_busy_ratio", "Share of the last interval the GPU was busy.",
                  value: { UInt64($0.busy) }, store: { $0.busy = min(Permyriad(clamping: $1), Snapshot.wholeShare) }),
        GPUFigure(.memoryBusy, .u16, .permyriad, placeholder: "memory_busy", "share its memory was busy", json: "memory_busy_percent",
                  prometheus: "sysstats_gpu_memory_busy_ratio", "Share of the last interval the GPU's memory was busy.",
                  value: { UInt64($0.memoryBusy) }, store: { $0.memoryBusy = min(Permyriad(clamping: $1), Snapshot.wholeShare) }),
        GPUFigure(.vram, .u64, .bytes, placeholder: "vram_used", "video memory used", json: "vram_used_bytes",
                  prometheus: "sysstats_gpu_memory_used_bytes", "Video memory in use.",
                  value: { $0.vramUsedBytes }, store: { $0.vramUsedBytes = $1 }),
        GPUFigure(.vram, .u64, .bytes, placeholder: "vram_total", "video memory in all", json: "vram_total_bytes",
                  prometheus: "sysstats_gpu_memory_total_bytes", "Video memory in all.",
                  value: { $0.vramTotalBytes }, store: { $0.vramTotalBytes = $1 }),
        GPUFigure(.gtt, .u64, .bytes, placeholder: "gtt_used", "system memory mapped for the GPU (amdgpu), in use", json: "gtt_used_bytes",
                  prometheus: "sysstats_gpu_gtt_used_bytes", "System memory mapped for the GPU (amdgpu's GTT), in use.",
                  value: { $0.gttUsedBytes }, store: { $0.gttUsedBytes = $1 }),
        GPUFigure(.gtt, .u64, .bytes, placeholder: "gtt_total", "system memory the GPU may map (amdgpu)", json: "gtt_total_bytes",
                  prometheus: "sysstats_gpu_gtt_total_bytes", "System memory the GPU may map (amdgpu's GTT).",
                  value: { $0.gttTotalBytes }, store: { $0.gttTotalBytes = $1 }),
        GPUFigure(.temperature, .u32, signed: true, .milliCelsius, placeholder: "celsius", "temperature, whole degrees", json: "celsius",
                  prometheus: "sysstats_gpu_temperature_celsius", "The GPU's temperature.",
                  value: { UInt64(bitPattern: Int64($0.milliCelsius)) }, store: { $0.milliCelsius = Int32(clamping: Int64(bitPattern: $1)) }),
        GPUFigure(.power, .u32, .milliwatts, placeholder: "watts", "power drawn, watts with one decimal", json: "watts",
                  prometheus: "sysstats_gpu_power_watts", "Power the GPU draws.",
                  value: { UInt64($0.milliwatts) }, store: { $0.milliwatts = UInt32(clamping: $1) }),
        GPUFigure(.clock, .u32, .megahertz, placeholder: "clock", "graphics clock, MHz", json: "clock_mhz",
                  prometheus: "sysstats_gpu_clock_hertz", "The GPU's graphics (shader) clock.",
                  value: { UInt64($0.clockMHz) }, store: { $0.clockMHz = UInt32(clamping: $1) }),
        GPUFigure(.fan, .u32, .count, placeholder: "fan", "fan: RPM (amdgpu), percent of top speed (NVIDIA)", json: "fan",
                  prometheus: nil, "",
                  value: { UInt64($0.fan) }, store: { $0.fan = UInt32(clamping: $1) }),
        GPUFigure(.powerLimit, nil, .milliwatts, placeholder: "power_limit", "the power limit it holds to, watts with one decimal",
                  json: "power_limit_watts", prometheus: "sysstats_gpu_power_limit_watts", "The power limit the GPU holds to.",
                  value: { UInt64($0.powerLimitMilliwatts) }, store: { $0.powerLimitMilliwatts = UInt32(clamping: $1) }),
    ]

    /// How many of ``all`` the section's version 1 writes in each card's entry (those with a width).
    static let inFirstLayout = all.firstIndex { $0.width == nil } ?? all.count
}

/// Section 17: the GPUs. A u8 count (0...4), then per card: index u8, driver (u8 length
/// ≤ 15, bytes), name (u8 length ≤ 64, bytes), known figures u16 (``GPUFigures/Known``),
/// then the figures of ``GPUFigure/all`` that have a width, each at it (busy and memory busy
/// permyriad u16, VRAM used and total and GTT used and total bytes u64, millidegrees i32,
/// milliwatts, clock MHz and fan u32). Version 2 appends the figures added after those: a u8
/// count of them, then per card each as an i64. A reader takes those it knows and skips the rest.
enum GPUSection {
    static let firstFiguresSize = GPUFigure.all[..<GPUFigure.inFirstLayout].reduce(0) { $0 + $1.width!.size }
    static let entryMaximumSize = 1 + 1 + Snapshot.maximumInterfaceNameLength + 1 + Snapshot.maximumPathLength
        + 2 + firstFiguresSize
    static let appendedCount = GPUFigure.all.count - GPUFigure.inFirstLayout
    static let maximumSize = 1 + Snapshot.maximumGPUs * entryMaximumSize + (appendedCount == 0 ? 0 : 1 + Snapshot.maximumGPUs * appendedCount * 8)

    static let descriptor = SectionDescriptor(.gpu, maximumSize: maximumSize, cached: true,
                                              encode: encode, decode: decode, clear: clear)

    @Sendable static func encode(_ s: inout Snapshot, into b: inout EncodeCursor) {
        b.appendSection(.gpu, version: appendedCount == 0 ? 1 : 2) { b in
            b.appendList(s.gpus, maximum: Snapshot.maximumGPUs) { b, g in
                b.append(g.index)
                b.appendShortBytes(g.driver, maximum: Snapshot.maximumInterfaceNameLength)
                b.appendShortBytes(g.name, maximum: Snapshot.maximumPathLength)
                b.appendLE(g.known.rawValue)
                for f in 0..<GPUFigure.inFirstLayout {
                    let figure = GPUFigure.all[f]
                    var v = figure.bits(g)
                    if figure.unit == .permyriad { v = min(v, UInt64(Snapshot.wholeShare)) }
                    figure.width!.append(v, signed: figure.signed, to: &b)
                }
            }
            guard appendedCount > 0 else { return }
            b.append(UInt8(appendedCount))
            for i in 0..<min(s.gpus.count, Snapshot.maximumGPUs) {
                for f in GPUFigure.inFirstLayout..<GPUFigure.all.count {
                    b.appendLE(UInt64(bitPattern: GPUFigure.all[f].value(s.gpus[i])))
                }
            }
        }
    }

    @Sendable static func decode(_ r: inout SnapshotReader, into s: inout Snapshot) throws(SnapshotDecodeError) {
        try r.list(into: &s.gpus, maximum: Snapshot.maximumGPUs, empty: GPUFigures()) { (r, g) throws(SnapshotDecodeError) in
            g.index = try r.u8()
            try r.shortBytes(into: &g.driver, maximum: Snapshot.maximumInterfaceNameLength)
            try r.shortBytes(into: &g.name, maximum: Snapshot.maximumPathLength)
            g.known = GPUFigures.Known(rawValue: try r.u16())
            for f in 0..<GPUFigure.inFirstLayout {
                let figure = GPUFigure.all[f]
                figure.store(&g, try figure.width!.read(signed: figure.signed, from: &r))
            }
        }
        let appended = r.isAtEnd ? 0 : Int(try r.u8())   // version 1 ends before the count
        for i in 0..<s.gpus.count {
            for f in 0..<appended {
                let v = Int64(bitPattern: try r.u64())
                let k = GPUFigure.inFirstLayout + f
                guard k < GPUFigure.all.count else { continue }
                let figure = GPUFigure.all[k]
                figure.store(&s.gpus[i], figure.signed ? UInt64(bitPattern: v) : UInt64(clamping: v))
            }
            for f in min(GPUFigure.inFirstLayout + appended, GPUFigure.all.count)..<GPUFigure.all.count {
                GPUFigure.all[f].store(&s.gpus[i], 0)
            }
        }
    }

    @Sendable static func clear(_ s: inout Snapshot) {
        s.gpus.removeAll(keepingCapacity: true)
    }
}
