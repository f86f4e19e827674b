@testable import BarCore
import SnapshotCodec
import XCTest

/// The backlight block's wheel: a step of the device's highest step, never past it nor below
/// 1 % of it, for the reading the block shows; what the media helper is asked to set.
final class BacklightWheelClickTests: XCTestCase {
    let now = Fixture.station.nowMs
    let backlight = BlockKind.listed(.backlight)!

    func renderer(_ config: String, _ change: (inout Snapshot) -> Void = { _ in }) throws -> Renderer {
        let c = try Array(config.utf8).withUnsafeBytes { BarConfig.parse($0) }.get()
        var r = Renderer(output: .i3bar, blocks: try XCTUnwrap(c.blocks))
        var s = Fixture.station.snapshot
        change(&s)
        r.render(s, nowMs: now)
        return r
    }

    func change(_ device: String, _ value: UInt32) -> ClickOutcome {
        .brightness(BrightnessChange(device: Array(device.utf8), value: value))
    }

    func testTheWheelStepsTheShownDeviceByItsStepAndStaysWithinItsRange() throws {
        var r = try renderer("[[block]]\nblock = \"backlight\"\n")
        XCTAssertEqual(r.click(ClickEvent(block: backlight, button: 4)), change("acpi_video0", 11), "10 of 15: 5 % is less than a step, so one")
        XCTAssertEqual(r.click(ClickEvent(block: backlight, button: 5)), change("acpi_video0", 9))
        XCTAssertEqual(r.click(ClickEvent(block: backlight, button: 1)), .none, "the buttons are the user's to give a command")
        var monitor = try renderer("[[block]]\nblock = \"backlight\"\ndevice = \"ddcci13\"\nstep = 20\n")
        var wheel = ClickEvent(block: backlight, button: 4)
        wheel.instance = Array("ddcci13".utf8)
        XCTAssertEqual(monitor.click(wheel), change("ddcci13", 55), "35 of 100 + 20 %")
        var high = try renderer("[[block]]\nblock = \"backlight\"\nstep = 20\n") { s in
            _ = s.listed.update(.backlight) { $0[0][BacklightPart.brightness] = 14 }
        }
        XCTAssertEqual(high.click(ClickEvent(block: backlight, button: 4)), change("acpi_video0", 15), "never past the highest step")
        var low = try renderer("[[block]]\nblock = \"backlight\"\nstep = 50\n") { s in
            _ = s.listed.update(.backlight) { $0[0][BacklightPart.brightness] = 2 }
        }
        XCTAssertEqual(low.click(ClickEvent(block: backlight, button: 5)), change("acpi_video0", 1), "never dark")
        XCTAssertEqual(BrightnessChange(device: Array("intel_backlight".utf8), value: 86400).arguments.map { String(decoding: $0, as: UTF8.self) },
                       ["brightness", "backlight", "intel_backlight", "86400"])
    }

    func testWithoutTheStepsOrABacklightTheWheelDoesNothing() throws {
        var none = try renderer("[[block]]\nblock = \"backlight\"\n") { s in _ = s.listed.update(.backlight) { $0 = [] } }
        XCTAssertEqual(none.click(ClickEvent(block: backlight, button: 4)), .none)
        var dark = try renderer("[[block]]\nblock = \"backlight\"\n") { s in
            _ = s.listed.update(.backlight) { $0[0][BacklightPart.maximum] = 0 }
        }
        XCTAssertEqual(dark.click(ClickEvent(block: backlight, button: 4)), .none, "a highest step of 0: no step to take")
        var unrendered = Renderer(output: .i3bar, blocks: [BarBlock(backlight)])
        XCTAssertEqual(unrendered.click(ClickEvent(block: backlight, button: 4)), .none)
    }

    func testTheStepKeyIsCheckedAndAClickTableEntryWins() throws {
        func reason(_ text: String) -> String {
            guard case .failure(let e) = Array(text.utf8).withUnsafeBytes({ BarConfig.parse($0) }) else { return "accepted" }
            return String(decoding: e.reason, as: UTF8.self)
        }
        XCTAssertTrue(reason("[[block]]\nblock = \"backlight\"\nstep = 0\n").contains("out of range: 1 to 100"))
        XCTAssertTrue(reason("[[block]]\nblock = \"backlight\"\nmax = 50\n").contains("unknown key"), "max is the volume's")
        var r = try renderer("[[block]]\nblock = \"backlight\"\n[[block.click]]\nbutton = \"up\"\ncmd = \"brightnessctl set +5%\"\n")
        XCTAssertEqual(r.click(ClickEvent(block: backlight, button: 4)), .run(Array("brightnessctl set +5%".utf8)))
    }
}
