import Bookmarks

/// One budget's measured figures against its limits and, optionally, a baseline.
public struct BudgetResult: Sendable {
    /// A limit or a baseline figure, checked.
    public struct Check: Equatable, Sendable {
        public var key: String
        public var value: Double
        public var limit: Double
        public var passed: Bool
        /// For growth: whether the slope stood out of the noise (a slope that did not passes).
        public var note: String?
        /// How the figure was obtained (nil for a baseline's check).
        public var quality: FigureQuality?
        /// False when the figure rests on too few samples to say whether the limit was kept
        /// (an error, not a failure); a sampled peak already over its limit is judged.
        public var judged = true
    }

    public var budget: Budget
    /// The figures by budget key (bytes; growth_per_minute in bytes per minute), nil when the
    /// run gave none (``BudgetFigure/missing`` says why).
    public var figures: [String: Double] = [:]
    /// How each was obtained: one that is not enough is neither compared with a baseline
    /// nor recorded as one.
    public var qualities: [String: FigureQuality] = [:]
    public var growthSignificant = false
    public var checks: [Check] = []
    public var regressions: [Check] = []
    /// Why the run itself failed (the command could not start, exited non-zero, the setup failed).
    public var failure: String?
    /// Who holds the figure that failed (``culprit(for:_:in:)``), in words.
    public var culprit: String?
    public var wallMs: UInt64 = 0
    /// The measured run's summary (`budget check --png` draws it); nil when nothing ran.
    public var summary: MeasureSummary?

    public var passed: Bool { failure == nil && checks.allSatisfy(\.passed) && regressions.allSatisfy(\.passed) }
    /// The run could not measure what the budget asks: it gave nothing to check (its command
    /// or setup could not run, it was stopped, its process filter matched nothing), or a
    /// limit's figure could not be had (no cgroup, no wait4 figure, no sample), or a limit
    /// rests on too few samples and none was found exceeded. An error in JUnit's terms and an
    /// ERROR line, not a limit failed: nothing says the program is over its budget, and the
    /// fix is in how it is measured.
    public var isError: Bool {
        if failure != nil && checks.isEmpty { return true }
        if checks.contains(where: { $0.value.isNaN }) { return true }
        return checks.contains { !$0.judged } && checks.allSatisfy { $0.passed || !$0.judged } && regressions.allSatisfy(\.passed)
    }

    public init(budget: Budget) { self.budget = budget }

    /// Keys in the order lines show them.
    public static let keys = ["peak_rss", "peak_rss_exact", "peak_pss", "steady_uss", "peak_anon", "steady_anon", "peak_cgroup", "growth_per_minute"]

    /// Fills the figures from a measured run and checks the limits.
    public init(budget: Budget, summary s: MeasureSummary) {
        self.budget = budget
        summary = s
        wallMs = s.recording.wallMs
        if let exit = s.recording.commandExit, !s.recording.stoppedAtDuration, let why = Self.couldNotRun(exit) {
            // The figures are those of the shell that said so: none is the program's.
            failure = "the command could not run: " + why + (location(of: "command").map { "; the command is at \($0)" } ?? "")
            return
        }
        let measured = s.budgetFigures
        for f in measured {
            if let value = f.value { figures[f.key] = value }
            if let quality = f.quality { qualities[f.key] = quality }
        }
        growthSignificant = s.growth?.significant ?? false
        if let exit = s.recording.commandExit, !s.recording.stoppedAtDuration, exit != .exited(0) {
            failure = "the command ended with \(exit.description)"
        }
        let limits: [(String, UInt64?, MemoryFigure)] = [("peak_rss", budget.peakRSS, .rss), ("peak_rss_exact", budget.peakRSSExact, .rss),
                                                         ("peak_pss", budget.peakPSS, .pss),
                                                         ("steady_uss", budget.steadyUSS, .uss), ("peak_anon", budget.peakAnon, .anon),
                                                         ("steady_anon", budget.steadyAnon, .anon), ("peak_cgroup", budget.peakCgroup, .rss),
                                                         ("growth_per_minute", budget.growthPerMinute, .pss)]
        for (key, limit, figure) in limits {
            guard let limit else { continue }
            let quality = qualities[key]
            guard let value = figures[key] else {
                // A figure that could not be had does not pass: the budget is an error, saying
                // why and what to do.
                // A figure its quality explains (a fit too short) says that, in the line's brackets.
                let missing = measured.first(where: { $0.key == key })?.missing
                let note = missing == nil && quality != nil ? nil : Self.unmeasured(key, s, missing: missing)
                checks.append(Check(key: key, value: .nan, limit: Double(limit), passed: false,
                                    note: note, quality: quality, judged: quality?.isEnough ?? true))
                continue
            }
            var check = Check(key: key, value: value, limit: Double(limit), passed: value <= Double(limit), quality: quality)
            if key == "growth_per_minute" && !growthSignificant {
                check.passed = true
                check.note = "not significant"
            }
            // One sample passed an 8 MiB program under 4 MiB; a sampled peak over its limit
            // was over it however few the samples.
            if let quality, !quality.isEnough, check.passed || !key.hasPrefix("peak_") {
                check.passed = false
                check.judged = false
                if let g = s.recording.governed {
                    check.note = "\(g.deferredSamples) samples waited to hold measure to \(OverheadGovernor.percentText(g.share)) of a core: "
                        + "max_overhead = \"0%\" samples every interval"
                }
            }
            if !check.passed && check.judged && culprit == nil { culprit = Self.culprit(for: key, figure, in: s) }
            checks.append(check)
        }
    }

