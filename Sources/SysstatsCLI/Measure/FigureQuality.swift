/// How a figure was obtained and how sure it is. A short command's one sample (the shell
/// before its exec, or the program before it touched its memory) passed an 8 MiB program
/// under a 4 MiB `peak_pss` at 40-160 KiB, "97% headroom": a limit is judged only by an
/// exact figure or by enough samples (docs/budgets.md, "How sure each figure is").
public enum FigureQuality: Equatable, Sendable {
    /// The kernel's own figure, which no sample can miss: where it came from.
    case exact(String)
    /// The largest, or the mean, of this many samples that saw the tree.
    case sampled(samples: Int)
    /// One process's kernel peak, above every sample: the tree's sum may have been higher.
    case lowerBound(String, samples: Int)
    /// The growth's least-squares fit: its samples after the warm-up and their span.
    case fit(samples: Int, spanMs: UInt64)

    /// Fewer say nothing of a peak or a mean: with one or two, which moment of the program
    /// they caught is chance.
    public static let minimumSamples = 3
    /// A growth per minute needs this many samples over this span after the warm-up: a
    /// page of jitter over half a second extrapolates to gigabytes a minute.
    public static let minimumFitSamples = 10
    public static let minimumFitSpanMs: UInt64 = 10_000

    /// Whether a limit may be judged by it.
    public var isEnough: Bool {
        switch self {
        case .exact: true
        case .sampled(let n), .lowerBound(_, let n): n >= Self.minimumSamples
        case .fit(let n, let span): n >= Self.minimumFitSamples && span >= Self.minimumFitSpanMs
        }
    }

    /// "exact: wait4 at a process's end", "sampled, 12 samples", "fit of 600 samples over 12.00 s".
    public var text: String {
        switch self {
        case .exact(let source): "exact: " + source
        case .sampled(let n): "sampled, " + Self.samplesText(n)
        case .lowerBound(let source, let n): "lower bound: " + source + ", " + Self.samplesText(n)
        case .fit(let n, let span): "fit of " + Self.samplesText(n) + " over " + DurationText.format(ms: span)
        }
    }

    /// Why it is too little to judge a limit by; nil when it is enough.
    public var shortfall: String? {
        if isEnough { return nil }
        if case .fit = self {
            return "too short to judge, \(Self.minimumFitSamples) samples over \(DurationText.format(ms: Self.minimumFitSpanMs)) at least"
        }
        return "too few to judge, \(Self.minimumSamples) at least"
    }

    /// ``text`` and the ``shortfall``: "sampled, 1 sample: too few to judge, 3 at least".
    public var fullText: String { text + (shortfall.map { ": " + $0 } ?? "") }

    /// The JSON's `how`.
    public var kind: String {
        switch self {
        case .exact: "exact"
        case .sampled: "sampled"
        case .lowerBound: "lower_bound"
        case .fit: "fit"
        }
    }

    static func samplesText(_ n: Int) -> String { n == 1 ? "1 sample" : "\(n) samples" }
}
