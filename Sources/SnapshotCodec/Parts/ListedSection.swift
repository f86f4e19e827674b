/// The section of a listed part (``ListedPart``), the same layout for every one: a u8 count
/// of figures F (the writer's table), a u8 count of readings (at most the part's limit), then
/// per reading: source (u8 length ≤ 15, bytes), label (u8 length ≤ 64, bytes), the figures
/// given u16 (bit i: figure i), then F values, each an i64. A reader takes the figures its
/// table has and skips the rest; a figure its table has that the file lacks is not given.
/// A part with texts (``ListedPart/texts``) appends, after the readings, a u8 count of texts T
/// and per reading T texts (u8 length ≤ 128, bytes); a reader keeps those its table has, and
/// a section without them (a part that had none yet) leaves them empty.
enum ListedSection {
    /// The most figures a writer may declare (a reader skips those past its own table).
    static let maximumDeclaredFigures = 16

    static func readingMaximumSize(_ part: ListedPart) -> Int {
        1 + Snapshot.maximumInterfaceNameLength + 1 + Snapshot.maximumPathLength + 2 + part.figures.count * 8
            + part.texts.count * (1 + PartReading.maximumTextLength)
    }

    static func descriptor(_ part: ListedPart) -> SectionDescriptor {
        let tag = part.tag
        return SectionDescriptor(tag, maximumSize: 2 + (part.texts.isEmpty ? 0 : 1) + part.maximumReadings * readingMaximumSize(part), cached: true,
                                 encode: { s, b in encode(tag, &s, &b) },
                                 decode: { (r, s) throws(SnapshotDecodeError) in try decode(tag, &r, &s) },
                                 clear: { s in _ = s.listed.update(tag) { $0.removeAll(keepingCapacity: true) } })
    }

    static func encode(_ tag: SectionTag, _ s: inout Snapshot, _ b: inout EncodeCursor) {
        guard let index = ListedPart.index(of: tag) else { return }
        let part = ListedPart.all[index]
        let figures = min(part.figures.count, PartReading.maximumFigures)
        b.appendSection(tag) { b in
            b.append(UInt8(figures))
            b.appendList(s.listed.lists[index], maximum: part.maximumReadings) { b, r in
                b.appendShortBytes(r.source, maximum: Snapshot.maximumInterfaceNameLength)
                b.appendShortBytes(r.label, maximum: Snapshot.maximumPathLength)
                b.appendLE(r.known & UInt16((1 << figures) - 1))
                for f in 0..<figures { b.appendLE(UInt64(bitPattern: r[f] ?? 0)) }
            }
            let texts = min(part.texts.count, PartReading.maximumTexts)
            guard texts > 0 else { return }
            b.append(UInt8(texts))
            let list = s.listed.lists[index]
            for i in 0..<min(list.count, part.maximumReadings) {
                for t in 0..<texts { b.appendShortBytes(list[i].text(t), maximum: PartReading.maximumTextLength) }
            }
        }
    }

    static func decode(_ tag: SectionTag, _ r: inout SnapshotReader, _ s: inout Snapshot) throws(SnapshotDecodeError) {
        guard let index = ListedPart.index(of: tag) else { return }
        let part = ListedPart.all[index]
        let declared = Int(try r.u8())
        guard declared <= maximumDeclaredFigures else { throw .malformed(.countOverLimit) }
        let known = min(declared, part.figures.count, PartReading.maximumFigures)
        try r.list(into: &s.listed.lists[index], maximum: part.maximumReadings, empty: PartReading()) { (r, reading) throws(SnapshotDecodeError) in
            try r.shortBytes(into: &reading.source, maximum: Snapshot.maximumInterfaceNameLength)
            try r.shortBytes(into: &reading.label, maximum: Snapshot.maximumPathLength)
            let given = try r.u16()
            reading.known = 0
            for f in 0..<declared {
                let v = Int64(bitPattern: try r.u64())
                if f < known && given & (1 << UInt16(f)) != 0 { reading[f] = v }
            }
        }
        try decodeTexts(part, &r, &s.listed.lists[index])
    }

    /// The texts after the readings (none: a writer whose part had none yet).
    private static func decodeTexts(_ part: ListedPart, _ r: inout SnapshotReader, _ list: inout [PartReading]) throws(SnapshotDecodeError) {
        let kept = min(part.texts.count, PartReading.maximumTexts)
        let declared = r.isAtEnd ? 0 : Int(try r.u8())
        guard declared <= PartReading.maximumTexts else { throw .malformed(.countOverLimit) }
        var scratch: [UInt8] = []
        for i in 0..<list.count {
            for t in 0..<max(declared, kept) {
                guard t < declared else { list[i].setText(t, EmptyCollection<UInt8>()); continue }
                if t < kept {
                    while list[i].texts.count <= t { list[i].texts.append([]) }
                    try r.shortBytes(into: &list[i].texts[t], maximum: PartReading.maximumTextLength)
                } else {
                    try r.shortBytes(into: &scratch, maximum: PartReading.maximumTextLength)
                }
            }
        }
    }
}
