import HistoryStore

/// `sysstats history --png`: CPU and memory over the period as a small palette raster.
///
/// The plot spans `from..<to` left to right and 0–100 % bottom to top: CPU average as a
/// light blue area with a blue line on top, memory used (used ÷ (used + available)) as a red
/// line, grey grid lines at 25, 50 and 75 %, black axes. Each sample covers its minute (or
/// its hour, for rolled-up rows); a pixel column with no sample is left empty.
public struct HistoryChart {
    public static let width = 720, height = 240
    /// The plot area inside the margins.
    public static let left = 40, right = 710, top = 10, bottom = 220

    /// Palette indices.
    public enum Colour: UInt8 { case background = 0, axis, grid, cpuArea, cpuLine, memory }
    public static let palette: [(UInt8, UInt8, UInt8)] = [
        (255, 255, 255), (0, 0, 0), (210, 210, 210), (170, 200, 240), (30, 90, 200), (220, 40, 40),
    ]

    public private(set) var pixels: [UInt8]

    /// Draws `samples` over `from..<to` (unix seconds).
    public init(_ samples: [MinuteSample], from: UInt64, to: UInt64) {
        pixels = [UInt8](repeating: Colour.background.rawValue, count: Self.width * Self.height)
        let plotWidth = Self.right - Self.left
        for percent in [25, 50, 75] {
            let y = Self.y(percentHundredths: UInt64(percent * 100))
            for x in stride(from: Self.left, to: Self.right, by: 2) { set(x, y, .grid) }
        }
        // Per column: the mean CPU average and memory fraction of the samples covering it.
        var cpuSum = [UInt64](repeating: 0, count: plotWidth), memSum = cpuSum, count = cpuSum
        let span = max(to > from ? to - from : 1, 1)
        for s in samples {
            let start = max(s.minute, from), end = min(s.minute + (s.isHourly ? 3600 : 60), to)
            guard end > start else { continue }
            let first = Int((start - from) * UInt64(plotWidth) / span)
            let last = max(first, Int(((end - from) * UInt64(plotWidth) + span - 1) / span) - 1)
            let total = s.memoryUsedKiB + s.memoryAvailableKiB
            let memory = total == 0 ? 0 : s.memoryUsedKiB * 10_000 / total
            for column in first...min(last, plotWidth - 1) {
                cpuSum[column] += UInt64(min(s.cpuAverage, 10_000)); memSum[column] += memory; count[column] += 1
            }
        }
        var previous: (x: Int, cpu: Int, mem: Int)?
        for column in 0..<plotWidth {
            guard count[column] > 0 else { previous = nil; continue }
            let x = Self.left + column
            let cpuY = Self.y(percentHundredths: cpuSum[column] / count[column])
            let memY = Self.y(percentHundredths: memSum[column] / count[column])
            for y in cpuY..<Self.bottom { set(x, y, .cpuArea) }
            if let p = previous {
                vertical(x, from: p.cpu, to: cpuY, .cpuLine)
                vertical(x, from: p.mem, to: memY, .memory)
            } else {
                set(x, cpuY, .cpuLine); set(x, memY, .memory)
            }
            previous = (x, cpuY, memY)
        }
        for y in Self.top...Self.bottom { set(Self.left - 1, y, .axis) }
        for x in (Self.left - 1)...Self.right { set(x, Self.bottom, .axis) }
        for tick in 0...4 {   // ticks at 0, 25, 50, 75, 100 % on the left, at quarters of the period below
            let y = Self.y(percentHundredths: UInt64(tick * 2500))
            for x in (Self.left - 5)..<(Self.left - 1) { set(x, y, .axis) }
            let x = Self.left + (plotWidth - 1) * tick / 4
            for y in (Self.bottom + 1)...(Self.bottom + 4) { set(x, y, .axis) }
        }
    }

    /// The row of `percentHundredths` (0 → just above the x axis, 10,000 → the top).
    public static func y(percentHundredths: UInt64) -> Int {
        let clamped = Int(min(percentHundredths, 10_000))
        return bottom - 1 - clamped * (bottom - 1 - top) / 10_000
    }

    /// The palette index at (x, y).
    public func colour(_ x: Int, _ y: Int) -> UInt8 { pixels[y * Self.width + x] }

    /// The image as a PNG file.
    public func png() -> [UInt8] {
        PNG.encode(width: Self.width, height: Self.height, palette: Self.palette, indices: pixels)
    }

    private mutating func set(_ x: Int, _ y: Int, _ colour: Colour) {
        guard x >= 0, x < Self.width, y >= 0, y < Self.height else { return }
        pixels[y * Self.width + x] = colour.rawValue
    }

    /// A line step from the previous column's height to this one's, drawn in column `x`.
    private mutating func vertical(_ x: Int, from a: Int, to b: Int, _ colour: Colour) {
        for y in min(a, b)...max(a, b) { set(x, y, colour) }
    }
}
