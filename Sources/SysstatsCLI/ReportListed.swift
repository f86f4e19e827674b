import SnapshotCodec

extension ReportJSON {
    /// A listed part's member (``ListedPart``): a list of its readings, each an object with its
    /// source (under the part's key: `chip`, `source`), `label`, and a member per figure of the
    /// part's table (null where the reading did not give it), then one per text (``ListedPart/texts``). Empty when not measured.
    public struct Listed: Equatable {
        var name: String
        var readings: [Reading]
    }

    public struct Reading: Encodable, Equatable {
        var members: [GPU.Figure]

        init(_ part: ListedPart, _ r: PartReading) {
            members = [GPU.Figure(name: part.sourceKey.description, value: .text(ReportJSON.text(r.source))),
                       GPU.Figure(name: "label", value: .text(ReportJSON.text(r.label)))]
            for f in 0..<part.figures.count {
                let figure = part.figures[f]
                members.append(GPU.Figure(name: figure.json.description,
                                          value: r[f].map { GPU.value(figure.unit, $0) } ?? .null))
            }
            for t in 0..<part.texts.count {
                members.append(GPU.Figure(name: part.texts[t].json.description, value: .text(ReportJSON.text(r.text(t)))))
            }
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: GPU.Key.self)
            for m in members { try c.encode(m.value, forKey: GPU.Key(m.name)) }
        }
    }

    /// Every listed part's member, in the order of ``ListedPart/all``.
    static func listed(_ s: Snapshot) -> [Listed] {
        ListedPart.all.map { part in
            Listed(name: part.name.description,
                   readings: s.available.contains(part.part) ? s.listed[part.tag].map { Reading(part, $0) } : [])
        }
    }

    /// Writes each listed part's member into `encoder`'s object.
    func encodeListed(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: GPU.Key.self)
        for part in listed { try c.encode(part.readings, forKey: GPU.Key(part.name)) }
    }
}

extension ReportJSON {
    /// The fixed parts' members, made from their tables: a figure's `json` names a member
    /// (`uptime_seconds`), a member of the part's object (`memory_mib.free`) or the next item of
    /// an array (`load[]`). A member is null where its part was not measured or its figure not
    /// given; an object is null where none of its members was given (`battery` without one).
    static func fixed(_ s: Snapshot) -> [GPU.Figure] {
        withUnsafePointer(to: s) { fixed($0) }
    }

    private static func fixed(_ s: SnapshotPointer) -> [GPU.Figure] {
        var members: [GPU.Figure] = []
        for part in FixedPart.all {
            let measured = part.isMeasured(s)
            for figure in part.figures {
                guard let path = figure.json?.description else { continue }
                let given = measured && figure.isGiven(s)
                let value = fixedValue(figure, s)
                if path.hasSuffix("[]") {
                    let name = String(path.dropLast(2))
                    add(name, given, &members) { if case .array(let items) = $0 { $0 = .array(items + [value]) } else { $0 = .array([value]) } }
                } else if let dot = path.firstIndex(of: ".") {
                    let member = GPU.Figure(name: String(path[path.index(after: dot)...]), value: value)
                    add(String(path[..<dot]), given, &members) { if case .object(let list) = $0 { $0 = .object(list + [member]) } else { $0 = .object([member]) } }
                } else {
                    add(path, given, &members) { $0 = value }
                }
            }
        }
        return members
    }

    /// The list parts' members, made from their tables: a list of objects, an entry's texts and
    /// figures each a member; empty where the part was not measured.
    static func entries(_ s: Snapshot) -> [GPU.Figure] {
        withUnsafePointer(to: s) { entries($0) }
    }

    private static func entries(_ s: SnapshotPointer) -> [GPU.Figure] {
        EntryPart.all.compactMap { part in
            guard let json = part.json else { return nil }
            var list: [GPU.Value] = []
            if part.jsonAlways || s.pointee.available.contains(SnapshotSections(tag: part.tag) ?? []) {
                for i in 0..<part.count(s) {
                    var members = part.texts.map { GPU.Figure(name: $0.json.description, value: .text(text($0.value(s, i)))) }
                    for f in part.figures {
                        guard let name = f.json?.description else { continue }
                        members.append(GPU.Figure(name: name, value: entryValue(f, s, i)))
                    }
                    list.append(.object(members))
                }
            }
            return GPU.Figure(name: json.description, value: .array(list))
        }
    }

    /// An entry's figure as JSON writes it (an unsigned one exact to `UInt64.max`).
    private static func entryValue(_ f: EntryFigure, _ s: SnapshotPointer, _ i: Int) -> GPU.Value {
        let unit = f.jsonUnit ?? f.unit
        return f.signed ? GPU.value(unit, f.number(s, i)) : GPU.value(unit, unsigned: f.value(s, i))
    }

    /// A figure's value: an enumerated one's state name, else as its unit says.
    private static func fixedValue(_ figure: FixedFigure, _ s: SnapshotPointer) -> GPU.Value {
        let v = figure.value(s)
        if let states = figure.states { return v < UInt64(states.count) ? .text(states[Int(v)].description) : .null }
        return GPU.value(figure.unit, unsigned: v)
    }

    /// Changes the member `name` (added, null, when new) by `change`; a figure not given leaves it as it is.
    private static func add(_ name: String, _ measured: Bool, _ members: inout [GPU.Figure], _ change: (inout GPU.Value) -> Void) {
        var i = members.firstIndex { $0.name == name } ?? members.count
        if i == members.count { members.append(GPU.Figure(name: name, value: .null)); i = members.count - 1 }
        if measured { change(&members[i].value) }
    }
}
