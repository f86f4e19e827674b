import SnapshotCodec

/// The fans hwmon lists (``FansPart``): every chip's `fanN_input` (RPM), its label
/// (`fanN_label`, else `fanN`, as `sensors` shows it) and `fanN_target` where the chip has
/// one, by chip number then fan number, at most ``FansPart`` allows. Discovery once, at
/// init; the chosen files are then kept open and re-read with `pread`.
public final class FanSensors: PartReader {
    struct Fan {
        var chip: FixedName
        var label: FixedName
        let input: ProcFile
        let target: ProcFile?
    }
    private var fans: [Fan] = []

    public init(sysRoot: String) {
        var path = BytePath(sysRoot)
        path.append("/class/hwmon")
        let classLength = path.count
        let buffer = ReadBuffer(capacity: 256, maximumCapacity: 4096)
        let limit = FansPart.part.maximumReadings
        let chips = Hwmon.numberedEntries(path, prefix: "hwmon", suffix: "", limit: Hwmon.maximumSensors)
        for c in 0..<chips.count where fans.count < limit {
            path.truncate(to: classLength)
            path.append("/hwmon")
            path.append(decimal: chips[c])
            var directory = path.count
            path.append("/name")
            var chip = Hwmon.firstLine(&path, buffer)
            if chip == nil {   // kernels before 3.x: the attributes in `device/`
                path.truncate(to: directory)
                path.append("/device")
                directory = path.count
                path.append("/name")
                chip = Hwmon.firstLine(&path, buffer)
            }
            guard let chip else { continue }
            path.truncate(to: directory)
            let inputs = Hwmon.numberedEntries(path, prefix: "fan", suffix: "_input", limit: limit)
            for k in 0..<inputs.count where fans.count < limit {
                fans.append(Self.fan(&path, directory, inputs[k], chip, buffer))
            }
        }
    }

    /// Fan `n` of the chip whose directory `path` holds up to `directory`.
    private static func fan(_ path: inout BytePath, _ directory: Int, _ n: Int, _ chip: FixedName, _ buffer: ReadBuffer) -> Fan {
        path.truncate(to: directory)
        path.append("/fan")
        path.append(decimal: n)
        let base = path.count
        path.append("_label")
        let label = Hwmon.firstLine(&path, buffer) ?? Hwmon.numberedName("fan", n)
        path.truncate(to: base)
        path.append("_target")
        let target = path.exists() ? ProcFile(path.string) : nil
        path.truncate(to: base)
        path.append("_input")
        return Fan(chip: chip, label: label, input: ProcFile(path.string), target: target)
    }

    /// The fans found, as `chip/label` (tests, `sysstats doctor`).
    public var names: [String] {
        fans.map { String(decoding: Array($0.chip.bytes) + [0x2F] + Array($0.label.bytes), as: UTF8.self) }
    }

    public func read(into snapshot: inout Snapshot, buffer: ReadBuffer, monotonicNs: UInt64) -> Bool {
        snapshot.listed.update(.fans) { list in
            var n = 0, unreadable = 0
            for i in 0..<fans.count {
                guard let rpm = Self.value(fans[i].input, buffer) else { unreadable &+= 1; continue }
                if n == list.count { list.append(PartReading()) }
                fans[i].chip.withUnsafeBytes { chip in
                    fans[i].label.withUnsafeBytes { label in list[n].reset(source: chip, label: label) }
                }
                list[n][FansPart.rpm] = Int64(clamping: rpm)
                if let target = fans[i].target, let v = Self.value(target, buffer) { list[n][FansPart.target] = Int64(clamping: v) }
                n &+= 1
            }
            if list.count > n { list.removeLast(list.count &- n) }
            // No fan at all is a measured "none"; fans whose every file failed are not measured.
            return n > 0 || unreadable == 0
        } ?? false
    }

    /// A file holding one unsigned decimal; nil when unreadable (a powered-down chip) or not a number.
    private static func value(_ file: ProcFile, _ buffer: ReadBuffer) -> UInt64? {
        guard case .success(let bytes) = file.read(into: buffer) else { return nil }
        return parseUnsignedLine(bytes)
    }
}
