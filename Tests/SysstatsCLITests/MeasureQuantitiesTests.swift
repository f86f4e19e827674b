import Foundation
@testable import SysstatsCLI
import TestSupport
import XCTest

final class MeasureQuantitiesTests: XCTestCase {
    func size(_ text: String) -> UInt64? { try? SizeText.parse(text).get() }
    func duration(_ text: String) -> UInt64? { try? DurationText.parse(text).get() }

    func testSizesReadBinaryAndDecimalUnitsAndFractions() {
        XCTAssertEqual(size("2 MiB"), 2 << 20)
        XCTAssertEqual(size("300K"), 300 * 1024)
        XCTAssertEqual(size("300k"), 300 * 1024)
        XCTAssertEqual(size("1.5 GiB"), 3 << 29)
        XCTAssertEqual(size("4096"), 4096)
        XCTAssertEqual(size("12 B"), 12)
        XCTAssertEqual(size("2MB"), 2_000_000)
        XCTAssertEqual(size("0.001 kB"), 1)
        XCTAssertEqual(size(" 7 M "), 7 << 20)
    }

    /// `"30 mb"` was taken as decimal megabytes without a word: an ambiguous spelling is
    /// refused, naming both readings; kB, MB, GB, TB written so stay decimal.
    func testAnAmbiguousUnitIsRefusedNamingBothReadings() {
        XCTAssertEqual(SizeText.parse("30 mb").failure?.message, "'30 mb' is ambiguous: write MB (powers of 1000) or MiB (powers of 1024)")
        XCTAssertEqual(SizeText.parse("2 KB").failure?.message, "'2 KB' is ambiguous: write kB (powers of 1000) or KiB (powers of 1024)")
        for bad in ["1 gb", "1 Gb", "1 kb", "1 tB"] { XCTAssertNil(size(bad), bad) }
        XCTAssertEqual(size("30 MB"), 30_000_000)
        XCTAssertEqual(size("3 kB"), 3_000)
        XCTAssertEqual(size("30 mib"), 30 << 20, "a binary unit in any case")
    }

    func testSizesRefuseWhatIsNotOneWithTheTextInTheMessage() {
        for bad in ["", "MiB", "2 parsecs", "1.2345 MiB", "1.", ".5M", "-1 MiB", "2 MiB x", "1e3", "99999999999999999999", "20000000 TiB"] {
            switch SizeText.parse(bad) {
            case .success(let v): XCTFail("'\(bad)' read as \(v)")
            case .failure(let e): XCTAssertTrue(e.message.contains("'\(bad)'"), e.message)
            }
        }
    }

    func testDurationsNeedAUnitAndReadMillisecondsToHours() {
        XCTAssertEqual(duration("500ms"), 500)
        XCTAssertEqual(duration("1s"), 1000)
        XCTAssertEqual(duration("1.25s"), 1250)
        XCTAssertEqual(duration("2m"), 120_000)
        XCTAssertEqual(duration("2 min"), 120_000)
        XCTAssertEqual(duration("1h"), 3_600_000)
        XCTAssertNil(duration("10"), "a bare number could be seconds or milliseconds")
        XCTAssertNil(duration("3 days"))
        XCTAssertNil(duration("18446744073709551615h"))
    }

    func testSizesAndDurationsAreFormattedForPeople() {
        XCTAssertEqual(SizeText.format(512), "512 B")
        XCTAssertEqual(SizeText.format(3 << 20), "3.00 MiB")
        XCTAssertEqual(SizeText.format(812 * 1024), "812 KiB")
        XCTAssertEqual(SizeText.format(UInt64.max), "16777216 TiB")
        XCTAssertEqual(SizeText.formatSigned(-1.5 * 1024 * 1024), "-1.50 MiB")
        XCTAssertEqual(SizeText.formatSigned(0.2), "0 B")
        XCTAssertEqual(SizeText.formatSigned(.infinity), "+16777216 TiB")
        XCTAssertEqual(DurationText.format(ms: 850), "850 ms")
        XCTAssertEqual(DurationText.format(ms: 2500), "2.50 s")
        XCTAssertEqual(DurationText.format(ms: 200_000), "3 min 20 s")
    }
}

