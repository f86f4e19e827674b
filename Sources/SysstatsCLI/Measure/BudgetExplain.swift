import Bookmarks

// The words of a budget's line that say why: which process holds a figure that failed.
extension BudgetResult {
    /// The process behind the figure `key` that failed, with where its memory was; nil when
    /// none can be named. Each figure names its own holder: a tree's peak RSS that is one
    /// process's VmHWM or wait4 figure names that process with it, not the one holding the
    /// most at the sampled peak (1.09 MiB named for a 101 MiB peak).
    static func culprit(for key: String, _ figure: MemoryFigure, in s: MeasureSummary) -> String? {
        switch key {
        case "peak_rss_exact":
            return exactHolder(s).map { "the peak is one process's: " + $0 }
        case "peak_cgroup":
            let tree = "the cgroup's peak is the whole tree's, page cache and kernel memory included"
            return tree + (largestProcess(s).map { "; the largest process: " + $0 } ?? "")
        case "peak_rss" where s.peakRSSKiB > (s.treePeaks[.rss]?.kib ?? 0):
            // MeasureSummary's order: the sampled sum, then a VmHWM above it, then a wait4 figure above that.
            if let p = s.processes.max(by: { ($0.highWaterKiB ?? 0) < ($1.highWaterKiB ?? 0) }), p.highWaterKiB == s.peakRSSKiB {
                return "the peak is one process's: " + describe(p, kib: s.peakRSSKiB, source: "VmHWM")
            }
            return exactHolder(s).map { "the peak is one process's: " + $0 }
        default:
            guard let peak = s.treePeaks[figure], let pid = peak.holderPid else { return nil }
            var text = "most at the peak: \(TerminalText.escape(peak.holderName)) (pid \(pid)) held "
                + "\(SizeText.format(MeasureReport.bytes(peak.holderKiB))) of \(figure.label) at the peak"
            if let kinds = s.processes.first(where: { $0.pid == pid && $0.name == peak.holderName })?.peakMappings, !kinds.isEmpty {
                text += ": " + MeasureReport.mappingsText(kinds, figure, count: 3)
            }
            return text
        }
    }

    /// "NAME (pid N) reached X of RSS (SOURCE)", and where its memory was.
    static func describe(_ p: MeasureSummary.ProcessSummary, kib: UInt64, source: String) -> String {
        var text = "\(TerminalText.escape(p.name)) (pid \(p.pid)) reached \(SizeText.format(MeasureReport.bytes(kib))) of RSS (\(source))"
        if !p.peakMappings.isEmpty { text += ": " + MeasureReport.mappingsText(p.peakMappings, .rss, count: 3) }
        return text
    }

    /// The process with the largest wait4 figure, the figure, and whether it is its own;
    /// when it may be a child's it reaped, its largest child seen too.
    static func exactHolder(_ s: MeasureSummary) -> String? {
        guard let holder = s.exactPeakHolder, let kib = s.exactPeakRSSKiB else { return nil }
        let row = s.processes.last { $0.pid == holder.pid && $0.exactMaxRSSKiB != nil }
        var text: String
        if let row {
            text = describe(row, kib: kib, source: "wait4, at its end")
        } else {
            text = "\(TerminalText.escape(holder.name)) (pid \(holder.pid)) reached \(SizeText.format(MeasureReport.bytes(kib))) of RSS "
                + "(wait4, at its end; it ended before any sample)"
        }
        let own = row?.exactIsOwn ?? (s.recording.largestUnseen.map { $0.pid == holder.pid && $0.isOwn } ?? false)
        guard !own else { return text }
        text += "; that figure is the largest of its images and of the children it reaped"
        let children = s.processes.filter { $0.parentPid == holder.pid && $0.pid != holder.pid }
        if let child = children.max(by: { $0.peakRSSKiB < $1.peakRSSKiB }) {
            text += "; its largest child seen: " + describe(child, kib: child.peakRSSKiB, source: sourceWords(child.peakRSSSource))
        }
        return text
    }

    /// The largest process by its peak RSS: the wait4 figure where measure had one, else its
    /// own peak (samples or VmHWM), whichever is larger.
    static func largestProcess(_ s: MeasureSummary) -> String? {
        let own = s.processes.max { $0.peakRSSKiB < $1.peakRSSKiB }
        if let exact = s.exactPeakRSSKiB, exact >= (own?.peakRSSKiB ?? 0) { return exactHolder(s) }
        return own.map { describe($0, kib: $0.peakRSSKiB, source: sourceWords($0.peakRSSSource)) }
    }

    static func sourceWords(_ source: MeasureSummary.PeakRSSSource) -> String {
        switch source {
        case .samples: "sampled"
        case .highWater: "VmHWM"
        case .exit: "wait4, at its end"
        }
    }
}
