// The resolver's matching path: byte-level, no String, no allocation once the output
// buffer has capacity.
//
// Cost: the rules are tried in precedence order until one matches, so a process no
// rule knows pays for all of them: with the 149 built-in rules, ~130 exact compares
// (a length check first), ~15 globs over names of at most 15 bytes, and 12 command-line
// substring scans over the command line. bench/resolve.sh (release, this 2-core machine
// under load from other builds): 90 ns for a process the first rule names, 0.5-1.3 µs
// for a kernel worker or a late rule, 1.2 µs for an unknown process with a short command
// line, ~18 µs for one with a 1.1 KB command line (the substring scans dominate). The
// sampler resolves a process when it first sees it and after a rule change, never per
// interval, so even 1,000 such processes cost well under a few tens of milliseconds once.

/// A rule flattened for matching: offsets into the resolver's byte storage, no
/// references, so the loop touches no reference counts.
struct CompiledRule {
    var kind: MatchKind
    var strip: SuffixStrip
    var patternStart: Int
    var patternEnd: Int
    var nameStart: Int
    var nameEnd: Int
}

extension NameResolver {
    /// The longest task name the kernel keeps (`TASK_COMM_LEN` 16, less the NUL).
    public static let commLength = 15

    static func compile(_ rules: [BookmarkRule]) -> (rules: [CompiledRule], storage: [UInt8]) {
        var storage: [UInt8] = []
        var compiled: [CompiledRule] = []
        compiled.reserveCapacity(rules.count)
        for rule in rules {
            let patternStart = storage.count
            storage.append(contentsOf: rule.pattern)
            let nameStart = storage.count
            storage.append(contentsOf: rule.friendlyName)
            compiled.append(CompiledRule(kind: rule.kind, strip: rule.strip,
                                         patternStart: patternStart, patternEnd: nameStart,
                                         nameStart: nameStart, nameEnd: storage.count))
        }
        return (compiled, storage)
    }

    func match(comm: UnsafeRawBufferPointer, executable rawExecutable: UnsafeRawBufferPointer,
               commandLine: UnsafeRawBufferPointer, into out: inout [UInt8]) -> Bool {
        let executable = NameResolver.basename(rawExecutable)
        return storage.withUnsafeBytes { bytes -> Bool in
            var index = 0
            while index < compiled.count {
                let rule = compiled[index]
                index += 1
                let pattern = UnsafeRawBufferPointer(rebasing: bytes[rule.patternStart..<rule.patternEnd])
                guard let shown = NameResolver.matches(rule, pattern, comm: comm, executable: executable,
                                                       commandLine: commandLine) else { continue }
                let name = rule.nameStart == rule.nameEnd
                    ? shown : UnsafeRawBufferPointer(rebasing: bytes[rule.nameStart..<rule.nameEnd])
                if name.count == 0 { continue }   // nothing to show (an empty comm): let a later rule try
                var i = 0
                while i < name.count {   // byte by byte: a generic append may allocate in debug builds
                    out.append(name[i])
                    i += 1
                }
                return true
            }
            return false
        }
    }

    /// nil when `rule` does not match; else the name to show when the rule has no
    /// friendly name (the process's name, stripped).
    static func matches(_ rule: CompiledRule, _ pattern: UnsafeRawBufferPointer, comm: UnsafeRawBufferPointer,
                        executable: UnsafeRawBufferPointer, commandLine: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard pattern.count > 0 else { return nil }   // refused on input; never matches everything here either
        switch rule.kind {
        case .comm:
            let candidate = rule.strip.stripped(comm)
            return equal(candidate, pattern) ? candidate : nil
        case .truncated:
            // The pattern is the full name: show it, not the kernel's cut.
            if equal(rule.strip.stripped(comm), pattern) { return pattern }
            if comm.count == commLength && pattern.count > commLength
                && equal(comm, UnsafeRawBufferPointer(rebasing: pattern[0..<commLength])) { return pattern }
            return nil
        case .executable:
            guard executable.count > 0 else { return nil }
            let candidate = rule.strip.stripped(executable)
            return equal(candidate, pattern) ? candidate : nil
        case .glob:
            let fromComm = rule.strip.stripped(comm)
            if fromComm.count > 0 && Glob.matches(pattern, fromComm) { return fromComm }
            guard executable.count > 0 else { return nil }
            let fromExecutable = rule.strip.stripped(executable)
            return Glob.matches(pattern, fromExecutable) ? fromExecutable : nil
        case .commandLine:
            return contains(commandLine, pattern) ? rule.strip.stripped(comm) : nil
        }
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

    static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        var i = 0
        while i < a.count {
            if a[i] != b[i] { return false }
            i += 1
        }
        return true
    }

    /// Whether `needle` occurs in `haystack`: a scan for the needle's first two bytes,
    /// then a compare. Over typed pointers: no bounds checks in the hot loop.
    static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer) -> Bool {
        guard needle.count > 0, needle.count <= haystack.count,
              let h = haystack.baseAddress?.assumingMemoryBound(to: UInt8.self),
              let n = needle.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return false }
        let count = needle.count
        let first = n[0], second = count > 1 ? n[1] : 0
        let last = haystack.count - count
        var i = 0
        while i <= last {
            if h[i] == first && (count == 1 || h[i + 1] == second) {
                var j = 2
                while j < count && h[i + j] == n[j] { j += 1 }
                if j >= count { return true }
            }
            i += 1
        }
        return false
    }
}
