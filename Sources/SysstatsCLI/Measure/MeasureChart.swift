import BarCore

/// `measure --png`: the tree's PSS over time, stacked by process, drawn like the history
/// chart (BarCore's ``PanelImage``, bitmap font and PNG encoder). PSS, not RSS: stacked RSS
/// would count each shared page once per process and stand taller than the memory used.
/// The six processes that take the most of the chart (PSS over time: in a storm of short
/// children the long-lived ones, not a child's one-sample spike) get a colour each, the
/// others share grey. The command is the title.
public struct MeasureChart {
    public static let width = 720, height = 240
    public static let left = 64, right = 710, top = 30, bottom = 220
    static let palette: [UInt32] = [0x1E5AC8, 0xDC2828, 0xE68200, 0x2CA02C, 0x9467BD, 0x17BECF]
    static let others: UInt32 = 0xA0A0A0, axis: UInt32 = 0x000000, grid: UInt32 = 0xD2D2D2, limitColour: UInt32 = 0xC80000

    public private(set) var image = PanelImage(width: MeasureChart.width, height: MeasureChart.height, color: 0xFFFFFF)
    /// The top of the scale, KiB.
    public private(set) var scaleKiB: UInt64 = 0
    /// The processes (indices in the recording) in the legend's order: most area first.
    public private(set) var order: [Int] = []

    /// The chart of `summary`, titled `command` (the words as given; shown in the bitmap
    /// font's ASCII, cut to the width), with a budget's `limit` as a dashed red line.
    public init(_ summary: MeasureSummary, command: [String] = [], limit: (label: String, bytes: UInt64)? = nil) {
        let r = summary.recording
        let plotWidth = Self.right - Self.left, plotHeight = Self.bottom - Self.top
        let area = r.processes.map { p in p.values.reduce(UInt64(0)) { $0 &+ UInt64($1.pssKiB) } }
        order = r.processes.indices.sorted { area[$0] != area[$1] ? area[$0] > area[$1] : $0 < $1 }
        var colour = [Int: UInt32]()
        for (rank, i) in order.enumerated() { colour[i] = rank < Self.palette.count ? Self.palette[rank] : Self.others }
        let peak = max(summary.treePeaks[.pss]?.kib ?? 0, (limit?.bytes ?? 0) / 1024, 1)
        scaleKiB = Self.niceScale(peak)
        let end = max(r.sampleTimesMs.last ?? 1, 1)
        for step in 1...4 {
            let y = Self.bottom - plotHeight * step / 4
            for x in stride(from: Self.left, to: Self.right, by: 2) { image.set(x: x, y: y, Self.grid) }
        }
        // Each column shows the sample at its time: processes stacked in the legend's order.
        var sample = 0
        for column in 0..<plotWidth where !r.sampleTimesMs.isEmpty {
            let t = UInt64(column) * end / UInt64(plotWidth)
            while sample + 1 < r.sampleTimesMs.count && r.sampleTimesMs[sample + 1] <= t { sample += 1 }
            var base: UInt64 = 0
            for i in order {
                let p = r.processes[i]
                guard sample >= p.firstSample && sample <= p.lastSample else { continue }
                let kib = UInt64(p.values[sample - p.firstSample].pssKiB)
                let y0 = Self.bottom - Int(base * UInt64(plotHeight) / scaleKiB)
                base += kib
                let y1 = Self.bottom - Int(min(base, scaleKiB) * UInt64(plotHeight) / scaleKiB)
                if y0 > y1 { image.vline(x: Self.left + column, y: y1, length: y0 - y1, colour[i]!) }
            }
        }
        if let limit {
            let y = Self.bottom - Int(min(limit.bytes / 1024, scaleKiB) * UInt64(plotHeight) / scaleKiB)
            for x in stride(from: Self.left, to: Self.right, by: 6) { image.hline(x: x, y: y, length: 4, Self.limitColour) }
            let text = Self.printable(Array("\(limit.label) \(SizeText.format(limit.bytes))".utf8), limit: 40)
            image.drawText(text, x: Self.right - 2 - text.count * PanelFont.cellWidth, y: max(y - PanelFont.cellHeight - 1, Self.top), color: Self.limitColour)
        }
        image.vline(x: Self.left - 1, y: Self.top, length: plotHeight + 1, Self.axis)
        image.hline(x: Self.left - 1, y: Self.bottom, length: plotWidth + 2, Self.axis)
        let font = PanelFont.cellHeight
        for step in 0...4 {
            let y = Self.bottom - plotHeight * step / 4
            image.hline(x: Self.left - 5, y: y, length: 4, Self.axis)
            let label = Array(SizeText.format(scaleKiB * 1024 * UInt64(step) / 4).utf8)
            image.drawText(label, x: Self.left - 7 - label.count * PanelFont.cellWidth, y: y - font / 2 + 1, color: Self.axis)
        }
        image.drawText(Array("0 s".utf8), x: Self.left - 1, y: Self.bottom + 7, color: Self.axis)
        let endLabel = Array(DurationText.format(ms: end).utf8)
        image.drawText(endLabel, x: Self.right + 1 - endLabel.count * PanelFont.cellWidth, y: Self.bottom + 7, color: Self.axis)
        let title = Self.printable(Array(command.joined(separator: " ").utf8), limit: (Self.width - 8) / PanelFont.cellWidth)
        image.drawText(title, x: 4, y: 2, color: Self.axis)
        // The legend: "PSS by process", then a swatch and a name for each coloured process.
        var x = image.drawText(Array("PSS by process:".utf8), x: 4, y: 16, color: Self.axis) + 10
        for (rank, i) in order.enumerated() where rank <= Self.palette.count {
            let name = rank == Self.palette.count ? Array("others".utf8) : Self.printable(r.processes[i].name) + Array(" \(r.processes[i].pid)".utf8)
            if x + 14 + name.count * PanelFont.cellWidth > Self.width { break }
            image.fill(PanelRect(x: x, y: 17, width: 10, height: 6), colour[i]!)
            x = image.drawText(name, x: x + 14, y: 16, color: Self.axis) + 10
        }
    }

    /// The PNG file's bytes.
    public func png() -> [UInt8] {
        var encoder = PNGEncoder(width: Self.width, height: Self.height)
        encoder.encode(image)
        return encoder.bytes
    }

    /// A round top for the scale at or above `kib`: 1, 2 or 5 times a power of ten, in MiB
    /// from 1 MiB on (so the labels read 12.5 MiB, not 12.2), else in KiB.
    static func niceScale(_ kib: UInt64) -> UInt64 {
        if kib > 1024 {
            let (scale, overflow) = niceScale(kib / 1024 + (kib % 1024 == 0 ? 0 : 1), unit: 1).multipliedReportingOverflow(by: 1024)
            return overflow ? kib : scale
        }
        return niceScale(kib, unit: 1)
    }

    private static func niceScale(_ kib: UInt64, unit start: UInt64) -> UInt64 {
        var unit = start
        while true {
            for m: UInt64 in [1, 2, 5] where m * unit >= kib { return m * unit }
            let (next, overflow) = unit.multipliedReportingOverflow(by: 10)
            if overflow { return kib }
            unit = next
        }
    }

    /// A process's name (or the title) in the bitmap font's ASCII: anything else as '?'.
    static func printable(_ name: [UInt8], limit: Int = 15) -> [UInt8] {
        name.prefix(limit).map { $0 >= 0x20 && $0 < 0x7F ? $0 : 0x3F }
    }
}
