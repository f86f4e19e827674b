// The resolver's matching path: byte-level, no String, no allocation once the output
// buffer has capacity.
//
// Cost: the rules are tried in precedence order until one matches, so a process no
// rule knows pays for all of them: with the 149 built-in rules, ~130 exact compares
// (a length check first), ~15 globs (a length, first/last byte and literal prefix/suffix
// check first) and 12 command-line substrings (first: does the line have every pair of
// adjacent bytes the substring has). bench/resolve.sh (release, this 2-core machine
// under load from other builds): 40 ns for a process the first rule names, 0.3-0.5 µs
// for a kernel worker or a late rule, 0.8 µs for an unknown process, ~1 µs with a 1.1 KB
// command line (it was ~18 µs before the pair check). The sampler resolves a process
// when it first sees it and after a rule change, never per interval. Hostile rules
// files are bounded by a budget of work per process (``NameResolver/stepBudget``).

/// A rule flattened for matching: offsets into the resolver's byte storage, no
/// references, so the loop touches no reference counts. 32-bit offsets: the storage is
/// at most a bookmarks file's size (256 KiB).
struct CompiledRule {
    var kind: MatchKind
    var strip: SuffixStrip
    var source: RuleSource
    /// A glob's ``Glob/Shape``, checked before matching (zeros for other kinds, and for
    /// a pattern too long to say it in 16 bits: no check).
    var hasStar: Bool
    var minimumLength: UInt16
    var prefix: UInt16
    var suffix: UInt16
    var patternStart: UInt32
    var patternEnd: UInt32
    var nameEnd: UInt32

    var pattern: Range<Int> { Int(patternStart)..<Int(patternEnd) }
    /// The friendly name follows the pattern in the storage.
    var name: Range<Int> { Int(patternEnd)..<Int(nameEnd) }
}

extension NameResolver {
    /// The longest task name the kernel keeps (`TASK_COMM_LEN` 16, less the NUL).
    public static let commLength = 15

    /// Flattens `rules` in precedence order: by source, and within a source in the given
    /// order. One pass per source rather than a sort: a generic (stable) sort would bring
    /// the standard library's merge sort into the sampler's code pages for three keys.
    static func compile(_ rules: [BookmarkRule]) -> (rules: [CompiledRule], storage: [UInt8]) {
        var total = 0
        for rule in rules { total += rule.pattern.count + rule.friendlyName.count }
        var storage: [UInt8] = []
        storage.reserveCapacity(total)
        var compiled: [CompiledRule] = []
        compiled.reserveCapacity(rules.count)
        for source in RuleSource.allCases {
            for rule in rules where rule.source == source {
                let patternStart = UInt32(storage.count)
                storage.append(contentsOf: rule.pattern)
                let patternEnd = UInt32(storage.count)
                storage.append(contentsOf: rule.friendlyName)
                var shape = Glob.Shape(hasStar: true)
                if rule.kind == .glob && rule.pattern.count <= Int(UInt16.max) {
                    shape = rule.pattern.withUnsafeBytes { Glob.shape($0) }
                }
                compiled.append(CompiledRule(kind: rule.kind, strip: rule.strip, source: rule.source,
                                             hasStar: shape.hasStar, minimumLength: UInt16(shape.minimumLength),
                                             prefix: UInt16(shape.prefix), suffix: UInt16(shape.suffix),
                                             patternStart: patternStart, patternEnd: patternEnd,
                                             nameEnd: UInt32(storage.count)))
            }
        }
        return (compiled, storage)
    }

    /// How much work one process may take over all rules, in units of about what a byte
    /// compare or a byte of a command-line scan takes (a rule tried is 4, a glob step 4 or
    /// more: Glob.matches(_:_:budget:)). Past it the process gets no friendly name, as if no
    /// rule matched. No accepted rules file can then make resolving 1,000 processes take
    /// more than about 60 ms here (bench/resolve-worst.sh; the worst files would take
    /// minutes without it). The built-in rules take at most about 1,100 units, a file of
    /// 4,096 ordinary rules about 32,000 (WorkBudgetTests).
    static let stepBudget = 80_000

