import AllocationCounter
@testable import Bookmarks
import XCTest

/// The resolver's bound on work (NameResolver.stepBudget) and the checks that keep
/// ordinary rules far from it. Step counts, never times (bench/resolve-worst.sh times it).
final class WorkBudgetTests: XCTestCase {
    // MARK: - The matcher against a plain recursive one

    /// Glob matching by the definition: `*` tries every split, every other element takes
    /// one byte (its single-byte meaning is `Glob.element`'s). Exponential, obviously right.
    private func reference(_ pattern: [UInt8], _ p: Int, _ name: [UInt8], _ s: Int) -> Bool {
        if p == pattern.count { return s == name.count }
        if pattern[p] == Glob.star {
            var split = s
            while split <= name.count {
                if reference(pattern, p + 1, name, split) { return true }
                split += 1
            }
            return false
        }
        guard s < name.count else { return false }
        let (matched, next) = pattern.withUnsafeBytes { Glob.element($0, at: p, matching: name[s]) }
        return matched && reference(pattern, next, name, s + 1)
    }

    /// A small deterministic generator (xorshift): the same cases on every run.
    private struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(bound))
        }
    }

    private func ruleMatches(_ pattern: [UInt8], _ name: [UInt8]) -> Bool {
        let resolver = NameResolver(rules: [BookmarkRule(kind: .glob, pattern: pattern, friendlyName: b("hit"))])
        return resolver.resolve(comm: name, executable: [], commandLine: []) != nil
    }

    func testGlobAndTheResolversShapeChecksAgreeWithTheRecursiveDefinitionOnRandomGlobs() {
        var random = Random(state: 0x9E37_79B9_7F4A_7C15)
        let patternBytes = b("ab*?[]!^-\\")
        let nameBytes = b("ab]-\\![")
        var matched = 0
        for _ in 0..<30_000 {
            let pattern = (0..<random.next(9)).map { _ in patternBytes[random.next(patternBytes.count)] }
            let name = (0..<random.next(9)).map { _ in nameBytes[random.next(nameBytes.count)] }
            let expected = reference(pattern, 0, name, 0)
            if expected { matched += 1 }
            let glob = pattern.withUnsafeBytes { p in name.withUnsafeBytes { n in Glob.matches(p, n) } }
            XCTAssertEqual(glob, expected, "glob \(TerminalText.escape(pattern[...], limit: 32)) name \(TerminalText.escape(name[...], limit: 32))")
            if !name.isEmpty {   // the resolver never matches an empty name
                XCTAssertEqual(ruleMatches(pattern, name), expected,
                               "rule \(TerminalText.escape(pattern[...], limit: 32)) name \(TerminalText.escape(name[...], limit: 32))")
            }
        }
        XCTAssertGreaterThan(matched, 1_000, "the cases are not all misses")
    }

    func testAGlobsShapeIsWhatEveryMatchingNameHas() {
        func shape(_ pattern: String) -> Glob.Shape { b(pattern).withUnsafeBytes { Glob.shape($0) } }
        XCTAssertEqual(shape("kworker/*"), Glob.Shape(minimumLength: 8, hasStar: true, prefix: 8, suffix: 0))
        XCTAssertEqual(shape("*a*a*b"), Glob.Shape(minimumLength: 3, hasStar: true, prefix: 0, suffix: 1))
        XCTAssertEqual(shape("irq/??-x"), Glob.Shape(minimumLength: 8, hasStar: false, prefix: 4, suffix: 2))
        XCTAssertEqual(shape("abc"), Glob.Shape(minimumLength: 3, hasStar: false, prefix: 3, suffix: 0))
        XCTAssertEqual(shape("*[ab]c"), Glob.Shape(minimumLength: 2, hasStar: true, prefix: 0, suffix: 1))
        XCTAssertEqual(shape("*[ab]"), Glob.Shape(minimumLength: 1, hasStar: true, prefix: 0, suffix: 0), "`]` may close a bracket")
        XCTAssertEqual(shape("*\\bc"), Glob.Shape(minimumLength: 2, hasStar: true, prefix: 0, suffix: 1), "`b` is part of `\\b`")
        XCTAssertEqual(shape("*[ab"), Glob.Shape(minimumLength: 3, hasStar: true, prefix: 0, suffix: 2), "an unclosed `[` is a byte")
    }

    // MARK: - Hostile rules files

    private let aName = [UInt8](repeating: 0x61, count: 255)   // a 255-byte executable name of 'a's
    private let aLine = [UInt8](repeating: 0x61, count: 254) + b("ba")

    /// The files bench/make-worst-bookmarks.py writes, through the parser (so the parser accepts them).
    private func worstFile(_ kind: String, _ pattern: (Int) -> [UInt8]) throws -> [BookmarkRule] {
        var text = b("sysstats-bookmarks 1\n")
        var count = 0
        while count < BookmarkFile.maximumRules {
            let line = b(kind) + [0x09] + pattern(count) + [0x09, 0x0A]
            if text.count + line.count > BookmarkFile.maximumSize { break }
            text += line
            count += 1
        }
        return try BookmarkFile.parse(text).rules
    }

    private var hostileFiles: [(String, [BookmarkRule])] {
        get throws {
            [
                ("glob-stars-open", try worstFile("glob") { i in Array(repeating: b("*a"), count: 20 + i % 20).flatMap { $0 } + b("*b*") }),
                ("glob-segment", try worstFile("glob") { i in b("*") + Array(repeating: 0x61, count: 40 + i % 16) + b("b*") }),
                ("glob-bracket", try worstFile("glob") { i in b("*[") + Array(repeating: 0x61, count: 40 + i % 16) + b("]b*") }),
                ("cmdline", try worstFile("cmdline") { i in Array(repeating: 0x61, count: 40 + i % 16) + b("bab") }),
            ]
        }
    }

    /// The name `resolver` gives, with the budget and with four times it, whether the budget
    /// ran out, and how many steps the larger budget took.
    private func resolveBothWays(_ resolver: NameResolver, comm: [UInt8], exe: [UInt8], line: [UInt8])
        -> (bounded: [UInt8]?, unbounded: [UInt8]?, outOfBudget: Bool, steps: Int) {
        comm.withUnsafeBytes { c in exe.withUnsafeBytes { e in line.withUnsafeBytes { l in
            var out: [UInt8] = []
            var outOfBudget = false
            let bounded = resolver.resolveRule(comm: c, executable: e, commandLine: l, into: &out, outOfBudget: &outOfBudget)
                .map { _ in out }
            // Four times the budget: enough for every process that stays within it, and
            // a debug build gets through a hostile file in well under a second.
            let larger = 4 * NameResolver.stepBudget
            var left = larger
            var all: [UInt8] = []
            let unbounded = resolver.match(comm: c, executable: e, commandLine: l, into: &all, budget: &left).map { _ in all }
            return (bounded, unbounded, outOfBudget, larger - left)
        }}}
    }

    func testHostileFilesRunOutOfBudgetOnlyWhereNoRuleMatchesAndOtherwiseNameAsWithoutIt() throws {
        for (label, rules) in try hostileFiles {
            // A user rule after the hostile ones, for a process they all miss.
            let resolver = NameResolver(rules: rules + [rule(.comm, "late", "Late", source: .builtin)])
            XCTAssertGreaterThan(resolver.ruleCount, 900, label)
            let processes: [([UInt8], [UInt8], [UInt8])] = [
                (b("aaa"), aName, aLine),                      // every rule nearly matches, none does
                (b("late"), aName, aLine),                     // the late rule, behind all of them
                (b("late"), b("late"), b("late --x")),         // the same with short names
                (b("x"), Array(repeating: 0x61, count: 60) + b("b"), Array(repeating: 0x61, count: 60) + b("bab")),  // an early rule
            ]
            var outOfBudget: [Bool] = []
            for (comm, exe, line) in processes {
                let result = resolveBothWays(resolver, comm: comm, exe: exe, line: line)
                outOfBudget.append(result.outOfBudget)
                if result.outOfBudget {
                    XCTAssertNil(result.bounded, label)
                    XCTAssertGreaterThan(result.steps, NameResolver.stepBudget, label)
                } else {
                    XCTAssertEqual(result.bounded, result.unbounded, label)
                }
            }
            // The long names of 'a's take every rule's worst; the early rule is found first.
            // Four thousand 40-byte bracket expressions over even a 4-byte name are too much
            // as well: there the late rule is not reached (the one case the budget changes
            // a name the rules give).
            XCTAssertEqual(outOfBudget, [true, true, label == "glob-bracket", false], label)
        }
    }

    func testOrdinaryRulesStayFarBelowTheBudget() {
        // The built-in rules, and a file as large as accepted of rules such as people write.
        var ordinary: [BookmarkRule] = []
        for i in 0..<BookmarkFile.maximumRules / 4 {
            ordinary.append(rule(.comm, "daemon-\(i)", "D\(i)"))
            ordinary.append(rule(.executable, "program-\(i)", "P\(i)"))
            ordinary.append(rule(.glob, "worker-\(i)/*", "W\(i)"))
            ordinary.append(rule(.commandLine, "--service=unit-\(i)", "S\(i)"))
        }
        let line = b("/usr/bin/python3 -m some.service.module --config /etc/some/service.conf --service=other --log-level=debug ")
            + b(String(repeating: "--flag=value ", count: 11))
        let processes: [([UInt8], [UInt8], [UInt8])] = [
            (b("python3"), b("python3"), Array(line.prefix(256))), (b("kworker/3:1-events"), [], []),
            (b("Isolated Web Co"), b("firefox"), b("/usr/lib/firefox/firefox -contentproc -isForBrowser")),
            (b("worker-99"), b("worker-99"), b("worker-99 --service=unit")), (b("bash"), b("bash"), b("-bash")),
            (b("aaa"), aName, aLine),
        ]
        for resolver in [NameResolver.builtin, NameResolver(rules: BuiltinBookmarks.rules + ordinary), NameResolver(rules: ordinary + BuiltinBookmarks.rules)] {
            for (comm, exe, line) in processes {
                let result = resolveBothWays(resolver, comm: comm, exe: exe, line: line)
                XCTAssertFalse(result.outOfBudget)
                XCTAssertLessThan(result.steps, NameResolver.stepBudget / 2,
                                  "\(resolver.ruleCount) rules, \(text(comm)): \(result.steps) steps")
            }
        }
    }

    func testRunningOutOfBudgetAllocatesNothing() throws {
        let resolver = NameResolver(rules: try hostileFiles[1].1)
        let comm = UnsafeMutableRawBufferPointer.allocate(byteCount: 3, alignment: 1)
        let exe = UnsafeMutableRawBufferPointer.allocate(byteCount: aName.count, alignment: 1)
        let line = UnsafeMutableRawBufferPointer.allocate(byteCount: aLine.count, alignment: 1)
        defer { comm.deallocate(); exe.deallocate(); line.deallocate() }
        comm.copyBytes(from: b("aaa"))
        exe.copyBytes(from: aName)
        line.copyBytes(from: aLine)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        var outOfBudget = false
        var hits = 0
        allocation_counter_start()
        for _ in 0..<3 {
            _ = resolver.resolveRule(comm: UnsafeRawBufferPointer(comm), executable: UnsafeRawBufferPointer(exe),
                                     commandLine: UnsafeRawBufferPointer(line), into: &out, outOfBudget: &outOfBudget)
            if outOfBudget { hits += 1 }
        }
        let allocations = allocation_counter_stop()
        XCTAssertEqual(allocations, 0)
        XCTAssertEqual(hits, 3)
    }
}
