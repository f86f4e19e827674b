@testable import BarCore
import SnapshotCodec
import XCTest

/// The blocks made from a listed part's table (fan, power, backlight): the first figure and
/// its suffix, a reading chosen by `SOURCE/LABEL`, `LABEL` or `SOURCE`, every placeholder,
/// `n/a` and hiding.
final class ListedBlockTests: XCTestCase {
    let now = Fixture.station.nowMs
    let fan = BlockKind.listed(.fans)!
    let power = BlockKind.listed(.power)!
    let backlight = BlockKind.listed(.backlight)!

    func text(_ s: Snapshot, _ kind: BlockKind, _ argument: String = "", format: String? = nil) throws -> String {
        let block = BarBlock(kind, argument: Array(argument.utf8))
        guard let format else { return rendered(s, .text, blocks: [block], nowMs: now) }
        return rendered(s, .text, blocks: [block], formats: try formats("\(kind.name)=\(format)"), nowMs: now)
    }

    func testEachListedPartHasABlockNamedFromItsTable() {
        XCTAssertEqual(fan.name.description, "fan")
        XCTAssertEqual(power.name.description, "power")
        XCTAssertEqual(BlockKind(name: Array("fan".utf8)[...]), fan)
        XCTAssertEqual(fan.section, SnapshotSections(tag: .fans))
        XCTAssertEqual(fan.placeholders.map { $0.name.description }, ["rpm", "target", "source", "label"])
        XCTAssertEqual(power.placeholders.map { $0.name.description }, ["watts", "source", "label"])
        XCTAssertEqual(fan.descriptor.argumentKey?.description, "fan")
        XCTAssertEqual(power.descriptor.argumentKey?.description, "source")
        XCTAssertEqual(backlight.name.description, "backlight")
        XCTAssertEqual(backlight.placeholders.map { $0.name.description }, ["percent", "brightness", "max", "source", "label"])
        XCTAssertEqual(backlight.descriptor.argumentKey?.description, "device", "waybar's and i3status-rust's key")
        XCTAssertEqual(BlockKind.allCases.last, .command, "the command block stays last")
    }

    func testTheBlocksShowTheirFirstReadingsFirstFigureInEveryOutput() throws {
        let s = Fixture.station.snapshot
        XCTAssertEqual(try text(s, fan), "fan 1130rpm\n")
        XCTAssertEqual(try text(s, power), "power 230.9W\n")
        XCTAssertEqual(try text(s, backlight), "bl 67%\n", "the firmware device, a whole percent")
        for output in OutputKind.allCases where output != .png {
            XCTAssertTrue(rendered(s, output, blocks: [fan, power], nowMs: now).contains("fan 1130rpm"), "\(output)")
        }
        let line = rendered(s, .i3bar, blocks: [power], nowMs: now)
        let block = try XCTUnwrap((parseJSON(line) as? [[String: Any]])?.first)
        XCTAssertEqual(block["name"] as? String, "power")
        XCTAssertEqual(block["short_text"] as? String, "power 230.9W")
    }

    func testTheArgumentChoosesAReadingBySourceAndLabelLabelOrSource() throws {
        let s = Fixture.station.snapshot
        XCTAssertEqual(try text(s, fan, "dell_smm/Processor Fan"), "fan 2400rpm\n")
        XCTAssertEqual(try text(s, fan, "Processor Fan"), "fan 2400rpm\n")
        XCTAssertEqual(try text(s, fan, "dell_smm"), "fan 2400rpm\n")
        XCTAssertEqual(try text(s, power, "gpu"), "power 215.4W\n")
        XCTAssertEqual(try text(s, power, "rapl/package-0"), "power 15.5W\n")
        XCTAssertEqual(try text(s, backlight, "ddcci13"), "bl 35%\n")
        XCTAssertEqual(try text(s, backlight, "raw"), "bl 35%\n")
        XCTAssertEqual(try text(s, fan, "nosuch/fan9"), "fan nosuch/fan9 n/a\n")
    }

    func testEveryPlaceholderShowsItsFigureAndNAWhereTheReadingLacksIt() throws {
        let s = Fixture.station.snapshot
        XCTAssertEqual(try text(s, fan, "dell_smm", format: "{label}: {rpm} of {target} ({source})"),
                       "Processor Fan: 2400 of 2500 (dell_smm)\n")
        XCTAssertEqual(try text(s, fan, format: "{label}: {rpm} of {target}"), "fan1: 1130 of n/a\n", "no target: n/a")
        XCTAssertEqual(try text(s, power, format: "{watts}W {source}/{label}"), "230.9W system/cpu+gpu\n")
        XCTAssertEqual(try text(s, backlight, format: "{percent}% ({brightness}/{max}) {source}/{label}"),
                       "67% (10/15) firmware/acpi_video0\n")
    }

    func testWithoutTheReadingTheDefaultBarHidesTheBlockAndANamedOneSaysNA() throws {
        var s = Fixture.station.snapshot
        _ = s.listed.update(.fans) { $0 = [] }
        XCTAssertEqual(try text(s, fan), "fan n/a\n")
        var hidden = BarBlock(fan)
        hidden.hideMissing = true
        XCTAssertEqual(rendered(s, .text, blocks: [hidden, BarBlock(.load)], nowMs: now), "load 0.52 0.48 0.40\n")
        XCTAssertTrue(fan.descriptor.hiddenWhenMissingByDefault)
        s.available.remove(SnapshotSections(tag: .power)!)
        XCTAssertEqual(try text(s, power), "power n/a\n", "not measured: n/a, never 0")
        XCTAssertEqual(try text(s, power, format: "{watts}"), "n/a\n")
    }

    func testABacklightWithoutAShareSaysNAAndKeepsItsSteps() throws {
        var s = Fixture.station.snapshot
        _ = s.listed.update(.backlight) { list in
            list[0][BacklightPart.percent] = nil
            list[0][BacklightPart.maximum] = 0
        }
        XCTAssertEqual(try text(s, backlight), "bl n/a\n", "a maximum of 0 has no share: n/a, never 0 %")
        XCTAssertEqual(try text(s, backlight, format: "{brightness} of {max}"), "10 of 0\n")
    }

    func testHostileNamesAreEscapedForTheBar() throws {
        var s = Fixture.station.snapshot
        _ = s.listed.update(.fans) { list in
            list[0].reset(source: Array("chip".utf8), label: Array("a\"b\u{1B}[2J".utf8))
            list[0][0] = 5
        }
        let line = rendered(s, .i3bar, blocks: [BarBlock(fan)], formats: try formats("fan={label}"), nowMs: now)
        XCTAssertNotNil(parseJSON(line), line)
        XCTAssertFalse(line.contains("\u{1B}"), line)
    }
}
