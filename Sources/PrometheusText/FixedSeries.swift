// The fixed parts (uptime, CPU, memory, load, …) as Prometheus families, made from each part's
// table (``FixedPart``): one family per figure that has a name (labelled figures of one family
// share its header), in the part's export order.

import SnapshotCodec

extension PrometheusText {
    /// `tag`'s fixed part, when `s` has it.
    static func writeFixed(_ tag: SectionTag, _ s: Snapshot, _ w: inout ExpositionWriter) {
        guard let index = FixedPart.index(of: tag) else { return }
        withUnsafePointer(to: s) { writeFixed(FixedPart.all[index], $0, &w) }
    }

    private static func writeFixed(_ part: FixedPart, _ s: SnapshotPointer, _ w: inout ExpositionWriter) {
        guard part.isMeasured(s) else { return }
        var previous: StaticString? = nil
        // By index: a for-in over the table allocates an iterator's element in debug builds.
        for k in 0..<part.figures.count {
            let figure = part.exported(k)
            guard let name = figure.prometheus, figure.isGiven(s) else { continue }
            if previous.map({ !same($0, name) }) ?? true { w.family(name, figure.prometheusHelp, .gauge) }
            previous = name
            if let states = figure.states {
                writeStates(name, figure.prometheusLabel ?? "state", states, figure.value(s), &w)
                continue
            }
            w.begin(name)
            if let label = figure.prometheusLabel { w.label(label, figure.prometheusLabelValue) }
            writeValue(figure.unit, min(figure.value(s), figure.prometheusMaximum), &w)
        }
    }

    /// `tag`'s list part, when `s` has it: a family per figure that has one (where there is an
    /// entry), a sample per entry labelled with its texts.
    static func writeEntries(_ tag: SectionTag, _ s: Snapshot, _ w: inout ExpositionWriter) {
        guard s.available.contains(SnapshotSections(tag: tag) ?? []) else { return }
        withUnsafePointer(to: s) { s in
            for p in 0..<EntryPart.all.count where EntryPart.all[p].tag == tag { writeList(EntryPart.all[p], s, &w) }
        }
    }

    /// One list's families.
    private static func writeList(_ part: EntryPart, _ s: SnapshotPointer, _ w: inout ExpositionWriter) {
        let n = part.shown(s)
        guard n > 0 else { return }
        for f in 0..<part.figures.count {
            let figure = part.figures[f]
            guard let name = figure.prometheus else { continue }
            w.family(name, figure.prometheusHelp, figure.counter ? .counter : .gauge)
            for i in 0..<n {
                w.begin(name)
                if part.ranked { w.rank(i + 1) }
                for t in 0..<part.texts.count {
                    if let label = part.texts[t].prometheusLabel { w.label(label, bytes: part.texts[t].value(s, i)) }
                }
                if figure.signed { writeValue(figure.unit, figure.number(s, i), &w) } else { writeValue(figure.unit, figure.value(s, i), &w) }
            }
        }
    }

    /// An enumerated figure: one sample per state, 1 for `value`'s and 0 for the others.
    private static func writeStates(_ name: StaticString, _ label: StaticString, _ states: [StaticString], _ value: UInt64,
                                    _ w: inout ExpositionWriter) {
        for i in 0..<states.count {
            w.begin(name); w.label(label, states[i]); w.value(UInt64(i) == value ? 1 : 0)
        }
    }

    /// A fixed figure's value as its unit says.
    static func writeValue(_ unit: FigureUnit, _ v: UInt64, _ w: inout ExpositionWriter) {
        switch unit {
        case .kib: w.value(bytes(v))
        case .centiseconds, .hundredths: w.fixedValue(v, decimals: 2)
        case .seconds, .bytes, .count, .duration: w.value(v)
        case .minutes:
            let (seconds, overflow) = v.multipliedReportingOverflow(by: 60)
            w.value(overflow ? .max : seconds)
        default: writeValue(unit, Int64(clamping: v), &w)
        }
    }

    private static func same(_ a: StaticString, _ b: StaticString) -> Bool {
        guard a.utf8CodeUnitCount == b.utf8CodeUnitCount else { return false }
        for i in 0..<a.utf8CodeUnitCount where a.utf8Start[i] != b.utf8Start[i] { return false }
        return true
    }
}
