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
