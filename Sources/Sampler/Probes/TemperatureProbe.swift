import ProcFS
import SnapshotCodec

/// Temperatures from hwmon (or /sys/class/thermal): the CPU package's by default, or the
/// sensors named with `--sensor`. Discovery once; the chosen input files are kept open.
struct TemperatureProbe {
    private let sensors: TemperatureSensors
    /// Which chosen sensor is the CPU package's, decided once (the choice is made at init).
    private let cpuIndex: Int?

    init(sysRoot: String, names: [String], includingCPUPackage: Bool = false) {
        sensors = TemperatureSensors(sysRoot: sysRoot, names: names, includingCPUPackage: includingCPUPackage)
        cpuIndex = TemperatureSensors.cpuPackageIndex(in: sensors.sensors)
    }

    /// Names given with `--sensor` that match no sensor on this machine.
    var unresolvedNames: [String] { sensors.unresolvedNames }

    mutating func sample(into s: inout Snapshot, buffer: ReadBuffer) {
        let chosen = sensors.sensors
        var n = 0
        // One sensor at a time (read(_:buffer:)), not update(_:): no array of optionals.
        for i in 0..<min(chosen.count, Snapshot.maximumSensors) {
            guard let value = sensors.read(i, buffer: buffer) else { continue }
            if n == s.temperatures.count { s.temperatures.append(TemperatureFigures()) }
            chosen[i].chip.store(in: &s.temperatures[n].chip)
            chosen[i].label.store(in: &s.temperatures[n].label)
            s.temperatures[n].milliCelsius = value
            s.temperatures[n].criticalMilliCelsius = chosen[i].criticalMillidegrees ?? Snapshot.unknownLimit
            s.temperatures[n].highMilliCelsius = chosen[i].maximumMillidegrees ?? Snapshot.unknownLimit
            s.temperatures[n].isCPUPackage = cpuIndex == i
            n += 1
        }
        // Nothing readable: the part is left out (not available) and the list as it was.
        guard n > 0 else { return }
        if s.temperatures.count > n { s.temperatures.removeLast(s.temperatures.count - n) }
        s.available.insert(.temperature)
    }
}
