/// Power drawn, in watts, by source: first the whole system (`system`: the batteries' draw
/// while discharging, else RAPL's platform domain `psys`, else the CPU packages and GPUs
/// summed, its label saying which), then each battery, RAPL domain and GPU that gave a figure
/// (ProcFS's `PowerSources`). A figure that could not be read is absent, never 0.
public enum PowerPart {
    public static let part = ListedPart(
        .power, name: "power", block: "power", label: "power", argumentKey: "source",
        source: "source", "where the figure comes from: `system`, `battery`, `rapl`, `gpu`",
        labelHelp: "which one: the system figure's basis (`battery`, `psys`, `cpu+gpu`), a RAPL domain (`package-0`, `dram`), a GPU (`card0`)",
        summary: "power drawn in watts: `power:SOURCE/LABEL`, `power:LABEL` or `power:SOURCE`; default the whole system",
        maximumReadings: 8,
        figures: [
            PartFigure(.milliwatts, placeholder: "watts", "power drawn, watts with one decimal", json: "watts", suffix: "W",
                       prometheus: "sysstats_power_watts", "Power drawn, by source (system is the whole machine's, where it can be had).",
                       history: PartHistory(column: "power_mw", json: "power_watts", heading: "power", .average)),
        ])

    /// The figure's position in the table.
    public static let watts = 0
}
