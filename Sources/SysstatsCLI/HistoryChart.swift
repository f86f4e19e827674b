import BarCore
import HistoryStore

/// `sysstats history --png`: CPU, memory and CPU temperature over the period, drawn with
/// the panel's code (BarCore's ``PanelImage`` primitives and bitmap font, its PNG encoder).
///
/// The plot spans `from..<to` left to right and 0–100 % bottom to top: CPU average as a
/// light blue area with a blue line on top, memory used (used ÷ (used + available)) as a red
/// line, the CPU temperature as an orange line on the same scale read as 0–100 °C (a
/// temperature fits it as it is; below 0 °C it is drawn at 0, above 100 °C at the top), grey
/// grid lines at 25, 50 and 75 %, black axes with labelled ticks, a legend above.
/// Each sample covers its minute (or its hour, for rolled-up rows); a pixel column with no
/// sample is left empty, and the temperature line has a gap where no sample has one (it and
/// its legend entry are drawn only when some sample has one).
public struct HistoryChart {
    public static let width = 720, height = 240
    /// The plot area inside the margins.
    public static let left = 40, right = 710, top = 16, bottom = 220

    /// The chart's colours, 0x00RRGGBB.
    public enum Colour: UInt32 {
        case background = 0xFFFFFF, axis = 0x000000, grid = 0xD2D2D2, cpuArea = 0xAAC8F0, cpuLine = 0x1E5AC8
        case memory = 0xDC2828, temperature = 0xE68200
    }

    /// True when some sample in the period has a CPU temperature: the chart draws its line.
    public private(set) var hasTemperature = false

    /// The picture.
    public private(set) var image = PanelImage(width: HistoryChart.width, height: HistoryChart.height,
                                               color: Colour.background.rawValue)

    /// Draws `samples` over `from..<to` (unix seconds); `fromLabel` and `toLabel` (e.g.
    /// `2023-11-14 21:00`) go under the ends of the time axis.
    public init(_ samples: [MinuteSample], from: UInt64, to: UInt64, fromLabel: String = "", toLabel: String = "") {
        let plotWidth = Self.right - Self.left
        for percent in [25, 50, 75] {
            let y = Self.y(percentHundredths: UInt64(percent * 100))
            for x in stride(from: Self.left, to: Self.right, by: 2) { set(x, y, .grid) }
        }
        // Per column: the mean CPU average and memory fraction of the samples covering it, and
        // the hottest of their temperatures (each already its minute's or hour's hottest).
        var cpuSum = [UInt64](repeating: 0, count: plotWidth), memSum = cpuSum, count = cpuSum
        var hottest = [Int32?](repeating: nil, count: plotWidth)
        let span = max(to > from ? to - from : 1, 1)
        for s in samples {
            // A row's figures are the database's: whatever is stored, nothing here may trap.
            let (rowEnd, overflow) = s.minute.addingReportingOverflow(s.isHourly ? 3600 : 60)
            let start = max(s.minute, from), end = min(overflow ? .max : rowEnd, to)
            guard end > start else { continue }
            let first = Self.column(start - from, of: span, width: plotWidth, roundingUp: false)
            let last = max(first, Self.column(end - from, of: span, width: plotWidth, roundingUp: true) - 1)
            let memory = Self.usedShare(used: s.memoryUsedKiB, available: s.memoryAvailableKiB)
            for column in first...min(last, plotWidth - 1) {
                cpuSum[column] += UInt64(min(s.cpuAverage, 10_000)); memSum[column] += memory; count[column] += 1
                if let t = s.cpuTemperatureMilliCelsius { hottest[column] = max(hottest[column] ?? t, t) }
            }
        }
        var previous: (x: Int, cpu: Int, mem: Int)?
        for column in 0..<plotWidth {
            guard count[column] > 0 else { previous = nil; continue }
            let x = Self.left + column
            let cpuY = Self.y(percentHundredths: cpuSum[column] / count[column])
            let memY = Self.y(percentHundredths: memSum[column] / count[column])
            image.vline(x: x, y: cpuY, length: Self.bottom - cpuY, Colour.cpuArea.rawValue)
            if let p = previous {
                vertical(x, from: p.cpu, to: cpuY, .cpuLine)
                vertical(x, from: p.mem, to: memY, .memory)
            } else {
                set(x, cpuY, .cpuLine); set(x, memY, .memory)
            }
            previous = (x, cpuY, memY)
        }
        // Over the others: the line people look for when the fan is loud.
        var previousTemperature: Int?
        for column in 0..<plotWidth {
            guard let t = hottest[column] else { previousTemperature = nil; continue }
            let x = Self.left + column, y = Self.y(milliCelsius: t)
            if let p = previousTemperature { vertical(x, from: p, to: y, .temperature) } else { set(x, y, .temperature) }
            previousTemperature = y
            hasTemperature = true
        }
        image.vline(x: Self.left - 1, y: Self.top, length: Self.bottom - Self.top + 1, Colour.axis.rawValue)
        image.hline(x: Self.left - 1, y: Self.bottom, length: Self.right - Self.left + 2, Colour.axis.rawValue)
        let font = PanelFont.cellHeight
        for tick in 0...4 {   // ticks at 0, 25, 50, 75, 100 % on the left, at quarters of the period below
            let y = Self.y(percentHundredths: UInt64(tick * 2500))
            image.hline(x: Self.left - 5, y: y, length: 4, Colour.axis.rawValue)
            if tick % 2 == 0 {
                let label: [UInt8] = Array("\(tick * 25)%".utf8)
                image.drawText(label, x: Self.left - 7 - label.count * PanelFont.cellWidth, y: y - font / 2 + 1,
                               color: Colour.axis.rawValue)
            }
            let x = Self.left + (plotWidth - 1) * tick / 4
            image.vline(x: x, y: Self.bottom + 1, length: 4, Colour.axis.rawValue)
        }
        let labelY = Self.bottom + 7
        image.drawText(Array(fromLabel.utf8), x: Self.left - 1, y: labelY, color: Colour.axis.rawValue)
        let toBytes = Array(toLabel.utf8)
        image.drawText(toBytes, x: Self.right + 1 - toBytes.count * PanelFont.cellWidth, y: labelY,
                       color: Colour.axis.rawValue)
        // The legend, above the plot: a swatch and a name for each line.
        var x = Self.left
        var legend = [("CPU", Colour.cpuLine), ("memory used", Colour.memory)]
        if hasTemperature { legend.append(("CPU temperature (0-100 C)", Colour.temperature)) }
        for (name, colour) in legend {
            image.fill(PanelRect(x: x, y: 4, width: 10, height: 6), colour.rawValue)
            x = image.drawText(Array(name.utf8), x: x + 14, y: 3, color: Colour.axis.rawValue) + 12
        }
    }

