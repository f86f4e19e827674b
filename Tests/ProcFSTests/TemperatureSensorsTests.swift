import XCTest
import TestSupport
import ProcFS

final class TemperatureSensorsTests: XCTestCase {
    private let buffer = ReadBuffer(capacity: 64)

    private func sensors(_ fixture: String, _ names: [String] = []) -> TemperatureSensors {
        TemperatureSensors(sysRoot: Fixtures.path(fixture + "/sys"), names: names)
    }

    private func labels(_ s: TemperatureSensors) -> [String] {
        s.sensors.map { "\($0.chip)/\($0.label)" }
    }

    // MARK: Discovery

    func testDiscoveryFollowsTheHwmonLinksAndReadsLabelsLimitsAndZones() {
        let s = sensors("hwmon-intel")
        XCTAssertEqual(s.discovered.map { "\($0.chip)/\($0.label)" }, [
            "acpitz/temp1", "coretemp/Package id 0", "coretemp/Core 0", "coretemp/Core 1",
            "nvme/Composite", "nvme/Sensor 1", "iwlwifi_1/temp1",
            "acpitz/thermal_zone0", "x86_pkg_temp/thermal_zone1",
        ])
        let package = s.discovered[1]
        XCTAssertEqual(package.source, .hwmon)
        XCTAssertEqual(package.index, 1)
        XCTAssertEqual(package.inputNumber, 1)
        XCTAssertEqual(package.criticalMillidegrees, 100_000)
        XCTAssertEqual(package.maximumMillidegrees, 80_000)
        XCTAssertTrue(package.inputPath.hasSuffix("/class/hwmon/hwmon1/temp1_input"))
        XCTAssertNil(s.discovered[0].maximumMillidegrees)
        XCTAssertEqual(s.discovered[0].criticalMillidegrees, 119_000)
        XCTAssertEqual(s.discovered[5].maximumMillidegrees, 65_261_850)
        let zone = s.discovered[8]
        XCTAssertEqual(zone.source, .thermalZone)
        XCTAssertEqual(zone.index, 1)
        XCTAssertTrue(zone.inputPath.hasSuffix("/class/thermal/thermal_zone1/temp"))
    }

    func testChipsAreOrderedByNumberNotByName() throws {
        let root = try makeTemporaryProcRoot()
        for n in [10, 2, 1] {
            try writeFile(root, "class/hwmon/hwmon\(n)/name", "chip\(n)\n")
            try writeFile(root, "class/hwmon/hwmon\(n)/temp10_input", "\(n)000\n")
            try writeFile(root, "class/hwmon/hwmon\(n)/temp2_input", "\(n)000\n")
        }
        try writeFile(root, "class/hwmon/hwmonX/name", "bogus\n")
        try writeFile(root, "class/hwmon/hwmon1/temp_input", "1\n")
        try writeFile(root, "class/hwmon/hwmon1/temp3_inputs", "1\n")
        let found = Hwmon.temperatureSensors(sysRoot: root)
        XCTAssertEqual(found.map { "\($0.chip)/\($0.inputNumber)" },
                       ["chip1/2", "chip1/10", "chip2/2", "chip2/10", "chip10/2", "chip10/10"])
    }

    func testOldKernelsKeepTheAttributesInDevice() throws {
        let root = try makeTemporaryProcRoot()
        try writeFile(root, "class/hwmon/hwmon0/device/name", "coretemp\n")
        try writeFile(root, "class/hwmon/hwmon0/device/temp2_input", "41000\n")
        try writeFile(root, "class/hwmon/hwmon0/device/temp2_label", "Core 0\n")
        let s = TemperatureSensors(sysRoot: root)
        XCTAssertEqual(labels(s), ["coretemp/Core 0"])
        XCTAssertEqual(s.update(buffer)?.millidegrees, [41_000])
    }

    // MARK: The CPU package sensor

    func testIntelPicksCoretempPackage() {
        let s = sensors("hwmon-intel")
        XCTAssertEqual(labels(s), ["coretemp/Package id 0"])
        XCTAssertEqual(s.update(buffer)?.millidegrees, [52_000])
    }