    func match(comm: UnsafeRawBufferPointer, executable rawExecutable: UnsafeRawBufferPointer,
               commandLine: UnsafeRawBufferPointer, into out: inout [UInt8],
               budget: inout Int) -> (index: Int, fixedName: Bool)? {
        let executable = NameResolver.basename(rawExecutable)
        // The pairs of adjacent bytes the command line has, hashed into 4,096 bits, made the
        // first time a command-line rule is tried: a needle with a pair the line lacks is
        // not in it (most are not), which takes a few steps instead of a scan of the line.
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: NameResolver.pairWords) { pairs in
            storage.withUnsafeBytes { bytes in compiled.withUnsafeBufferPointer { compiled -> (index: Int, fixedName: Bool)? in
                var pairsMade = false
                var index = 0
                while index < compiled.count {
                    let rule = compiled[index]
                    index += 1
                    budget &-= 4   // what trying a rule that fails at once takes, in the units of a byte compare
                    let pattern = UnsafeRawBufferPointer(rebasing: bytes[rule.pattern])
                    if rule.kind == .commandLine && !pairsMade {
                        NameResolver.makePairs(commandLine, into: pairs, budget: &budget)
                        pairsMade = true
                    }
                    let shown = NameResolver.matches(rule, pattern, comm: comm, executable: executable,
                                                     commandLine: commandLine, pairs: pairs, budget: &budget)
                    guard let shown else {
                        if budget < 0 { return nil }
                        continue
                    }
                    let fixed = rule.patternEnd != rule.nameEnd
                    let name = fixed ? UnsafeRawBufferPointer(rebasing: bytes[rule.name]) : shown
                    if name.count == 0 { continue }   // nothing to show (an empty comm): let a later rule try
                    var i = 0
                    while i < name.count {   // byte by byte: a generic append may allocate in debug builds
                        out.append(name[i])
                        i += 1
                    }
                    return (index - 1, fixed)
                }
                return nil
            } }
        }
    }

    /// nil when `rule` does not match (or the budget ran out: `budget` < 0); else the name
    /// to show when the rule has no friendly name (the process's name, stripped).
    static func matches(_ rule: CompiledRule, _ pattern: UnsafeRawBufferPointer, comm: UnsafeRawBufferPointer,
                        executable: UnsafeRawBufferPointer, commandLine: UnsafeRawBufferPointer,
                        pairs: UnsafeMutableBufferPointer<UInt64>, budget: inout Int) -> UnsafeRawBufferPointer? {
        guard pattern.count > 0 else { return nil }   // refused on input; never matches everything here either
        switch rule.kind {
        case .comm:
            let candidate = stripped(comm, rule.strip, &budget)
            return equal(candidate, pattern, &budget) ? candidate : nil
        case .truncated:
            // The pattern is the full name: show it, not the kernel's cut.
            if equal(stripped(comm, rule.strip, &budget), pattern, &budget) { return pattern }
            if comm.count == commLength && pattern.count > commLength
                && equal(comm, UnsafeRawBufferPointer(rebasing: pattern[0..<commLength]), &budget) { return pattern }
            return nil
        case .executable:
            guard executable.count > 0 else { return nil }
            let candidate = stripped(executable, rule.strip, &budget)
            return equal(candidate, pattern, &budget) ? candidate : nil
        case .glob:
            let fromComm = stripped(comm, rule.strip, &budget)
            if fromComm.count > 0 && glob(rule, pattern, fromComm, &budget) { return fromComm }
            guard executable.count > 0, budget >= 0 else { return nil }
            let fromExecutable = stripped(executable, rule.strip, &budget)
            return glob(rule, pattern, fromExecutable, &budget) ? fromExecutable : nil
        case .commandLine:
            guard hasPairs(pattern, pairs, &budget) else { return nil }
            return contains(commandLine, pattern, &budget) ? stripped(comm, rule.strip, &budget) : nil
        }
    }

    static func stripped(_ name: UnsafeRawBufferPointer, _ strip: SuffixStrip, _ budget: inout Int) -> UnsafeRawBufferPointer {
        if case .none = strip { return name }
        budget &-= name.count
        return strip.stripped(name)
    }

    /// A glob rule's match: its shape first (length, literal prefix and suffix), then the
    /// rest of the pattern over the rest of the name.
    @inline(__always)
    static func glob(_ rule: CompiledRule, _ pattern: UnsafeRawBufferPointer, _ name: UnsafeRawBufferPointer,
                     _ budget: inout Int) -> Bool {
        let minimum = Int(rule.minimumLength)
        guard name.count >= minimum, rule.hasStar || name.count == minimum else { return false }
        let prefix = Int(rule.prefix), suffix = Int(rule.suffix)
        // The last and first bytes alone turn most names away.
        if suffix > 0 && name[name.count - 1] != pattern[pattern.count - 1] { return false }
        if prefix > 0 && name[0] != pattern[0] { return false }
        guard equal(UnsafeRawBufferPointer(rebasing: name[0..<prefix]),
                    UnsafeRawBufferPointer(rebasing: pattern[0..<prefix]), &budget),
              equal(UnsafeRawBufferPointer(rebasing: name[(name.count - suffix)...]),
                    UnsafeRawBufferPointer(rebasing: pattern[(pattern.count - suffix)...]), &budget) else { return false }
        if prefix == pattern.count { return true }   // all literal, and the lengths agree
        return Glob.matches(UnsafeRawBufferPointer(rebasing: pattern[prefix..<(pattern.count - suffix)]),
                            UnsafeRawBufferPointer(rebasing: name[prefix..<(name.count - suffix)]), budget: &budget)
    }

    static let pairWords = 64

    static func pairBit(_ first: UInt8, _ second: UInt8) -> Int { (Int(first) &<< 4 ^ Int(second)) & (pairWords * 64 - 1) }

    static func makePairs(_ line: UnsafeRawBufferPointer, into pairs: UnsafeMutableBufferPointer<UInt64>, budget: inout Int) {
        var w = 0
        while w < pairWords { pairs[w] = 0; w += 1 }
        budget &-= line.count
        guard line.count > 1 else { return }
        var i = 1
        while i < line.count {
            let bit = pairBit(line[i - 1], line[i])
            pairs[bit &>> 6] |= 1 &<< UInt64(bit & 63)
            i += 1
        }
    }

    /// False when a pair of adjacent bytes of `needle` is not among `pairs` (then the line does not contain it).
    static func hasPairs(_ needle: UnsafeRawBufferPointer, _ pairs: UnsafeMutableBufferPointer<UInt64>, _ budget: inout Int) -> Bool {
        var i = 1
        while i < needle.count {
            let bit = pairBit(needle[i - 1], needle[i])
            if pairs[bit &>> 6] & (1 &<< UInt64(bit & 63)) == 0 {
                budget &-= i
                return false
            }
            i += 1
        }
        budget &-= needle.count
        return true
    }

    /// The part after the last `/`, without the ` (deleted)` the kernel appends to
    /// `/proc/PID/exe` once the file was replaced (a package upgrade).
    static func basename(_ path: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var start = path.count
        while start > 0 && path[start - 1] != 0x2F { start -= 1 }
        var end = path.count
        let deleted: StaticString = " (deleted)"
        let suffixLength = deleted.utf8CodeUnitCount
        if end - start > suffixLength {
            var same = true
            var i = 0
            while i < suffixLength {
                if path[end - suffixLength + i] != deleted.utf8Start[i] { same = false; break }
                i += 1
            }
            if same { end -= suffixLength }
        }
        return UnsafeRawBufferPointer(rebasing: path[start..<end])
    }

    static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, _ budget: inout Int) -> Bool {
        guard a.count == b.count else { return false }
        var i = 0
        while i < a.count {
            if a[i] != b[i] {
                budget &-= i
                return false
            }
            i += 1
        }
        budget &-= i
        return true
    }

    /// Whether `needle` occurs in `haystack`: a scan for the needle's first two bytes,
    /// then a compare. Over typed pointers: no bounds checks in the hot loop.
    static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer, _ budget: inout Int) -> Bool {
        guard needle.count > 0, needle.count <= haystack.count,
              let h = haystack.baseAddress?.assumingMemoryBound(to: UInt8.self),
              let n = needle.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return false }
        let count = needle.count
        let first = n[0], second = count > 1 ? n[1] : 0
        let last = haystack.count - count
        var i = 0
        var left = budget
        defer { budget = left }
        while i <= last {
            if h[i] == first && (count == 1 || h[i + 1] == second) {
                var j = 2
                while j < count && h[i + j] == n[j] { j += 1 }
                if j >= count { return true }
                left &-= j
            }
            left &-= 1
            if left < 0 { return false }
            i += 1
        }
        return false
    }
}
