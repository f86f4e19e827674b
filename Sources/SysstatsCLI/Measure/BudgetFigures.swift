import Bookmarks

/// One budget key's figure from a run: its value, how it was obtained, or why there is none.
public struct BudgetFigure: Equatable, Sendable {
    public var key: String
    /// Bytes (growth: bytes a minute); nil when the run gave none.
    public var value: Double?
    /// Nil where there is no figure to be had at all (no cgroup, no process end seen).
    public var quality: FigureQuality?
    /// Why there is no value, when there is none.
    public var missing: String?
}

extension MeasureSummary {
    /// ``peakRSSSource`` when a single process's kernel figure stood above every sample.
    static let peakFromHighWater = "one process's VmHWM"
    static let peakFromWait4 = "one process's wait4 at its end"

    /// Each budget key's figure, in ``BudgetResult/keys``' order.
    public var budgetFigures: [BudgetFigure] {
        func figure(_ key: String, _ value: Double?, _ quality: FigureQuality?, _ missing: @autoclosure () -> String?) -> BudgetFigure {
            BudgetFigure(key: key, value: value, quality: quality, missing: value == nil ? missing() : nil)
        }
        let peaks = FigureQuality.sampled(samples: samplesWithTree)
        let means = FigureQuality.sampled(samples: steadySamplesWithTree)
        let bytes = { (kib: UInt64?) in kib.map { Double($0) * 1024 } }
        var cgroup = BudgetFigure(key: "peak_cgroup")
        switch recording.cgroup {
        case .measured(let total, let source): cgroup.value = Double(total); cgroup.quality = .exact(source)
        case .unavailable(let reason): cgroup.missing = "no memory cgroup: " + reason
        }
        let noExact = recording.commandFromHelper ? "measure reaped no counted process: each was reaped by its own parent"
            : "measure reaped no counted process but the command, started without sysstats-spawn"
        let noPeak = peakRSSSource == "samples" && samplesWithTree == 0
        return [
            figure("peak_rss", noPeak ? nil : Double(peakRSSKiB) * 1024, peakRSSQuality, noSampleReason),
            figure("peak_rss_exact", bytes(exactPeakRSSKiB), exactPeakRSSKiB == nil ? nil : FigureQuality.exact("wait4 at a process's end"), noExact),
            figure("peak_pss", bytes(treePeaks[.pss]?.kib), peaks, noSampleReason),
            figure("steady_uss", bytes(steady?[.uss]), means, noSteadySampleReason),
            figure("peak_anon", bytes(treePeaks[.anon]?.kib), peaks, noSampleReason),
            figure("steady_anon", bytes(steady?[.anon]), means, noSteadySampleReason),
            cgroup,
            figure("growth_per_minute", growth.map { $0.kibPerMinute * 1024 }, FigureQuality.fit(samples: steadySamples, spanMs: steadySpanMs),
                   steady == nil ? noSteadySampleReason : nil),
        ]
    }

    /// The tree's peak RSS: sampled, or one process's kernel peak above every sample, which
    /// is the tree's own only where the tree was that one process and the figure its own (a
    /// process that reaped children has the largest of theirs, not their sum with its own).
    var peakRSSQuality: FigureQuality {
        if peakRSSSource == "samples" { return .sampled(samples: samplesWithTree) }
        let own = processes.first?.exactIsOwn ?? recording.largestUnseen?.isOwn ?? false
        if peakRSSSource == Self.peakFromWait4 && processCount == 1 && own { return .exact("wait4 at the process's end") }
        return .lowerBound(peakRSSSource, samples: samplesWithTree)
    }

    /// Why a sampled figure is missing, as it happened: budgets that set no warm-up were
    /// told "no sample after the warm-up".
    var noSampleReason: String {
        "no sample at all before the \(recording.attachedPid == nil ? "command" : "process") ended "
            + "(after \(DurationText.format(ms: recording.wallMs)))"
    }

    var noSteadySampleReason: String {
        if warmupMs == 0 || samplesWithTree == 0 { return noSampleReason }
        return "no sample after the \(DurationText.format(ms: warmupMs)) warm-up: the run ended after \(DurationText.format(ms: recording.wallMs))"
    }
}

extension MeasureReport {
    /// The report's budget figures: each key's value and how it was obtained.
    static func figureLines(_ s: MeasureSummary) -> [String] {
        var lines = ["budget figures (sysstats-budget(5)'s keys) and how each was obtained:"]
        for f in s.budgetFigures {
            let value = f.value.map { f.key == "growth_per_minute" ? SizeText.formatSigned($0) + "/min" : SizeText.format(SizeText.bytes($0)) }
            let how: String = (value == nil ? f.missing : nil) ?? f.quality?.fullText ?? ""
            // A cgroup's reason can hold its directory's name, which a delegated subtree's owner chose.
            lines.append(padded(f.key, 19) + padded(value ?? "n/a", 14) + TerminalText.escape(how))
        }
        return lines
    }

    /// A budget figure in the JSON (`budget_figures`, by key).
    public struct BudgetFigureJSON: Codable, Equatable {
        /// Bytes (growth: bytes a minute).
        public var value: Double?
        /// "exact", "sampled", "lower_bound" or "fit" (``FigureQuality/kind``).
        public var how: String?
        public var source: String?
        public var samples: Int?
        public var spanMs: UInt64?
        /// Whether a limit may be judged by it.
        public var enough: Bool
        public var missing: String?
    }

    static func figuresJSON(_ s: MeasureSummary) -> [String: BudgetFigureJSON] {
        var out: [String: BudgetFigureJSON] = [:]
        for f in s.budgetFigures {
            var json = BudgetFigureJSON(value: f.value, how: f.quality?.kind, enough: f.value != nil && (f.quality?.isEnough ?? true),
                                        missing: f.missing)
            switch f.quality {
            case .exact(let source)?: json.source = source
            case .sampled(let n)?: json.samples = n
            case .lowerBound(let source, let n)?: json.source = source; json.samples = n
            case .fit(let n, let span)?: json.samples = n; json.spanMs = span
            case nil: break
            }
            out[f.key] = json
        }
        return out
    }

    private static func padded(_ text: String, _ width: Int) -> String {
        let count = text.count
        return count >= width ? text + " " : text + String(repeating: " ", count: width - count)
    }
}
