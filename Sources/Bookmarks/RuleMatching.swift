// The resolver's matching path: byte-level, no String, no allocation once the output
// buffer has capacity.
//
// Cost: the rules are tried in precedence order until one matches, so a process no
// rule knows pays for all of them. With the ~130 built-in rules that is about 110
// exact compares (a length check first, then at most 15-ish bytes), a handful of
// globs (pattern × name byte steps, names ≤ 15 bytes) and ~15 command-line substring
// searches (first-byte scan over the command line, ≤ 4 KiB as the sampler reads it).
// Measured in BookmarksTests (testResolvingAgainstTheBuiltinRulesIsFast) at a few
// microseconds per process in release builds; the sampler only resolves a process
// when it first sees it and after a rule change, never per interval.

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

    /// Whether `needle` occurs in `haystack` (a first-byte scan, then a compare).
    static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer) -> Bool {
        guard needle.count > 0, needle.count <= haystack.count else { return false }
        let first = needle[0]
        let last = haystack.count - needle.count
        var i = 0
        while i <= last {
            if haystack[i] == first {
                var j = 1
                while j < needle.count && haystack[i + j] == needle[j] { j += 1 }
                if j == needle.count { return true }
            }
            i += 1
        }
        return false
    }
}
