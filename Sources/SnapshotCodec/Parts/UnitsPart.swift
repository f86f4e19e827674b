/// The units of the cgroup v2 tree that use the machine most (ProcFS's `CgroupUnitsReader`):
/// the busiest by CPU, then the largest by memory, each an app, a service, a container or a
/// session under the name people know. Exact from the kernel's counters: a unit's
/// short-lived processes count. Measured only while a bar shows it (`top:units`, `unit`).
/// `report --json`'s `units`; `sysstats_unit_cpu_ratio` and the other `sysstats_unit_*`
/// families, for the units the snapshot keeps (docs/fleet.md, the bound).
public enum UnitsPart {
    public static let part = ListedPart(
        .units, name: "units", block: "unit", label: "unit", argumentKey: "unit",
        source: "kind", "the unit's kind: `app`, `service`, `container`, `session` or `system`",
        labelHelp: "the unit's name people know (`firefox`, `pipewire`, `docker 3f2a1b9c8d7e`, `session`)",
        summary: "a unit of the cgroup v2 tree (an app, service or container): `unit:NAME`, `unit:KIND`; default the busiest",
        maximumReadings: 8,
        figures: [
            PartFigure(.permyriad, placeholder: "cpu", "its CPU over the interval, a whole percent of one core",
                       json: "cpu_percent", suffix: "%",
                       prometheus: "sysstats_unit_cpu_ratio", "A unit's CPU over the interval, a share of one core (cpu.stat usage_usec)."),
            PartFigure(.bytes, placeholder: "mem", "the memory charged to it (memory.current)", json: "memory_bytes", suffix: "",
                       prometheus: "sysstats_unit_memory_bytes", "The memory charged to a unit (memory.current)."),
            PartFigure(.bytes, placeholder: "anon", "of that, anonymous memory (memory.stat anon)", json: "anon_bytes", suffix: "",
                       prometheus: nil),
            PartFigure(.bytes, placeholder: "file", "of that, page cache (memory.stat file)", json: "file_bytes", suffix: "",
                       prometheus: nil),
            PartFigure(.bytes, placeholder: "read", "bytes read a second (io.stat rbytes, all devices)", json: "read_bytes_per_second",
                       suffix: "/s", prometheus: "sysstats_unit_read_bytes_per_second", "Bytes a unit read a second (io.stat rbytes, all devices)."),
            PartFigure(.bytes, placeholder: "write", "bytes written a second (io.stat wbytes, all devices)", json: "write_bytes_per_second",
                       suffix: "/s", prometheus: "sysstats_unit_write_bytes_per_second", "Bytes a unit wrote a second (io.stat wbytes, all devices)."),
            PartFigure(.count, placeholder: "tasks", "its tasks (pids.current)", json: "tasks", suffix: "",
                       prometheus: "sysstats_unit_tasks", "A unit's tasks (pids.current)."),
            PartFigure(.permyriad, placeholder: "pressure", "the most of its CPU, memory and I/O pressure (PSI some avg10), a whole percent",
                       json: "pressure_percent", suffix: "%",
                       prometheus: "sysstats_unit_pressure_ratio", "The most of a unit's CPU, memory and I/O pressure (PSI some avg10), a share."),
        ],
        texts: [PartText(placeholder: "unit", "the unit's own name in the tree (`app-firefox-1234.scope`); a click's command has it as `$BLOCK_UNIT`",
                         json: "unit")],
        onlyWhileShown: true, namesReading: true)

    /// The figures' positions in the table.
    public static let cpu = 0, memory = 1, anon = 2, file = 3, read = 4, written = 5, tasks = 6, pressure = 7
    /// The text's position: the unit's own name.
    public static let unitName = 0
}
