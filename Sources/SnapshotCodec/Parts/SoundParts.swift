/// The sound server's default output and input (PulseAudio, or PipeWire through
/// pipewire-pulse; ALSA's mixer where no server answers), from the sound helper
/// (`sysstatsd-audio`, which the sampler starts while a bar shows one of them; its frames are
/// ProcFS's `AudioHelperOutput`): one reading each, the active port the source and the
/// device's description the label. Pushed: the helper writes at each change and the sampler
/// publishes at once. While neither answers the part is not there (`n/a`, or hidden with
/// `hide_missing`).
public enum VolumePart {
    public static let part = ListedPart(
        .volume, name: "volume", block: "volume", label: "vol", argumentKey: "device",
        source: "port", "the output's active port (`Headphones`, `Speakers`); empty where it has none",
        labelHelp: "the output's description (`Built-in Audio Analog Stereo`)",
        summary: "the default output's volume from PulseAudio, PipeWire or ALSA's mixer, shown at each change; wheel: volume, left click: mute",
        maximumReadings: 1,
        // No history column: the volume follows the user's hand, not the machine's load.
        figures: [
            PartFigure(.permyriad, placeholder: "volume", "the volume, a whole percent of the server's 100 % (more where it amplifies)",
                       json: "percent", suffix: "%",
                       prometheus: "sysstats_volume_ratio", "The default output's volume (1 is the sound server's 100 %)."),
            PartFigure(.count, placeholder: "muted", "1 while muted, else 0", json: "muted", suffix: "",
                       prometheus: "sysstats_volume_muted", "1 while the default output is muted."),
        ],
        sourcePlaceholder: "port", labelPlaceholder: "device",
        sound: SoundControl(device: "sink", mutedFigure: muted))

    /// The figures' positions in the table (the same in ``MicrophonePart``).
    public static let volume = 0, muted = 1
}

/// The default input (``VolumePart`` says where it comes from): `mic 60%`.
public enum MicrophonePart {
    public static let part = ListedPart(
        .microphone, name: "microphone", block: "microphone", label: "mic", argumentKey: "device",
        source: "port", "the input's active port (`Microphone`, `Headset Microphone`); empty where it has none",
        labelHelp: "the input's description (`Built-in Audio Analog Stereo`)",
        summary: "the default input's volume from PulseAudio, PipeWire or ALSA's mixer, shown at each change; wheel: volume, left click: mute",
        maximumReadings: 1,
        figures: [
            PartFigure(.permyriad, placeholder: "volume", "the volume, a whole percent of the server's 100 %",
                       json: "percent", suffix: "%",
                       prometheus: "sysstats_microphone_volume_ratio", "The default input's volume (1 is the sound server's 100 %)."),
            PartFigure(.count, placeholder: "muted", "1 while muted, else 0", json: "muted", suffix: "",
                       prometheus: "sysstats_microphone_muted", "1 while the default input is muted."),
        ],
        sourcePlaceholder: "port", labelPlaceholder: "device",
        sound: SoundControl(device: "source", mutedFigure: VolumePart.muted))
}
