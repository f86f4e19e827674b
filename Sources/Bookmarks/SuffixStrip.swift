// Suffix stripping: how much of a name a rule keeps. Byte-level and allocation-free:
// it returns a length, the caller keeps a view of the name's first bytes.

extension SuffixStrip {
    /// How many leading bytes of `name` remain after the strip. A strip that would
    /// leave nothing (`~foo` with `after:~`, a name that is all version) keeps the
    /// whole name: an empty name matches no pattern and shows nothing.
    public func keptLength(_ name: UnsafeRawBufferPointer) -> Int {
        let kept: Int
        switch self {
        case .none:
            return name.count
        case .after(let byte):
            kept = SuffixStrip.firstIndex(of: byte, in: name) ?? name.count
        case .version:
            kept = SuffixStrip.versionStart(name)
        }
        return kept == 0 ? name.count : kept
    }

    /// `name` without its suffix, as a view of the same bytes.
    func stripped(_ name: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        let kept = keptLength(name)
        return kept == name.count ? name : UnsafeRawBufferPointer(rebasing: name[0..<kept])
    }

    /// The same over an array (the CLI and tests).
    public func strip(_ name: [UInt8]) -> [UInt8] {
        name.withUnsafeBytes { Array($0[0..<keptLength($0)]) }
    }

    private static func firstIndex(of byte: UInt8, in name: UnsafeRawBufferPointer) -> Int? {
        var i = 0
        while i < name.count {
            if name[i] == byte { return i }
            i += 1
        }
        return nil
    }

    /// Where a trailing version starts (name.count when there is none).
    ///
    /// The version is the longest run of digits and dots at the end that holds a digit.
    /// - `foo.1.2`, `gimp-2.10`, `foo_3`, `foo 2`: a run that starts with `.`, or follows
    ///   `-`, `_` or a space, goes with that separator (`foo`, `gimp`, `foo`, `foo`).
    /// - `python3.11`, `perl5.36.0`: a run glued to the name keeps its first number, which
    ///   is usually part of the program's name (`python3`, `perl5`); `python3`, `x11`,
    ///   `kwin_x11` lose nothing.
    static func versionStart(_ name: UnsafeRawBufferPointer) -> Int {
        var start = name.count
        var hasDigit = false
        while start > 0 {
            let b = name[start - 1]
            if b >= 0x30 && b <= 0x39 { hasDigit = true } else if b != 0x2E { break }
            start -= 1
        }
        guard hasDigit, start < name.count else { return name.count }
        if name[start] == 0x2E { return start }                          // ".1.2"
        guard start > 0 else { return name.count }                       // all version: keep
        let before = name[start - 1]
        if before == 0x2D || before == 0x5F || before == 0x20 { return start - 1 }   // - _ space
        // Glued to the name: cut at the first dot of the run, if any.
        var i = start
        while i < name.count {
            if name[i] == 0x2E { return i }
            i += 1
        }
        return name.count
    }
}