    func testAMDPrefersTdieOverTctl() {
        let s = sensors("hwmon-amd")
        XCTAssertEqual(labels(s), ["k10temp/Tdie"])
        XCTAssertEqual(s.update(buffer)?.millidegrees, [45_500])
    }

    func testModernK10tempHasOnlyTctl() throws {
        let root = try makeTemporaryProcRoot()
        try writeFile(root, "class/hwmon/hwmon3/name", "k10temp\n")
        try writeFile(root, "class/hwmon/hwmon3/temp1_input", "61250\n")
        try writeFile(root, "class/hwmon/hwmon3/temp1_label", "Tctl\n")
        try writeFile(root, "class/hwmon/hwmon3/temp3_input", "50000\n")
        try writeFile(root, "class/hwmon/hwmon3/temp3_label", "Tccd1\n")
        let s = TemperatureSensors(sysRoot: root)
        XCTAssertEqual(labels(s), ["k10temp/Tctl"])
        XCTAssertEqual(s.update(buffer)?.millidegrees, [61_250])
    }

    func testZenpowerPicksTdie() {
        let s = sensors("hwmon-zenpower")
        XCTAssertEqual(labels(s), ["zenpower/Tdie"])
        XCTAssertEqual(s.update(buffer)?.millidegrees, [47_125])
    }

    func testARMPicksCpuThermal() throws {
        let root = try makeTemporaryProcRoot()
        try writeFile(root, "class/hwmon/hwmon0/name", "rpi_volt\n")
        try writeFile(root, "class/hwmon/hwmon1/name", "cpu_thermal\n")
        try writeFile(root, "class/hwmon/hwmon1/temp1_input", "48312\n")
        let s = TemperatureSensors(sysRoot: root)
        XCTAssertEqual(labels(s), ["cpu_thermal/temp1"])
        XCTAssertEqual(s.update(buffer)?.millidegrees, [48_312])
    }

    func testWithoutHwmonThermalZonesAreTheFallback() throws {
        let s = sensors("thermal-only")
        XCTAssertEqual(labels(s), ["x86_pkg_temp/thermal_zone1"])
        XCTAssertEqual(s.update(buffer)?.millidegrees, [61_000])

        let root = try makeTemporaryProcRoot()
        try writeFile(root, "class/thermal/thermal_zone3/type", "iwlwifi_1\n")
        try writeFile(root, "class/thermal/thermal_zone3/temp", "39000\n")
        try writeFile(root, "class/thermal/thermal_zone5/type", "acpitz\n")
        try writeFile(root, "class/thermal/thermal_zone5/temp", "25000\n")
        try writeFile(root, "class/thermal/cooling_device0/type", "Processor\n")
        XCTAssertEqual(labels(TemperatureSensors(sysRoot: root)), ["acpitz/thermal_zone5"])
        try writeFile(root + "/class/thermal/thermal_zone5/type", "pch_skylake\n")
        XCTAssertEqual(labels(TemperatureSensors(sysRoot: root)), ["iwlwifi_1/thermal_zone3"], "the first zone")
    }

    func testNoTemperatureAnywhereGivesNil() {
        let s = sensors("hwmon-empty")
        XCTAssertEqual(s.discovered, [])
        XCTAssertEqual(s.sensors, [])
        XCTAssertNil(s.update(buffer))
        XCTAssertNil(TemperatureSensors(sysRoot: "/nonexistent-sysstats-fixture-root/sys").update(buffer))
    }

    // MARK: Choosing by name

    func testNamesPickChipSlashLabelThenChipThenLabel() {
        let s = sensors("hwmon-amd", ["amdgpu/junction", "amdgpu", "k10temp", "Tccd1", "nct6798/CPUTIN", "AUXTIN0"])
        XCTAssertEqual(labels(s), ["amdgpu/junction", "amdgpu/edge", "k10temp/Tdie", "k10temp/Tccd1",
                                   "nct6798/CPUTIN", "nct6798/AUXTIN0"])
        // Negative readings are kept; one past Int32 clamps.
        XCTAssertEqual(s.update(buffer)?.millidegrees, [42_000, 40_000, 45_500, 43_250, -12_500, Int32.max])
        XCTAssertEqual(s.unresolvedNames, [])
    }

