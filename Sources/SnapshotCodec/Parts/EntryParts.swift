// The list parts' tables (``EntryPart``): each entry's texts and figures, their widths in the
// section, their units, `report --json` members and Prometheus families, and their fields of
// the snapshot's entries.

extension EntryPart {
    /// Every list part, in the order of their tags.
    public static let all: [EntryPart] = [disks, diskIO, temperature]

    /// Section 13: file system space. Per mount: the mount point, total, used and available KiB.
    static let disks = EntryPart(.disks, json: "disks", maximumEntries: Snapshot.maximumDisks, texts: [
        EntryText(maximum: Snapshot.maximumPathLength, json: "mount", prometheus: "mountpoint",
                  value: { $0.disks[$1].mount }, store: { $0.disks[$1].mount.replace(with: $2) }),
    ], figures: [
        EntryFigure(.u64, .kib, json: "total_kib", as: .count,
                    prometheus: "sysstats_filesystem_size_bytes", "Size of the file system mounted there.",
                    value: { $0.disks[$1].totalKiB }, store: { $0.disks[$1].totalKiB = $2 }),
        EntryFigure(.u64, .kib, json: "used_kib", as: .count,
                    prometheus: "sysstats_filesystem_used_bytes", "Space in use (as df: reserved blocks are neither used nor available).",
                    value: { $0.disks[$1].usedKiB }, store: { $0.disks[$1].usedKiB = $2 }),
        EntryFigure(.u64, .kib, json: "available_kib", as: .count,
                    prometheus: "sysstats_filesystem_avail_bytes", "Space available to unprivileged users.",
                    value: { $0.disks[$1].availableKiB }, store: { $0.disks[$1].availableKiB = $2 }),
    ], count: { $0.disks.count }, resize: { $0.disks.resize(to: $1, empty: DiskFigures()) })

    /// Section 14: whole-disk I/O. Per disk: the device name, read and write bytes per second,
    /// read and written bytes since boot.
    static let diskIO = EntryPart(.diskIO, json: "disk_io", maximumEntries: Snapshot.maximumDiskDevices, texts: [
        EntryText(maximum: Snapshot.maximumInterfaceNameLength, json: "device", prometheus: "device",
                  value: { $0.diskIO[$1].device }, store: { $0.diskIO[$1].device.replace(with: $2) }),
    ], figures: [
        EntryFigure(.u64, .bytes, json: "read_bytes_per_s", prometheus: nil,
                    value: { $0.diskIO[$1].readBytesPerSecond }, store: { $0.diskIO[$1].readBytesPerSecond = $2 }),
        EntryFigure(.u64, .bytes, json: "write_bytes_per_s", prometheus: nil,
                    value: { $0.diskIO[$1].writeBytesPerSecond }, store: { $0.diskIO[$1].writeBytesPerSecond = $2 }),
        EntryFigure(.u64, .bytes, json: nil, prometheus: "sysstats_disk_read_bytes_total",
                    "Bytes read from the whole disk since boot.", counter: true,
                    value: { $0.diskIO[$1].readBytes }, store: { $0.diskIO[$1].readBytes = $2 }),
        EntryFigure(.u64, .bytes, json: nil, prometheus: "sysstats_disk_written_bytes_total",
                    "Bytes written to the whole disk since boot.", counter: true,
                    value: { $0.diskIO[$1].writeBytes }, store: { $0.diskIO[$1].writeBytes = $2 }),
    ], count: { $0.diskIO.count }, resize: { $0.diskIO.resize(to: $1, empty: DiskIOFigures()) })

    /// Section 15: temperatures. Per sensor: chip, label, millidegrees, the critical and high
    /// limits (`Snapshot.unknownLimit` unknown) and a flag (bit 0: the CPU package).
    static let temperature = EntryPart(.temperature, json: "temperatures", maximumEntries: Snapshot.maximumSensors, texts: [
        EntryText(maximum: Snapshot.maximumInterfaceNameLength, json: "sensor", prometheus: "chip",
                  value: { $0.temperatures[$1].chip }, store: { $0.temperatures[$1].chip.replace(with: $2) }),
        EntryText(maximum: Snapshot.maximumPathLength, json: "label", prometheus: "sensor",
                  value: { $0.temperatures[$1].label }, store: { $0.temperatures[$1].label.replace(with: $2) }),
    ], figures: [
        EntryFigure(.u32, signed: true, .milliCelsius, json: "celsius", prometheus: "sysstats_temperature_celsius",
                    "Temperature of the sensor (chip: the hwmon chip or thermal zone; sensor: its label).",
                    value: { celsius($0.temperatures[$1].milliCelsius) }, store: { $0.temperatures[$1].milliCelsius = celsius($2) }),
        EntryFigure(.u32, signed: true, .milliCelsius, json: nil, prometheus: nil,
                    value: { celsius($0.temperatures[$1].criticalMilliCelsius) },
                    store: { $0.temperatures[$1].criticalMilliCelsius = celsius($2) }),
        EntryFigure(.u32, signed: true, .milliCelsius, json: nil, prometheus: nil,
                    value: { celsius($0.temperatures[$1].highMilliCelsius) }, store: { $0.temperatures[$1].highMilliCelsius = celsius($2) }),
        EntryFigure(.u8, .count, json: nil, prometheus: nil,
                    value: { $0.temperatures[$1].isCPUPackage ? 1 : 0 }, store: { $0.temperatures[$1].isCPUPackage = $2 & 1 != 0 }),
    ], count: { $0.temperatures.count }, resize: { $0.temperatures.resize(to: $1, empty: TemperatureFigures()) })

    /// Millidegrees as a figure's bits, and back.
    @inline(__always) static func celsius(_ v: Int32) -> UInt64 { UInt64(bitPattern: Int64(v)) }
    @inline(__always) static func celsius(_ v: UInt64) -> Int32 { Int32(clamping: Int64(bitPattern: v)) }
}
