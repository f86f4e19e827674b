// The list parts' tables (``EntryPart``): each entry's texts and figures, their widths in the
// section, their units, `report --json` members and Prometheus families, and their fields of
// the snapshot's entries.

extension EntryPart {
    /// Every list part, in the order of their tags.
    public static let all: [EntryPart] = [topCPU, topMemory, topGPU, exits, network, disks, diskIO, temperature]

    /// Section 9: the top processes by CPU, then by private memory, then (version 2) by GPU use
    /// (``Snapshot/topGPU``: its share in `cpu`, its GPU memory in `privateKiB`); per process
    /// its pid, CPU share (of one CPU), private KiB and name.
    static let topCPU = processes(json: "top_cpu", prometheus: "sysstats_top_cpu_ratio",
                                  "The processes using the most CPU, as a share of one CPU; rank 1 is the highest, at most 5.", of: 1,
                                  list: { $0.pointee.topCPU }, edit: { s, body in body(&s.topCPU) })
    static let topMemory = processes(json: "top_memory", prometheus: "sysstats_top_memory_bytes",
                                     "The processes with the most private memory; rank 1 is the highest, at most 5.", of: 2,
                                     list: { $0.pointee.topMemory }, edit: { s, body in body(&s.topMemory) })
    static let topGPU = processes(json: nil, since: 2, prometheus: nil, "", of: 0,
                                  list: { $0.pointee.topGPU }, edit: { s, body in body(&s.topGPU) })

    /// One list of section 9: `family` is its figure `prometheusFigure`'s (1: CPU, 2: memory).
    private static func processes(json: StaticString?, since: UInt16 = 1, prometheus family: StaticString?,
                                  _ help: StaticString, of prometheusFigure: Int,
                                  list: @escaping @Sendable (SnapshotPointer) -> [ProcessEntry],
                                  edit: @escaping @Sendable (inout Snapshot, (inout [ProcessEntry]) -> Void) -> Void) -> EntryPart {
        EntryPart(.top, json: json, maximumEntries: Snapshot.maximumTopEntries, texts: [
            EntryText(maximum: Snapshot.maximumNameLength, json: "name", prometheus: "name",
                      value: { list($0)[$1].name }, store: { s, i, v in edit(&s) { $0[i].name.replace(with: v) } }),
        ], figures: [
            EntryFigure(.u32, .count, json: "pid", prometheus: nil,
                        value: { UInt64(list($0)[$1].pid) }, store: { s, i, v in edit(&s) { $0[i].pid = UInt32(clamping: v) } }),
            EntryFigure(.u16, .permyriad, json: "cpu_percent", prometheus: prometheusFigure == 1 ? family : nil, help,
                        value: { UInt64(list($0)[$1].cpu) }, store: { s, i, v in edit(&s) { $0[i].cpu = UInt16(clamping: v) } }),
            EntryFigure(.u64, .kib, json: "private_mib", prometheus: prometheusFigure == 2 ? family : nil, help,
                        value: { list($0)[$1].privateKiB }, store: { s, i, v in edit(&s) { $0[i].privateKiB = v } }),
        ], cached: false, since: since, textsLast: true, ranked: true, jsonAlways: true,
        count: { list($0).count }, resize: { s, n in edit(&s) { $0.resize(to: n, empty: ProcessEntry()) } })
    }

    /// Section 10: the processes that exited recently, most recent first: pid, when (ms since
    /// the epoch), its last private KiB, what its exit freed (KiB), name.
    static let exits = EntryPart(.exits, json: "exits", maximumEntries: Snapshot.maximumExits, texts: [
        EntryText(maximum: Snapshot.maximumNameLength, json: "name", prometheus: nil,
                  value: { $0.pointee.exits[$1].name }, store: { $0.exits[$1].name.replace(with: $2) }),
    ], figures: [
        EntryFigure(.u32, .count, json: "pid", prometheus: nil,
                    value: { UInt64($0.pointee.exits[$1].pid) }, store: { $0.exits[$1].pid = UInt32(clamping: $2) }),
        EntryFigure(.u64, .count, json: "time_ms", prometheus: nil,
                    value: { $0.pointee.exits[$1].timeMs }, store: { $0.exits[$1].timeMs = $2 }),
        EntryFigure(.u64, .kib, json: "last_private_mib", prometheus: nil,
                    value: { $0.pointee.exits[$1].lastPrivateKiB }, store: { $0.exits[$1].lastPrivateKiB = $2 }),
        EntryFigure(.u64, .kib, json: "freed_mib", prometheus: nil,
                    value: { $0.pointee.exits[$1].freedKiB }, store: { $0.exits[$1].freedKiB = $2 }),
    ], cached: false, textsLast: true, jsonAlways: true,
    count: { $0.pointee.exits.count }, resize: { $0.exits.resize(to: $1, empty: ExitEntry()) })

