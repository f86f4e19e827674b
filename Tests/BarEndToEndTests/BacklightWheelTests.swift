import Foundation
import XCTest

/// The backlight block's wheel against a logind stand-in (Tests/Fixtures/fake-logind.py) on a
/// private bus the bar takes for the system bus: a wheel event makes the media helper call
/// `SetBrightness` for the device the block shows, by the block's step. The sampler reads the
/// backlights of a laptop's fixture /sys.
final class BacklightWheelTests: HelperTestCase {
    var bus: SessionBus!
    var calls: String { bus.folder.appendingPathComponent("logind.calls").path }
    override var serverEnvironment: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": bus.address] }

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

    func testAWheelEventSetsTheShownBacklightsBrightnessByTheStepThroughLogind() throws {
        try startSampler(sysRoot: "backlight-laptop/sys")
        let bar = try bar(["--output", "i3bar"], config: """
            [[block]]
            block = "backlight"
            device = "intel_backlight"
            step = 10
            """)
        XCTAssertTrue(bar.waitFor(timeout: 10) { $0.last?.contains(#""full_text":"bl 80%""#) == true }, "\(bar.lines)")
        bar.send("[\n{\"name\":\"backlight\",\"instance\":\"intel_backlight\",\"button\":4}\n")
        XCTAssertEqual(logindCalls(1), ["backlight intel_backlight 86400"], "76800 + 10 % of 96000")
        bar.send(",{\"name\":\"backlight\",\"instance\":\"intel_backlight\",\"button\":5}\n")
        bar.send(",{\"name\":\"backlight\",\"instance\":\"intel_backlight\",\"button\":1}\n")
        let both = logindCalls(2)
        XCTAssertEqual(both, ["backlight intel_backlight 86400", "backlight intel_backlight 67200"],
                       "down from the brightness the block shows (the fixture does not change); a left click is the user's")
    }
}