final class LeastSquaresTests: XCTestCase {
    func testAnExactLineIsFoundWithRSquaredOne() throws {
        let xs = (0..<50).map { Double($0) / 10 }
        let fit = try XCTUnwrap(LinearFit.fit(xs, xs.map { 3 * $0 + 1_000_000 }))
        XCTAssertEqual(fit.slope, 3, accuracy: 1e-9)
        XCTAssertEqual(fit.intercept, 1_000_000, accuracy: 1e-6)
        XCTAssertEqual(fit.rSquared, 1, accuracy: 1e-12)
        XCTAssertTrue(fit.isSignificant(spanX: 4.9, noiseFloor: 1))
    }

    func testAFlatSeriesWithJitterIsNotSignificant() throws {
        let xs = (0..<300).map { Double($0) }
        let ys = xs.map { 40_000 + ((Int($0) * 7919) % 3 == 0 ? 4.0 : 0.0) }   // a page now and then
        let fit = try XCTUnwrap(LinearFit.fit(xs, ys))
        XCTAssertFalse(fit.isSignificant(spanX: 299, noiseFloor: 256))
    }

    func testAFlatSeriesIsExplainedAndHasNoSlope() throws {
        let fit = try XCTUnwrap(LinearFit.fit([0, 1, 2, 3, 4], [5, 5, 5, 5, 5]))
        XCTAssertEqual(fit.slope, 0)
        XCTAssertEqual(fit.rSquared, 1)
        XCTAssertFalse(fit.isSignificant(spanX: 4, noiseFloor: 1))
    }

    func testTooFewPointsOrOneXGiveNoFit() {
        XCTAssertNil(LinearFit.fit([1], [2]))
        XCTAssertNil(LinearFit.fit([1, 1, 1], [2, 3, 4]))
        XCTAssertNil(LinearFit.fit([], []))
        XCTAssertNil(LinearFit.fit([0, .infinity], [1, 2]))
    }

    func testASlopeLostInNoiseIsNotSignificant() throws {
        // A slight trend under large alternating noise: R² is low.
        let xs = (0..<100).map { Double($0) }
        let ys = xs.map { $0 * 0.5 + ((Int($0) % 2 == 0) ? 500 : -500) }
        let fit = try XCTUnwrap(LinearFit.fit(xs, ys))
        XCTAssertLessThan(fit.rSquared, 0.5)
        XCTAssertFalse(fit.isSignificant(spanX: 99, noiseFloor: 1))
    }
}

final class ProcessFiguresTests: XCTestCase {
    func parse(_ text: String) -> MemoryFigures? {
        Array(text.utf8).withUnsafeBytes { MemoryFigures.parseSmapsRollup($0) }
    }

    func testSmapsRollupGivesRSSPSSUSSAndSwap() {
        let text = """
            55d0c0a00000-7ffd6a5f3000 ---p 00000000 00:00 0                          [rollup]
            Rss:                4000 kB
            Pss:                2500 kB
            Pss_Anon:           2000 kB
            Shared_Clean:       1500 kB
            Private_Clean:       300 kB
            Private_Dirty:      2200 kB
            Anonymous:          2100 kB
            Swap:                 12 kB
            SwapPss:              12 kB

            """
        // anon: Pss_Anon + Pss_Shmem (none here) + SwapPss, not Anonymous + Swap (2112).
        XCTAssertEqual(parse(text), MemoryFigures(rssKiB: 4000, pssKiB: 2500, ussKiB: 2500, swapKiB: 12, anonKiB: 2012))
    }