    /// The default `--tolerance`: an unchanged program's peaks move by up to 5-8 % from run to
    /// run (the moment the sampler's 1,000-process peak is caught, an allocator's arena), its
    /// steady figures by under 1 % (docs/budgets.md, "Baselines").
    public static let defaultTolerance = 0.10
    /// The least rise over the baseline that is a regression, whatever the percentage: a
    /// small figure moves by whole pages and allocator arenas, a large share of it (an
    /// unchanged tree's steady USS moved from 0.99 to 1.89 MiB, 95 %, between runs).
    public static let baselineFloorBytes = 1024.0 * 1024

    /// Adds a check of each figure the budget limits against `baseline`: a regression rises
    /// above it by more than `tolerance` of it and by more than ``baselineFloorBytes``. A
    /// figure the budget does not name is not its business, nor one too few samples gave.
    /// Growth is left out: its own limit judges it, and a baseline's slope (from before
    /// growth needed 10 s, maybe from half a second) says nothing to compare with.
    public mutating func compare(with baseline: [String: Double], tolerance: Double) {
        let named: [(String, UInt64?)] = [("peak_rss", budget.peakRSS), ("peak_rss_exact", budget.peakRSSExact), ("peak_pss", budget.peakPSS), ("steady_uss", budget.steadyUSS),
                                          ("peak_anon", budget.peakAnon), ("steady_anon", budget.steadyAnon), ("peak_cgroup", budget.peakCgroup)]
        for (key, limit) in named where limit != nil {
            guard let base = baseline[key], let value = figures[key], qualities[key]?.isEnough ?? true else { continue }
            let allowed = base + max(base * tolerance, Self.baselineFloorBytes)
            let change = base > 0 ? (value - base) / base * 100 : 0
            regressions.append(Check(key: key, value: value, limit: allowed, passed: value <= allowed,
                                     note: "baseline \(SizeText.format(SizeText.bytes(base))) by \(fixed(change, decimals: 1))%, "
                                         + "tolerance \(fixed(tolerance * 100, decimals: 1))%, at least \(SizeText.format(UInt64(Self.baselineFloorBytes)))"))
        }
    }

    /// The limit a chart of PSS over time draws as a line: peak_pss's, else the first size
    /// limit the budget sets (an RSS limit is a ceiling PSS stays under), with its key.
    public var chartLimit: (key: String, bytes: UInt64)? {
        let sizes: [(String, UInt64?)] = [("peak_pss", budget.peakPSS), ("peak_rss", budget.peakRSS), ("peak_rss_exact", budget.peakRSSExact),
                                          ("steady_uss", budget.steadyUSS), ("peak_anon", budget.peakAnon), ("steady_anon", budget.steadyAnon),
                                          ("peak_cgroup", budget.peakCgroup)]
        return sizes.first { $0.1 != nil }.map { ($0.0, $0.1!) }
    }

    /// One line: "ok", "FAIL" or "ERROR" (``isError``), the name, then each check (value,
    /// limit, headroom, how the value was obtained), who holds a figure that failed and what
    /// to do next.
    public var line: String {
        var parts: [String] = []
        for c in checks {
            let value = c.value.isNaN ? "n/a" : c.key == "growth_per_minute" ? SizeText.formatSigned(c.value) + "/min" : SizeText.format(SizeText.bytes(c.value))
            let limit = SizeText.format(SizeText.bytes(c.limit)) + (c.key == "growth_per_minute" ? "/min" : "")
            var text = "\(c.key) \(value) of \(limit)"
            // No headroom for a figure too few samples gave: "97% headroom" was one sample's.
            var said: [String] = c.judged && !c.value.isNaN && c.limit > 0 ? [Self.headroom(c.value, c.limit)] : []
            if let quality = c.quality, !c.value.isNaN || c.note == nil { said.append(c.judged ? quality.text : quality.fullText) }
            if !said.isEmpty { text += " (" + said.joined(separator: "; ") + ")" }
            if let note = c.note { text += " [\(note)]" }
            parts.append(text)
        }
        for r in regressions where !r.passed {
            parts.append("\(r.key) \(SizeText.format(SizeText.bytes(r.value))) regressed over the \(r.note ?? "baseline")")
        }
        if let failure { parts.append(failure) }
        var line = (isError ? "ERROR " : passed ? "ok   " : "FAIL ") + TerminalText.escape(budget.name) + ": " + parts.joined(separator: "; ")
        if !passed, let culprit { line += "; " + culprit }
        if !passed, let next = nextSteps { line += "; " + next }
        return line
    }

    /// "15% headroom" or "7% over".
    static func headroom(_ value: Double, _ limit: Double) -> String {
        let share = (limit - value) / limit * 100
        return share >= 0 ? "\(fixed(share, decimals: 0))% headroom" : "\(fixed(-share, decimals: 0))% over"
    }
}
