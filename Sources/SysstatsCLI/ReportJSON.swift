import Glibc
import SnapshotCodec

/// `sysstats report --json`: the report's data as one JSON object.
///
/// Memory in MiB with one decimal, percentages with two, load averages with
/// two; `timestamp` and exit `time_ms` are milliseconds since the epoch;
/// `battery` is null when the machine has none. A figure the sampler could not measure
/// is null (a list: empty), and its part is named in `unavailable`.
public struct ReportJSON: Encodable, Equatable {
    public struct Wifi: Encodable, Equatable {
        var ssid: String
        var signalDBm: Int?
        var qualityPercent: Int?
        var bitrateMbps: Double?
        enum CodingKeys: String, CodingKey {
            case ssid, signalDBm = "signal_dbm", qualityPercent = "quality_percent", bitrateMbps = "bitrate_mbps"
        }
        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(ssid, forKey: .ssid)
            try c.encodeNullable(signalDBm, forKey: .signalDBm)
            try c.encodeNullable(qualityPercent, forKey: .qualityPercent)
            try c.encodeNullable(bitrateMbps, forKey: .bitrateMbps)
        }
    }
    public struct Interface: Encodable, Equatable {
        var name: String
        var up: Bool
        var rxBytesPerS: UInt64?
        var txBytesPerS: UInt64?
        var ipv4: String?
        var ipv6: String?
        var wifi: Wifi?
        enum CodingKeys: String, CodingKey {
            case name, up, rxBytesPerS = "rx_bytes_per_s", txBytesPerS = "tx_bytes_per_s", ipv4, ipv6, wifi
        }
        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(name, forKey: .name)
            try c.encode(up, forKey: .up)
            try c.encodeNullable(rxBytesPerS, forKey: .rxBytesPerS)
            try c.encodeNullable(txBytesPerS, forKey: .txBytesPerS)
            try c.encodeNullable(ipv4, forKey: .ipv4)
            try c.encodeNullable(ipv6, forKey: .ipv6)
            try c.encodeNullable(wifi, forKey: .wifi)
        }
    }
    /// One GPU: its card, driver and name, and a member per figure of ``GPUFigure/all``
    /// (null where its driver does not give it).
    public struct GPU: Encodable, Equatable {
        /// A figure as JSON writes it: an integer, or a decimal for shares, degrees and watts.
        enum Value: Encodable, Equatable {
            case integer(UInt64), decimal(Double), text(String), null
            /// A fixed part's object (`memory_mib`) or array (`load`).
            case object([Figure]), array([Value])
            func encode(to encoder: Encoder) throws {
                switch self {
                case .object(let members):
                    var c = encoder.container(keyedBy: Key.self)
                    for m in members { try c.encode(m.value, forKey: Key(m.name)) }
                    return
                case .array(let items):
                    var c = encoder.unkeyedContainer()
                    for item in items { try c.encode(item) }
                    return
                default: break
                }
                var c = encoder.singleValueContainer()
                switch self {
                case .integer(let v): try c.encode(v)
                case .decimal(let v): try c.encode(v)
                case .text(let v): try c.encode(v)
                default: try c.encodeNil()
                }
            }
        }
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(_ name: String) { stringValue = name }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        var card: UInt8
        var driver, name: String
        struct Figure: Equatable {
            var name: String
            var value: Value
        }
        var figures: [Figure]

        init(_ g: GPUFigures) {
            card = g.index
            driver = ReportJSON.text(g.driver)
            name = ReportJSON.text(g.name)
            figures = GPUFigure.all.map { f in
                Figure(name: f.json.description, value: g.known.isSuperset(of: f.known) ? Self.value(f, g) : .null)
            }
        }

        static func value(_ f: GPUFigure, _ g: GPUFigures) -> Value { value(f.unit, f.value(g)) }

        /// An unsigned figure as JSON writes it, exact to `UInt64.max` (a fixed part's, a list
        /// part's unsigned one).
        static func value(_ unit: FigureUnit, unsigned v: UInt64) -> Value {
            switch unit {
            case .bytes, .megahertz, .count, .seconds, .minutes, .duration: return .integer(v)
            case .kib: return .decimal(ReportJSON.mib(v))
            case .hundredths: return .decimal(Double(v) / 100)
            case .centiseconds: return .integer(v / 100)
            case .milliCelsius, .milliwatts: return .decimal(Double(v) / 1000)
            case .permyriad: return value(unit, Int64(clamping: v))
            }
        }

        /// A figure as JSON writes it: shares in percent, degrees and watts as decimals, the
        /// rest as integers.
        static func value(_ unit: FigureUnit, _ v: Int64) -> Value {
            switch unit {
            case .permyriad: return .decimal(ReportJSON.percent(UInt16(clamping: v)))
            case .milliCelsius, .milliwatts: return .decimal(Double(v) / 1000)
            case .bytes, .megahertz, .count, .seconds, .minutes, .duration: return .integer(UInt64(clamping: v))
            case .kib: return .decimal(ReportJSON.mib(UInt64(clamping: v)))
            case .hundredths: return .decimal(Double(v) / 100)
            case .centiseconds: return .integer(UInt64(clamping: v) / 100)
            }
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(card, forKey: Key("card"))
            try c.encode(driver, forKey: Key("driver"))
            try c.encode(name, forKey: Key("name"))
            for f in figures { try c.encode(f.value, forKey: Key(f.name)) }
        }
    }

    /// The fixed parts' members (``FixedPart``): null where the part was not measured.
    var fixed: [GPU.Figure]
    var unavailable: [String]
    var network: [Interface]
    /// The list parts' members (``EntryPart``): empty where the part was not measured.
    var entries: [GPU.Figure]
    var gpus: [GPU]
    var listed: [Listed]
    var sequence: UInt64
    var timestamp: UInt64
    var stale: Bool

    enum CodingKeys: String, CodingKey {
        case sequence, timestamp, stale, unavailable
        case network, gpus
    }

    /// The JSON name of each part, in order.
    static let partNames: [(SnapshotSections, String)] = [
        (.uptime, "uptime"), (.cpu, "cpu"), (.memory, "memory"), (.load, "load"), (.processes, "processes"),
        (.battery, "battery"), (.top, "top"), (.exits, "exits"), (.sampler, "sampler"),
        (.network, "network"), (.disks, "disks"), (.diskIO, "disk_io"), (.temperature, "temperatures"),
        (.frequency, "cpu_mhz"), (.gpu, "gpus"),
    ] + ListedPart.all.map { ($0.part, $0.name.description) }

    public init(_ s: Snapshot, stale: Bool) {
        let has = s.available
        fixed = Self.fixed(s)
        unavailable = Self.partNames.filter { !has.contains($0.0) }.map(\.1)
        network = has.contains(.network) ? s.interfaces.map(Self.interface) : []
        entries = Self.entries(s)
        gpus = has.contains(.gpu) ? s.gpus.map(GPU.init) : []
        listed = Self.listed(s)
        sequence = s.sequence
        timestamp = s.timestampMs
        self.stale = stale
    }

    static func interface(_ n: InterfaceFigures) -> Interface {
        let rates = n.flags.contains(.rates)
        var wifi: Wifi? = nil
        if n.flags.contains(.wifiLink) {
            wifi = Wifi(ssid: text(n.wifi.ssid),
                        signalDBm: n.wifi.signalDBm == Snapshot.unknownSignal ? nil : Int(n.wifi.signalDBm),
                        qualityPercent: n.wifi.qualityPercent <= 100 ? Int(n.wifi.qualityPercent) : nil,
                        bitrateMbps: n.wifi.bitrateKbps == 0 ? nil : Double(n.wifi.bitrateKbps) / 1000)
        }
        return Interface(name: text(n.name), up: n.flags.isSuperset(of: [.up, .carrier]),
                         rxBytesPerS: rates ? n.rxBytesPerSecond : nil, txBytesPerS: rates ? n.txBytesPerSecond : nil,
                         ipv4: n.ipv4.isEmpty ? nil : text(n.ipv4), ipv6: n.ipv6.isEmpty ? nil : text(n.ipv6), wifi: wifi)
    }

    /// Raw bytes from the snapshot (an SSID, an interface name) as text: invalid UTF-8 becomes
    /// U+FFFD; JSON escapes the rest.
    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        // Explicit nulls rather than missing keys: "not measured" is an answer too.
        var members = encoder.container(keyedBy: GPU.Key.self)
        for m in fixed { try members.encode(m.value, forKey: GPU.Key(m.name)) }
        try c.encode(unavailable, forKey: .unavailable)
        try c.encode(network, forKey: .network)
        for m in entries { try members.encode(m.value, forKey: GPU.Key(m.name)) }
        try c.encode(gpus, forKey: .gpus)
        try encodeListed(to: encoder)
        try c.encode(sequence, forKey: .sequence)
        try c.encode(timestamp, forKey: .timestamp)
        try c.encode(stale, forKey: .stale)
    }

    /// One line of JSON, keys sorted.
    public static func format(_ snapshot: Snapshot, stale: Bool) -> String {
        JSONText.encode(ReportJSON(snapshot, stale: stale))
    }

    /// Hundredths of a percent as a percentage: 2345 → 23.45.
    static func percent(_ permyriad: UInt16) -> Double { Double(permyriad) / 100 }

    /// KiB as MiB rounded to one decimal.
    static func mib(_ kib: UInt64) -> Double { (Double(kib) / 1024 * 10).rounded() / 10 }
}

extension KeyedEncodingContainer {
    /// The value, or an explicit null: "not measured" is an answer too.
    mutating func encodeNullable<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
}