    /// USS counted a mapped file's page cache (200 MiB for a program with 0.1 MiB of its own):
    /// the anonymous figure is the program's own memory, resident or swapped out. A kernel
    /// before 5.3 has no Pss_Anon line: Anonymous + Swap then.
    func testAnonymousMemoryLeavesOutAMappedFilesPageCache() {
        let text = "Rss: 204900 kB\nPss: 204900 kB\nPrivate_Clean: 204800 kB\nPrivate_Dirty: 100 kB\nAnonymous: 100 kB\nSwap: 4 kB\n"
        let figures = parse(text)
        XCTAssertEqual(figures?.ussKiB, 204_900, "USS: the file's clean private pages too")
        XCTAssertEqual(figures?.anonKiB, 104, "anonymous: its own pages and its swap")
        let modern = parse(text + "Pss_Anon: 100 kB\nPss_File: 204800 kB\nPss_Shmem: 0 kB\nSwapPss: 4 kB\n")
        XCTAssertEqual(modern?.anonKiB, 104, "Pss_File is the file's: not the program's own")
    }

    /// A pre-fork worker's share of its parent's 64 MiB MAP_SHARED|MAP_ANONYMOUS arena is
    /// shmem: `Anonymous` (96 KiB) leaves it out, Pss_Shmem has the worker's quarter.
    func testSharedAnonymousMemoryIsCountedAsItsShare() throws {
        let text = try String(contentsOfFile: Fixtures.path("measure/prefork-arena/worker-1.smaps_rollup"), encoding: .utf8)
        let figures = try XCTUnwrap(parse(text))
        XCTAssertEqual(figures.anonKiB, 51 + 16384 + 0, "Pss_Anon + Pss_Shmem + SwapPss")
        XCTAssertEqual(figures.rssKiB, 67232)
        XCTAssertEqual(figures.ussKiB, 36)
    }

    /// Each of the three figures saturates, and so does their sum.
    func testHostileSharedMemoryFiguresSaturate() {
        let huge = parse("Rss: 1 kB\nPss_Anon: 18446744073709551615 kB\nPss_Shmem: 18446744073709551615 kB\nSwapPss: 99999999999999999999999 kB\n")
        XCTAssertEqual(huge?.anonKiB, .max)
        let one = parse("Rss: 1 kB\nPss_Anon: 18446744073709551614 kB\nPss_Shmem: 2 kB\nSwapPss: 0 kB\nAnonymous: 5 kB\n")
        XCTAssertEqual(one?.anonKiB, .max)
        XCTAssertEqual(parse("Rss: 1 kB\nPss_Anon: x kB\nAnonymous: 7 kB\n")?.anonKiB, 7, "a Pss_Anon without a number is no Pss_Anon")
    }

    func testAZombiesEmptyRollupAndHostileNumbersNeverTrap() {
        XCTAssertNil(parse(""))
        XCTAssertNil(parse("55d0c0a00000-7ffd6a5f3000 ---p 00000000 00:00 0   [rollup]\n"))
        let huge = parse("Rss: 99999999999999999999999 kB\nPrivate_Clean: 18446744073709551615 kB\nPrivate_Dirty: 5 kB\nPss: x kB\n")
        XCTAssertEqual(huge?.rssKiB, .max)
        XCTAssertEqual(huge?.ussKiB, .max)
        XCTAssertEqual(huge?.pssKiB, 0)
    }

    func testStatNameMayHoldParenthesesSpacesAndNewlines() throws {
        let text = "4242 (a) (b\nc) S 1 4242 4242 0 -1 4194560 100 0 0 0 7 3 0 0 20 0 5 0 123456 1000 200 18446744073709551615\n"
        let stat = try XCTUnwrap(Array(text.utf8).withUnsafeBytes { StatFigures.parse($0) })
        XCTAssertEqual(stat.name, Array("a) (b\nc".utf8))
        XCTAssertEqual(stat.state, UInt8(ascii: "S"))
        XCTAssertEqual(stat.parentPid, 1)
        XCTAssertEqual(stat.cpuTicks, 10)
        XCTAssertEqual(stat.threads, 5)
        XCTAssertEqual(stat.startTime, 123456)
        XCTAssertEqual(stat.childrenFaults, 0, "it reaped no child that ran")
        let parent = "4243 (sh) Z 1 4243 4243 0 -1 4194560 100 55 0 2 7 3 0 0 20 0 1 0 123457 0 0 0\n"
        XCTAssertEqual(Array(parent.utf8).withUnsafeBytes { StatFigures.parse($0) }?.childrenFaults, 57, "cminflt + cmajflt")
    }

