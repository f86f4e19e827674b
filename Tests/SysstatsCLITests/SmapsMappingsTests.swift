import TestSupport
import XCTest
@testable import SysstatsCLI

/// /proc/PID/smaps grouped by kind of mapping, for `measure`'s breakdown at a process's peak.
final class SmapsMappingsTests: XCTestCase {
    func parse(_ text: String) -> [MappingFigures] {
        Array(text.utf8).withUnsafeBytes { SmapsMappings.parse($0) }
    }

    static func mapping(_ header: String, rss: Int, pss: Int, privateDirty: Int, anonymous: Int, swap: Int = 0) -> String {
        """
        \(header)
        Size:               \(rss * 2) kB
        KernelPageSize:        4 kB
        Rss:                \(rss) kB
        Pss:                \(pss) kB
        Pss_Dirty:             0 kB
        Shared_Clean:          0 kB
        Private_Clean:         0 kB
        Private_Dirty:      \(privateDirty) kB
        Anonymous:          \(anonymous) kB
        Swap:               \(swap) kB
        SwapPss:            \(swap) kB
        VmFlags: rd wr mr mw me ac

        """
    }

    func testMappingsAreGroupedByKindAndFileLargestFirst() throws {
        let text = Self.mapping("55d4c0a5e000-55d4c0a7a000 r--p 00000000 08:01 1234                       /usr/lib/x86_64-linux-gnu/libc.so.6", rss: 800, pss: 200, privateDirty: 0, anonymous: 0)
            + Self.mapping("55d4c0a7a000-55d4c0a9a000 rw-p 0001c000 08:01 1234                       /usr/lib/x86_64-linux-gnu/libc.so.6", rss: 100, pss: 100, privateDirty: 100, anonymous: 100)
            + Self.mapping("55d4c1000000-55d4c2000000 rw-p 00000000 00:00 0                          [heap]", rss: 12000, pss: 12000, privateDirty: 12000, anonymous: 12000)
            + Self.mapping("7f0000000000-7f0001000000 rw-p 00000000 00:00 0 ", rss: 5000, pss: 5000, privateDirty: 5000, anonymous: 5000, swap: 300)
            + Self.mapping("7f0001000000-7f0002000000 rw-p 00000000 00:00 0", rss: 200, pss: 200, privateDirty: 200, anonymous: 200)
            + Self.mapping("7f0002000000-7f0003000000 rw-s 00000000 00:01 99                         /dev/shm/pool (deleted)", rss: 3000, pss: 750, privateDirty: 0, anonymous: 0)
            + Self.mapping("7f0003000000-7f0003100000 rw-p 00000000 00:00 0                          [stack:4242]", rss: 8, pss: 8, privateDirty: 8, anonymous: 8)
            + Self.mapping("7ffd00000000-7ffd00100000 rw-p 00000000 00:00 0                          [stack]", rss: 132, pss: 132, privateDirty: 132, anonymous: 132)
            + Self.mapping("7f0004000000-7f0004100000 rw-p 00000000 00:00 0                          [anon:dart heap]", rss: 40, pss: 40, privateDirty: 40, anonymous: 40)
        let kinds = parse(text)
        XCTAssertEqual(kinds.map { String(decoding: $0.name, as: UTF8.self) },
                       ["[heap]", "anon", "pool", "libc.so.6", "[stack]", "[anon:dart heap]"])
        let anon = try XCTUnwrap(kinds.first { $0.name == Array("anon".utf8) })
        XCTAssertEqual(anon.rssKiB, 5200)
        XCTAssertEqual(anon.anonKiB, 5500, "Anonymous + Swap")
        XCTAssertEqual(anon.mappings, 2)
        let libc = try XCTUnwrap(kinds.first { $0.name == Array("libc.so.6".utf8) })
        XCTAssertEqual(libc.rssKiB, 900)
        XCTAssertEqual(libc.pssKiB, 300)
        XCTAssertEqual(libc.ussKiB, 100)
        XCTAssertEqual(kinds.first { $0.name == Array("[stack]".utf8) }?.rssKiB, 140, "every thread's stack is one kind")
        XCTAssertEqual(kinds.first { $0.name == Array("pool".utf8) }?.pssKiB, 750)
    }

