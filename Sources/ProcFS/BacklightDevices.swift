import SnapshotCodec

/// The backlights under `<sysRoot>/class/backlight` (``BacklightPart``): each device's
/// `actual_brightness` and `max_brightness`, its `type` as the source and its folder's name
/// as the label, firmware first, then platform, then raw, each kind by name. Discovery once,
/// at init; the files are then kept open and re-read with `pread`.
public final class BacklightDevices: PartReader {
    struct Device {
        var type: FixedName
        var name: FixedName
        /// Its place in the kernel's order of preference (``rank(_:)``).
        let rank: Int
        let actual: ProcFile
        /// `brightness`: the value last set, for a driver that cannot ask the hardware.
        let requested: ProcFile
        let maximum: ProcFile
    }
    private var devices: [Device] = []
    /// At most this many entries of the class folder are looked at: a hostile tree stays bounded.
    static let maximumEntries = 64

    public init(sysRoot: String) {
        var path = BytePath(sysRoot)
        path.append("/class/backlight")
        let classLength = path.count
        var entries: [[UInt8]] = []
        DirectoryStream(path.string).forEachEntry { name, _ in
            guard entries.count < BacklightDevices.maximumEntries else { return }
            entries.append(Array(name))
        }
        let buffer = ReadBuffer(capacity: 256, maximumCapacity: 4096)
        var found: [Device] = []
        for i in 0..<entries.count {
            path.truncate(to: classLength)
            path.append(byte: 0x2F)
            entries[i].withUnsafeBytes { path.append($0) }
            let directory = path.count
            // No type: not a device of the class (a link left by a device that is gone).
            path.append("/type")
            guard let type = Hwmon.firstLine(&path, buffer) else { continue }
            path.truncate(to: directory)
            path.append("/actual_brightness")
            let actual = ProcFile(path.string)
            path.truncate(to: directory)
            path.append("/brightness")
            let requested = ProcFile(path.string)
            path.truncate(to: directory)
            path.append("/max_brightness")
            let maximum = ProcFile(path.string)
            let name = entries[i].withUnsafeBytes { FixedName($0) }
            found.append(Device(type: type, name: name, rank: Self.rank(type), actual: actual, requested: requested,
                                maximum: maximum))
        }
        Self.sortByPreference(&found)
        for i in 0..<min(found.count, BacklightPart.part.maximumReadings) { devices.append(found[i]) }
    }

    /// Documentation/ABI/stable/sysfs-class-backlight: where one panel has several
    /// interfaces, userspace should prefer `firmware`, then `platform`, then `raw` (through
    /// the firmware, it and the system do not change the backlight behind each other's
    /// back); a type the document does not name comes last.
    static func rank(_ type: FixedName) -> Int {
        type.withUnsafeBytes { t -> Int in
            if bytesEqual(t, "firmware") { return 0 }
            if bytesEqual(t, "platform") { return 1 }
            if bytesEqual(t, "raw") { return 2 }
            return 3
        }
    }

    /// By rank, then by name: the first reading is the block's default, and the same on
    /// every start (the folder lists its entries in no set order). An insertion sort over a
    /// handful: the standard library's sort is a window of code the sampler runs nowhere else.
    static func sortByPreference(_ devices: inout [Device]) {
        var i = 1
        while i < devices.count {
            let device = devices[i]
            var j = i
            while j > 0 && precedes(device, devices[j - 1]) {
                devices[j] = devices[j - 1]
                j -= 1
            }
            devices[j] = device
            i += 1
        }
    }

    private static func precedes(_ a: Device, _ b: Device) -> Bool {
        if a.rank != b.rank { return a.rank < b.rank }
        return a.name.withUnsafeBytes { x in
            b.name.withUnsafeBytes { y -> Bool in
                var k = 0
                while k < x.count && k < y.count {
                    if x[k] != y[k] { return x[k] < y[k] }
                    k += 1
                }
                return x.count < y.count
            }
        }
    }

    public func read(into snapshot: inout Snapshot, buffer: ReadBuffer, monotonicNs: UInt64) -> Bool {
        snapshot.listed.update(.backlight) { list in
            var n = 0, unreadable = 0
            for i in 0..<devices.count {
                guard let actual = Self.brightness(devices[i], buffer) else { unreadable &+= 1; continue }
                if n == list.count { list.append(PartReading()) }
                devices[i].type.withUnsafeBytes { type in
                    devices[i].name.withUnsafeBytes { name in list[n].reset(source: type, label: name) }
                }
                list[n][BacklightPart.brightness] = Int64(clamping: actual)
                if let maximum = Self.value(devices[i].maximum, buffer) {
                    list[n][BacklightPart.maximum] = Int64(clamping: maximum)
                    // A maximum of 0 has no share: the percent is left out, never 0 or 100.
                    if maximum > 0 { list[n][BacklightPart.percent] = Int64(Self.permyriad(actual, of: maximum)) }
                }
                n &+= 1
            }
            if list.count > n { list.removeLast(list.count &- n) }
            // No device at all is a measured "none" (a desktop); devices whose every file
            // failed are not measured.
            return n > 0 || unreadable == 0
        } ?? false
    }

    /// What the hardware says (`actual_brightness`), else the value last set (`brightness`):
    /// a driver whose query of the hardware fails (a DDC/CI monitor that does not answer)
    /// fails the read of the first.
    private static func brightness(_ device: Device, _ buffer: ReadBuffer) -> UInt64? {
        if let v = value(device.actual, buffer) { return v }
        return value(device.requested, buffer)
    }

    /// `actual` as a share of `maximum` (> 0), permyriad, rounded half up; a brightness
    /// above the maximum (a driver's slip, a hostile file) is the whole.
    static func permyriad(_ actual: UInt64, of maximum: UInt64) -> UInt64 {
        guard actual < maximum else { return 10_000 }
        // actual < maximum: the quotient is below 10000, so the full-width division fits.
        let (quotient, remainder) = maximum.dividingFullWidth(actual.multipliedFullWidth(by: 10_000))
        return quotient + (remainder >= maximum - remainder ? 1 : 0)
    }

    /// A file holding one unsigned decimal; nil when unreadable or not a number.
    private static func value(_ file: ProcFile, _ buffer: ReadBuffer) -> UInt64? {
        guard case .success(let bytes) = file.read(into: buffer) else { return nil }
        return parseUnsignedLine(bytes)
    }
}
