import BarCore
import Foundation
import HistoryStore
import SysstatsCLI
import XCTest

final class HistoryChartTests: XCTestCase {
    func testHistoryPNGDecodesWithPythonToTheRightSizeAndPixels() throws {
        let f = try HistoryFixture()
        let png = f.directory.file("chart.png")
        let out = HistoryCommands.history(directory: f.dataDirectory, sinceSeconds: 3 * 3600, json: false, png: png,
                                          nowSeconds: HistoryFixture.now, zone: .utc)
        XCTAssertEqual(out, CommandOutput(stdout: [
            "wrote \(png): CPU (blue), memory used (red) and CPU temperature (orange, 0-100 °C) from 2023-11-14 21:00 "
            + "to 2023-11-15 00:00, 3 samples"]))
        let bytes = try HistoryFixture.bytes(png)
        XCTAssertEqual(Array(bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: f.directory.path).sorted(), ["chart.png", "data"],
                       "the temporary file was renamed, not left behind")

        // The hourly row (CPU 20 %, memory 25 % used, 71 °C at its hottest) spans the middle third of the plot.
        let x = HistoryChart.left + (HistoryChart.right - HistoryChart.left) / 2
        let points: [(Int, Int)] = [
            (x, HistoryChart.y(percentHundredths: 1000)),    // under the CPU line: area
            (x, HistoryChart.y(percentHundredths: 2000)),    // the CPU line
            (x, HistoryChart.y(percentHundredths: 2500)),    // the memory line
            (x, HistoryChart.y(milliCelsius: 71_000)),       // the temperature line
            (x, HistoryChart.y(percentHundredths: 6000)),    // above both: background
            (HistoryChart.left + 10, HistoryChart.y(percentHundredths: 1000)),   // before the first sample: empty
            (HistoryChart.left - 1, HistoryChart.bottom - 10),                   // the y axis
            (0, 0),
        ]
        let decoded = try Self.decodeWithPython(png, points: points)
        XCTAssertEqual(decoded.first, "720 240")
        XCTAssertEqual(Array(decoded.dropFirst()), [
            "170 200 240", "30 90 200", "220 40 40", "230 130 0", "255 255 255", "255 255 255", "0 0 0", "255 255 255"])
        // The axis labels, the period's ends and the legend are drawn in the panel's bitmap font.
        let chart = HistoryChart([], from: 0, to: 60, fromLabel: "2023-11-14 21:00", toLabel: "2023-11-15 00:00")
        var label = PanelImage(width: 16 * PanelFont.cellWidth, height: PanelFont.cellHeight, color: 0xFFFFFF)
        label.drawText(Array("2023-11-14 21:00".utf8), x: 0, y: 0, color: 0)
        for y in 0..<label.height {
            for x in 0..<label.width {
                XCTAssertEqual(chart.colour(HistoryChart.left - 1 + x, HistoryChart.bottom + 7 + y), label[x, y], "\(x),\(y)")
            }
        }
    }

    func testPNGWithoutSinceFitsThePeriodToThreeMinutesOfData() throws {
        let directory = try TemporaryDirectory()
        let data = directory.file("data")
        let start = HistoryFixture.base
        do {
            let database = try HistoryDatabase(path: HistoryDatabase.databasePath(in: data))
            defer { database.close() }
            try database.append(samples: (0..<3).map {
                MinuteSample(minute: start + UInt64($0) * 60, cpuAverage: 5000, cpuMaximum: 5000, memoryUsedKiB: 1024,
                             memoryAvailableKiB: 3072, swapUsedKiB: 0, load1: 10, processCount: 10)
            })
        }
        let png = directory.file("chart.png")
        let now = start + 180
        let out = HistoryCommands.history(directory: data, sinceSeconds: nil, json: false, png: png, nowSeconds: now, zone: .utc)
        XCTAssertEqual(out, CommandOutput(stdout: [
            "wrote \(png): CPU (blue) and memory used (red) from 2023-11-14 22:00 to 2023-11-14 22:03, 3 samples"]))
        // CPU 50 % from the left edge of the plot to its right edge, not in the last pixels of 24 hours.
        let y = HistoryChart.y(percentHundredths: 1000)   // under the CPU line (and the memory line, 25 %): its area
        let decoded = try Self.decodeWithPython(png, points: [(HistoryChart.left, y), (HistoryChart.left + 100, y),
                                                              (HistoryChart.right - 6, y)])
        XCTAssertEqual(Array(decoded.dropFirst()), ["170 200 240", "170 200 240", "170 200 240"])

        // --since given: that period, however little of it has data.
        let given = HistoryCommands.history(directory: data, sinceSeconds: 86_400, json: false, png: png, nowSeconds: now, zone: .utc)
        XCTAssertTrue(given.stdout.first?.contains("from 2023-11-13 22:03 to 2023-11-14 22:03") ?? false, "\(given)")
        let squeezed = try Self.decodeWithPython(png, points: [(HistoryChart.left + 100, y)])
        XCTAssertEqual(Array(squeezed.dropFirst()), ["255 255 255"])
    }

