import BarCore
import SnapshotCodec
import XCTest

final class OptionsTests: XCTestCase {
    func parse(_ args: [String]) throws(OptionsError) -> BarOptions {
        try BarOptions.parse(args.map { Array($0.utf8) })
    }

    func testDefaultsAreTextWithTheDefaultBlocks() throws {
        let o = try parse([])
        XCTAssertEqual(o.output, .text)
        XCTAssertEqual(o.blocks, BlockKind.defaults)
        XCTAssertNil(o.runtimeDir)
        XCTAssertFalse(o.once)
    }

    func testAllOptionsParseInBothSpellings() throws {
        let o = try parse(["--output", "i3bar", "--runtime-dir=/run/x", "--blocks", "mem,self,mem,cpu", "--once"])
        XCTAssertEqual(o.output, .i3bar)
        XCTAssertEqual(o.runtimeDir, Array("/run/x".utf8))
        XCTAssertEqual(o.blocks, [.mem, .selfCost, .cpu])
        XCTAssertTrue(o.once)
        XCTAssertEqual(try parse(["--output=waybar"]).output, .waybar)
    }

    func testBadCommandLinesAreRejectedWithTheirReason() {
        func error(_ args: [String]) -> OptionsError? {
            do { _ = try parse(args); return nil } catch { return error }
        }
        XCTAssertEqual(error(["--bogus"]), .unknownOption)
        XCTAssertEqual(error(["--output"]), .missingValue)
        XCTAssertEqual(error(["--output", "lemonbar"]), .unknownOutput)
        XCTAssertEqual(error(["--blocks", "cpu,,mem"]), .unknownBlock)
        XCTAssertEqual(error(["--blocks", "gpu"]), .unknownBlock)
        XCTAssertEqual(error(["--runtime-dir="]), .emptyRuntimeDir)
    }

    func testRuntimeDirFollowsTheSamplersRules() {
        func dir(_ option: String?, _ xdg: String?, _ uid: UInt32 = 1000) -> String {
            String(decoding: resolveRuntimeDir(option: option.map { Array($0.utf8) }, xdgRuntimeDir: xdg.map { Array($0.utf8) }, uid: uid),
                   as: UTF8.self)
        }
        XCTAssertEqual(dir("/x", "/run/user/1000"), "/x")
        XCTAssertEqual(dir(nil, "/run/user/1000"), "/run/user/1000/sysstats")
        XCTAssertEqual(dir(nil, "/run/user/1000/"), "/run/user/1000/sysstats")
        XCTAssertEqual(dir(nil, "relative"), "/tmp/sysstats-1000")
        XCTAssertEqual(dir(nil, nil, 0), "/tmp/sysstats-0")
    }

    func testTheRendererWakesJustAfterTheSnapshotTurnsStale() {
        var s = Snapshot()
        s.timestampMs = 10_000
        s.intervalMs = 1000
        XCTAssertEqual(Staleness.msUntilStale(s, nowMs: 12_000), 3001)   // stale after 5 s, not 3
        XCTAssertEqual(Staleness.msUntilStale(s, nowMs: 20_000), 0)
        s.intervalMs = 2000
        XCTAssertEqual(Staleness.msUntilStale(s, nowMs: 12_000), 4001)
    }
}
