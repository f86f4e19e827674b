import BarCore
import SnapshotCodec
import XCTest

/// The bar without a config file or `--blocks`: i3status's default bar (network, disk, load,
/// memory, time) with cpu and temperature; hardware this machine lacks is hidden, exits show
/// only when they freed a notable amount.
final class DefaultBarTests: XCTestCase {
    func names(_ snap: Snapshot, _ blocks: [BarBlock] = BarBlock.defaults, nowMs: UInt64) throws -> [String] {
        var utcBlocks = blocks
        for i in utcBlocks.indices where utcBlocks[i].kind == .time { utcBlocks[i].argument = Array("UTC".utf8) }
        let line = rendered(snap, .i3bar, blocks: utcBlocks, nowMs: nowMs)
        let blocks = try XCTUnwrap(parseJSON(line) as? [[String: Any]])
        return blocks.compactMap { $0["name"] as? String }
    }

    func testTheDefaultBarHasTheClockNetworkDiskLoadMemoryCPUAndTheVolumeAndBacklightWhereAnswered() throws {
        // The station fixture has a backlight and a sound server's default output.
        let station = Fixture.station.snapshot
        XCTAssertEqual(try names(station, nowMs: station.timestampMs),
                       ["wifi", "net", "disk", "load", "mem", "cpu", "temp", "gpu", "backlight", "volume", "time"])
        XCTAssertEqual(BarOptions().blocks, BarBlock.defaults, "no --blocks, no config file: the default bar")
    }

    func testHardwareTheMachineLacksIsHiddenInTheDefaultBarButNotWhenConfigured() throws {
        // The desktop fixture measured no network, disks or sensors and has no battery, no
        // backlight and no sound server.
        let desktop = Fixture.desktop.snapshot
        XCTAssertEqual(try names(desktop, nowMs: desktop.timestampMs), ["load", "mem", "cpu", "time"])
        let configured = [BarBlock(.temp), BarBlock(.disk), BarBlock(.net)]
        let line = rendered(desktop, .text, blocks: configured, nowMs: desktop.timestampMs)
        XCTAssertEqual(line, "temp n/a | disk n/a | net n/a\n", "a block the user asked for says n/a")

        var noSensor = Fixture.station.snapshot
        noSensor.temperatures = []
        var sensorNamed = BarBlock(.temp, argument: Array("nvme".utf8))
        sensorNamed.hideMissing = true
        XCTAssertEqual(try names(noSensor, [sensorNamed, BarBlock(.cpu)], nowMs: noSensor.timestampMs), ["cpu"])
        XCTAssertEqual(rendered(noSensor, .text, blocks: [BarBlock(.temp)], nowMs: noSensor.timestampMs), "temp n/a\n")
    }

    func testTheDefaultBarShowsOnlyAnExitThatFreedANotableAmount() throws {
        var laptop = Fixture.laptop.snapshot
        let now = laptop.exits[0].timeMs + 1000
        XCTAssertTrue(try names(laptop, nowMs: now).contains("exited"), "chromium freed 1.2G")
        laptop.exits[0].freedKiB = 5 * 1024
        XCTAssertFalse(try names(laptop, nowMs: now).contains("exited"), "5M freed is noise in the default bar")
        XCTAssertEqual(rendered(laptop, .text, blocks: [BarBlock(.exited)], nowMs: now), "exited chromium freed 5.0M\n",
                       "a configured exited block shows every exit")
    }

    func testTheConfigFileGivesAnyBlockHideMissingAndExitedMinFreed() throws {
        func error(_ toml: String) -> String? {
            let bytes = Array(toml.utf8)
            guard case .failure(let e) = bytes.withUnsafeBytes({ BarConfig.parse($0) }) else { return nil }
            return String(decoding: e.reason, as: UTF8.self)
        }
        XCTAssertNotNil(error("[[block]]\nblock = \"cpu\"\nmin_freed = 5\n"), "min_freed is exited's own")
        XCTAssertNotNil(error("[[block]]\nblock = \"time\"\nhide_missing = true\n"), "the clock is never missing")
        XCTAssertNotNil(error("[[block]]\nblock = \"temp\"\nhide_missing = 1\n"))
        let toml = """
            [[block]]
            block = "temp"
            hide_missing = true
            [[block]]
            block = "exited"
            min_freed = 100
            """
        let bytes = Array(toml.utf8)
        let config = try bytes.withUnsafeBytes { BarConfig.parse($0) }.get()
        let blocks = try XCTUnwrap(config.blocks)
        XCTAssertEqual(blocks.map(\.hideMissing), [true, false])
        XCTAssertEqual(blocks.map(\.minimumFreedKiB), [0, 100 * 1024])
    }
}
