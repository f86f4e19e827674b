import SnapshotCodec

/// The block of a listed part (``ListedPart``), made from its table: `fan 1200rpm`,
/// `power 14.2W`. Its argument picks a reading (`SOURCE/LABEL`, `LABEL` or `SOURCE`; default
/// the first); its placeholders are the table's figures, `{source}` and `{label}`. Hidden
/// by default where the machine has no such reading.
enum ListedBlock {
    static func descriptor(_ part: ListedPart) -> BlockDescriptor {
        let tag = part.tag
        var placeholders: [PlaceholderSpec] = []
        for i in 0..<part.figures.count {
            let unit = part.figures[i].unit
            placeholders.append(PlaceholderSpec(part.figures[i].placeholder, part.figures[i].help) { s, c, w in
                guard let v = reading(s, tag, c.argument)?[i] else { w.appendNotAvailable(); return }
                appendFigure(unit, v, into: &w)
            })
        }
        placeholders.append(PlaceholderSpec("source", part.sourceHelp) { s, c, w in
            if let r = reading(s, tag, c.argument) { w.append(bytes: r.source) } else { w.appendNotAvailable() }
        })
        placeholders.append(PlaceholderSpec("label", part.labelHelp) { s, c, w in
            if let r = reading(s, tag, c.argument) { w.append(bytes: r.label) } else { w.appendNotAvailable() }
        })
        if let name = part.sourcePlaceholder {
            placeholders.append(PlaceholderSpec(name, part.sourceHelp) { s, c, w in
                if let r = reading(s, tag, c.argument) { w.append(bytes: r.source) } else { w.appendNotAvailable() }
            })
        }
        if let name = part.labelPlaceholder {
            placeholders.append(PlaceholderSpec(name, part.labelHelp) { s, c, w in
                if let r = reading(s, tag, c.argument) { w.append(bytes: r.label) } else { w.appendNotAvailable() }
            })
        }
        for t in 0..<part.texts.count {
            placeholders.append(PlaceholderSpec(part.texts[t].placeholder, part.texts[t].help) { s, c, w in
                if let r = reading(s, tag, c.argument) { w.append(bytes: r.text(t)) } else { w.appendNotAvailable() }
            })
        }
        let first = part.figures[0]
        return BlockDescriptor(
            name: part.blockName, label: part.blockLabel, section: part.part, argumentKey: part.argumentKey,
            present: { s, c in reading(s, tag, c.argument) != nil },
            hiddenWhenMissingByDefault: true,
            sound: part.sound.map { s in SoundBlock(device: s.device) { snap, c in isMuted(snap, c, tag, s.mutedFigure) } },
            media: part.media ? MediaBlock(isPaused: { s, c in (reading(s, tag, c.argument)?[MediaPart.playing] ?? 0) == 0 }) : nil,
            reading: { s, c in reading(s, tag, c.argument) }, setsBrightness: part.setsBrightness,
            readingPart: { _ in part },
            placeholders: placeholders, helpNote: nil,
            render: { s, c, v in
                if part.media { renderMedia(s, c, tag, into: &v); return }
                render(s, c, tag, label: part.blockLabel, first, muted: part.sound?.mutedFigure, namesReading: part.namesReading, into: &v)
            })
    }

    /// The reading `argument` names (`SOURCE/LABEL`, `LABEL`, `SOURCE`); the first when empty.
    static func reading(_ snap: Snapshot, _ tag: SectionTag, _ argument: [UInt8]) -> PartReading? {
        let readings = snap.listed[tag]
        guard !argument.isEmpty else { return readings.first }
        // Indices, not `for r in`: an unspecialized (debug) array iterator allocates.
        for i in 0..<readings.count where names(argument, source: readings[i].source, label: readings[i].label) { return readings[i] }
        return nil
    }


    /// Whether the reading `c` names is muted (a sound device's part: its figure `muted` is 1).
    static func isMuted(_ snap: Snapshot, _ c: BlockContext, _ tag: SectionTag, _ muted: Int) -> Bool {
        (reading(snap, tag, c.argument)?[muted] ?? 0) != 0
    }

