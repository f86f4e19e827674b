// Every section of format v3, in one place: its tag, its part, its largest payload, and
// the lists the encoder, the decoder and the section cache go through. A new section is
// its file in this folder plus a line in each list below (and its part's bit and fields in
// Snapshot.swift); nothing else in the codec names sections one by one.

/// The tag of each section. A number is never reused: a new part gets a new tag, and a
/// change that is not an append gets a new tag too.
public enum SectionTag: UInt16, Sendable, CaseIterable {
    /// Required: timestamp, interval, urgent flags.
    case meta = 1
    case uptime = 2
    case cpu = 3
    case memory = 4
    /// Absent when the kernel has no PSI.
    case pressure = 5
    case load = 6
    case processes = 7
    case battery = 8
    case top = 9
    case exits = 10
    case sampler = 11
    case network = 12
    case disks = 13
    case diskIO = 14
    case temperature = 15
    case frequency = 16
}

extension SectionTag {
    /// The part of ``Snapshot/available`` the section carries; nil for meta (required) and
    /// pressure (``Snapshot/memoryPressure`` is nil without it).
    var part: SnapshotSections? {
        switch self {
        case .meta, .pressure: nil
        case .uptime: .uptime
        case .cpu: .cpu
        case .memory: .memory
        case .load: .load
        case .processes: .processes
        case .battery: .battery
        case .top: .top
        case .exits: .exits
        case .sampler: .sampler
        case .network: .network
        case .disks: .disks
        case .diskIO: .diskIO
        case .temperature: .temperature
        case .frequency: .frequency
        }
    }
}

extension SectionTag {
    /// The highest tag: tags run from 1 without a gap, so also how many there are (a
    /// constant, where `allCases.count` would build an array at the first encode).
    static let highest = SectionTag.frequency

    /// The payloads of every section at their limits (``SnapshotFormat/maximumV3Size``).
    static let maximumPayloads =
        MetaSection.size + UptimeSection.size + CPUSection.maximumSize + MemorySection.maximumSize
        + PressureSection.size + LoadSection.size + ProcessesSection.size + BatterySection.size
        + TopSection.maximumSize + ExitsSection.maximumSize + SamplerSection.size
        + NetworkSection.maximumSize + DisksSection.maximumSize + DiskIOSection.maximumSize
        + TemperatureSection.maximumSize + FrequencySection.size

    /// The largest payload of each section a ``SectionCache`` keeps, in the order of its slots
    /// (the slot numbers in ``Snapshot/encodeSections(_:_:_:_:)``): the parts the sampler
    /// measures only now and then.
    static var cachedPayloads: [Int] {
        [SamplerSection.size, NetworkSection.maximumSize, DisksSection.maximumSize,
         DiskIOSection.maximumSize, TemperatureSection.maximumSize, FrequencySection.size]
    }
}

extension Snapshot {
    /// The meta section, then one section per available part (and pressure when set).
    @inline(__always)
    static func encodeSections(_ s: inout Snapshot, _ b: inout EncodeCursor, _ cache: SectionCache?,
                               _ unchanged: SnapshotSections) {
        MetaSection.encode(&s, into: &b)
        if s.available.contains(.uptime) { UptimeSection.encode(&s, into: &b) }
        if s.available.contains(.cpu) { CPUSection.encode(&s, into: &b) }
        if s.available.contains(.memory) { MemorySection.encode(&s, into: &b) }
        PressureSection.encode(&s, into: &b)
        if s.available.contains(.load) { LoadSection.encode(&s, into: &b) }
        if s.available.contains(.processes) { ProcessesSection.encode(&s, into: &b) }
        if s.available.contains(.battery) { BatterySection.encode(&s, into: &b) }
        if s.available.contains(.top) { TopSection.encode(&s, into: &b) }
        if s.available.contains(.exits) { ExitsSection.encode(&s, into: &b) }
        // The parts a cache may hold, one slot each (SectionCache).
        encodeSection(&s, 0, .sampler, &b, cache, unchanged, SamplerSection.encode)
        encodeSection(&s, 1, .network, &b, cache, unchanged, NetworkSection.encode)
        encodeSection(&s, 2, .disks, &b, cache, unchanged, DisksSection.encode)
        encodeSection(&s, 3, .diskIO, &b, cache, unchanged, DiskIOSection.encode)
        encodeSection(&s, 4, .temperature, &b, cache, unchanged, TemperatureSection.encode)
        encodeSection(&s, 5, .frequency, &b, cache, unchanged, FrequencySection.encode)
    }