    /// `offset` (at most `span`) as a column of `width`: `offset × width ÷ span`, rounded down
    /// or up, without overflow for any period.
    static func column(_ offset: UInt64, of span: UInt64, width: Int, roundingUp: Bool) -> Int {
        let (quotient, remainder) = span.dividingFullWidth(offset.multipliedFullWidth(by: UInt64(width)))
        return Int(quotient) + (roundingUp && remainder > 0 ? 1 : 0)
    }

    /// used ÷ (used + available) in hundredths of a percent, for any two figures: a sum past
    /// `UInt64.max` halves both first (the share barely moves), the product is full width.
    public static func usedShare(used: UInt64, available: UInt64) -> UInt64 {
        let (total, overflow) = used.addingReportingOverflow(available)
        if overflow { return usedShare(used: used / 2, available: available / 2) }
        guard total > 0 else { return 0 }
        return total.dividingFullWidth(used.multipliedFullWidth(by: 10_000)).quotient
    }

    /// The row of `percentHundredths` (0 → just above the x axis, 10,000 → the top).
    public static func y(percentHundredths: UInt64) -> Int {
        let clamped = Int(min(percentHundredths, 10_000))
        return bottom - 1 - clamped * (bottom - 1 - top) / 10_000
    }

    /// The row of a temperature on the same scale, 0–100 °C (clamped).
    public static func y(milliCelsius: Int32) -> Int {
        y(percentHundredths: UInt64(max(0, milliCelsius / 10)))
    }

    /// The colour at (x, y).
    public func colour(_ x: Int, _ y: Int) -> UInt32 { image[x, y] }

    /// The image as a PNG file (8-bit RGB), by the renderer's encoder.
    public func png() -> [UInt8] {
        var encoder = PNGEncoder(width: Self.width, height: Self.height)
        encoder.encode(image)
        return encoder.bytes
    }

    private mutating func set(_ x: Int, _ y: Int, _ colour: Colour) {
        image.set(x: x, y: y, colour.rawValue)
    }

    /// A line step from the previous column's height to this one's, drawn in column `x`.
    private mutating func vertical(_ x: Int, from a: Int, to b: Int, _ colour: Colour) {
        image.vline(x: x, y: min(a, b), length: abs(a - b) + 1, colour.rawValue)
    }
}