    /// Section 13: file system space. Per mount: the mount point, total, used and available KiB.
    static let disks = EntryPart(.disks, json: "disks", maximumEntries: Snapshot.maximumDisks, texts: [
        EntryText(maximum: Snapshot.maximumPathLength, json: "mount", prometheus: "mountpoint",
                  value: { $0.pointee.disks[$1].mount }, store: { $0.disks[$1].mount.replace(with: $2) }),
    ], figures: [
        EntryFigure(.u64, .kib, json: "total_kib", as: .count,
                    prometheus: "sysstats_filesystem_size_bytes", "Size of the file system mounted there.",
                    value: { $0.pointee.disks[$1].totalKiB }, store: { $0.disks[$1].totalKiB = $2 }),
        EntryFigure(.u64, .kib, json: "used_kib", as: .count,
                    prometheus: "sysstats_filesystem_used_bytes", "Space in use (as df: reserved blocks are neither used nor available).",
                    value: { $0.pointee.disks[$1].usedKiB }, store: { $0.disks[$1].usedKiB = $2 }),
        EntryFigure(.u64, .kib, json: "available_kib", as: .count,
                    prometheus: "sysstats_filesystem_avail_bytes", "Space available to unprivileged users.",
                    value: { $0.pointee.disks[$1].availableKiB }, store: { $0.disks[$1].availableKiB = $2 }),
    ], count: { $0.pointee.disks.count }, resize: { $0.disks.resize(to: $1, empty: DiskFigures()) })

    /// Section 14: whole-disk I/O. Per disk: the device name, read and write bytes per second,
    /// read and written bytes since boot.
    static let diskIO = EntryPart(.diskIO, json: "disk_io", maximumEntries: Snapshot.maximumDiskDevices, texts: [
        EntryText(maximum: Snapshot.maximumInterfaceNameLength, json: "device", prometheus: "device",
                  value: { $0.pointee.diskIO[$1].device }, store: { $0.diskIO[$1].device.replace(with: $2) }),
    ], figures: [
        EntryFigure(.u64, .bytes, json: "read_bytes_per_s", prometheus: nil,
                    value: { $0.pointee.diskIO[$1].readBytesPerSecond }, store: { $0.diskIO[$1].readBytesPerSecond = $2 }),
        EntryFigure(.u64, .bytes, json: "write_bytes_per_s", prometheus: nil,
                    value: { $0.pointee.diskIO[$1].writeBytesPerSecond }, store: { $0.diskIO[$1].writeBytesPerSecond = $2 }),
        EntryFigure(.u64, .bytes, json: nil, prometheus: "sysstats_disk_read_bytes_total",
                    "Bytes read from the whole disk since boot.", counter: true,
                    value: { $0.pointee.diskIO[$1].readBytes }, store: { $0.diskIO[$1].readBytes = $2 }),
        EntryFigure(.u64, .bytes, json: nil, prometheus: "sysstats_disk_written_bytes_total",
                    "Bytes written to the whole disk since boot.", counter: true,
                    value: { $0.pointee.diskIO[$1].writeBytes }, store: { $0.diskIO[$1].writeBytes = $2 }),
    ], count: { $0.pointee.diskIO.count }, resize: { $0.diskIO.resize(to: $1, empty: DiskIOFigures()) })

    /// Section 15: temperatures. Per sensor: chip, label, millidegrees, the critical and high
    /// limits (`Snapshot.unknownLimit` unknown) and a flag (bit 0: the CPU package).
    static let temperature = EntryPart(.temperature, json: "temperatures", maximumEntries: Snapshot.maximumSensors, texts: [
        EntryText(maximum: Snapshot.maximumInterfaceNameLength, json: "sensor", prometheus: "chip",
                  value: { $0.pointee.temperatures[$1].chip }, store: { $0.temperatures[$1].chip.replace(with: $2) }),
        EntryText(maximum: Snapshot.maximumPathLength, json: "label", prometheus: "sensor",
                  value: { $0.pointee.temperatures[$1].label }, store: { $0.temperatures[$1].label.replace(with: $2) }),
    ], figures: [
        EntryFigure(.u32, signed: true, .milliCelsius, json: "celsius", prometheus: "sysstats_temperature_celsius",
                    "Temperature of the sensor (chip: the hwmon chip or thermal zone; sensor: its label).",
                    value: { celsius($0.pointee.temperatures[$1].milliCelsius) }, store: { $0.temperatures[$1].milliCelsius = celsius($2) }),
        EntryFigure(.u32, signed: true, .milliCelsius, json: nil, prometheus: nil,
                    value: { celsius($0.pointee.temperatures[$1].criticalMilliCelsius) },
                    store: { $0.temperatures[$1].criticalMilliCelsius = celsius($2) }),
        EntryFigure(.u32, signed: true, .milliCelsius, json: nil, prometheus: nil,
                    value: { celsius($0.pointee.temperatures[$1].highMilliCelsius) }, store: { $0.temperatures[$1].highMilliCelsius = celsius($2) }),
        EntryFigure(.u8, .count, json: nil, prometheus: nil,
                    value: { $0.pointee.temperatures[$1].isCPUPackage ? 1 : 0 }, store: { $0.temperatures[$1].isCPUPackage = $2 & 1 != 0 }),
    ], count: { $0.pointee.temperatures.count }, resize: { $0.temperatures.resize(to: $1, empty: TemperatureFigures()) })

    /// Millidegrees as a figure's bits, and back.
    @inline(__always) static func celsius(_ v: Int32) -> UInt64 { UInt64(bitPattern: Int64(v)) }
    @inline(__always) static func celsius(_ v: UInt64) -> Int32 { Int32(clamping: Int64(bitPattern: v)) }
}