    func testFileCallsItAPNG() throws {
        let f = try HistoryFixture()
        let png = f.directory.file("chart.png")
        _ = HistoryCommands.history(directory: f.dataDirectory, sinceSeconds: 86_400, json: false, png: png,
                                    nowSeconds: HistoryFixture.now, zone: .utc)
        let description = try Self.run("/usr/bin/file", ["-b", png])
        XCTAssertEqual(description, "PNG image data, 720 x 240, 8-bit/color RGB, non-interlaced\n")
    }

    func testChartOfNoSamplesIsAxesLabelsAndLegendOnly() {
        let chart = HistoryChart([], from: 0, to: 3600)
        var plot = Set<UInt32>()
        for y in HistoryChart.top..<HistoryChart.bottom {
            for x in HistoryChart.left..<HistoryChart.right { plot.insert(chart.colour(x, y)) }
        }
        XCTAssertEqual(plot, [HistoryChart.Colour.background.rawValue, HistoryChart.Colour.grid.rawValue])
        XCTAssertEqual(Set(chart.image.pixels), [
            HistoryChart.Colour.background.rawValue, HistoryChart.Colour.axis.rawValue, HistoryChart.Colour.grid.rawValue,
            HistoryChart.Colour.cpuLine.rawValue, HistoryChart.Colour.memory.rawValue,   // the legend's swatches
        ])
    }

    func testTheCPUTemperatureIsALineOnTheSameScaleClampedTo0To100WithAGapWhereNoSampleHasOne() {
        // An hour of minutes: 50 °C, then 20 minutes without a sensor, then 120 °C, then -5 °C.
        let samples = (0..<UInt64(60)).map { m -> MinuteSample in
            let t: Int32? = m < 20 ? 50_000 : (m < 40 ? nil : (m < 50 ? 120_000 : -5_000))
            return MinuteSample(minute: m * 60, cpuAverage: 1000, cpuMaximum: 1000, memoryUsedKiB: 1, memoryAvailableKiB: 3,
                                swapUsedKiB: 0, load1: 0, processCount: 1, cpuTemperatureMilliCelsius: t)
        }
        let chart = HistoryChart(samples, from: 0, to: 3600)
        XCTAssertTrue(chart.hasTemperature)
        let temperature = HistoryChart.Colour.temperature.rawValue
        // Columns 60, 340, 508 and 620 are covered by minutes 5, 30, 45 and 55 only.
        XCTAssertEqual(chart.colour(HistoryChart.left + 60, HistoryChart.y(milliCelsius: 50_000)), temperature)
        XCTAssertEqual(HistoryChart.y(milliCelsius: 50_000), HistoryChart.y(percentHundredths: 5000))
        XCTAssertFalse((HistoryChart.top..<HistoryChart.bottom).contains { chart.colour(HistoryChart.left + 340, $0) == temperature },
                       "no line where no sample has a temperature")
        XCTAssertEqual(chart.colour(HistoryChart.left + 508, HistoryChart.top), temperature, "above 100 °C: at the top")
        XCTAssertEqual(chart.colour(HistoryChart.left + 620, HistoryChart.bottom - 1), temperature, "below 0 °C: at the bottom")
        // The CPU and memory lines are still there, under it.
        XCTAssertEqual(chart.colour(HistoryChart.left + 340, HistoryChart.y(percentHundredths: 1000)), HistoryChart.Colour.cpuLine.rawValue)
        XCTAssertEqual(chart.colour(HistoryChart.left + 340, HistoryChart.y(percentHundredths: 2500)), HistoryChart.Colour.memory.rawValue)
        // Its legend entry is drawn only when there is a line.
        func legendColours(_ c: HistoryChart) -> Set<UInt32> {
            var colours = Set<UInt32>()
            for y in 0..<HistoryChart.top { for x in 0..<HistoryChart.width { colours.insert(c.colour(x, y)) } }
            return colours
        }
        XCTAssertTrue(legendColours(chart).contains(temperature))
        let without = HistoryChart(samples.map { var s = $0; s.cpuTemperatureMilliCelsius = nil; return s }, from: 0, to: 3600)
        XCTAssertFalse(without.hasTemperature)
        XCTAssertFalse(Set(without.image.pixels).contains(temperature))
    }

    /// Decodes the PNG with the project's independent decoder (scripts/decode-png.py: Python's
    /// zlib and struct only, every chunk's CRC and the Adler-32 checked), then gives "W H" and
    /// the decimal RGB of each point, one per line.
    static func decodeWithPython(_ path: String, points: [(Int, Int)]) throws -> [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let decoder = root.appendingPathComponent("scripts/decode-png.py").path
        let rows = try run("/usr/bin/env", ["python3", decoder, path]).split(separator: "\n").map { Array($0.utf8) }
        guard let size = rows.first else { return [] }
        func hexByte(_ row: [UInt8], _ i: Int) -> Int { Int(String(decoding: row[i..<(i + 2)], as: UTF8.self), radix: 16) ?? -1 }
        return [String(decoding: size, as: UTF8.self)] + points.map { x, y in
            let row = rows[1 + y]
            return "\(hexByte(row, 6 * x)) \(hexByte(row, 6 * x + 2)) \(hexByte(row, 6 * x + 4))"
        }
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(executable) \(arguments)")
        return String(decoding: data, as: UTF8.self)
    }
}
