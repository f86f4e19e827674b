import SnapshotCodec

/// `temp 52°C`: the CPU package's temperature (or the sensor `temp:LABEL`,
/// `temp:CHIP/LABEL`, `temp:CHIP`); warning from the sensor's high mark (else 75 °C),
/// critical and urgent from its critical mark (else 90 °C).
enum TempBlock {
    static let descriptor = BlockDescriptor(
        name: "temp", label: "temp", section: .temperature, argumentKey: "sensor", asks: .sensor,
        // No default marks: each sensor's own high and critical marks, else 75 °C and 90 °C.
        marks: LevelMarks(unit: .celsius, warning: nil, critical: nil, decides: "the sensor's own"),
        present: { s, c in sensor(s, c.argument) != nil },
        hiddenWhenMissingByDefault: true,
        placeholders: [
            PlaceholderSpec("celsius", "whole degrees Celsius") { s, c, w in
                if let t = sensor(s, c.argument) { appendDegrees(t.milliCelsius, into: &w) } else { w.appendNotAvailable() }
            },
            PlaceholderSpec("label", "the sensor's label") { s, c, w in
                if let t = sensor(s, c.argument) { w.append(bytes: t.label) } else { w.appendNotAvailable() }
            },
            PlaceholderSpec("chip", "the sensor's chip") { s, c, w in
                if let t = sensor(s, c.argument) { w.append(bytes: t.chip) } else { w.appendNotAvailable() }
            },
            PlaceholderSpec("max", "hottest of the measured sensors, degrees") { s, _, w in
                guard let first = s.temperatures.first else { w.appendNotAvailable(); return }
                var hottest = first.milliCelsius
                for t in s.temperatures { hottest = max(hottest, t.milliCelsius) }
                appendDegrees(hottest, into: &w)
            },
        ],
        render: render)

    static let defaultHigh: Int32 = 75_000, defaultCritical: Int32 = 90_000

    /// The sensor `argument` names (chip/label, label, chip), else the CPU package's, else the first.
    static func sensor(_ snap: Snapshot, _ argument: [UInt8]) -> TemperatureFigures? {
        guard !argument.isEmpty else {
            for t in snap.temperatures where t.isCPUPackage { return t }
            return snap.temperatures.first
        }
        for t in snap.temperatures where names(argument, source: t.chip, label: t.label) { return t }
        return nil
    }


    static func render(_ snap: Snapshot, _ c: BlockContext, into v: inout BlockValue) {
        let argument = c.argument
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
        let high = c.warning.map { Int32(clamping: $0) } ?? (t.highMilliCelsius == Snapshot.unknownLimit ? defaultHigh : t.highMilliCelsius)
        let critical = c.critical.map { Int32(clamping: $0) }
            ?? (t.criticalMilliCelsius == Snapshot.unknownLimit ? defaultCritical : t.criticalMilliCelsius)
        if t.milliCelsius >= critical {
            v.level = .critical
            v.urgent = true
        } else if t.milliCelsius >= high {
            v.level = .warning
        }
    }

    /// Whole degrees, rounded half away from zero (`-3`, `52`).
    static func appendDegrees(_ milli: Int32, into w: inout ByteWriter) {
        let m = Int(milli)
        w.appendDecimal(m >= 0 ? (m + 500) / 1000 : -((-m + 500) / 1000))
    }
}
