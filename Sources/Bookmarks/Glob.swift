// Shell-style globs over bytes, for rules such as `kworker/*`.
//
// `*` any run of bytes (`/` included: these are process names, not paths; `**` is `*`),
// `?` one byte, `[abc]` `[a-z]` `[!x]` `[^x]` one byte in / not in the set (ranges are
// byte ranges; `]` first in the set is a member), `\x` the byte x. A `[` without its
// `]`, and a `\` at the end, stand for themselves. No allocation, no recursion: one
// backtracking point (the last `*`) is enough for globs of this kind, because every
// element but `*` takes exactly one byte: each star-separated segment is matched at its
// leftmost place. The cost is at most pattern length × name length element steps (a
// bracket expression's step reads the whole expression), which is still too much for
// thousands of hostile rules: the resolver gives every match a budget of steps
// (``matches(_:_:budget:)``) and checks what ``shape(_:)`` says before matching.

enum Glob {
    static let star: UInt8 = 0x2A, question: UInt8 = 0x3F, open: UInt8 = 0x5B
    static let close: UInt8 = 0x5D, backslash: UInt8 = 0x5C, bang: UInt8 = 0x21, caret: UInt8 = 0x5E
    static let dash: UInt8 = 0x2D

    /// True when the whole of `name` matches `pattern`.
    static func matches(_ pattern: UnsafeRawBufferPointer, _ name: UnsafeRawBufferPointer) -> Bool {
        var unlimited = Int.max
        return matches(pattern, name, budget: &unlimited)
    }

    /// True when the whole of `name` matches `pattern`; false, with `budget` below zero,
    /// when matching took more than `budget` units of work, whatever the answer would have
    /// been. The units are the resolver's (``NameResolver/stepBudget``): 4 for a step of the
    /// loop (an element tried, a backtrack), 3 more for each further byte of a bracket
    /// expression read. Measured worst cases (bench/resolve-worst.sh) take up to about
    /// 1 ns per unit, as a command-line scan or a byte compare (1 unit) takes.
    static func matches(_ pattern: UnsafeRawBufferPointer, _ name: UnsafeRawBufferPointer, budget: inout Int) -> Bool {
        var p = 0, s = 0
        var starP = -1, starS = 0      // where to resume after the last `*`
        while s < name.count {
            budget &-= 4
            if budget < 0 { return false }
            if p < pattern.count {
                if pattern[p] == star {
                    while p < pattern.count && pattern[p] == star { p += 1 }
                    if p == pattern.count { return true }   // a trailing `*` takes the rest
                    starP = p
                    starS = s
                    continue
                }
                let byte = pattern[p]
                if byte != question && byte != backslash && byte != open {   // a literal byte: the common case
                    if byte == name[s] {
                        p += 1
                        s += 1
                        continue
                    }
                } else {
                    let (matched, next) = element(pattern, at: p, matching: name[s])
                    budget &-= 3 &* (next - p - 1)
                    if matched {
                        p = next
                        s += 1
                        continue
                    }
                }
            }
            guard starP >= 0 else { return false }
            starS += 1                 // let the last `*` take one more byte
            s = starS
            p = starP
        }
        while p < pattern.count && pattern[p] == star { p += 1 }
        return p == pattern.count
    }

    /// Whether the (non-`*`) element at `p` matches `byte`, and where the next element starts.
    static func element(_ pattern: UnsafeRawBufferPointer, at p: Int, matching byte: UInt8) -> (Bool, Int) {
        switch pattern[p] {
        case question:
            return (true, p + 1)
        case backslash where p + 1 < pattern.count:
            return (pattern[p + 1] == byte, p + 2)
        case open:
            if let result = bracket(pattern, at: p, matching: byte) { return result }
            return (byte == open, p + 1)
        default:
            return (pattern[p] == byte, p + 1)
        }
    }

    /// The bracket expression at `p` (a `[`): nil when it has no closing `]`.
    static func bracket(_ pattern: UnsafeRawBufferPointer, at p: Int, matching byte: UInt8) -> (Bool, Int)? {
        var i = p + 1
        var negated = false
        if i < pattern.count && (pattern[i] == bang || pattern[i] == caret) {
            negated = true
            i += 1
        }
        var found = false
        var first = true
        while i < pattern.count {
            var low = pattern[i]
            if low == close && !first { return (found != negated, i + 1) }
            first = false
            if low == backslash && i + 1 < pattern.count {
                i += 1
                low = pattern[i]
            }
            i += 1
            var high = low
            // `a-z`; a `-` before the closing `]` is a member.
            if i + 1 < pattern.count && pattern[i] == dash && pattern[i + 1] != close {
                high = pattern[i + 1]
                i += 2
                if high == backslash && i < pattern.count {
                    high = pattern[i]
                    i += 1
                }
            }
            if low <= byte && byte <= high { found = true }
        }
        return nil
    }

    /// What every name a pattern matches has, for checks cheaper than matching: at least
    /// `minimumLength` bytes (exactly that many when `hasStar` is false), the pattern's
    /// first `prefix` bytes as its first bytes and the pattern's last `suffix` bytes as its
    /// last bytes (literal bytes, each one element). Matching the pattern without them
    /// against the name without them gives the same answer.
    struct Shape: Equatable {
        var minimumLength = 0
        var hasStar = false
        var prefix = 0
        var suffix = 0
    }

    static func shape(_ pattern: UnsafeRawBufferPointer) -> Shape {
        var shape = Shape()
        var p = 0
        while p < pattern.count {
            if pattern[p] == star {
                shape.hasStar = true
                p += 1
            } else {
                p = element(pattern, at: p, matching: 0).1
                shape.minimumLength += 1
            }
        }
        func special(_ byte: UInt8) -> Bool { byte == star || byte == question || byte == open || byte == backslash }
        while shape.prefix < pattern.count && !special(pattern[shape.prefix]) { shape.prefix += 1 }
        if shape.prefix == pattern.count { return shape }   // all literal: the prefix says it all
        // Back from the end to the last byte that may belong to something else (a `]` may
        // close a bracket expression); the byte right after a backslash is part of its escape.
        var start = pattern.count
        while start > shape.prefix && !special(pattern[start - 1]) && pattern[start - 1] != close { start -= 1 }
        if start < pattern.count && start > 0 && pattern[start - 1] == backslash { start += 1 }
        shape.suffix = pattern.count - start
        return shape
    }

    /// True when the pattern has no literal byte outside brackets (only `*`, `?` and
    /// bracket expressions): it would match every name of some length, so a rule
    /// with it is refused as "matches everything".
    static func isWildcardOnly(_ pattern: UnsafeRawBufferPointer) -> Bool {
        var p = 0
        while p < pattern.count {
            switch pattern[p] {
            case star, question:
                p += 1
            case open:
                guard let result = bracket(pattern, at: p, matching: 0) else { return false }
                p = result.1
            default:
                return false
            }
        }
        return true
    }
}
