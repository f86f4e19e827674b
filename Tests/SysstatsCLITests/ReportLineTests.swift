import SnapshotCodec
import SysstatsCLI
import XCTest

/// `sysstats report`'s line: the bar's words and units, what matters first, within 80
/// columns; what the machine lacks left out, what was not measured `n/a`.
final class ReportLineTests: XCTestCase {
    func testTheLineLeadsWithCPUMemoryAndLoadInTheBarsUnits() {
        let line = ReportLine.format(Samples.laptop)
        XCTAssertEqual(line, "cpu 23% | mem 112M/503M | load 1.23 0.45 0.07 | bat 85% - | up 12h 17m")
        XCTAssertLessThanOrEqual(line.count, 80)
    }

    func testWhatTheMachineLacksIsLeftOutAndThenLessImportantPartsFit() {
        XCTAssertEqual(ReportLine.format(Samples.desktop), "cpu 23% | mem 112M/503M | load 1.23 0.45 0.07 | up 12h 17m | procs 39 (2 run)",
                       "no battery: no `bat` part, and the process count fits")
    }

    /// A machine with every part: temperature and disk come before the network, and a part
    /// that would pass 80 columns is left out whole, never cut; names are escaped as the bar does.
    func testEveryPartByImportanceWithinEightyColumnsNeverCut() {
        var s = Samples.desktop
        s.available.formUnion([.network, .disks, .temperature])
        var root = DiskFigures()
        root.mount = Array("/".utf8); root.totalKiB = 125_000_000; root.usedKiB = 40_000_000; root.availableKiB = 78_600_000
        s.disks = [root]
        var t = TemperatureFigures()
        t.chip = Array("coretemp".utf8); t.label = Array("Package id 0".utf8); t.milliCelsius = 52_000; t.isCPUPackage = true
        s.temperatures = [t]
        var wlan = InterfaceFigures()
        wlan.name = Array("wl\u{1B}an0".utf8)
        wlan.flags = [.up, .carrier, .defaultRoute, .rates]
        s.interfaces = [wlan]
        let line = ReportLine.format(s)
        XCTAssertEqual(line, "cpu 23% | mem 112M/503M | load 1.23 0.45 0.07 | temp 52°C | disk / 75.0G free")
        XCTAssertLessThanOrEqual(line.count, 80)
        let wide = ReportLine.format(s, columns: 200)
        XCTAssertTrue(wide.contains(" | net wl"), wide)
        XCTAssertFalse(wide.unicodeScalars.contains { $0.value < 0x20 }, "no control byte reaches the terminal: \(wide)")
    }

    func testAPartTheSamplerDidNotMeasureSaysNA() {
        var s = Samples.desktop
        s.available.remove(.cpu)
        XCTAssertTrue(ReportLine.format(s).hasPrefix("cpu n/a | mem "), ReportLine.format(s))
    }
}