    func testUnknownNamesAreReportedAndTheRestKept() {
        let s = sensors("hwmon-intel", ["nope", "coretemp/Core 1", "coretemp/Core 9", "nvme", "Composite/nvme"])
        XCTAssertEqual(labels(s), ["coretemp/Core 1", "nvme/Composite"])
        XCTAssertEqual(s.unresolvedNames, ["nope", "coretemp/Core 9", "Composite/nvme"])
        XCTAssertEqual(s.update(buffer)?.millidegrees, [51_000, 38_850])
    }

    func testAtMostEightSensors() {
        let s = sensors("hwmon-intel", Array(repeating: "Core 0", count: 12))
        XCTAssertEqual(s.sensors.count, 8)
        XCTAssertEqual(s.update(buffer)?.millidegrees.count, 8)
    }

    func testResolveIgnoresOverlongNamesInsteadOfMatchingACutOne() {
        let s = sensors("hwmon-intel")
        XCTAssertNil(TemperatureSensors.resolve("coretemp" + String(repeating: "x", count: 40), in: s.discovered))
        XCTAssertNil(TemperatureSensors.resolve("", in: s.discovered))
        XCTAssertNil(TemperatureSensors.resolve("/", in: s.discovered))
    }

    // MARK: Updates

    func testParsingIsStrict() {
        XCTAssertEqual(withBytes("45000\n") { Hwmon.parseMillidegrees($0) }, 45_000)
        XCTAssertEqual(withBytes("-5000") { Hwmon.parseMillidegrees($0) }, -5_000)
        XCTAssertEqual(withBytes("-99999999999999999999999\n") { Hwmon.parseMillidegrees($0) }, Int32.min)
        XCTAssertNil(withBytes("") { Hwmon.parseMillidegrees($0) })
        XCTAssertNil(withBytes("\n") { Hwmon.parseMillidegrees($0) })
        XCTAssertNil(withBytes("45000abc\n") { Hwmon.parseMillidegrees($0) })
        XCTAssertNil(withBytes("-\n") { Hwmon.parseMillidegrees($0) })
        XCTAssertNil(withBytes("forty\n") { Hwmon.parseMillidegrees($0) })
    }

    func testKeptOpenFilesSeeNewValuesAndAnUnreadableSensorIsNilAlone() throws {
        let tree = try LiveTree()
        try tree.mirror("hwmon-intel")
        let s = TemperatureSensors(sysRoot: tree.path + "/sys", names: ["coretemp/Package id 0", "nvme/Composite"])
        XCTAssertEqual(s.update(buffer)?.millidegrees, [52_000, 38_850])
        // Through the hwmonN link, truncating the same inode the reader holds open.
        try writeFile(tree.path + "/sys/class/hwmon/hwmon1/temp1_input", "-1000\n")
        try writeFile(tree.path + "/sys/class/hwmon/hwmon2/temp1_input", "garbage\n")
        XCTAssertEqual(s.update(buffer)?.millidegrees, [-1_000, nil])
        try writeFile(tree.path + "/sys/class/hwmon/hwmon1/temp1_input", "")
        XCTAssertNil(s.update(buffer), "nothing readable")
        XCTAssertEqual(s.reading.millidegrees, [-1_000, nil], "the last good reading stays")
        try writeFile(tree.path + "/sys/class/hwmon/hwmon1/temp1_input", "99999999999\n")
        XCTAssertEqual(s.update(buffer)?.millidegrees, [Int32.max, nil])
    }

    func testRescanFindsADriverLoadedLate() throws {
        let root = try makeTemporaryProcRoot()
        try writeFile(root, "class/thermal/thermal_zone0/type", "acpitz\n")
        try writeFile(root, "class/thermal/thermal_zone0/temp", "30000\n")
        let s = TemperatureSensors(sysRoot: root)
        XCTAssertEqual(labels(s), ["acpitz/thermal_zone0"])
        try writeFile(root, "class/hwmon/hwmon0/name", "coretemp\n")
        try writeFile(root, "class/hwmon/hwmon0/temp1_input", "55000\n")
        try writeFile(root, "class/hwmon/hwmon0/temp1_label", "Package id 0\n")
        XCTAssertEqual(s.update(buffer)?.millidegrees, [30_000])
        s.rescan()
        XCTAssertEqual(s.update(buffer)?.millidegrees, [55_000])
    }
}