    /// The kernel names a MAP_SHARED|MAP_ANONYMOUS map `/dev/zero (deleted)`: the breakdown
    /// called a pre-fork server's 64 MiB arena `zero`, as though a file. It is `shared anon`,
    /// its anonymous figure the process's share (Pss), as peak_anon counts it.
    func testASharedAnonymousArenaIsNamedSoAndCountedAsItsShare() throws {
        let text = try String(contentsOfFile: Fixtures.path("measure/prefork-arena/parent.smaps"), encoding: .utf8)
        let kinds = parse(text)
        XCTAssertEqual(kinds.map { String(decoding: $0.name, as: UTF8.self) },
                       ["shared anon", "libc.so.6", "[heap]", "[stack]", "prefork-server"])
        let arena = try XCTUnwrap(kinds.first)
        XCTAssertEqual(arena.rssKiB, 65536)
        XCTAssertEqual(arena.pssKiB, 16384)
        XCTAssertEqual(arena.anonKiB, 16384, "its share of the arena: Anonymous is 0 for shmem")
        XCTAssertEqual(kinds.first { $0.name == Array("[heap]".utf8) }?.anonKiB, 64, "a private map: Anonymous + Swap, as before")
        XCTAssertEqual(kinds.first { $0.name == Array("libc.so.6".utf8) }?.anonKiB, 0, "a file is not the program's own")
        XCTAssertEqual(MeasureReport.mappingsText(kinds, .anon, count: 2), "shared anon 16.0 MiB, [heap] 64.0 KiB")
    }

    /// A memfd is `/memfd:NAME (deleted)`, NAME any bytes the program chose (a slash too):
    /// `memfd NAME`, cut as any name; System V and POSIX shared memory keep their names and
    /// count as shared anonymous memory. A file that only looks like them does not.
    func testMemfdsAndSharedMemorySegmentsAreSharedAnonymousMemory() throws {
        let long = String(repeating: "y", count: 100)
        let text = Self.mapping("7f0000000000-7f0000400000 rw-s 00000000 00:01 7 /memfd:wayland/shm (deleted)", rss: 4096, pss: 2048, privateDirty: 0, anonymous: 0, swap: 8)
            + Self.mapping("7f0000400000-7f0000500000 rw-s 00000000 00:01 8 /memfd:\(long) (deleted)", rss: 10, pss: 10, privateDirty: 0, anonymous: 0)
            + Self.mapping("7f0000500000-7f0000600000 rw-s 00000000 00:01 9 /SYSV0000abcd (deleted)", rss: 300, pss: 100, privateDirty: 0, anonymous: 0)
            + Self.mapping("7f0000600000-7f0000700000 rw-s 00000000 00:19 10 /dev/shm/pool", rss: 200, pss: 50, privateDirty: 0, anonymous: 0)
            + Self.mapping("7f0000700000-7f0000800000 rw-s 00000000 08:01 11 /home/u/dev/zero (deleted)", rss: 20, pss: 20, privateDirty: 0, anonymous: 0)
            + Self.mapping("7f0000800000-7f0000900000 rw-s 00000000 08:01 12 /home/u/memfd:x", rss: 16, pss: 16, privateDirty: 0, anonymous: 0)
        let kinds = parse(text)
        func anon(_ name: String) -> UInt64? { kinds.first { $0.name == Array(name.utf8) }?.anonKiB }
        XCTAssertEqual(anon("memfd wayland/shm"), 2048 + 8, "Pss + SwapPss")
        let cut = "memfd " + String(repeating: "y", count: SmapsMappings.maximumNameBytes - 6)
        XCTAssertEqual(anon(cut), 10)
        XCTAssertEqual(anon("SYSV0000abcd"), 100)
        XCTAssertEqual(anon("pool"), 50)
        XCTAssertEqual(anon("zero"), 0, "a file named zero elsewhere is a file")
        XCTAssertEqual(anon("memfd:x"), 0, "and so is one named memfd:x")
    }

