/// The screen's backlight: each device under /sys/class/backlight (ProcFS's
/// `BacklightDevices`), its `type` the source and its folder's name the label, in the order
/// the kernel's ABI document asks userspace to prefer them (firmware, then platform, then
/// raw), so that the block's default reading is the one a desktop's brightness control uses.
/// `bl 80%` in the bar; `report --json`'s `backlight`; `sysstats_backlight_brightness_ratio`.
public enum BacklightPart {
    public static let part = ListedPart(
        .backlight, name: "backlight", block: "backlight", label: "bl", argumentKey: "device",
        source: "type", "the device's type: `firmware`, `platform` or `raw`",
        labelHelp: "the device (`intel_backlight`, `amdgpu_bl0`, `acpi_video0`)",
        summary: "the screen's brightness: `backlight:TYPE/DEVICE`, `backlight:DEVICE` or `backlight:TYPE`; default the device the kernel prefers",
        maximumReadings: 8,
        // No history column: the brightness follows the user's hand and the room's light, not
        // the machine's load, so a minute's average of it explains nothing the history is read for.
        figures: [
            PartFigure(.permyriad, placeholder: "percent", "brightness, a whole percent of the device's highest step",
                       json: "percent", suffix: "%",
                       prometheus: "sysstats_backlight_brightness_ratio", "The backlight's brightness as a share of its highest step."),
            // The steps themselves differ from one driver to the next (15 for ACPI, 96000
            // for an Intel panel): the share is the figure to compare, the steps are for a
            // script that sets the brightness itself.
            PartFigure(.count, placeholder: "brightness", "brightness in the device's own steps (`actual_brightness`)",
                       json: "brightness", suffix: "", prometheus: nil),
            PartFigure(.count, placeholder: "max", "the device's highest step (`max_brightness`)",
                       json: "max_brightness", suffix: "", prometheus: nil),
        ],
        setsBrightness: true)

    /// The figures' positions in the table.
    public static let percent = 0, brightness = 1, maximum = 2
}