    /// The section of `part`, when available: copied from the cache's `slot` when the part is
    /// unchanged and the slot holds it, else encoded by `encode` (and kept in the slot).
    @inline(__always)
    private static func encodeSection(_ s: inout Snapshot, _ slot: Int, _ part: SnapshotSections, _ b: inout EncodeCursor,
                                      _ cache: SectionCache?, _ unchanged: SnapshotSections,
                                      _ encode: (inout Snapshot, inout EncodeCursor) -> Void) {
        guard s.available.contains(part) else { return }
        if let cache, unchanged.contains(part), cache.copy(slot, to: &b) { return }
        let start = b.count
        encode(&s, &b)
        cache?.keep(slot, b.bytes(from: start))
    }

    /// Resets every part not in ``available``: what was not there (or was damaged) is never
    /// left over from the last file.
    mutating func clearAbsentParts() {
        if !available.contains(.uptime) { UptimeSection.clear(&self) }
        if !available.contains(.cpu) { CPUSection.clear(&self) }
        if !available.contains(.memory) { MemorySection.clear(&self) }
        if !available.contains(.load) { LoadSection.clear(&self) }
        if !available.contains(.processes) { ProcessesSection.clear(&self) }
        if !available.contains(.battery) { BatterySection.clear(&self) }
        if !available.contains(.top) { TopSection.clear(&self) }
        if !available.contains(.exits) { ExitsSection.clear(&self) }
        if !available.contains(.sampler) { SamplerSection.clear(&self) }
        clearNewerParts()
    }

    /// Resets the parts format v1 and v2 do not have (and v3's, when their section is not there).
    mutating func clearNewerParts() {
        if !available.contains(.network) { NetworkSection.clear(&self) }
        if !available.contains(.disks) { DisksSection.clear(&self) }
        if !available.contains(.diskIO) { DiskIOSection.clear(&self) }
        if !available.contains(.temperature) { TemperatureSection.clear(&self) }
        if !available.contains(.frequency) { FrequencySection.clear(&self) }
    }

    /// Reads `tag`'s payload into its fields.
    mutating func decodeSection(_ tag: SectionTag, _ payload: inout SnapshotReader) throws(SnapshotDecodeError) {
        switch tag {
        case .meta: try MetaSection.decode(&payload, into: &self)
        case .uptime: try UptimeSection.decode(&payload, into: &self)
        case .cpu: try CPUSection.decode(&payload, into: &self)
        case .memory: try MemorySection.decode(&payload, into: &self)
        case .pressure: try PressureSection.decode(&payload, into: &self)
        case .load: try LoadSection.decode(&payload, into: &self)
        case .processes: try ProcessesSection.decode(&payload, into: &self)
        case .battery: try BatterySection.decode(&payload, into: &self)
        case .top: try TopSection.decode(&payload, into: &self)
        case .exits: try ExitsSection.decode(&payload, into: &self)
        case .sampler: try SamplerSection.decode(&payload, into: &self)
        case .network: try NetworkSection.decode(&payload, into: &self)
        case .disks: try DisksSection.decode(&payload, into: &self)
        case .diskIO: try DiskIOSection.decode(&payload, into: &self)
        case .temperature: try TemperatureSection.decode(&payload, into: &self)
        case .frequency: try FrequencySection.decode(&payload, into: &self)
        }
    }
}
