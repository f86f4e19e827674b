/// The media players on the session bus (MPRIS: `org.mpris.MediaPlayer2.*`), from the media
/// helper (`sysstatsd-media`, which the sampler starts while a bar shows the media block; its
/// frames are ProcFS's `MediaHelperOutput`): one reading per player, the bus name's player
/// word (`spotify`, `firefox`) the source and the player's own name (`Spotify`) the label,
/// the playing one first, else the one that changed last. Pushed: the helper writes when a
/// player's signals say something changed and the sampler publishes at once. No player: the
/// part is there with no reading (the block hides).
public enum MediaPart {
    public static let part = ListedPart(
        .media, name: "media", block: "media", label: "media", argumentKey: "player",
        source: "player", "the player's bus name (`spotify`, `firefox`, `mpv`)",
        labelHelp: "the player's own name (`Spotify`, `Mozilla Firefox`)",
        summary: "the MPRIS player's artist and title, shown at each change; left click: play/pause, right: next, middle: previous",
        maximumReadings: 4,
        // No history column, and no title in Prometheus: what plays is not the machine's load.
        figures: [
            PartFigure(.count, placeholder: "playing", "1 while playing, else 0", json: "playing", suffix: "",
                       prometheus: "sysstats_media_playing", "1 while the media player plays."),
            PartFigure(.duration, placeholder: "length", "the track's length (`mpris:length`): `03:35`, `01:02:03` past an hour (as waybar's mpris)",
                       json: "length_seconds", suffix: "", prometheus: nil),
            PartFigure(.duration, placeholder: "position", "the time played (`Position`), as `{length}`, counted on while it plays",
                       json: "position_seconds", suffix: "", prometheus: nil),
        ],
        sourcePlaceholder: "player",
        texts: [
            PartText(placeholder: "title", "the track's title (`xesam:title`)", json: "title"),
            PartText(placeholder: "artist", "the track's artists, comma-separated (`xesam:artist`)", json: "artist"),
            PartText(placeholder: "album", "the track's album (`xesam:album`)", json: "album"),
            PartText(placeholder: "status", "`playing`, `paused` or `stopped`", json: "status"),
        ],
        media: true)

    /// The figures' and texts' positions in the tables.
    public static let playing = 0, length = 1, position = 2
    public static let title = 0, artist = 1, album = 2, status = 3
}
