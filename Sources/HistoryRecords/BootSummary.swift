/// How the earlier boots in the history ended, for the sampler's Prometheus export (which
/// cannot open SQLite): `sysstatsd-history` writes it to `<data-dir>/boots.summary` after a
/// start batch, the sampler reads it when it writes `sysstats.prom`.
///
/// The file is one line of ASCII: `CLEAN UNCLEAN PREVIOUS\n`, CLEAN and UNCLEAN the boots
/// other than the running one that ended cleanly and not (as many as history retention
/// keeps), PREVIOUS `1` when the boot before the running one ended cleanly, `0` when not,
/// `-` when there was none.
public struct BootSummary: Equatable, Sendable {
    public static let fileName = "boots.summary"
    /// The longest file ``parse(_:)`` accepts.
    public static let maximumSize = 48

    public var clean: UInt64
    public var unclean: UInt64
    /// nil: no earlier boot in the history.
    public var previousClean: Bool?

    public init(clean: UInt64, unclean: UInt64, previousClean: Bool?) {
        self.clean = clean; self.unclean = unclean; self.previousClean = previousClean
    }

    /// The summary of `ends` (each earlier boot's clean mark, oldest first; the running
    /// boot not among them).
    public init(earlierBootsCleanEnds ends: [Bool]) {
        clean = 0; unclean = 0
        for end in ends { if end { clean += 1 } else { unclean += 1 } }
        previousClean = ends.last
    }

    public var encoded: [UInt8] {
        var out: [UInt8] = []
        func number(_ n: UInt64) {
            var digits: [UInt8] = []
            var rest = n
            repeat { digits.append(0x30 + UInt8(rest % 10)); rest /= 10 } while rest > 0
            out.append(contentsOf: digits.reversed())
        }
        number(clean); out.append(0x20)
        number(unclean); out.append(0x20)
        out.append(previousClean.map { $0 ? 0x31 : 0x30 } ?? 0x2D)
        out.append(0x0A)
        return out
    }

    /// Parses the file's bytes; nil for anything else than the one line described above.
    /// Allocates nothing.
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> BootSummary? {
        guard bytes.count <= maximumSize else { return nil }
        // No nested functions: a captured, mutated index is a heap box in a debug build.
        var numbers: (UInt64, UInt64) = (0, 0)
        var i = 0
        for field in 0..<2 {
            var value: UInt64 = 0, digits = 0
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                guard digits < 19 else { return nil }
                value = value * 10 + UInt64(bytes[i] - 0x30)
                digits += 1; i += 1
            }
            guard digits > 0, i < bytes.count, bytes[i] == 0x20 else { return nil }
            i += 1
            if field == 0 { numbers.0 = value } else { numbers.1 = value }
        }
        guard i + 2 == bytes.count, bytes[i + 1] == 0x0A else { return nil }
        let previous: Bool?
        switch bytes[i] {
        case 0x31: previous = true
        case 0x30: previous = false
        case 0x2D: previous = nil
        default: return nil
        }
        return BootSummary(clean: numbers.0, unclean: numbers.1, previousClean: previous)
    }
}
