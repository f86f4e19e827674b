import ProcFS
import SnapshotCodec

/// Temperatures from hwmon (or /sys/class/thermal): the CPU package's by default, or the
/// sensors named with `--sensor`. Discovery once; the chosen input files are kept open.
struct TemperatureProbe {
    private let sensors: TemperatureSensors

    init(sysRoot: String, names: [String]) {
        sensors = TemperatureSensors(sysRoot: sysRoot, names: names)
    }

    /// Names given with `--sensor` that match no sensor on this machine.
    var unresolvedNames: [String] { sensors.unresolvedNames }

    mutating func sample(into s: inout Snapshot, buffer: ReadBuffer) {
        guard let reading = sensors.update(buffer) else { return }
        let chosen = sensors.sensors
        let cpu = TemperatureSensors.cpuPackageIndex(in: chosen)
        var n = 0
        for i in 0..<min(chosen.count, reading.millidegrees.count, Snapshot.maximumSensors) {
            guard let value = reading.millidegrees[i] else { continue }
            if n == s.temperatures.count { s.temperatures.append(TemperatureFigures()) }
            let sensor = chosen[i]
            sensor.chip.withUnsafeBytes { replace(&s.temperatures[n].chip, with: $0) }
            sensor.label.withUnsafeBytes { replace(&s.temperatures[n].label, with: $0) }
            s.temperatures[n].milliCelsius = value
            s.temperatures[n].criticalMilliCelsius = sensor.criticalMillidegrees ?? Snapshot.unknownLimit
            s.temperatures[n].highMilliCelsius = sensor.maximumMillidegrees ?? Snapshot.unknownLimit
            s.temperatures[n].isCPUPackage = cpu == i
            n += 1
        }
        if s.temperatures.count > n { s.temperatures.removeLast(s.temperatures.count - n) }
        if n > 0 { s.available.insert(.temperature) }
    }
}

/// Replaces `array`'s bytes with `bytes` unless equal (no work, no allocation, in steady state).
func replace(_ array: inout [UInt8], with bytes: UnsafeRawBufferPointer) {
    guard !bytesEqual(array, bytes) else { return }
    array.removeAll(keepingCapacity: true)
    array.append(contentsOf: bytes)
}
