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
    /// Whether the CPU package's sensor is chosen besides the names (always when there are none).
    private let includesCPUPackage: Bool
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
    /// package sensor when empty, or first when `includingCPUPackage`; at most eight
    /// sensors are used). Never fails: with nothing found, updates return nil.
    public init(sysRoot: String = "/sys", names: [String] = [], includingCPUPackage: Bool = false) {
        self.sysRoot = sysRoot
        includesCPUPackage = includingCPUPackage || names.isEmpty
        var kept: [String] = []
        for i in 0..<min(names.count, Self.maximumSensors) { kept.append(names[i]) }
        self.names = kept
        rescan()
    }

    /// Discovers again and re-chooses (new drives, a driver loaded late). Allocates: call it rarely.
    public func rescan() {
        discovered = Hwmon.temperatureSensors(sysRoot: sysRoot)
        discovered.append(contentsOf: Hwmon.thermalZones(sysRoot: sysRoot))
        sensors.removeAll(keepingCapacity: true)
        unresolvedNames.removeAll()
        var chosen: [Int] = []
        let package = includesCPUPackage ? Self.cpuPackageIndex(in: discovered) : nil
        if let package { chosen.append(package) }
        for n in 0..<names.count {
            if let i = Self.resolve(names[n], in: discovered) {
                // The package's sensor chosen by default is not listed twice when named too.
                if i != package || names.isEmpty { chosen.append(i) }
            } else {
                unresolvedNames.append(names[n])
            }
        }
        for i in chosen.prefix(Self.maximumSensors) { sensors.append(discovered[i]) }
        files.removeAll()
        for i in 0..<sensors.count { files.append(ProcFile(sensors[i].inputPath)) }
    }

    /// Re-reads each chosen sensor into `buffer`; nil when no sensor is chosen or none
    /// could be read. Two arrays alternate, as in ``CPUStatReader/update(_:)``.
    public func update(_ buffer: ReadBuffer) -> TemperatureReadings? {
        // Reserved here, not at init: a caller that reads with read(_:buffer:) never makes
        // an [Int32?] (its metadata is instantiated through the runtime's demangler).
        if scratch.millidegrees.capacity < files.count {
            scratch.millidegrees.reserveCapacity(Self.maximumSensors)
            reading.millidegrees.reserveCapacity(Self.maximumSensors)
        }
        scratch.millidegrees.removeAll(keepingCapacity: true)
        var any = false
        // Indices, not `for file in`: an unspecialized (debug) array iterator allocates.
        for i in 0..<files.count {
            let value = read(i, buffer: buffer)
            if value != nil { any = true }
            scratch.millidegrees.append(value)
        }
        guard any else { return nil }
        swap(&reading, &scratch)
        return reading
    }

    /// Re-reads chosen sensor `index` (0..<``sensors``.count) into `buffer`: its temperature,
    /// or nil when its file cannot be read or parsed this time (or `index` is out of range).
    /// Leaves ``reading`` as it was.
    public func read(_ index: Int, buffer: ReadBuffer) -> Int32? {
        guard index >= 0, index < files.count, case .success(let bytes) = files[index].read(into: buffer) else {
            return nil
        }
        return Hwmon.parseMillidegrees(bytes)
    }

    /// The CPU package sensor: coretemp `Package id 0`; k10temp `Tdie`, else `Tctl`;
    /// zenpower `Tdie`, else `Tctl` (each chip's first input when those labels are
    /// absent: old CPUs); `cpu_thermal` (ARM); else the thermal zone of type
    /// `x86_pkg_temp`, else `acpitz`, else the first zone. Nil when there is none.
    public static func cpuPackageIndex(in sensors: [TemperatureSensor]) -> Int? {
        // Names are compared as bytes (StaticString), not as Strings: String `==` and
        // arrays of String literals ran code nothing else in the sampler runs.
        if let i = packageIndex(ofChip: "coretemp", "Package id 0", nil, in: sensors) { return i }
        if let i = packageIndex(ofChip: "k10temp", "Tdie", "Tctl", in: sensors) { return i }
        if let i = packageIndex(ofChip: "zenpower", "Tdie", "Tctl", in: sensors) { return i }
        if let i = first(in: sensors, source: .hwmon, chip: "cpu_thermal") { return i }
        if let i = first(in: sensors, source: .thermalZone, chip: "x86_pkg_temp") { return i }
        if let i = first(in: sensors, source: .thermalZone, chip: "acpitz") { return i }
        return first(in: sensors, source: .thermalZone)
    }

    /// The package sensor of one CPU chip (`label`, else `otherLabel`), or its first input.
    private static func packageIndex(ofChip chip: StaticString, _ label: StaticString, _ otherLabel: StaticString?,
                                     in sensors: [TemperatureSensor]) -> Int? {
        if let i = first(in: sensors, source: .hwmon, chip: chip, label: label) { return i }
        if let otherLabel, let i = first(in: sensors, source: .hwmon, chip: chip, label: otherLabel) { return i }
        return first(in: sensors, source: .hwmon, chip: chip)
    }

    /// The sensor `name` picks (see the type's documentation), or nil.
    public static func resolve(_ name: String, in sensors: [TemperatureSensor]) -> Int? {
        let bytes = utf8Bytes(name)
        return bytes.withUnsafeBytes { resolve(bytes: $0, in: sensors) }
    }

    private static func resolve(bytes: UnsafeRawBufferPointer, in sensors: [TemperatureSensor]) -> Int? {
        if let slash = firstIndex(of: 0x2F, in: bytes), slash <= FixedName.capacity,
           bytes.count - slash - 1 <= FixedName.capacity {
            let chip = FixedName(UnsafeRawBufferPointer(rebasing: bytes[0..<slash]))
            let label = FixedName(UnsafeRawBufferPointer(rebasing: bytes[(slash + 1)...]))
            for i in 0..<sensors.count where sensors[i].chip == chip && sensors[i].label == label { return i }
        }
        // A longer name would match a sensor's cut name by accident.
        guard bytes.count <= FixedName.capacity else { return nil }
        let whole = FixedName(bytes)
        var firstOfChip: Int?
        for i in 0..<sensors.count where sensors[i].chip == whole { firstOfChip = i; break }
        if let firstOfChip {
            // A CPU chip named alone means its package sensor.
            if whole.equals("coretemp"), let i = packageIndex(ofChip: "coretemp", "Package id 0", nil, in: sensors) {
                return i
            }
            if whole.equals("k10temp"), let i = packageIndex(ofChip: "k10temp", "Tdie", "Tctl", in: sensors) { return i }
            if whole.equals("zenpower"), let i = packageIndex(ofChip: "zenpower", "Tdie", "Tctl", in: sensors) { return i }
            return firstOfChip
        }
        for i in 0..<sensors.count where sensors[i].label == whole { return i }
        return nil
    }

    private static func first(in sensors: [TemperatureSensor], source: TemperatureSensor.Source,
                              chip: StaticString? = nil, label: StaticString? = nil) -> Int? {
        for i in 0..<sensors.count where sensors[i].source == source {
            if let chip, !sensors[i].chip.equals(chip) { continue }
            if let label, !sensors[i].label.equals(label) { continue }
            return i
        }
        return nil
    }
}
