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
            "wrote \(png): CPU (blue) and memory used (red) from 2023-11-14 21:00 to 2023-11-15 00:00, 3 samples"]))
        let bytes = try HistoryFixture.bytes(png)
        XCTAssertEqual(Array(bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: f.directory.path).sorted(), ["chart.png", "data"],
                       "the temporary file was renamed, not left behind")

        // The hourly row (CPU 20 %, memory 25 % used) spans the middle third of the plot.
        let x = HistoryChart.left + (HistoryChart.right - HistoryChart.left) / 2
        let points: [(Int, Int)] = [
            (x, HistoryChart.y(percentHundredths: 1000)),    // under the CPU line: area
            (x, HistoryChart.y(percentHundredths: 2000)),    // the CPU line
            (x, HistoryChart.y(percentHundredths: 2500)),    // the memory line
            (x, HistoryChart.y(percentHundredths: 6000)),    // above both: background
            (HistoryChart.left + 10, HistoryChart.y(percentHundredths: 1000)),   // before the first sample: empty
            (HistoryChart.left - 1, HistoryChart.bottom - 10),                   // the y axis
            (0, 0),
        ]
        let decoded = try Self.decodeWithPython(png, points: points)
        XCTAssertEqual(decoded.first, "720 240")
        XCTAssertEqual(Array(decoded.dropFirst()), [
            "170 200 240", "30 90 200", "220 40 40", "255 255 255", "255 255 255", "0 0 0", "255 255 255"])
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

    /// Decodes the PNG with Python's zlib and struct only (checking every chunk's CRC and the
    /// zlib stream's Adler-32), then prints "W H" and the RGB of each point, one per line.
    static func decodeWithPython(_ path: String, points: [(Int, Int)]) throws -> [String] {
        let script = """
            import struct, sys, zlib
            data = open(sys.argv[1], 'rb').read()
            assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n'
            pos, chunks = 8, []
            while pos < len(data):
                (length,) = struct.unpack('>I', data[pos:pos + 4])
                kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
                (crc,) = struct.unpack('>I', data[pos + 8 + length:pos + 12 + length])
                assert zlib.crc32(kind + body) == crc, kind
                chunks.append((kind, body))
                pos += 12 + length
            assert [k for k, _ in chunks][0] == b'IHDR' and chunks[-1][0] == b'IEND'
            w, h, depth, colour, _, _, interlace = struct.unpack('>IIBBBBB', chunks[0][1])
            assert (depth, colour, interlace) == (8, 2, 0)
            raw = zlib.decompress(b''.join(b for k, b in chunks if k == b'IDAT'))
            stride = 3 * w + 1
            assert len(raw) == stride * h
            assert all(raw[y * stride] == 0 for y in range(h))
            print(w, h)
            for arg in sys.argv[2:]:
                x, y = map(int, arg.split(','))
                i = y * stride + 1 + 3 * x
                print(*raw[i:i + 3])
            """
        let scriptPath = path + ".py"
        try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let output = try run("/usr/bin/env", ["python3", scriptPath, path] + points.map { "\($0.0),\($0.1)" })
        return output.split(separator: "\n").map(String.init)
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
