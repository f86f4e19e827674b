// The minute history of the listed parts, made from their figure tables: a figure with a
// ``PartHistory`` is a column of `samples` and `hourly_samples` (added by a migration made
// from its line here), a field of each minute row and of the sampler's batches (by name),
// a roll-up in the retention's SQL, a member of `history --json` and a column of `history`.

/// How the minute history keeps a figure of a listed part: the value of the part's first
/// reading (the one its block shows by default: the first fan, the whole system's power),
/// rolled up over a minute's samples and an hour's minutes as ``rollUp`` says.
public struct PartHistory: Sendable {
    /// How samples become one value.
    public enum RollUp: Sendable {
        /// The mean of the samples that gave the figure (an hour: of its minutes, weighted).
        case average
        /// The largest.
        case maximum
        /// The last one given.
        case last
    }

    /// Its column in `samples` and `hourly_samples` (`[a-z0-9_]`, never renamed once released).
    public let column: StaticString
    /// Its member in `history --json` (the value in the figure's unit, as `report --json` writes it).
    public let json: StaticString
    /// Its heading in `sysstats history`'s table.
    public let heading: StaticString
    public let rollUp: RollUp

    public init(column: StaticString, json: StaticString, heading: StaticString, _ rollUp: RollUp) {
        self.column = column; self.json = json; self.heading = heading; self.rollUp = rollUp
    }
}

/// One history column of a listed part: which part and figure it keeps, and how.
public struct ListedHistoryColumn: Sendable {
    /// The part's position in ``ListedPart/all``.
    public let part: Int
    /// The figure's position in its part's table.
    public let figure: Int
    public let unit: PartFigure.Unit
    /// What follows the value in `sysstats history`'s table (the figure's block suffix).
    public let suffix: StaticString
    public let history: PartHistory

    /// The values a row may hold, by unit: what a reader clamps a sample to, and what
    /// `restore` and a carried minute accept.
    public var range: ClosedRange<Int64> {
        switch unit {
        case .permyriad: return 0...10_000
        case .bytes: return 0...Int64.max
        case .milliCelsius: return Int64(Int32.min)...Int64(Int32.max)
        case .milliwatts: return 0...(1 << 40)
        case .megahertz, .count, .hundredths, .minutes: return 0...Int64(UInt32.max)
        case .kib, .centiseconds, .seconds, .duration: return 0...Int64.max
        }
    }
}

public enum ListedHistory {
    /// Every history column, in the order of ``ListedPart/all`` and of each part's figures.
    /// Both only ever grow at their end, so a column's position never changes: the history
    /// migrations (one per column) and the carried minute rely on it.
    public static let columns: [ListedHistoryColumn] = {
        var list: [ListedHistoryColumn] = []
        for p in 0..<ListedPart.all.count {
            let figures = ListedPart.all[p].figures
            for f in 0..<figures.count {
                guard let history = figures[f].history else { continue }
                list.append(ListedHistoryColumn(part: p, figure: f, unit: figures[f].unit, suffix: figures[f].suffix,
                                                history: history))
            }
        }
        return list
    }()

    /// The most history columns (a minute row holds them in a ``FigureValues``).
    public static let maximumColumns = FigureValues.maximumFigures

    /// The position of the column named `name`, nil when this build has none of that name.
    public static func index<C: Collection>(ofColumn name: C) -> Int? where C.Element == UInt8 {
        for i in 0..<min(columns.count, maximumColumns) {
            let column = columns[i].history.column
            guard column.utf8CodeUnitCount == name.count else { continue }
            var same = true, k = 0
            for b in name {
                if column.utf8Start[k] != b { same = false; break }
                k += 1
            }
            if same { return i }
        }
        return nil
    }

    /// The value column `i` takes from `s`: its part's first reading's figure; nil when the
    /// part was not measured or the reading lacks it.
    public static func value(_ i: Int, of s: Snapshot) -> Int64? {
        let column = columns[i]
        let part = ListedPart.all[column.part]
        guard s.available.contains(part.part) else { return nil }
        let readings = s.listed.lists[column.part]
        return readings.isEmpty ? nil : readings[0][column.figure]
    }
}
