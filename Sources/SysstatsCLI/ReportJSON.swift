import Foundation
import SnapshotCodec

/// `sysstats report --json`: the report's data as one JSON object.
///
/// Memory in MiB with one decimal, percentages with two, load averages with
/// two; `timestamp` and exit `time_ms` are milliseconds since the epoch;
/// `battery` is null when the machine has none.
public struct ReportJSON: Encodable, Equatable {
    public struct Memory: Encodable, Equatable {
        var free, other, wired, active, inactive, available, used, total: Double
    }
    public struct Swap: Encodable, Equatable {
        var total, used: Double
    }
    public struct Battery: Encodable, Equatable {
        var percent: Double
        var state: String
    }
    public struct Process: Encodable, Equatable {
        var pid: UInt32
        var name: String
        var cpuPercent: Double
        var privateMiB: Double
        enum CodingKeys: String, CodingKey {
            case pid, name, cpuPercent = "cpu_percent", privateMiB = "private_mib"
        }
    }
    public struct Exit: Encodable, Equatable {
        var pid: UInt32
        var name: String
        var timeMs: UInt64
        var lastPrivateMiB: Double
        var freedMiB: Double
        enum CodingKeys: String, CodingKey {
            case pid, name, timeMs = "time_ms", lastPrivateMiB = "last_private_mib", freedMiB = "freed_mib"
        }
    }

    var uptimeSeconds: UInt64
    var cpuPercent: Double
    var memoryMiB: Memory
    var swap: Swap
    var load: [Double]
    var battery: Battery?
    var processes: UInt32
    var running: UInt32
    var topCPU: [Process]
    var topMemory: [Process]
    var exits: [Exit]
    var sequence: UInt64
    var timestamp: UInt64
    var stale: Bool

    enum CodingKeys: String, CodingKey {
        case uptimeSeconds = "uptime_seconds", cpuPercent = "cpu_percent", memoryMiB = "memory_mib"
        case swap, load, battery, processes, running
        case topCPU = "top_cpu", topMemory = "top_memory", exits, sequence, timestamp, stale
    }

    public init(_ s: Snapshot, stale: Bool) {
        let m = s.memory
        uptimeSeconds = s.uptimeCentiseconds / 100
        cpuPercent = Self.percent(s.cpuBusy)
        memoryMiB = Memory(free: Self.mib(m.free), other: Self.mib(m.other), wired: Self.mib(m.wired),
                           active: Self.mib(m.active), inactive: Self.mib(m.inactive),
                           available: Self.mib(m.available), used: Self.mib(m.used), total: Self.mib(m.total))
        swap = Swap(total: Self.mib(m.swapTotal), used: Self.mib(m.swapUsed))
        load = [s.load1, s.load5, s.load15].map { Double($0) / 100 }
        battery = s.battery.count == 0 ? nil
            : Battery(percent: Self.percent(s.battery.percent), state: Self.name(s.battery.state))
        processes = s.processCount
        running = s.runningCount
        topCPU = s.topCPU.map(Self.process)
        topMemory = s.topMemory.map(Self.process)
        exits = s.exits.map {
            Exit(pid: $0.pid, name: String(decoding: $0.name, as: UTF8.self), timeMs: $0.timeMs,
                 lastPrivateMiB: Self.mib($0.lastPrivateKiB), freedMiB: Self.mib($0.freedKiB))
        }
        sequence = s.sequence
        timestamp = s.timestampMs
        self.stale = stale
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(uptimeSeconds, forKey: .uptimeSeconds)
        try c.encode(cpuPercent, forKey: .cpuPercent)
        try c.encode(memoryMiB, forKey: .memoryMiB)
        try c.encode(swap, forKey: .swap)
        try c.encode(load, forKey: .load)
        // Explicit null rather than a missing key: "no battery" is an answer.
        if let battery { try c.encode(battery, forKey: .battery) } else { try c.encodeNil(forKey: .battery) }
        try c.encode(processes, forKey: .processes)
        try c.encode(running, forKey: .running)
        try c.encode(topCPU, forKey: .topCPU)
        try c.encode(topMemory, forKey: .topMemory)
        try c.encode(exits, forKey: .exits)
        try c.encode(sequence, forKey: .sequence)
        try c.encode(timestamp, forKey: .timestamp)
        try c.encode(stale, forKey: .stale)
    }

    /// One line of JSON, keys sorted.
    public static func format(_ snapshot: Snapshot, stale: Bool) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain numbers, strings and arrays cannot fail.
        let data = try! encoder.encode(ReportJSON(snapshot, stale: stale))
        return String(decoding: data, as: UTF8.self)
    }

    static func process(_ p: ProcessEntry) -> Process {
        Process(pid: p.pid, name: String(decoding: p.name, as: UTF8.self),
                cpuPercent: percent(p.cpu), privateMiB: mib(p.privateKiB))
    }

    /// Hundredths of a percent as a percentage: 2345 → 23.45.
    static func percent(_ permyriad: UInt16) -> Double { Double(permyriad) / 100 }

    /// KiB as MiB rounded to one decimal.
    static func mib(_ kib: UInt64) -> Double { (Double(kib) / 1024 * 10).rounded() / 10 }

    static func name(_ state: BatteryFigures.State) -> String {
        switch state {
        case .unknown: "unknown"
        case .charging: "charging"
        case .discharging: "discharging"
        case .notCharging: "not_charging"
        case .full: "full"
        }
    }
}
