import Bookmarks

// The words of a budget's line that say why: which process holds a figure that failed, why
// a figure could not be had and what to do then, and where the budgets file sets a key.
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
            let text = "most at the peak: \(TerminalText.escape(peak.holderName)) (pid \(pid)) held "
                + "\(SizeText.format(MeasureReport.bytes(peak.holderKiB))) of \(figure.label) at the peak"
            // The row that held it then: an exec'd pid has one per program, the name alike after `exec`.
            guard let p = s.processes.last(where: { $0.pid == pid && $0.name == peak.holderName && $0.firstMs <= peak.atMs && peak.atMs <= $0.lastMs })
            else { return text }
            return text + whereItWas(p, rssKiB: figure == .rss ? peak.holderKiB : p.peaks[.rss]?.kib ?? 0, figure)
        }
    }

    /// "NAME (pid N) reached X of RSS (SOURCE)", and where its memory was.
    static func describe(_ p: MeasureSummary.ProcessSummary, kib: UInt64, source: String) -> String {
        "\(TerminalText.escape(p.name)) (pid \(p.pid)) reached \(SizeText.format(MeasureReport.bytes(kib))) of RSS (\(source))"
            + whereItWas(p, rssKiB: kib, .rss)
    }

    /// ": anon 24.0 MiB, …" where the process's memory was; with "at X" when that was read
    /// more than a tenth below the figure (`rssKiB`); or why it was not read where a read was
    /// wanted (put off, refused) or the figure is a high no sample saw (VmHWM, wait4's).
    /// Nothing for a small process no read was meant for.
    static func whereItWas(_ p: MeasureSummary.ProcessSummary, rssKiB: UInt64, _ figure: MemoryFigure) -> String {
        guard !p.peakMappings.isEmpty else {
            if let missed = p.mappingsMissed { return "; where its memory was: not read (" + missed.rawValue + ")" }
            guard rssKiB > p.peaks[.rss]?.kib ?? 0 else { return "" }
            return "; where its memory was: not read (its high came and went between samples)"
        }
        let at = p.peakMappingsRSSKiB > 0 && p.peakMappingsRSSKiB < rssKiB - rssKiB / 10 ? "at \(SizeText.format(MeasureReport.bytes(p.peakMappingsRSSKiB))) of RSS: " : ""
        return ": " + at + MeasureReport.mappingsText(p.peakMappings, figure, count: 3)
    }

    /// The process with the largest wait4 figure, the figure, and whether it is its own;
    /// when it may be a child's it reaped, its largest child seen too.
    static func exactHolder(_ s: MeasureSummary) -> String? {
        guard let holder = s.exactPeakHolder, let kib = s.exactPeakRSSKiB else { return nil }
        let row = s.processes.last(where: { $0.pid == holder.pid && $0.exactMaxRSSKiB != nil })
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
        let own = s.processes.max(by: { $0.peakRSSKiB < $1.peakRSSKiB })
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

    /// Why the figure `key` could not be had in this run, and what to do about it.
    static func unmeasured(_ key: String, _ s: MeasureSummary, missing: String? = nil) -> String {
        let r = s.recording
        switch key {
        case "peak_cgroup":
            if let pid = r.attachedPid {
                return "no memory cgroup: following a running process (pid \(pid)), measure makes none for it; limit peak_rss or peak_pss instead"
            }
            var reason = "none was made"
            if case .unavailable(let why) = r.cgroup { reason = why }
            if reason == "no memory cgroup is mounted" {
                return "no memory cgroup: \(reason) (a container needs one mounted at /sys/fs/cgroup); limit peak_rss_exact or peak_rss instead"
            }
            return "no memory cgroup: \(reason); run where one can be made: as root, or in a delegated cgroup "
                + "(systemd-run --user --scope -p Delegate=yes sysstats budget check ...), or limit peak_rss_exact or peak_rss instead"
        case "peak_rss_exact":
            if let pid = r.attachedPid {
                return "following a running process (pid \(pid)), measure reaps none of its tree: no figure at a process's end; limit peak_rss (VmHWM) instead"
            }
            guard r.commandFromHelper else {
                return "measure reaped no counted process but the command, started without sysstats-spawn: install sysstats-spawn beside sysstats"
            }
            if r.processes.contains(where: { $0.exactMaxRSSKiB != nil && !$0.exactIsOwn }) || !(r.largestUnseen?.isOwn ?? true) {
                return "the figure measure had at the end of each counted process may not be its own (it exec'd over the shell's image, "
                    + "or reaped children): without process the tree's exact peak counts it; or limit peak_rss (VmHWM) instead"
            }
            return "measure reaped no counted process: each was reaped by its own parent, whose figure holds it"
                + (r.ownExactFiguresOnly ? " (without process the tree's exact peak counts it)" : "")
                + "; or limit peak_rss (VmHWM) or peak_cgroup instead"
        case "steady_uss", "steady_anon", "growth_per_minute":
            return (missing ?? "no sample after the warm-up") + "; shorten warmup, or set a longer duration"
        default:
            return (missing ?? "no sample") + "; a shorter interval, or limit peak_rss_exact instead"
        }
    }

    /// Why a command ended with `exit` if it never ran: /bin/sh's 127 and 126; nil otherwise.
    static func couldNotRun(_ exit: ExitStatus) -> String? {
        switch exit {
        case .exited(127): return "exit 127: /bin/sh found no such command (its message is on stderr)"
        case .exited(126): return "exit 126: /bin/sh found the command but could not run it (not executable, or a folder)"
        default: return nil
        }
    }

    /// Where the budgets file sets `key` (FILE:LINE, or "line N" when the file is not known);
    /// nil when the budget was not read from a file.
    public func location(of key: String) -> String? {
        guard let line = budget.keyLines[key] else { return nil }
        return budget.file.map { "\(TerminalText.escape($0)):\(line)" } ?? "line \(line)"
    }

    /// What to do next after a failed line: where each failed limit is set, and after a
    /// regression over the baseline how to accept it; nil when there is nothing to say.
    var nextSteps: String? {
        var steps: [String] = []
        let places = checks.filter { !$0.passed }.compactMap { c in location(of: c.key).map { "\($0) (\(c.key))" } }
        if !places.isEmpty { steps.append((places.count == 1 ? "limit at " : "limits at ") + places.joined(separator: ", ")) }
        if regressions.contains(where: { !$0.passed }) {
            steps.append("if the change is meant: sysstats budget record writes a new baseline, or --tolerance allows more")
        }
        return steps.isEmpty ? nil : steps.joined(separator: "; ")
    }
}
