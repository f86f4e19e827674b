import ProcFS
import SnapshotCodec

/// A listed part's probe (``ListedPart``): its reader, run when the part is due (shown, or
/// every ``Sampler/unshownEverySamples`` samples), after the parts of a probe of its own.
struct PartProbe {
    let tag: SectionTag
    let part: SnapshotSections
    let read: (inout Snapshot, ReadBuffer, UInt64) -> Bool
    let takeNotice: () -> String?
    /// Read only while a bar shows it (``ListedPart/onlyWhileShown``), unless the
    /// configuration asks for it (``asked``).
    let onlyWhileShown: Bool
    /// The configuration names readings of it to keep (`[sampler] units`): read every sample.
    let asked: Bool

    init<Reader: PartReader>(_ tag: SectionTag, _ reader: Reader, asked: Bool = false) {
        self.asked = asked
        self.tag = tag
        part = SnapshotSections(tag: tag) ?? []
        read = { snapshot, buffer, monotonicNs in reader.read(into: &snapshot, buffer: buffer, monotonicNs: monotonicNs) }
        takeNotice = { reader.takeNotice() }
        onlyWhileShown = ListedPart.named(tag)?.onlyWhileShown ?? false
    }
}

extension Sampler {
    /// Every listed part's probe, one line per part (docs/architecture.md, "Recipe: add a part").
    /// `rules`: the process probe's bookmark rules, which name units too.
    static func partProbes(_ c: SamplerConfiguration, rules: RulesWatcher) -> [PartProbe] {
        [
            PartProbe(.fans, FanSensors(sysRoot: c.sysRoot)),
            PartProbe(.power, PowerSources(sysRoot: c.sysRoot)),
            PartProbe(.backlight, BacklightDevices(sysRoot: c.sysRoot)),
            PartProbe(.units, CgroupUnitsReader(sysRoot: c.sysRoot, namer: SamplerUnitNamer(rules: rules), kept: c.units),
                      asked: !c.units.isEmpty || (c.unitHistory && c.history && !c.once)),
        ]
    }
}