    /// The label (and the reading's, `unit firefox 12%`, where the part names its readings),
    /// then the reading's first figure and its suffix (`n/a` where not given); a
    /// muted sound device `vol muted (40%)` in i3status's degraded colour, as its
    /// `format_muted` says `muted (%volume)`.
    private static func render(_ snap: Snapshot, _ c: BlockContext, _ tag: SectionTag, label: StaticString,
                               _ first: PartFigure, muted: Int?, namesReading: Bool, into v: inout BlockValue) {
        v.full.append(label)
        v.full.append(UInt8(ascii: " "))
        guard let r = reading(snap, tag, c.argument) else {
            if !c.argument.isEmpty { v.full.append(bytes: c.argument); v.full.append(UInt8(ascii: " ")) }
            v.full.appendNotAvailable()
            v.short.append(v.full)
            return
        }
        if namesReading { v.full.append(bytes: r.label); v.full.append(UInt8(ascii: " ")) }
        let isMuted = muted.map { (r[$0] ?? 0) != 0 } ?? false
        if isMuted { v.full.append("muted ("); v.level = .warning }
        if let value = r[0] {
            appendFigure(first.unit, value, into: &v.full)
            v.full.append(first.suffix)
            if isMuted { v.full.append(UInt8(ascii: ")")) }
        } else {
            v.full.appendNotAvailable()
        }
        v.short.append(v.full)
    }

    /// The media block: `media Artist - Title` while playing; `media paused: Artist - Title`
    /// (`stopped`) otherwise; the player's name where the track has no title. Short: the
    /// title alone. No player: hidden, as waybar's mpris module; no session bus: `n/a`.
    private static func renderMedia(_ snap: Snapshot, _ c: BlockContext, _ tag: SectionTag, into v: inout BlockValue) {
        let r = reading(snap, tag, c.argument)
        if r == nil && snap.available.contains(MediaPart.part.part) { v.visible = false; return }
        v.full.append("media ")
        v.short.append("media ")
        guard let r else {
            if !c.argument.isEmpty { v.full.append(bytes: c.argument); v.full.append(UInt8(ascii: " ")) }
            v.full.appendNotAvailable()
            v.short.appendNotAvailable()
            return
        }
        if (r[MediaPart.playing] ?? 0) == 0 {
            v.full.append(bytes: r.text(MediaPart.status))
            v.full.append(": ")
            v.short.append(bytes: r.text(MediaPart.status))
            v.short.append(": ")
        }
        let title = r.text(MediaPart.title), artist = r.text(MediaPart.artist)
        if title.isEmpty {
            v.full.append(bytes: r.label)
            v.short.append(bytes: r.label)
            return
        }
        if !artist.isEmpty {
            v.full.append(bytes: artist)
            v.full.append(" - ")
        }
        v.full.append(bytes: title)
        v.short.append(bytes: title)
    }

    /// A figure as its unit says: a whole percent, a size (`6.0G`), whole degrees, watts with
    /// one decimal, or the number as given (MHz, a count).
    static func appendFigure(_ unit: PartFigure.Unit, _ v: Int64, into w: inout ByteWriter) {
        switch unit {
        case .permyriad: appendWholePercent(&w, UInt64(clamping: v))
        case .bytes: w.appendSize(kib: UInt64(clamping: v) / 1024)
        case .milliCelsius: TempBlock.appendDegrees(Int32(clamping: v), into: &w)
        case .milliwatts: w.appendFixed(UInt64(clamping: v), scaleDigits: 3, fractionDigits: 1)
        case .megahertz, .count, .seconds, .minutes: w.appendDecimal(UInt64(clamping: v))
        case .kib: w.appendSize(kib: UInt64(clamping: v))
        case .hundredths: w.appendFixed(UInt64(clamping: v), scaleDigits: 2, fractionDigits: 2)
        case .centiseconds: w.appendDecimal(UInt64(clamping: v) / 100)
        case .duration: appendDuration(UInt64(clamping: v), into: &w)
        }
    }

    /// Whole seconds as waybar's mpris writes a track's length: `03:35`, from an hour `01:02:03`.
    static func appendDuration(_ seconds: UInt64, into w: inout ByteWriter) {
        if seconds >= 3600 {
            w.appendDecimal(seconds / 3600, minimumDigits: 2)
            w.append(UInt8(ascii: ":"))
        }
        w.appendDecimal(seconds / 60 % 60, minimumDigits: 2)
        w.append(UInt8(ascii: ":"))
        w.appendDecimal(seconds % 60, minimumDigits: 2)
    }
}

/// Whether a block's argument `name` picks the entry of `source` and `label`: `SOURCE/LABEL`,
/// `LABEL` or `SOURCE` (a sensor's chip and label for temp, a listed part's reading).
func names(_ name: [UInt8], source: [UInt8], label: [UInt8]) -> Bool {
    if name == label || name == source { return true }
    guard name.count == source.count + 1 + label.count, name[source.count] == UInt8(ascii: "/") else { return false }
    for i in 0..<source.count where name[i] != source[i] { return false }
    for i in 0..<label.count where name[source.count + 1 + i] != label[i] { return false }
    return true
}
