// The memory bar's legend: which colour is which part, and how much of each. A square of
// the part's colour is not enough on its own (the colours are arbitrary), so where there
// is room each part is named with the mem block's breakdown words (`wired`, `active`,
// `inact`, `other`, `free`: one vocabulary across the outputs), in the bar's order so the
// entries follow the bar from left to right.

import SnapshotCodec

/// How the legend shows the parts; ``PanelRenderer/Layout`` takes the first that fits the size.
enum LegendForm: Equatable {
    /// One row of square, name and figure: `■wired 977M  ■active 2.9G …` (from 387 pixels
    /// wide at scale 1).
    case namedRow
    /// Each name over its square and figure (`wired` over `■977M`): five names and five
    /// figures need 383 pixels a scale in one row and the default 180x56 has 176 between its
    /// margins, so the names take a row of their own (from 172 pixels wide at scale 1).
    case namedColumns
    /// Each square with its figure (`■977M`), or its letter when memory was not measured.
    case figures
    /// Each square with its letter (`■W ■A ■I ■O ■F`): under 164 pixels a scale.
    case letters

    /// The square (5 pixels) and the space before its text, at scale 1.
    static let swatch = 7
    /// The widest figure, in characters (``ByteWriter/appendCompactSize(kib:)``).
    static let figureCells = 4

    /// Picks the form for `span` pixels between the margins. The named forms are preferred
    /// (they say what the colours mean); `twoRows` is false where a second row would leave
    /// the graph under two lines' height: there the names go and the figures stay, since a
    /// figure beside its colour still reads against the bar, and genmon's tooltip and the
    /// mem block spell the parts out.
    init(span: Int, scale: Int, twoRows: Bool) {
        if span >= LegendForm.namedRow.minimumSpan * scale {
            self = .namedRow
        } else if twoRows && span >= LegendForm.namedColumns.minimumSpan * scale {
            self = .namedColumns
        } else if span / 5 >= (LegendForm.swatch + 1 + LegendForm.figureCells * PanelFont.cellWidth) * scale {
            // An even fifth of the span holds a square, four characters and a pixel's gap.
            self = .figures
        } else {
            self = .letters
        }
    }

    /// Rows of text the legend takes.
    var rows: Int { self == .namedColumns ? 2 : 1 }

    /// Width of entry `i` at scale 1 in a named form: in a row, square, name, a space and the
    /// widest figure; in a column, the wider of its name and its square with the figure.
    func entryWidth(_ i: Int) -> Int {
        let name = LegendForm.name(i).utf8CodeUnitCount * PanelFont.cellWidth
        let figure = LegendForm.swatch + LegendForm.figureCells * PanelFont.cellWidth
        return self == .namedRow ? figure + name + PanelFont.cellWidth : max(name, figure)
    }

    /// Width of the five entries side by side, at scale 1, gaps left out.
    var entriesWidth: Int {
        var total = 0
        for i in 0..<5 { total += entryWidth(i) }
        return total
    }

    /// Width of a named form at scale 1 with its smallest gaps: two characters between entries
    /// of a row, or a figure would read as the start of the next name; two pixels between
    /// columns, where the names stand alone on their row.
    var minimumSpan: Int {
        entriesWidth + 4 * (self == .namedRow ? 2 * PanelFont.cellWidth : 2)
    }

    /// Part `i`'s name, as the mem block's breakdown writes it.
    static func name(_ i: Int) -> StaticString {
        switch i {
        case 0: return "wired"
        case 1: return "active"
        case 2: return "inact"
        case 3: return "other"
        default: return "free"
        }
    }

    /// Part `i` in the bar's order: its colour, its letter (for the narrowest form) and its size.
    static func part(_ i: Int, _ m: MemoryFigures) -> (color: PanelColor, letter: StaticString, kib: UInt64) {
        switch i {
        case 0: return (PanelPalette.memWired, "W", m.wired)
        case 1: return (PanelPalette.memActive, "A", m.active)
        case 2: return (PanelPalette.memInactive, "I", m.inactive)
        case 3: return (PanelPalette.memOther, "O", m.other)
        default: return (PanelPalette.memFree, "F", m.free)
        }
    }
}

extension PanelRenderer {
    /// The legend in the layout's ``LegendForm``. Without the memory figures: the names (or
    /// the letters), never a size nor a zero; the headline says `mem n/a`.
    mutating func drawLegend(_ snap: Snapshot, _ l: Layout) {
        let form = l.legendForm
        let showFigures = snap.available.contains(.memory) && form != .letters
        let span = l.right - l.left
        let named = form == .namedRow || form == .namedColumns
        // Named entries differ in width: packed with even gaps, so the last ends at the right
        // margin like the bar. The short forms keep even steps.
        let gap = named ? (span - form.entriesWidth * l.scale) / 4 : 0
        let step = named ? 0 : max(3 * l.advance, span / 5)
        let figureY = form == .namedColumns ? l.legendY + l.line : l.legendY
        var x = l.left
        for i in 0..<5 {
            let part = LegendForm.part(i, snap.memory)
            image.fill(PanelRect(x: x, y: figureY + l.scale, width: 5 * l.scale, height: 5 * l.scale), part.color)
            var textX = x + LegendForm.swatch * l.scale
            switch form {
            case .namedRow:
                textX = image.drawText(LegendForm.name(i), x: textX, y: l.legendY, color: PanelPalette.dimText,
                                       scale: l.scale) + l.advance
            case .namedColumns:
                image.drawText(LegendForm.name(i), x: x, y: l.legendY, color: PanelPalette.dimText, scale: l.scale)
            case .figures, .letters:
                if !showFigures {
                    image.drawText(part.letter, x: textX, y: l.legendY, color: PanelPalette.dimText, scale: l.scale)
                }
            }
            if showFigures {
                scratch.reset()
                scratch.appendCompactSize(kib: part.kib)
                image.drawText(scratch.bytes, x: textX, y: figureY, color: PanelPalette.text, scale: l.scale)
            }
            x += named ? form.entryWidth(i) * l.scale + gap : step
        }
    }
}