    func testTheLargestAreKeptAndTheRestSummedAsOther() {
        var kinds: [MappingFigures] = []
        for i in 1...5 {
            var m = MappingFigures(name: Array("m\(i)".utf8))
            m.rssKiB = UInt64(i * 100); m.anonKiB = UInt64(600 - i * 100)
            kinds.append(m)
        }
        let byRSS = SmapsMappings.largest(kinds, 2, by: \.rssKiB)
        XCTAssertEqual(byRSS.map { String(decoding: $0.name, as: UTF8.self) }, ["m5", "m4", "other"])
        XCTAssertEqual(byRSS.last?.rssKiB, 600)
        XCTAssertEqual(MeasureReport.mappingsText(kinds, .anon, count: 2), "m1 500 KiB, m2 400 KiB")
        XCTAssertEqual(MeasureReport.mappingsText(kinds, .rss, count: 2, withOther: true), "m5 500 KiB, m4 400 KiB, other 600 KiB")
    }

    /// A process names its files: any bytes, cut to 64, shown escaped; numbers saturate;
    /// past 256 kinds the mappings go to `other`; lines that are neither are skipped.
    func testHostileNamesAndNumbersAreCutSaturatedAndBounded() throws {
        let long = String(repeating: "x", count: 300)
        var text = "00400000-00401000 r-xp 00000000 08:01 1 /tmp/\(long)\u{1B}]0;title\nRss: 99999999999999999999999 kB\nRss: 5 kB\n"
        text += "garbage line without a colon\nPss: not a number kB\n-1 nothing\n"
        for i in 0..<300 { text += "\(String(0x500000 + i, radix: 16))-00600000 r--p 0 0:0 1 /lib/f\(i)\nRss: 1 kB\n" }
        let kinds = parse(text)
        XCTAssertEqual(kinds.count, SmapsMappings.maximumKinds + 1, "the kinds past the limit are one: other")
        let first = try XCTUnwrap(kinds.first)
        XCTAssertEqual(first.rssKiB, .max, "saturated")
        XCTAssertEqual(first.name.count, SmapsMappings.maximumNameBytes)
        XCTAssertEqual(kinds.first { $0.name == Array("other".utf8) }?.rssKiB, UInt64(300 - (SmapsMappings.maximumKinds - 1)))
        XCTAssertFalse(MeasureReport.mappingsText([first], .rss, count: 1).contains("\u{1B}"), "escaped where shown")
        XCTAssertEqual(parse(""), [])
        XCTAssertEqual(parse("Rss: 5 kB\n"), [], "figures before any mapping are nobody's")
    }
}

/// docs/reliability.md's table of fuzz targets names every target Fuzz/run.sh builds, and its
/// count is theirs.
final class FuzzTargetListTests: XCTestCase {
    func testTheReliabilityPageListsEveryFuzzTarget() throws {
        let root = ConfigCommandTests.root
        let script = try String(contentsOf: root.appendingPathComponent("Fuzz/run.sh"), encoding: .utf8)
        let line = try XCTUnwrap(script.split(separator: "\n").first { $0.hasPrefix("all_targets=(") })
        let targets = line.dropFirst("all_targets=(".count).dropLast().split(separator: " ").map(String.init)
        let page = try String(contentsOf: root.appendingPathComponent("docs/reliability.md"), encoding: .utf8)
        for t in targets {
            XCTAssertTrue(page.contains("| `\(t)` |"), "docs/reliability.md has no row for \(t)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("Fuzz/\(t).swift").path), "no Fuzz/\(t).swift")
        }
        let words = ["Ten", "Eleven", "Twelve", "Thirteen", "Fourteen", "Fifteen", "Sixteen", "Seventeen", "Eighteen", "Nineteen", "Twenty"]
        let count = try XCTUnwrap(words.indices.first { page.contains("\(words[$0]) libFuzzer targets") }.map { $0 + 10 })
        XCTAssertEqual(count, targets.count, "the page's count of targets")
    }
}
