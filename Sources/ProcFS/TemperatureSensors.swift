/// The temperatures of the chosen sensors, millidegrees C.
public struct TemperatureReadings: Equatable, Sendable {
    /// One per chosen sensor, in ``TemperatureSensors/sensors`` order; nil where that
    /// sensor's file could not be read or parsed this time (a powered-down GPU, a sleeping drive).
    public var millidegrees: [Int32?] = []
    public init() {}
}

/// Reads the temperatures of up to eight sensors found under `<sysRoot>/class/hwmon`
/// (and `<sysRoot>/class/thermal`).
///
/// Discovery (``Hwmon``) runs once, at `init` and on ``rescan()``; the chosen sensors'
/// files are then kept open and re-read with `pread` on each update. With no names the
/// one sensor chosen is the CPU package's (``cpuPackageIndex(in:)``). A name picks:
/// `chip/label` (`coretemp/Package id 0`, `nvme/Composite`); else `chip` (for a CPU chip
/// its package sensor, otherwise its first input); else a label (`Tctl`). Among chips
/// of the same name (two `nvme` drives) the lowest `hwmonN` wins.
public final class TemperatureSensors {
    /// The most sensors read per update.
    public static let maximumSensors = 8

    public let sysRoot: String
    private let names: [String]
    /// Every temperature file the last discovery found: hwmon inputs, then thermal zones.
    public private(set) var discovered: [TemperatureSensor] = []
    /// The chosen sensors, at most ``maximumSensors``; updates read these.
    public private(set) var sensors: [TemperatureSensor] = []
    /// The names given at init that matched no sensor at the last discovery.
    public private(set) var unresolvedNames: [String] = []
    private var files: [ProcFile] = []
    /// The last successful reading.
    public private(set) var reading = TemperatureReadings()
    private var scratch = TemperatureReadings()

    /// Discovers the sensors under `sysRoot` and chooses those `names` pick (the CPU
    /// package sensor when empty; at most eight names are used). Never fails: with
    /// nothing found, updates return nil.
    public init(sysRoot: String = "/sys", names: [String] = []) {
        self.sysRoot = sysRoot
        self.names = Array(names.prefix(Self.maximumSensors))
        reading.millidegrees.reserveCapacity(Self.maximumSensors)
        scratch.millidegrees.reserveCapacity(Self.maximumSensors)
        rescan()
    }

    /// Discovers again and re-chooses (new drives, a driver loaded late). Allocates: call it rarely.
    public func rescan() {
        discovered = Hwmon.temperatureSensors(sysRoot: sysRoot) + Hwmon.thermalZones(sysRoot: sysRoot)
        sensors.removeAll(keepingCapacity: true)
        unresolvedNames.removeAll()
        if names.isEmpty {
            if let i = Self.cpuPackageIndex(in: discovered) { sensors.append(discovered[i]) }
        } else {
            for name in names {
                if let i = Self.resolve(name, in: discovered) {
                    sensors.append(discovered[i])
                } else {
                    unresolvedNames.append(name)
                }
            }
        }
        files = sensors.map { ProcFile($0.inputPath) }
    }

    /// Re-reads each chosen sensor into `buffer`; nil when no sensor is chosen or none
    /// could be read. Two arrays alternate, as in ``CPUStatReader/update(_:)``.
    public func update(_ buffer: ReadBuffer) -> TemperatureReadings? {
        scratch.millidegrees.removeAll(keepingCapacity: true)
        var any = false
        // Indices, not `for file in`: an unspecialized (debug) array iterator allocates.
        for i in 0..<files.count {
            var value: Int32?
            if case .success(let bytes) = files[i].read(into: buffer) {
                value = Hwmon.parseMillidegrees(bytes)
            }
            if value != nil { any = true }
            scratch.millidegrees.append(value)
        }
        guard any else { return nil }
        swap(&reading, &scratch)
        return reading
    }

    /// The CPU package sensor: coretemp `Package id 0`; k10temp `Tdie`, else `Tctl`;
    /// zenpower `Tdie`, else `Tctl` (each chip's first input when those labels are
    /// absent: old CPUs); `cpu_thermal` (ARM); else the thermal zone of type
    /// `x86_pkg_temp`, else `acpitz`, else the first zone. Nil when there is none.
    public static func cpuPackageIndex(in sensors: [TemperatureSensor]) -> Int? {
        if let i = packageIndex(ofChip: "coretemp", in: sensors) { return i }
        if let i = packageIndex(ofChip: "k10temp", in: sensors) { return i }
        if let i = packageIndex(ofChip: "zenpower", in: sensors) { return i }
        if let i = first(in: sensors, source: .hwmon, chip: "cpu_thermal") { return i }
        return first(in: sensors, source: .thermalZone, chip: "x86_pkg_temp")
            ?? first(in: sensors, source: .thermalZone, chip: "acpitz")
            ?? first(in: sensors, source: .thermalZone)
    }

    /// The package sensor of one CPU chip (by the labels above), or its first input.
    private static func packageIndex(ofChip chip: String, in sensors: [TemperatureSensor]) -> Int? {
        let labels = chip == "coretemp" ? ["Package id 0"] : ["Tdie", "Tctl"]
        for label in labels {
            if let i = first(in: sensors, source: .hwmon, chip: chip, label: label) { return i }
        }
        return first(in: sensors, source: .hwmon, chip: chip)
    }

    /// The sensor `name` picks (see the type's documentation), or nil.
    public static func resolve(_ name: String, in sensors: [TemperatureSensor]) -> Int? {
        let bytes = Array(name.utf8)
        if let slash = bytes.firstIndex(of: 0x2F), slash <= FixedName.capacity,
           bytes.count - slash - 1 <= FixedName.capacity {
            let chip = FixedName(String(decoding: bytes[..<slash], as: UTF8.self))
            let label = FixedName(String(decoding: bytes[(slash + 1)...], as: UTF8.self))
            if let i = sensors.firstIndex(where: { $0.chip == chip && $0.label == label }) { return i }
        }
        // A longer name would match a sensor's cut name by accident.
        guard bytes.count <= FixedName.capacity else { return nil }
        let whole = FixedName(name)
        if sensors.contains(where: { $0.chip == whole }) {
            if ["coretemp", "k10temp", "zenpower"].contains(name), let i = packageIndex(ofChip: name, in: sensors) {
                return i
            }
            return sensors.firstIndex { $0.chip == whole }
        }
        return sensors.firstIndex { $0.label == whole }
    }

    private static func first(in sensors: [TemperatureSensor], source: TemperatureSensor.Source,
                              chip: String? = nil, label: String? = nil) -> Int? {
        let chipName = chip.map { FixedName($0) }
        let labelName = label.map { FixedName($0) }
        return sensors.firstIndex { sensor in
            sensor.source == source && (chipName == nil || sensor.chip == chipName)
                && (labelName == nil || sensor.label == labelName)
        }
    }
}