    func testTruncatedStatIsRefused() {
        XCTAssertNil(Array("12 (x) S 1 2 3".utf8).withUnsafeBytes { StatFigures.parse($0) })
        XCTAssertNil(Array("no parentheses".utf8).withUnsafeBytes { StatFigures.parse($0) })
        XCTAssertNil(Array(")(".utf8).withUnsafeBytes { StatFigures.parse($0) })
    }

    func testStatusGivesTheHighWaterMark() {
        let text = "Name:\tx\nVmPeak:\t  9000 kB\nVmHWM:\t    4321 kB\nVmRSS:\t  4000 kB\n"
        XCTAssertEqual(Array(text.utf8).withUnsafeBytes { parseStatusHWM($0) }, 4321)
        XCTAssertNil(Array("Name:\tkthreadd\n".utf8).withUnsafeBytes { parseStatusHWM($0) })
    }

    func testTheWalkerReadsChildrenFiles() {
        let walker = ProcessTreeWalker()
        var out: [Int32] = []
        Array("12 345 99999999999 6\n".utf8).withUnsafeBytes { walker.appendNumbers($0, to: &out) }
        XCTAssertEqual(out, [12, 345, 6])
    }

    func testTheWalkerFindsAChildOfThisProcess() throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sleep")
        child.arguments = ["5"]
        try child.run()
        defer { child.terminate(); child.waitUntilExit() }
        XCTAssertTrue(ProcessTreeWalker().descendants(of: getpid()).contains(child.processIdentifier))
    }
}

final class CgroupPathsTests: XCTestCase {
    func testMembershipAndMountsAreFoundForBothVersions() throws {
        let membership = "12:memory:/user.slice/x\n1:name=systemd:/y\n0::/user.slice/user-1000.slice/session-2.scope\n"
        XCTAssertEqual(CgroupPaths.v2Path(membership), "/user.slice/user-1000.slice/session-2.scope")
        XCTAssertEqual(CgroupPaths.v1MemoryPath(membership), "/user.slice/x")
        let mounts = """
            30 23 0:26 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw,nsdelegate
            40 23 0:30 /docker/abc /sys/fs/cgroup/my\\040memory rw - cgroup cgroup rw,memory
            """
        let v2 = try XCTUnwrap(CgroupPaths.mountPoint(mounts, v2: true))
        XCTAssertEqual(v2.point, "/sys/fs/cgroup")
        let v1 = try XCTUnwrap(CgroupPaths.mountPoint(mounts, v2: false))
        XCTAssertEqual(v1.point, "/sys/fs/cgroup/my memory")
        XCTAssertEqual(CgroupPaths.relative("/docker/abc/inner", toRoot: v1.root), "/inner")
        XCTAssertEqual(CgroupPaths.relative("/docker/abc", toRoot: v1.root), "/")
        XCTAssertEqual(CgroupPaths.join("/sys/fs/cgroup", "/"), "/sys/fs/cgroup")
    }
}

final class CgroupMemoryStatTests: XCTestCase {
    func testV2AnonAndFileAndV1RssAndCacheAreReadAndAnythingElseIsNil() {
        let v2 = "anon 67108864\nfile 4096\nkernel 12288\nshmem 0\nfile_mapped 0\n"
        XCTAssertEqual(CgroupMemoryStat.parse(v2), CgroupMemoryStat(anon: 67_108_864, file: 4096))
        // v1: the hierarchy's totals (total_*), not the cgroup's own children-less figures.
        let v1 = "cache 10\nrss 20\ntotal_cache 1048576\ntotal_rss 2097152\n"
        XCTAssertEqual(CgroupMemoryStat.parse(v1), CgroupMemoryStat(anon: 2_097_152, file: 1_048_576))
        for bad in ["", "anon 1\n", "anon x\nfile 1\n", "anon 1 2\nfile 3\n", "anon 99999999999999999999\nfile 1\n"] {
            XCTAssertNil(CgroupMemoryStat.parse(bad), bad)
        }
    }
}

