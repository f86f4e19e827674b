import CLibc

/// A temperature file found under /sys: an hwmon `temp<N>_input` or a thermal zone's `temp`.
public struct TemperatureSensor: Equatable, Sendable {
    public enum Source: Equatable, Sendable {
        /// `<sysRoot>/class/hwmon/hwmon<index>/temp<inputNumber>_input`.
        case hwmon
        /// `<sysRoot>/class/thermal/thermal_zone<index>/temp`.
        case thermalZone
    }
    public var source: Source
    /// The N of `hwmonN` or `thermal_zoneN`.
    public var index: Int
    /// The N of `tempN_input` (0 for a thermal zone).
    public var inputNumber: Int
    /// The hwmon chip's `name` (`coretemp`, `k10temp`, `nvme`, …) or the zone's `type`
    /// (`x86_pkg_temp`, `acpitz`, …): raw bytes, cut at 31.
    public var chip: FixedName
    /// `tempN_label` (`Package id 0`, `Tctl`, `Composite`, …); `tempN` when the chip gives
    /// none (as `sensors` shows it); `thermal_zoneN` for a zone.
    public var label: FixedName
    /// `tempN_crit` and `tempN_max`, millidegrees C, as read at discovery; nil when absent.
    public var criticalMillidegrees: Int32?
    public var maximumMillidegrees: Int32?
    /// The file holding the temperature (millidegrees C, may be negative).
    public var inputPath: String

    public init(source: Source, index: Int, inputNumber: Int, chip: FixedName, label: FixedName,
                criticalMillidegrees: Int32? = nil, maximumMillidegrees: Int32? = nil, inputPath: String) {
        self.source = source; self.index = index; self.inputNumber = inputNumber
        self.chip = chip; self.label = label
        self.criticalMillidegrees = criticalMillidegrees; self.maximumMillidegrees = maximumMillidegrees
        self.inputPath = inputPath
    }
}

/// Discovery of temperature files under `<sysRoot>/class/hwmon` and `<sysRoot>/class/thermal`.
///
/// Each `hwmonN` entry is a symbolic link into /sys/devices on a real system; it is
/// followed. Kernels before 3.x kept a chip's attributes in `hwmonN/device/`: when
/// `hwmonN/name` is missing, that directory is used. Discovery allocates (paths,
/// listings): run it at start and on a rescan, not per sample.
public enum Hwmon {
    /// At most this many sensors are listed per discovery (hostile trees stay bounded).
    public static let maximumSensors = 256

    /// Every `tempN_input` of every hwmon chip, by chip number then input number.
    public static func temperatureSensors(sysRoot: String) -> [TemperatureSensor] {
        // Paths are built as bytes (BytePath): see its documentation for why.
        var path = BytePath(sysRoot)
        path.append("/class/hwmon")
        let classLength = path.count
        let buffer = ReadBuffer(capacity: 256, maximumCapacity: 4096)
        var found: [TemperatureSensor] = []
        let chips = numberedEntries(path, prefix: "hwmon", suffix: "", limit: maximumSensors)
        for c in 0..<chips.count {
            let chipNumber = chips[c]
            path.truncate(to: classLength)
            path.append("/hwmon")
            path.append(decimal: chipNumber)
            var directoryLength = path.count
            path.append("/name")
            var chip = firstLine(&path, buffer)
            if chip == nil {
                path.truncate(to: directoryLength)
                path.append("/device")
                directoryLength = path.count
                path.append("/name")
                chip = firstLine(&path, buffer)
            }
            guard let chip else { continue }
            path.truncate(to: directoryLength)
            let inputs = numberedEntries(path, prefix: "temp", suffix: "_input", limit: maximumSensors)
            for k in 0..<inputs.count {
                guard found.count < maximumSensors else { return found }
                let input = inputs[k]
                path.truncate(to: directoryLength)
                path.append("/temp")
                path.append(decimal: input)
                let base = path.count
                path.append("_label")
                let label = firstLine(&path, buffer) ?? numberedName("temp", input)
                path.truncate(to: base)
                path.append("_crit")
                let critical = millidegrees(&path, buffer)
                path.truncate(to: base)
                path.append("_max")
                let maximum = millidegrees(&path, buffer)
                path.truncate(to: base)
                path.append("_input")
                found.append(TemperatureSensor(
                    source: .hwmon, index: chipNumber, inputNumber: input, chip: chip, label: label,
                    criticalMillidegrees: critical, maximumMillidegrees: maximum, inputPath: path.string))
            }
        }
        return found
    }

