import Foundation
import SnapshotCodec
import XCTest
import TestSupport
@testable import Sampler

/// The sampler shows friendly names from the bookmark rules cache (`bookmarks.rules`),
/// picks up a changed cache without a restart, and falls back when it is gone or bad.
final class BookmarkNamesTests: XCTestCase {
    static let t0: UInt64 = 1_763_712_345_000

    final class Run {
        let machine: FixtureMachine
        let sampler: Sampler
        let rules: URL
        /// Beside the fixture tree, not in it: advancing the tree removes what the fixture lacks.
        let data: TemporaryDirectory
        var step: UInt64 = 0

        init(_ fixture: String, cache: String?, builtins: Bool = false) throws {
            machine = try FixtureMachine(fixture)
            try machine.advance(to: 1)
            data = try TemporaryDirectory("rules")
            rules = data.url.appendingPathComponent("bookmarks.rules")
            var config = SamplerConfiguration()
            config.procRoot = machine.procRoot
            config.sysRoot = machine.sysRoot
            config.measureSelf = false
            config.builtinBookmarks = builtins
            config.rulesPath = rules.path
            if let cache { try Run.write(cache, to: rules) }
            sampler = Sampler(configuration: config)
        }

        /// Replaces the cache as the CLI does: a new file renamed over the old one.
        func write(_ text: String) throws { try Run.write(text, to: rules) }

        static func write(_ text: String, to rules: URL) throws {
            let temporary = rules.appendingPathExtension("tmp")
            try Data(text.utf8).write(to: temporary)
            _ = rename(temporary.path, rules.path)
        }

        func sample() {
            step += 1
            sampler.sample(realtimeMs: BookmarkNamesTests.t0 + step * 1000, monotonicNs: step * 1_000_000_000)
        }

        func topMemoryNames() -> [String] { sampler.snapshot.topMemory.map { String(decoding: $0.name, as: UTF8.self) } }
        func topCPUNames() -> [String] { sampler.snapshot.topCPU.map { String(decoding: $0.name, as: UTF8.self) } }
    }

    static let header = "sysstats-bookmarks 1\n"

    func testTruncatedRuleNamesAProcessWhoseCommWasCutAt15Bytes() throws {
        let run = try Run("sampler-bookmarks", cache: Self.header + "truncated\tgnome-control-center\tSettings\tsource=user\n")
        run.sample()
        XCTAssertEqual(run.topMemoryNames().first, "Settings")
        try run.machine.advance(to: 2)
        run.sample()
        XCTAssertEqual(run.topMemoryNames().first, "Settings", "\(run.sampler.snapshot.topMemory)")
        XCTAssertEqual(run.topCPUNames().first, "Settings")
    }

    func testWithoutRulesTheKernelNameIsShown() throws {
        let run = try Run("sampler-bookmarks", cache: nil)
        run.sample()
        XCTAssertEqual(run.topMemoryNames().first, "gnome-control-c")
    }

    func testSuffixStripWithEmptyFriendlyNameShowsTheStrippedName() throws {
        let run = try Run("sampler-bookmarks", cache: Self.header + "comm\tWeb Content\t\tstrip=after:~\tsource=imported\n")
        run.sample()
        XCTAssertTrue(run.topMemoryNames().contains("Web Content"), "\(run.topMemoryNames())")
        XCTAssertFalse(run.topMemoryNames().contains("Web Content~2"))
    }

    func testARuleAddedWhileRunningIsShownAtTheNextSampleAndARemovedOneGoesAway() throws {
        let run = try Run("sampler-bookmarks", cache: nil)
        run.sample()
        XCTAssertEqual(run.topMemoryNames().first, "gnome-control-c")
        try run.write(Self.header + "truncated\tgnome-control-center\tSettings\tsource=user\n")
        run.sample()
        XCTAssertEqual(run.topMemoryNames().first, "Settings")
        try run.write(Self.header + "truncated\tgnome-control-center\tControl Center\tsource=user\n")
        run.sample()
        XCTAssertEqual(run.topMemoryNames().first, "Control Center")
        try FileManager.default.removeItem(at: run.rules)
        run.sample()
        XCTAssertEqual(run.topMemoryNames().first, "gnome-control-c")
    }

    func testARefusedCacheFallsBackToTheBuiltInRulesWithoutACrash() throws {
        let run = try Run("sampler-bookmarks", cache: "not a bookmarks file\n\u{1}\u{2}")
        run.sample()
        XCTAssertEqual(run.topMemoryNames().first, "gnome-control-c")
        let huge = Self.header + String(repeating: "# padding\n", count: 30_000)
        try run.write(huge)
        run.sample()
        XCTAssertEqual(run.topMemoryNames().first, "gnome-control-c")
    }

    func testAFIFOAtTheRulesCacheNeitherBlocksTheSamplerNorIsRead() throws {
        let run = try Run("sampler-bookmarks", cache: nil)
        XCTAssertEqual(mkfifo(run.rules.path, 0o600), 0)
        run.sample()   // blocked forever in open(2) before O_NONBLOCK and the fstat check
        XCTAssertEqual(run.topMemoryNames().first, "gnome-control-c")
    }

    func testAnExitShowsItsFriendlyNameAndHistoryKeepsBothNames() throws {
        let run = try Run("sampler-desktop", cache: Self.header + "exe\tfirefox-esr\tFirefox\tsource=user\n")
        run.sample()
        try run.machine.advance(to: 2)
        run.sample()
        let exits = run.sampler.snapshot.exits
        XCTAssertEqual(exits.map { String(decoding: $0.name, as: UTF8.self) }, ["Firefox"])
        XCTAssertEqual(run.sampler.exitNames.map { String(decoding: $0.name, as: UTF8.self) }, ["firefox-esr"])
        XCTAssertEqual(run.sampler.exitNames.map { String(decoding: $0.friendlyName, as: UTF8.self) }, ["Firefox"])
    }

    func testAHostileRulesCacheLeavesProcessesTheirOwnNamesAndIsCountedWhereOrdinaryRulesAreNot() throws {
        // As many long bracket globs as a cache may hold: far too much work for any process.
        var hostile = Self.header
        for i in 0..<4096 {
            let line = "glob\t*[" + String(repeating: "a", count: 40 + i % 16) + "]b*\t\tsource=imported\n"
            if hostile.utf8.count + line.utf8.count > 256 * 1024 { break }
            hostile += line
        }
        let run = try Run("sampler-bookmarks", cache: hostile, builtins: true)
        run.sample()
        XCTAssertGreaterThan(run.sampler.resolverBudgetHits, 0)
        XCTAssertTrue(run.topMemoryNames().contains("gnome-control-c"), "\(run.topMemoryNames())")

        let ordinary = try Run("sampler-bookmarks", cache: Self.header + "truncated\tgnome-control-center\tSettings\tsource=user\n",
                               builtins: true)
        ordinary.sample()
        XCTAssertEqual(ordinary.sampler.resolverBudgetHits, 0)
    }
}