/// MeasureCgroup.create over a fixture: mountinfo points the hierarchies into a scratch
/// folder laid out as the kernel lays out a cgroup's files (this machine's own memory
/// controller is v1's, so the v2 path is pinned here).
final class MeasureCgroupFixtureTests: XCTestCase {
    let pid: Int32 = 4242
    var root = ""

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "cgroup-fixture-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root + "/unified/user.slice", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/memory/user.slice", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: root + "/unified/user.slice/cgroup.subtree_control", contents: Data())
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: root) }

    var membership: String { "4:memory:/user.slice\n0::/user.slice\n" }
    func mounts(v1: Bool) -> String {
        "30 23 0:26 / \(root)/unified rw - cgroup2 cgroup2 rw\n"
            + (v1 ? "40 23 0:30 / \(root)/memory rw - cgroup cgroup rw,memory\n" : "")
    }

    func testAV2CgroupWithMemoryPeakIsUsedAndItsPeakRead() throws {
        // The kernel makes memory.peak in a new cgroup when the parent enables the controller;
        // the fixture's folder stands for that cgroup, made beforehand.
        let made = root + "/unified/user.slice/sysstats-measure-\(pid)"
        try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: false)
        try "73400320\n".write(toFile: made + "/memory.peak", atomically: false, encoding: .utf8)
        FileManager.default.createFile(atPath: made + "/cgroup.procs", contents: Data())
        let cgroup = try MeasureCgroup.create(pid: pid, membership: membership, mounts: mounts(v1: true)).get()
        XCTAssertEqual(cgroup.source, "cgroup v2 memory.peak")
        XCTAssertEqual(cgroup.directory, made)
        XCTAssertEqual(cgroup.peakBytes(), 73_400_320)
        XCTAssertTrue(cgroup.enter())
        XCTAssertEqual(try String(contentsOfFile: made + "/cgroup.procs", encoding: .utf8), "\(getpid())")
    }

    func testAV2CgroupWithoutTheControllerAsksForItThenFallsBackToV1() throws {
        let v1Made = root + "/memory/user.slice/sysstats-measure-\(pid)"
        try FileManager.default.createDirectory(atPath: v1Made, withIntermediateDirectories: false)
        try "1024\n".write(toFile: v1Made + "/memory.max_usage_in_bytes", atomically: false, encoding: .utf8)
        let cgroup = try MeasureCgroup.create(pid: pid, membership: membership, mounts: mounts(v1: true)).get()
        XCTAssertEqual(cgroup.source, "cgroup v1 memory.max_usage_in_bytes")
        XCTAssertEqual(try String(contentsOfFile: root + "/unified/user.slice/cgroup.subtree_control", encoding: .utf8), "+memory",
                       "the controller is asked for in the parent's subtree_control")
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/unified/user.slice/sysstats-measure-\(pid)"),
                       "the v2 cgroup without memory.peak is removed again")
    }

    func testNoCgroupSaysWhyForEachVersion() {
        guard case .failure(let why) = MeasureCgroup.create(pid: pid, membership: "0::/user.slice\n", mounts: mounts(v1: false)) else {
            return XCTFail("a cgroup without memory.peak was taken")
        }
        XCTAssertTrue(why.reason.hasPrefix("v2: "), why.reason)
        XCTAssertTrue(why.reason.contains("has no memory.peak"), why.reason)
        guard case .failure(let none) = MeasureCgroup.create(pid: pid, membership: "", mounts: "") else {
            return XCTFail("a cgroup was made with nothing mounted")
        }
        XCTAssertEqual(none.reason, "no memory cgroup is mounted")
    }
}