    /// Every `thermal_zoneN` with a readable `type`, by zone number.
    public static func thermalZones(sysRoot: String) -> [TemperatureSensor] {
        var path = BytePath(sysRoot)
        path.append("/class/thermal")
        let classLength = path.count
        let buffer = ReadBuffer(capacity: 256, maximumCapacity: 4096)
        var found: [TemperatureSensor] = []
        let zones = numberedEntries(path, prefix: "thermal_zone", suffix: "", limit: maximumSensors)
        for z in 0..<zones.count {
            guard found.count < maximumSensors else { break }
            path.truncate(to: classLength)
            path.append("/thermal_zone")
            path.append(decimal: zones[z])
            let directoryLength = path.count
            path.append("/type")
            guard let type = firstLine(&path, buffer) else { continue }
            path.truncate(to: directoryLength)
            path.append("/temp")
            found.append(TemperatureSensor(
                source: .thermalZone, index: zones[z], inputNumber: 0, chip: type,
                label: numberedName("thermal_zone", zones[z]), inputPath: path.string))
        }
        return found
    }

    /// The N of each `<prefix>N<suffix>` entry of the directory at `directory`, ascending,
    /// at most `limit`; N is 1–9 decimal digits, so it fits an Int and a path.
    static func numberedEntries(_ directory: BytePath, prefix: StaticString, suffix: StaticString,
                                limit: Int) -> [Int] {
        var numbers: [Int] = []
        DirectoryStream(directory.string).forEachEntry { name, _ in
            guard numbers.count < limit, let n = numberedName(name, prefix: prefix, suffix: suffix) else { return }
            numbers.append(n)
        }
        sortAscending(&numbers)
        return numbers
    }

    /// N when `name` is exactly `<prefix>N<suffix>`.
    static func numberedName(_ name: UnsafeRawBufferPointer, prefix: StaticString, suffix: StaticString) -> Int? {
        let p = prefix.utf8CodeUnitCount, q = suffix.utf8CodeUnitCount
        guard name.count > p + q, name.count - p - q <= 9 else { return nil }
        let head = UnsafeRawBufferPointer(rebasing: name[0..<p])
        let tail = UnsafeRawBufferPointer(rebasing: name[(name.count - q)...])
        guard bytesEqual(head, prefix), bytesEqual(tail, suffix) else { return nil }
        var n = 0
        for i in p..<(name.count - q) {
            let b = name[i]
            guard b >= 0x30, b <= 0x39 else { return nil }
            n = n * 10 + Int(b - 0x30)
        }
        return n
    }

    /// `<prefix>N` as a name (`temp3`, `thermal_zone1`).
    static func numberedName(_ prefix: StaticString, _ n: Int) -> FixedName {
        var name = BytePath()
        name.append(prefix)
        name.append(decimal: n)
        return name.name
    }

    /// The first line of a small file, without its newline, as a name; nil if unreadable or empty.
    static func firstLine(_ path: inout BytePath, _ buffer: ReadBuffer) -> FixedName? {
        guard case .success(let bytes) = path.read(into: buffer) else { return nil }
        let end = firstIndex(of: 0x0A, in: bytes) ?? bytes.count
        guard end > 0 else { return nil }
        return FixedName(UnsafeRawBufferPointer(rebasing: bytes[0..<end]))
    }

    /// A file holding one temperature; nil if unreadable or not a number.
    static func millidegrees(_ path: inout BytePath, _ buffer: ReadBuffer) -> Int32? {
        guard case .success(let bytes) = path.read(into: buffer) else { return nil }
        return parseMillidegrees(bytes)
    }

    /// `45000\n` or `-5000`: one signed decimal and nothing but blanks or a newline after
    /// it, clamped to Int32. Nil for anything else.
    public static func parseMillidegrees(_ bytes: UnsafeRawBufferPointer) -> Int32? {
        var s = ByteScanner(bytes)
        guard let value = s.signed() else { return nil }
        s.skipBlanks()
        guard s.isAtEnd || s.current == 0x0A else { return nil }
        return Int32(clamping: value)
    }
}
