#if hasFeature(Embedded)
import SnapshotCodecEmbedded
#else
import SnapshotCodec
#endif

/// `temp 52°C`: the CPU package's temperature (or the sensor `temp:LABEL`,
/// `temp:CHIP/LABEL`, `temp:CHIP`); warning from the sensor's high mark (else 75 °C),
/// critical and urgent from its critical mark (else 90 °C).
enum TempBlock {
    static let placeholders: [PlaceholderSpec] = [
        PlaceholderSpec("celsius", "whole degrees Celsius"),
        PlaceholderSpec("label", "the sensor's label"),
        PlaceholderSpec("chip", "the sensor's chip"),
        PlaceholderSpec("max", "hottest of the measured sensors, degrees"),
    ]

    static let defaultHigh: Int32 = 75_000, defaultCritical: Int32 = 90_000

    /// The sensor `argument` names (chip/label, label, chip), else the CPU package's, else the first.
    static func sensor(_ snap: Snapshot, _ argument: [UInt8]) -> TemperatureFigures? {
        guard !argument.isEmpty else {
            for t in snap.temperatures where t.isCPUPackage { return t }
            return snap.temperatures.first
        }
        for t in snap.temperatures where matches(t, argument) { return t }
        return nil
    }

    private static func matches(_ t: TemperatureFigures, _ name: [UInt8]) -> Bool {
        if name == t.label || name == t.chip { return true }
        // chip/label
        guard name.count == t.chip.count + 1 + t.label.count, name[t.chip.count] == UInt8(ascii: "/") else { return false }
        for i in 0..<t.chip.count where name[i] != t.chip[i] { return false }
        for i in 0..<t.label.count where name[t.chip.count + 1 + i] != t.label[i] { return false }
        return true
    }

    static func render(_ snap: Snapshot, argument: [UInt8], thresholds th: Thresholds, into v: inout BlockValue) {
        v.full.append("temp ")
        guard let t = sensor(snap, argument) else {
            if !argument.isEmpty { v.full.append(bytes: argument); v.full.append(UInt8(ascii: " ")) }
            v.full.appendNotAvailable()
            v.short.append(v.full)
            return
        }
        appendDegrees(t.milliCelsius, into: &v.full)
        v.full.append("°C")
        v.short.append(v.full)
        let high = th.tempWarning ?? (t.highMilliCelsius == Snapshot.unknownLimit ? defaultHigh : t.highMilliCelsius)
        let critical = th.tempCritical ?? (t.criticalMilliCelsius == Snapshot.unknownLimit ? defaultCritical : t.criticalMilliCelsius)
        if t.milliCelsius >= critical {
            v.level = .critical
            v.urgent = true
        } else if t.milliCelsius >= high {
            v.level = .warning
        }
    }

    static func append(_ index: Int, _ snap: Snapshot, argument: [UInt8], into w: inout ByteWriter) {
        if index == 3 {
            guard let first = snap.temperatures.first else { w.appendNotAvailable(); return }
            var hottest = first.milliCelsius
            for t in snap.temperatures { hottest = max(hottest, t.milliCelsius) }
            appendDegrees(hottest, into: &w)
            return
        }
        guard let t = sensor(snap, argument) else { w.appendNotAvailable(); return }
        switch index {
        case 0: appendDegrees(t.milliCelsius, into: &w)
        case 1: w.append(bytes: t.label)
        default: w.append(bytes: t.chip)
        }
    }

    /// Whole degrees, rounded half away from zero (`-3`, `52`).
    static func appendDegrees(_ milli: Int32, into w: inout ByteWriter) {
        let m = Int(milli)
        w.appendDecimal(m >= 0 ? (m + 500) / 1000 : -((-m + 500) / 1000))
    }
}
