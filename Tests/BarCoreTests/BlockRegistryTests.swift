@testable import BarCore
import SnapshotCodec
import XCTest

/// The registry: every kind has its descriptor, in the order of the cases, and what the
/// config file, `--help` and the errors know of a block comes from it.
final class BlockRegistryTests: XCTestCase {
    func testEveryKindFindsItsOwnDescriptorByName() {
        var names = Set<String>()
        for kind in BlockKind.allCases {
            XCTAssertEqual(BlockKind(name: Array(kind.name.description.utf8)[...]), kind,
                           "the registry's table is out of step with the cases at \(kind)")
            XCTAssertTrue(names.insert(kind.name.description).inserted, "\(kind.name) named twice")
        }
    }

    func testABlocksOwnMarksWinOverItsKindsInTheKindsUnits() {
        var cpu = BarBlock(.cpu)
        XCTAssertEqual(BlockContext(cpu, nowMs: 0).warning, 7000)
        XCTAssertEqual(BlockContext(cpu, nowMs: 0).critical, 9000)
        cpu.warning = 40
        cpu.critical = 150
        XCTAssertEqual(BlockContext(cpu, nowMs: 0).warning, 4000)
        XCTAssertEqual(BlockContext(cpu, nowMs: 0).critical, 10_000, "a share stops at 100 %")
        var temp = BarBlock(.temp)
        XCTAssertNil(BlockContext(temp, nowMs: 0).warning, "temp: each sensor's own marks")
        temp.critical = 85
        XCTAssertEqual(BlockContext(temp, nowMs: 0).critical, 85_000)
        var load = BarBlock(.load)
        XCTAssertNil(BlockContext(load, nowMs: 0).warning, "load: one per core, the block decides")
        load.warning = 150
        XCTAssertEqual(BlockContext(load, nowMs: 0).warning, 150, "a load's marks in hundredths, as given")
        var uptime = BarBlock(.uptime)
        uptime.warning = 10
        XCTAssertNil(BlockContext(uptime, nowMs: 0).warning, "uptime has no marks to override")
    }

    func testOnlyBlocksWithAnArgumentKeyTakeAnArgument() {
        let taking = BlockKind.allCases.filter(\.takesArgument).map { $0.name.description }
        XCTAssertEqual(taking, ["top", "net", "wifi", "disk", "diskio", "temp", "time", "gpu", "run_watch", "path_exists", "read_file", "fan", "power", "backlight", "volume", "microphone", "media", "unit"])
        XCTAssertEqual(BlockKind.disk.descriptor.argumentKey?.description, "mount")
    }

    func testTheErrorsAndHelpListEveryBlockFromTheRegistry() {
        var w = ByteWriter(capacity: 512)
        OptionsError.unknownBlock(Array("nosuch".utf8)).describe(into: &w)
        let line = String(decoding: w.bytes, as: UTF8.self)
        var help = ByteWriter(capacity: 8192)
        helpText(into: &help)
        let helpLines = String(decoding: help.bytes, as: UTF8.self).split(separator: "\n")
        for kind in BlockKind.allCases where kind != .command {
            XCTAssertTrue(line.contains(" \(kind.name)"), "the unknown-block error lists \(kind.name): \(line)")
            XCTAssertTrue(helpLines.contains { $0.hasPrefix("  \(kind.name) ") }, "--help has a line for \(kind.name)")
        }
        XCTAssertFalse(line.contains("command"), "a command block is the config file's, not --blocks'")
    }

    func testTheUnexpectedArgumentErrorNamesEveryBlockThatTakesOne() {
        var w = ByteWriter(capacity: 512)
        OptionsError.unexpectedArgument.describe(into: &w)
        let message = String(decoding: w.bytes, as: UTF8.self)
        let taking = BlockKind.allCases.filter(\.takesArgument).map { $0.name.description }
        // "only time, net, wifi, disk, diskio and temp take an argument": the names between
        // "only " and " take", in any order.
        let listed = message.components(separatedBy: "only ").last!.components(separatedBy: " take").first!
            .replacingOccurrences(of: " and ", with: ", ").components(separatedBy: ", ")
        XCTAssertEqual(Set(listed), Set(taking), message)
    }

    func testOnlyTheCommandBlockIsLeftOutOfBlocksOptionAndOnlyTheClockNeedsNoSnapshotOrCommand() {
        XCTAssertEqual(BlockKind.allCases.filter { !$0.isNamedInBlocksOption }, [.command])
        XCTAssertEqual(BlockKind.allCases.filter(\.isClock), [.time])
        XCTAssertEqual(BlockKind.allCases.filter(\.runsCommand), [.command])
        XCTAssertEqual(BlockKind.allCases.filter { $0.descriptor.hasForms }, [.mem])
        XCTAssertEqual(BlockKind.allCases.filter { $0.descriptor.showsRendererCost }, [.selfCost])
        XCTAssertEqual(BlockKind.allCases.filter { $0.descriptor.showsEvents }, [.exited])
        XCTAssertEqual(BlockKind.allCases.filter { $0.descriptor.hiddenWhenMissingByDefault },
                       [.battery, .net, .wifi, .disk, .temp, .gpu, BlockKind.listed(.fans)!, BlockKind.listed(.power)!,
                        BlockKind.listed(.backlight)!, BlockKind.listed(.volume)!, BlockKind.listed(.microphone)!,
                        BlockKind.listed(.media)!, BlockKind.listed(.units)!])
    }
}
