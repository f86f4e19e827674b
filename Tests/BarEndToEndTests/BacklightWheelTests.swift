import Foundation
import XCTest

/// The backlight block's wheel against a logind stand-in (Tests/Fixtures/fake-logind.py) on a
/// private bus the bar takes for the system bus: a wheel event makes the media helper call
/// `SetBrightness` for the device the block shows, by the block's step. The sampler reads the
/// backlights of a laptop's fixture /sys.
final class BacklightWheelTests: HelperTestCase {
    var bus: SessionBus!
    var calls: String { bus.folder.appendingPathComponent("logind.calls").path }
    /// Where the media helper finds sysfs (the writable copy of a fixture), when set.
    var helperSysRoot: String?
    override var serverEnvironment: [String: String] {
        ["DBUS_SYSTEM_BUS_ADDRESS": bus.address].merging(helperSysRoot.map { ["SYSSTATSD_SYS_ROOT": $0] } ?? [:]) { $1 }
    }

    override func setUpWithError() throws {
        bus = try SessionBus()
        try makeRuntime("backlight")
        try bus.startService("fake-logind.py", [calls], output: "logind.out")
    }

    override func tearDown() {
        removeRuntime()
        bus = nil
    }

    /// The calls logind got, once `count` came (or 5 s passed).
    func logindCalls(_ count: Int) -> [String] {
        let deadline = Date().addingTimeInterval(5)
        var lines: [String] = []
        while Date() < deadline {
            lines = ((try? String(contentsOfFile: calls, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            if lines.count >= count { break }
            usleep(50_000)
        }
        return lines
    }

    /// A bar showing intel_backlight (80 %) with a step of 10 %, once it shows it.
    func backlightBar() throws -> BarProcess {
        let bar = try bar(["--output", "i3bar"], config: """
            [[block]]
            block = "backlight"
            device = "intel_backlight"
            step = 10
            """)
        XCTAssertTrue(bar.waitFor(timeout: 10) { $0.last?.contains(#""full_text":"bl 80%""#) == true }, "\(bar.lines)")
        return bar
    }

    func testAWheelEventSetsTheShownBacklightsBrightnessByTheStepThroughLogind() throws {
        try startSampler(sysRoot: "backlight-laptop/sys")
        let bar = try backlightBar()
        bar.send("[\n{\"name\":\"backlight\",\"instance\":\"intel_backlight\",\"button\":4}\n")
        XCTAssertEqual(logindCalls(1), ["backlight intel_backlight 86400"], "76800 + 10 % of 96000")
        bar.send(",{\"name\":\"backlight\",\"instance\":\"intel_backlight\",\"button\":5}\n")
        bar.send(",{\"name\":\"backlight\",\"instance\":\"intel_backlight\",\"button\":1}\n")
        let both = logindCalls(2)
        XCTAssertEqual(both, ["backlight intel_backlight 86400", "backlight intel_backlight 67200"],
                       "down from the brightness the block shows (the fixture does not change); a left click is the user's")
    }

    /// Where the user may write the device's `brightness` file (a udev rule for the video
    /// group, as brightnessctl sets up; root), the helper writes it, at most its
    /// max_brightness, and logind is not asked: a machine without logind gets the wheel too.
    /// (The kernel then shows it in actual_brightness, which the sampler reads; a fixture
    /// tree has no kernel behind it.)
    func testAWritableBrightnessFileIsWrittenWithoutAskingLogind() throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("sysstats-sys-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        let cp = Process()
        cp.executableURL = URL(fileURLWithPath: "/bin/cp")
        cp.arguments = ["-a", BarProcess.packageRoot.appendingPathComponent("Tests/Fixtures/backlight-laptop/sys").path, copy.path]
        try cp.run()
        cp.waitUntilExit()
        XCTAssertEqual(cp.terminationStatus, 0)
        helperSysRoot = copy.path
        let brightness = copy.appendingPathComponent("class/backlight/intel_backlight/brightness").path
        try startSampler(sysRoot: copy.path)
        let bar = try backlightBar()
        bar.send("[\n{\"name\":\"backlight\",\"instance\":\"intel_backlight\",\"button\":4}\n")
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, (try? String(contentsOfFile: brightness, encoding: .utf8)) != "86400\n" { usleep(50_000) }
        XCTAssertEqual(try String(contentsOfFile: brightness, encoding: .utf8), "86400\n", "76800 + 10 % of 96000")
        XCTAssertEqual((try? String(contentsOfFile: calls, encoding: .utf8)) ?? "", "", "logind was not asked")

        // Asked for more than the device has, it gets its highest step; a device name that
        // climbs out of the class folder is refused.
        let helper = URL(fileURLWithPath: try BarProcess.binary()).deletingLastPathComponent().appendingPathComponent("sysstatsd-media")
        for (device, value, status) in [("intel_backlight", "999999", Int32(0)), ("..", "5", 2), ("a/b", "5", 2)] {
            let p = Process()
            p.executableURL = helper
            p.arguments = ["brightness", "backlight", device, value]
            p.environment = ProcessInfo.processInfo.environment.merging(serverEnvironment) { $1 }
            p.standardError = FileHandle.nullDevice
            try p.run()
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, status, device)
        }
        XCTAssertEqual(try String(contentsOfFile: brightness, encoding: .utf8), "96000\n")
    }
}
