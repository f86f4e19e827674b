/// The fans: each hwmon `fanN_input` (RPM) with its chip and label, and `fanN_target` where the
/// chip has one (ProcFS's `FanSensors`). `fan 1200rpm` in the bar; `report --json`'s `fans`;
/// `sysstats_fan_speed_rpm`.
public enum FansPart {
    public static let part = ListedPart(
        .fans, name: "fans", block: "fan", label: "fan", argumentKey: "fan",
        source: "chip", "the hwmon chip (`nct6775`, `thinkpad`, `amdgpu`)",
        labelHelp: "the fan's label (`fanN_label`), else `fanN`",
        summary: "a fan's speed (hwmon `fanN_input`): `fan:CHIP/LABEL`, `fan:LABEL` or `fan:CHIP`; default the first",
        maximumReadings: 8,
        figures: [
            PartFigure(.count, placeholder: "rpm", "speed, RPM", json: "rpm", suffix: "rpm",
                       prometheus: "sysstats_fan_speed_rpm", "A fan's speed, revolutions per minute.",
                       history: PartHistory(column: "fan_rpm", json: "fan_rpm", heading: "fan", .average)),
            PartFigure(.count, placeholder: "target", "the speed its controller aims for, RPM (where the chip says)",
                       json: "target_rpm", suffix: "rpm",
                       prometheus: "sysstats_fan_target_rpm", "The speed a fan's controller aims for, revolutions per minute."),
        ])

    /// The figures' positions in the table.
    public static let rpm = 0, target = 1
}
