// The listed parts (fans, power sources, …) as Prometheus families, made from each part's
// table (``ListedPart``): one family per figure that has a name, a sample per reading that
// gave it, labelled with its source and label.

import SnapshotCodec

extension PrometheusText {
    /// Every listed part that was measured.
    static func writeListedParts(_ s: Snapshot, _ c: PrometheusCounters, _ w: inout ExpositionWriter) {
        // By index: a for-in over the table allocates an iterator's element in debug builds.
        for p in 0..<ListedPart.all.count {
            let part = ListedPart.all[p]
            guard s.available.contains(part.part) else { continue }
            let readings = s.listed[part.tag]
            for f in 0..<part.figures.count { listedFamily(part, f, readings, &w) }
        }
    }

    /// One figure's family: its header when a reading gave it, then each such reading's sample.
    private static func listedFamily(_ part: ListedPart, _ f: Int, _ readings: [PartReading], _ w: inout ExpositionWriter) {
        let figure = part.figures[f]
        guard let name = figure.prometheus else { return }
        let n = min(readings.count, part.maximumReadings)
        var any = false
        for i in 0..<n where readings[i][f] != nil { any = true }
        guard any else { return }
        w.family(name, figure.prometheusHelp, .gauge)
        for i in 0..<n {
            guard let v = readings[i][f] else { continue }
            w.begin(name)
            w.label(part.sourceKey, bytes: readings[i].source)
            w.label("label", bytes: readings[i].label)
            writeValue(figure.unit, v, &w)
        }
    }

    /// A value as its unit says: a ratio, bytes, degrees, watts, hertz, a count.
    static func writeValue(_ unit: PartFigure.Unit, _ v: Int64, _ w: inout ExpositionWriter) {
        switch unit {
        case .permyriad: w.fixedValue(UInt64(clamping: v), decimals: 4)
        case .bytes, .count: w.value(UInt64(clamping: v))
        case .milliCelsius: w.signedFixedValue(v, decimals: 3)
        case .milliwatts: w.fixedValue(UInt64(clamping: v), decimals: 3)
        case .megahertz:
            let (hertz, overflow) = UInt64(clamping: v).multipliedReportingOverflow(by: 1_000_000)
            w.value(overflow ? .max : hertz)
        case .kib: w.value(bytes(UInt64(clamping: v)))
        case .centiseconds, .hundredths: w.fixedValue(UInt64(clamping: v), decimals: 2)
        case .seconds, .duration: w.value(UInt64(clamping: v))
        case .minutes: writeValue(unit, UInt64(clamping: v), &w)
        }
    }
}
